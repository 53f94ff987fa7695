package dev.racelint.maven;

import dev.racelint.analyzer.RootLocale;
import dev.racelint.analyzer.SourceRoots;
import dev.racelint.analyzer.baseline.Baseline;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.report.ReportText;
import dev.racelint.analyzer.report.ScanReport;
import dev.racelint.analyzer.report.TextReportWriter;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.execution.ProjectDependencyGraph;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * What {@code racelint:check} and {@code racelint:report} share: the parameters, the analysis of
 * the module (with its upstream reactor modules' sources in view), the log output and the report
 * files. Subclasses say whether findings fail the build.
 */
abstract class AbstractRacelintMojo extends AbstractMojo {

    /** Skips racelint. */
    @Parameter(property = "racelint.skip", defaultValue = "false")
    protected boolean skip;

    /**
     * Also analyse the module's test sources (its test compile source roots), resolving types
     * against the test classpath's jars. racelint itself only asks Maven for the compile
     * classpath: test-scoped jars are there when the build also runs tests (as {@code verify}
     * does), not when the goal is run on its own.
     */
    @Parameter(property = "racelint.includeTests", defaultValue = "false")
    protected boolean includeTests;

    /**
     * Files and folders to leave out: globs relative to each source folder ({@code src/main/java}
     * and the like), {@code /}-separated, e.g. {@code **}{@code /generated/**} or
     * {@code com/acme/legacy/**}.
     */
    @Parameter(property = "racelint.excludes")
    protected List<String> excludes;

    /** Rule ids to run (comma-separated in the property); empty means every rule. */
    @Parameter(property = "racelint.rules")
    protected List<String> rules;

    /** Rule ids not to run (comma-separated in the property). */
    @Parameter(property = "racelint.disabledRules")
    protected List<String> disabledRules;

    /**
     * A racelint baseline file (JSON, {@code "racelintBaseline": 1}): findings it lists (matched by
     * rule and fingerprint) are accepted and left out of the report and of the failure count.
     */
    @Parameter(property = "racelint.baseline")
    protected File baseline;

    /**
     * The least severe level reported: {@code error}, {@code warning} or {@code note}. Notes are findings
     * whose harm racelint can show to be small (only privileged callers reach them, ...) and rules whose
     * level is note; the summary counts what was left out.
     */
    @Parameter(property = "racelint.minLevel", defaultValue = "warning")
    protected String minLevel = "warning";

    /** Report files to write: a comma-separated list of {@code sarif}, {@code json}, {@code text}. */
    @Parameter(property = "racelint.outputFormats", defaultValue = "sarif")
    protected String outputFormats;

    /**
     * SARIF {@code runs[].automationDetails.id}: the category GitHub code scanning files the results
     * under. Give each module its own (e.g. {@code racelint/${project.artifactId}}) when several
     * modules' SARIF files are uploaded.
     */
    @Parameter(property = "racelint.sarifCategory")
    protected String sarifCategory;

    /** Where the report files ({@code racelint.sarif}, {@code racelint.json}, {@code racelint.txt}) go. */
    @Parameter(property = "racelint.outputDirectory", defaultValue = "${project.build.directory}")
    protected File outputDirectory;

    /**
     * Where scan results and syntax trees are kept between builds, so that a module whose sources
     * (and upstream modules' sources), settings and racelint are unchanged is not analysed again, and
     * one that is analysed again parses only the files whose contents changed. Safe to delete.
     */
    @Parameter(property = "racelint.cacheDirectory", defaultValue = "${project.build.directory}/racelint-cache")
    protected File cacheDirectory;

    /** Analyse every time, without reading or writing the cache. */
    @Parameter(property = "racelint.noCache", defaultValue = "false")
    protected boolean noCache;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    protected MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    protected MavenSession session;

    @Parameter(defaultValue = "${mojoExecution}", readonly = true)
    protected MojoExecution mojoExecution;

    /** The findings that count against the build, and whether they fail it. */
    record Verdict(FailOn failOn, int counted, int allowed) {
        boolean fails() {
            return failOn != FailOn.NONE && counted > allowed;
        }

        boolean counts(Finding finding) {
            return failOn.counts(finding.level());
        }
    }

    /** {@code minLevel} checked: a wrong value is a configuration error before any work is done. */
    private Level minLevel() throws MojoExecutionException {
        String text = minLevel == null ? "warning" : minLevel.strip().toLowerCase(java.util.Locale.ROOT);
        return switch (text) {
            case "error" -> Level.ERROR;
            case "warning" -> Level.WARNING;
            case "note" -> Level.NOTE;
            default -> throw new MojoExecutionException("racelint: minLevel (racelint.minLevel) must be error, warning "
                    + "or note, not '" + minLevel + "'");
        };
    }

    /** The threshold this goal applies; {@link FailOn#NONE} for goals that never fail. */
    protected abstract FailOn failOn() throws MojoExecutionException;

    /** How many counted findings are tolerated. */
    protected abstract int maxAllowedViolations() throws MojoExecutionException;

    /** Called with the verdict after the reports are written; throws to fail the build. */
    protected abstract void conclude(Verdict verdict, ScanReport report, List<Path> written)
            throws MojoFailureException;

    @Override
    public final void execute() throws MojoExecutionException, MojoFailureException {
        try (RootLocale ignored = RootLocale.enter()) {
            executeInRootLocale();
        }
    }

    private void executeInRootLocale() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("racelint: skipped (racelint.skip=true)");
            return;
        }
        if ("pom".equals(project.getPackaging())) {
            getLog().info("racelint: skipping pom module " + project.getArtifactId());
            return;
        }

        // Configuration problems are reported before any work is done.
        FailOn failOn = failOn();
        int allowed = maxAllowedViolations();
        Level lowest = minLevel();
        Set<OutputFormat> formats;
        try {
            formats = OutputFormat.parseList(outputFormats);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("racelint: " + e.getMessage());
        }
        RuleRegistry registry = RuleRegistry.load(AbstractRacelintMojo.class.getClassLoader());
        Set<String> ruleIds;
        try {
            ruleIds = RuleSelection.resolve(registry, rules, disabledRules);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("racelint: " + e.getMessage());
        }
        Baseline accepted = readBaseline();

        List<Path> own = ownRoots();
        if (own.isEmpty()) {
            getLog().info("racelint: no source folders in " + project.getArtifactId() + ", nothing to analyse");
            return;
        }
        List<MavenProject> upstream = upstreamProjects();
        List<Path> context = new ArrayList<>();
        for (MavenProject p : upstream) {
            context.addAll(existingRoots(p, p.getCompileSourceRoots()));
        }
        List<Path> classpath = classpathJars();
        Path sourceRoot = reportRoot();

        if (getLog().isDebugEnabled()) {
            getLog().debug("racelint: source folders " + own);
            getLog().debug("racelint: upstream modules " + upstream.stream().map(MavenProject::getArtifactId).toList()
                    + ", their source folders " + context);
            getLog().debug("racelint: " + classpath.size() + " classpath jars; report paths relative to " + sourceRoot);
            getLog().debug("racelint: rules " + ruleIds);
        }

        ModuleScan.Request request = new ModuleScan.Request(own, context, includeTests,
                excludes == null ? List.of() : excludes, classpath, ruleIds, sourceRoot, accepted,
                blankToNull(sarifCategory), toolVersion(), Runtime.getRuntime().availableProcessors(),
                noCache || cacheDirectory == null ? null : cacheDirectory.toPath(), lowest);
        ModuleScan.Outcome outcome;
        try {
            outcome = ModuleScan.run(request, registry);
        } catch (RuntimeException | StackOverflowError e) {
            throw new MojoExecutionException("racelint: the analysis of " + project.getArtifactId() + " failed: " + e, e);
        }
        ScanReport report = outcome.report();
        if (outcome.fromCache()) {
            getLog().info("racelint: no source, setting or racelint changed since the last analysis: results from "
                    + shown(cacheDirectory.toPath()) + " (-Dracelint.noCache to analyse again)");
        } else if (outcome.treesFromCache() > 0) {
            getLog().info("racelint: " + outcome.treesFromCache() + " of " + outcome.totalFiles()
                    + " source files unchanged since the last analysis: their syntax trees read from "
                    + shown(cacheDirectory.toPath()) + ", the others parsed");
        }
        if (getLog().isDebugEnabled()) {
            getLog().debug("racelint: " + outcome.totalFiles() + " files analysed in all (the module's and its upstream"
                    + " modules'); timings (ms) " + outcome.timingsMillis());
        }

        int counted = (int) report.findings().stream().filter(f -> failOn.counts(f.level())).count();
        Verdict verdict = new Verdict(failOn, counted, allowed);
        log(report, verdict);

        List<Path> written;
        try {
            written = ModuleScan.writeReports(report, outputDirectory.toPath(), formats);
        } catch (IOException e) {
            throw new MojoExecutionException("racelint: cannot write the report to " + outputDirectory + ": " + e, e);
        }
        getLog().info("racelint: " + TextReportWriter.summary(report, "-Dracelint.minLevel=")
                + (written.isEmpty() ? "" : " Report: " + written.stream().map(this::shown).collect(Collectors.joining(", "))));
        conclude(verdict, report, written);
    }

    // ---- inputs

    /** The module's existing source folders: main, plus test with includeTests; generated ones left out. */
    private List<Path> ownRoots() {
        List<Path> roots = new ArrayList<>(existingRoots(project, project.getCompileSourceRoots()));
        if (includeTests) {
            roots.addAll(existingRoots(project, project.getTestCompileSourceRoots()));
        }
        return roots;
    }

    /**
     * The existing folders among {@code roots} of {@code owner}, outside its build directory
     * (generated sources are left out, as the command line leaves out target/).
     */
    private static List<Path> existingRoots(MavenProject owner, List<String> roots) {
        List<Path> out = new ArrayList<>();
        if (roots == null) {
            return out;
        }
        Path buildDir = owner.getBuild() == null || owner.getBuild().getDirectory() == null ? null
                : Path.of(owner.getBuild().getDirectory()).toAbsolutePath().normalize();
        for (String root : roots) {
            if (root == null || root.isBlank()) {
                continue;
            }
            Path path = Path.of(root);
            if (!path.isAbsolute() && owner.getBasedir() != null) {
                path = owner.getBasedir().toPath().resolve(path);
            }
            path = path.toAbsolutePath().normalize();
            if (!Files.isDirectory(path) || (buildDir != null && path.startsWith(buildDir)) || out.contains(path)) {
                continue;
            }
            out.add(path);
        }
        return out;
    }

    /** The reactor projects this one depends on, directly or not (empty outside a reactor). */
    private List<MavenProject> upstreamProjects() {
        ProjectDependencyGraph graph = session.getProjectDependencyGraph();
        if (graph == null) {
            return List.of();
        }
        List<MavenProject> upstream = graph.getUpstreamProjects(project, true);
        return upstream == null ? List.of() : upstream;
    }

    /** The compile classpath's jars (the test classpath's with includeTests); folders are left out. */
    private List<Path> classpathJars() throws MojoExecutionException {
        List<String> elements;
        try {
            elements = includeTests ? project.getTestClasspathElements() : project.getCompileClasspathElements();
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("racelint: the dependencies of " + project.getArtifactId()
                    + " are not resolved: " + e.getMessage(), e);
        }
        List<Path> jars = new ArrayList<>();
        for (String element : elements == null ? List.<String>of() : elements) {
            if (element != null && element.endsWith(".jar") && Files.isRegularFile(Path.of(element))) {
                jars.add(Path.of(element));
            }
        }
        return jars;
    }

    /**
     * The folder report paths are relative to: the git work tree holding the reactor's top-level
     * project, else that project's folder. SARIF URIs are then repository-relative, which is what
     * GitHub code scanning needs.
     */
    private Path reportRoot() {
        MavenProject top = session.getTopLevelProject();
        File base = top != null && top.getBasedir() != null ? top.getBasedir() : project.getBasedir();
        return SourceRoots.forScannedPath(base.toPath());
    }

    private Baseline readBaseline() throws MojoExecutionException {
        if (baseline == null) {
            return null;
        }
        Path file = baseline.toPath();
        if (!Files.isRegularFile(file)) {
            throw new MojoExecutionException("racelint: the baseline file does not exist: " + baseline
                    + " (baseline / racelint.baseline)");
        }
        try {
            return Baseline.read(file);
        } catch (Baseline.InvalidBaselineException e) {
            throw new MojoExecutionException("racelint: invalid baseline: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new MojoExecutionException("racelint: cannot read the baseline " + baseline + ": " + e, e);
        }
    }

    private String toolVersion() {
        if (mojoExecution != null && mojoExecution.getMojoDescriptor() != null
                && mojoExecution.getMojoDescriptor().getPluginDescriptor() != null) {
            String version = mojoExecution.getMojoDescriptor().getPluginDescriptor().getVersion();
            if (version != null && !version.isBlank()) {
                return version;
            }
        }
        String fromManifest = AbstractRacelintMojo.class.getPackage().getImplementationVersion();
        return fromManifest == null ? "unknown" : fromManifest;
    }

    // ---- log output

    /**
     * One line per finding, compiler style: {@code path:[line,col] [rule-id] message}. Findings
     * that fail the build are errors, the others warnings; diagnostics follow.
     */
    private void log(ScanReport report, Verdict verdict) {
        for (Finding finding : report.findings()) {
            // file names and messages carry text from the scanned tree: no control character reaches the log
            String line = ReportText.terminal(location(finding.primary().file(), finding.primary().region()) + " ["
                    + finding.ruleId() + "] " + finding.message().plain());
            if (verdict.fails() && verdict.counts(finding)) {
                getLog().error(line);
            } else {
                getLog().warn(line);
            }
        }
        for (Diagnostic diagnostic : report.diagnostics()) {
            String where = diagnostic.file() == null ? "racelint"
                    : diagnostic.file().toAbsolutePath().normalize()
                            + (diagnostic.line() > 0 ? ":[" + diagnostic.line() + "," + Math.max(1, diagnostic.column()) + "]" : "");
            String line = ReportText.terminal(where + " [" + diagnostic.code() + "] " + diagnostic.message());
            if (diagnostic.level() == Level.NOTE) {
                getLog().debug(line);
            } else {
                getLog().warn(line);
            }
        }
    }

    private static String location(Path file, SourceRegion region) {
        String path = file.toAbsolutePath().normalize().toString();
        return region == null ? path : path + ":[" + region.startLine() + "," + region.startColumn() + "]";
    }

    /** A path as the log shows it: relative to the module when inside it. */
    String shown(Path file) {
        Path base = project.getBasedir() == null ? null : project.getBasedir().toPath().toAbsolutePath().normalize();
        Path abs = file.toAbsolutePath().normalize();
        return base != null && abs.startsWith(base) ? base.relativize(abs).toString().replace('\\', '/') : abs.toString();
    }

    static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
