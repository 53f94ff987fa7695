package dev.racelint.maven;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.AnalysisResult;
import dev.racelint.analyzer.ScanSession;
import dev.racelint.analyzer.ProgressListener;
import dev.racelint.analyzer.baseline.Baseline;
import dev.racelint.analyzer.config.ProjectConfig;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.report.AtomicReplace;
import dev.racelint.analyzer.report.FileSourceLines;
import dev.racelint.analyzer.report.ScanReport;
import dev.racelint.analyzer.review.Review;
import dev.racelint.analyzer.rule.RuleRegistry;
import dev.racelint.analyzer.source.SourceDiscovery;
import dev.racelint.analyzer.suppress.SuppressedFinding;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One module's analysis, free of Maven types so that it can be tested directly: analyse the
 * module's source roots together with its upstream modules' roots (so call paths that cross
 * modules are followed), keep the findings whose primary location is in the module's own roots,
 * apply the baseline, and build the report.
 */
final class ModuleScan {

    /**
     * What to analyse.
     *
     * @param ownRoots      the module's source folders; only findings in them are reported
     * @param contextRoots  upstream modules' source folders: analysed, never reported on
     * @param includeTests  whether test folders under the given roots are scanned (roots given
     *                      here are scanned whatever their name)
     * @param excludes      globs relative to each root (the plugin's {@code <excludes>}; racelint.yml's
     *                      come with {@code config}, relative to its folder)
     * @param classpath     jars to resolve library types against
     * @param ruleIds       the rules to run (non-empty)
     * @param sourceRoot    the folder report paths are relative to
     * @param baseline      accepted findings, or null
     * @param sarifCategory SARIF automationDetails.id, or null
     * @param toolVersion   racelint's version for the reports
     * @param threads       worker threads
     * @param config        the project's racelint.yml (excludes, levels, declared APIs, limits), or null;
     *                      the rules it turns off are already left out of {@code ruleIds}
     * @param minLevel      the least severe level reported ({@code minLevel}); null: every level
     */
    record Request(List<Path> ownRoots, List<Path> contextRoots, boolean includeTests, List<String> excludes,
            List<Path> classpath, Set<String> ruleIds, Path sourceRoot, Baseline baseline, String sarifCategory,
            String toolVersion, int threads, Path cacheDirectory, ProjectConfig config, Level minLevel) {

        /** Without a racelint.yml, every level reported. */
        Request(List<Path> ownRoots, List<Path> contextRoots, boolean includeTests, List<String> excludes,
                List<Path> classpath, Set<String> ruleIds, Path sourceRoot, Baseline baseline, String sarifCategory,
                String toolVersion, int threads, Path cacheDirectory) {
            this(ownRoots, contextRoots, includeTests, excludes, classpath, ruleIds, sourceRoot, baseline, sarifCategory,
                    toolVersion, threads, cacheDirectory, null, null);
        }

        /** Without a racelint.yml. */
        Request(List<Path> ownRoots, List<Path> contextRoots, boolean includeTests, List<String> excludes,
                List<Path> classpath, Set<String> ruleIds, Path sourceRoot, Baseline baseline, String sarifCategory,
                String toolVersion, int threads, Path cacheDirectory, Level minLevel) {
            this(ownRoots, contextRoots, includeTests, excludes, classpath, ruleIds, sourceRoot, baseline, sarifCategory,
                    toolVersion, threads, cacheDirectory, null, minLevel);
        }

        /** Without a cache. */
        Request(List<Path> ownRoots, List<Path> contextRoots, boolean includeTests, List<String> excludes,
                List<Path> classpath, Set<String> ruleIds, Path sourceRoot, Baseline baseline, String sarifCategory,
                String toolVersion, int threads) {
            this(ownRoots, contextRoots, includeTests, excludes, classpath, ruleIds, sourceRoot, baseline, sarifCategory,
                    toolVersion, threads, null);
        }

        Request {
            ownRoots = normalised(ownRoots);
            List<Path> context = new ArrayList<>(normalised(contextRoots));
            context.removeAll(ownRoots);
            contextRoots = List.copyOf(context);
            excludes = List.copyOf(excludes);
            classpath = List.copyOf(classpath);
            ruleIds = Set.copyOf(ruleIds);
            sourceRoot = sourceRoot.toAbsolutePath().normalize();
        }
    }

    /**
     * The module's outcome.
     *
     * @param report        what the writers render: the module's findings after suppressions
     *                      and the baseline
     * @param totalFiles    files analysed including the upstream modules' (the module's own count
     *                      is {@code report.filesAnalysed()})
     * @param timingsMillis the analyzer's phase timings
     * @param fromCache     the scan cache answered (nothing the result depends on changed)
     */
    record Outcome(ScanReport report, int totalFiles, Map<String, Long> timingsMillis, boolean fromCache,
            int treesFromCache) {
        List<Finding> findings() {
            return report.findings();
        }
    }

    private ModuleScan() {}

