package dev.racelint.maven;

import dev.racelint.analyzer.RootLocale;
import dev.racelint.analyzer.ScanSession;
import dev.racelint.analyzer.SourceRoots;
import dev.racelint.analyzer.baseline.Baseline;
import dev.racelint.analyzer.config.ProjectConfig;
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
     * {@code com/acme/legacy/**}. (racelint.yml's {@code exclude:} globs are relative to the folder
     * holding it, as on the command line.)
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
     * level is note; the summary counts what was left out. Default: {@code minLevel:} in racelint.yml,
     * else {@code warning} (as on the command line).
     */
    @Parameter(property = "racelint.minLevel")
    protected String minLevel;

    /** Report files to write: a comma-separated list of {@code sarif}, {@code json}, {@code text}, {@code html}. */
    @Parameter(property = "racelint.outputFormats", defaultValue = "sarif")
    protected String outputFormats;

    /**
     * SARIF {@code runs[].automationDetails.id}: the category GitHub code scanning files the results
     * under. Give each module its own (e.g. {@code racelint/${project.artifactId}}) when several
     * modules' SARIF files are uploaded.
     */
    @Parameter(property = "racelint.sarifCategory")
    protected String sarifCategory;

    /**
     * Where the report files ({@code racelint.sarif}, {@code racelint.json}, {@code racelint.txt},
     * {@code racelint.html}) go. A folder outside the module's build directory is taken to be shared
     * by the modules of the build: there each file is named after its module,
     * {@code racelint-<artifactId>.sarif}, so that no module overwrites another's.
     */
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

    /**
     * The project configuration (rules on/off and levels, excludes, declared APIs, limits), the same
     * file the command line reads. Default: {@code racelint.yml} (or {@code .racelint.yml}) in the
     * module's folder or, the nearest first, in a folder above it up to the reactor's root.
     */
    @Parameter(property = "racelint.config")
    protected File configFile;

    /** Ignore racelint.yml. */
    @Parameter(property = "racelint.noConfig", defaultValue = "false")
    protected boolean noConfig;

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

    /**
     * {@code minLevel} checked (a wrong value is a configuration error before any work is done); unset,
     * racelint.yml's {@code minLevel:}, else warning.
     */
    private Level minLevel(ProjectConfig config) throws MojoExecutionException {
        if (minLevel == null || minLevel.isBlank()) {
            return config == null ? Level.WARNING : config.minLevel().orElse(Level.WARNING);
        }
        String text = minLevel.strip().toLowerCase(java.util.Locale.ROOT);
        return switch (text) {
            case "error" -> Level.ERROR;
            case "warning" -> Level.WARNING;
            case "note" -> Level.NOTE;
            default -> throw new MojoExecutionException("racelint: minLevel (racelint.minLevel) must be error, warning "
                    + "or note, not '" + minLevel + "'");
        };
    }

    /** The threshold this goal applies; {@link FailOn#NONE} (the default) for goals that never fail. */
    protected FailOn failOn() throws MojoExecutionException {
        return FailOn.NONE;
    }

    /** How many counted findings are tolerated. */
    protected int maxAllowedViolations() throws MojoExecutionException {
        return 0;
    }

    /** Called with the verdict after the reports are written; throws to fail the build (by default it never does). */
    protected void conclude(Verdict verdict, ScanReport report, List<Path> written) throws MojoFailureException {
    }

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
        if ("pom".equals(project.getPackaging()) && !isAggregate()) {
            getLog().info("racelint: skipping pom module " + project.getArtifactId());
            return;
        }

        // Configuration problems are reported before any work is done.
        FailOn failOn = failOn();
        int allowed = maxAllowedViolations();
        Set<OutputFormat> formats;
        try {
            formats = OutputFormat.parseList(outputFormats);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("racelint: " + e.getMessage());
        }
        RuleRegistry registry = RuleRegistry.load(AbstractRacelintMojo.class.getClassLoader());
        ProjectConfig config = readConfig(registry);
        Level lowest = minLevel(config);
        Set<String> ruleIds;
        try {
            // as on the command line: racelint.yml's "off" rules are left out unless rules are named here
            List<String> off = new ArrayList<>(disabledRules == null ? List.of() : disabledRules);
            if (config != null && (rules == null || rules.isEmpty())) {
                off.addAll(config.disabledRules());
            }
            ruleIds = RuleSelection.resolve(registry, rules, off);
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
                noCache || cacheDirectory == null ? null : cacheDirectory.toPath(), config, lowest);
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
            written = ModuleScan.writeReports(report, outputDirectory.toPath(), formats,
                    sharedOutputDirectory() ? project.getArtifactId() : null);
        } catch (IOException e) {
            throw new MojoExecutionException("racelint: cannot write the report to " + outputDirectory + ": " + e, e);
        }
        getLog().info("racelint: " + TextReportWriter.summary(report, "-Dracelint.minLevel=")
                + (written.isEmpty() ? "" : " Report: " + written.stream().map(this::shown).collect(Collectors.joining(", "))));
        lastReport = report;
        conclude(verdict, report, written);
    }

    /** The report of the last execution in this mojo (null before one, or when it was skipped). */
    protected ScanReport lastReport;

    // ---- inputs

    /**
     * True for a goal that analyses the whole reactor once, as one scan (the {@code aggregate} goal),
     * rather than each module with its upstream modules in view.
     */
    protected boolean isAggregate() {
        return false;
    }

    /** The projects whose sources are analysed and reported on: this module, or every module of the reactor. */
    private List<MavenProject> analysedProjects() {
        if (!isAggregate() || session.getProjects() == null || session.getProjects().isEmpty()) {
            return List.of(project);
        }
        return session.getProjects();
    }

    /** The modules' existing source folders: main, plus test with includeTests; generated ones left out. */
    private List<Path> ownRoots() {
        List<Path> roots = new ArrayList<>();
        for (MavenProject analysed : analysedProjects()) {
            for (Path root : existingRoots(analysed, analysed.getCompileSourceRoots())) {
                if (!roots.contains(root)) {
                    roots.add(root);
                }
            }
            if (includeTests) {
                for (Path root : existingRoots(analysed, analysed.getTestCompileSourceRoots())) {
                    if (!roots.contains(root)) {
                        roots.add(root);
                    }
                }
            }
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
        if (isAggregate()) {
            return List.of(); // every module is analysed as its own
        }
        ProjectDependencyGraph graph = session.getProjectDependencyGraph();
        if (graph == null) {
            return List.of();
        }
        List<MavenProject> upstream = graph.getUpstreamProjects(project, true);
        return upstream == null ? List.of() : upstream;
    }

    /**
     * The compile classpath's jars (the test classpath's with includeTests); folders are left out. For
     * the aggregate goal, every module's jars whose dependencies Maven resolved (racelint works without
     * the others: they only sharpen type resolution).
     */
    private List<Path> classpathJars() throws MojoExecutionException {
        List<Path> jars = new ArrayList<>();
        for (MavenProject analysed : analysedProjects()) {
            List<String> elements;
            try {
                elements = includeTests ? analysed.getTestClasspathElements() : analysed.getCompileClasspathElements();
            } catch (DependencyResolutionRequiredException e) {
                if (analysed != project) {
                    getLog().debug("racelint: the dependencies of " + analysed.getArtifactId() + " are not resolved; "
                            + "analysed without its jars");
                    continue;
                }
                throw new MojoExecutionException("racelint: the dependencies of " + project.getArtifactId()
                        + " are not resolved: " + e.getMessage(), e);
            }
            for (String element : elements == null ? List.<String>of() : elements) {
                Path jar = element == null ? null : Path.of(element);
                if (jar != null && element.endsWith(".jar") && Files.isRegularFile(jar) && !jars.contains(jar)) {
                    jars.add(jar);
                }
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

    /** racelint.yml, read and checked (a problem fails the goal naming file:line), or null. */
    private ProjectConfig readConfig(RuleRegistry registry) throws MojoExecutionException {
        if (noConfig) {
            return null;
        }
        Path root = reportRoot();
        if (configFile != null && !Files.isRegularFile(configFile.toPath())) {
            throw new MojoExecutionException("racelint: the config file does not exist: " + configFile
                    + " (configFile / racelint.config)");
        }
        try {
            ProjectConfig config = ModuleScan.readConfig(project.getBasedir().toPath(), root,
                    configFile == null ? null : configFile.toPath(), registry);
            if (config != null) {
                getLog().info("racelint: " + ScanSession.describe(config, root, ownRoots()));
            }
            return config;
        } catch (ProjectConfig.ConfigException e) {
            throw new MojoExecutionException("racelint: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new MojoExecutionException("racelint: cannot read the config file: " + e, e);
        }
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

    /** True when the output folder lies outside this module's build directory (so other modules may write there too). */
    boolean sharedOutputDirectory() {
        if (project.getBuild() == null || project.getBuild().getDirectory() == null) {
            return false;
        }
        Path build = Path.of(project.getBuild().getDirectory()).toAbsolutePath().normalize();
        return !outputDirectory.toPath().toAbsolutePath().normalize().startsWith(build);
    }

    static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