    static Outcome run(Request request, RuleRegistry registry) {
        List<Path> paths = new ArrayList<>(request.ownRoots());
        paths.addAll(request.contextRoots());
        ProjectConfig config = request.config();
        AnalysisOptions options = new AnalysisOptions(paths, request.includeTests(), request.excludes(),
                request.classpath(), request.threads(), request.ruleIds(), AnalysisOptions.DEFAULT_MAX_FILE_BYTES,
                request.sourceRoot(), request.cacheDirectory());
        // racelint.yml's excludes relative to its folder (not to each source folder) and its limits, as on the command line
        options = ScanSession.withConfig(options, config);
        // the command line's analysis, with the same catalogue and levels (ScanCommand)
        AnalysisResult all = ScanSession.analyse(registry.rules(), config, options, ProgressListener.NONE);

        List<Path> own = request.ownRoots();
        List<Finding> findings = all.findings().stream().filter(f -> isUnder(f.primary().file(), own)).toList();
        List<SuppressedFinding> suppressed = all.suppressed().stream()
                .filter(s -> isUnder(s.finding().primary().file(), own)).toList();
        List<Diagnostic> diagnostics = all.diagnostics().stream()
                .filter(d -> d.file() == null || isUnder(d.file(), own)).toList();
        int ownFiles = countFiles(request, options);
        AnalysisResult module = new AnalysisResult(all.rules(), findings, diagnostics, all.sourceRoot(), ownFiles,
                all.methodsAnalysed(), all.timingsMillis(), suppressed, all.fromCache(),
                all.treesFromCache(), all.coverage());

        Review review = Review.of(module, request.baseline(), null, false, request.minLevel());
        ScanReport.Triage triage = review.triage();
        if (request.baseline() != null) {
            // Review counts every unmatched baseline entry as fixed; a baseline shared by the whole
            // reactor also holds the other modules' entries, which are not this module's to count.
            int fixedHere = (int) request.baseline().apply(findings).fixed().stream()
                    .filter(e -> entryIsUnder(e, all.sourceRoot(), own)).count();
            triage = triage.withBaseline(triage.baselined(), fixedHere);
        }
        ScanReport report = new ScanReport(request.toolVersion(), all.rules(), review.findings(), module.diagnostics(),
                all.sourceRoot(), request.sarifCategory(), ownFiles, new FileSourceLines(all.sourceRoot()), triage,
                all.coverage());
        return new Outcome(report, all.filesAnalysed(), new LinkedHashMap<>(all.timingsMillis()), all.fromCache(),
                all.treesFromCache());
    }

    /**
     * The project's racelint.yml for a module in {@code moduleDir}: {@code explicit} when given, else
     * the nearest one from the module's folder up to {@code root} (the reactor's root), as the command
     * line finds it; read and checked against the installed rules. Null when there is none.
     */
    static ProjectConfig readConfig(Path moduleDir, Path root, Path explicit, RuleRegistry registry) throws IOException {
        return ScanSession.config(moduleDir, root, explicit, registry.rules());
    }

    /** Writes each report file into {@code directory} (created when missing); returns the files written. */
    static List<Path> writeReports(ScanReport report, Path directory, Set<OutputFormat> formats) throws IOException {
        return writeReports(report, directory, formats, null);
    }

    /**
     * Writes each format into {@code directory}; with {@code module} non-null the file names carry it
     * ({@code racelint-<module>.sarif}), for a folder that several modules share.
     */
    static List<Path> writeReports(ScanReport report, Path directory, Set<OutputFormat> formats, String module)
            throws IOException {
        List<Path> written = new ArrayList<>();
        if (formats.isEmpty()) {
            return written;
        }
        Files.createDirectories(directory);
        for (OutputFormat format : formats) {
            Path target = directory.resolve(format.fileName(module));
            writeAtomically(target, w -> format.writer().write(report, w));
            written.add(target);
        }
        return written;
    }

    /** True when {@code file} lies in one of {@code roots} (absolute, normalised). */
    static boolean isUnder(Path file, List<Path> roots) {
        if (file == null) {
            return false;
        }
        Path normal = file.toAbsolutePath().normalize();
        for (Path root : roots) {
            if (normal.startsWith(root)) {
                return true;
            }
        }
        return false;
    }

    private static boolean entryIsUnder(Baseline.Entry entry, Path sourceRoot, List<Path> roots) {
        if (entry.file() == null || entry.file().isBlank()) {
            return false;
        }
        try {
            return isUnder(sourceRoot.resolve(entry.file()), roots);
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
    }

    /** The module's own source files, found as the analyzer finds them (racelint.yml's excludes too). */
    private static int countFiles(Request request, AnalysisOptions options) {
        return SourceDiscovery.of(options).discover(request.ownRoots(), request.sourceRoot()).files().size();
    }

    private static List<Path> normalised(List<Path> paths) {
        Set<Path> out = new LinkedHashSet<>();
        for (Path p : paths) {
            out.add(p.toAbsolutePath().normalize());
        }
        return List.copyOf(out);
    }

    @FunctionalInterface
    interface WriterBody {
        void writeTo(Writer writer) throws IOException;
    }

    /** Writes through a temporary file and a move, so a reader never sees half a report. */
    static void writeAtomically(Path target, WriterBody body) throws IOException {
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
        try {
            try (Writer writer = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
                body.writeTo(writer);
            }
            // Temporary files are owner-only; a report is an ordinary build output.
            PosixFileAttributeView view = Files.getFileAttributeView(temp, PosixFileAttributeView.class);
            if (view != null) {
                view.setPermissions(PosixFilePermissions.fromString("rw-r--r--"));
            }
            AtomicReplace.move(temp, target);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
