package dev.racelint.cli;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.AnalysisResult;
import dev.racelint.analyzer.Analyzer;
import dev.racelint.analyzer.ProgressListener;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.report.FileSourceLines;
import dev.racelint.analyzer.report.JsonReportWriter;
import dev.racelint.analyzer.report.ReportWriter;
import dev.racelint.analyzer.report.SarifReportWriter;
import dev.racelint.analyzer.report.ScanReport;
import dev.racelint.analyzer.report.TextReportWriter;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code racelint scan}: analyse sources and write a report. */
@Command(
        name = "scan",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        showDefaultValues = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        headerHeading = "%n",
        header = "Analyse Java sources and report races.",
        synopsisHeading = "%nUsage: ",
        descriptionHeading = "%n",
        description = {
            "Scans the .java files under each PATH (a repository, a module, a source folder or "
                    + "single files; build output, VCS folders and, unless --include-tests, test "
                    + "sources are skipped) and writes the findings as text, SARIF or JSON.",
            "",
            "Files that cannot be read or parsed are reported as diagnostics and skipped; the scan "
                    + "goes on with the rest.",
        },
        parameterListHeading = "%nArguments:%n",
        optionListHeading = "%nOptions:%n",
        footerHeading = "%nExamples:%n",
        footer = {
            "  racelint scan .",
            "  racelint scan services/orders --exclude '**/generated/**' --fail-on warning",
            "  racelint scan . --format sarif --output racelint.sarif --fail-on none",
            "  racelint scan . --format json | jq '.summary'",
            "",
            "Exit codes: 0 no finding at or above --fail-on, 1 at least one, 2 usage error, "
                    + "3 internal error.",
        })
final class ScanCommand implements Callable<Integer> {

    /** Output formats. */
    enum Format { text, sarif, json }

    /** The lowest finding level that fails the scan. */
    enum FailOn {
        error(Level.ERROR), warning(Level.WARNING), note(Level.NOTE), none(null);

        final Level threshold;

        FailOn(Level threshold) {
            this.threshold = threshold;
        }
    }

    /** The report could not be written (exit code 3, without "internal error"). */
    static final class OutputException extends RuntimeException {
        OutputException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    @Spec
    CommandSpec spec;

    @ParentCommand
    RacelintCommand parent;

    @Mixin
    DebugOption debugOption;

    @Parameters(paramLabel = "PATH", arity = "0..*", showDefaultValue = Visibility.NEVER,
            description = "Files or folders to scan. Default: . (the current folder).")
    List<Path> paths = new ArrayList<>();

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "Report format: ${COMPLETION-CANDIDATES}. SARIF 2.1.0 is what GitHub code "
                    + "scanning uploads; JSON is a plain document for scripts.")
    Format format = Format.text;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", showDefaultValue = Visibility.NEVER,
            description = "Write the report to FILE instead of stdout. The file is replaced "
                    + "atomically (written next to it, then moved), and a one-line summary goes "
                    + "to stderr. Default (or -): stdout.")
    Path output;

    @Option(names = "--fail-on", paramLabel = "LEVEL",
            description = "Exit with 1 when a finding has this level or a more severe one: "
                    + "${COMPLETION-CANDIDATES}. 'none' always exits with 0 after a complete scan.")
    FailOn failOn = FailOn.error;

    @Option(names = "--rules", paramLabel = "ID", split = ",", showDefaultValue = Visibility.NEVER,
            description = "Run only these rules (comma-separated ids, see 'racelint rules'). "
                    + "Default: all rules.")
    List<String> ruleIds = new ArrayList<>();

    @Option(names = "--include-tests",
            description = "Also scan test sources (src/test, src/it, src/*Test*...).")
    boolean includeTests;

    @Option(names = "--exclude", paramLabel = "GLOB", showDefaultValue = Visibility.NEVER,
            description = "Leave out files and folders matching GLOB, relative to the scanned folder, "
                    + "'/'-separated, for example '**/generated/**'. Repeatable.")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--classpath", paramLabel = "CP", showDefaultValue = Visibility.NEVER,
            description = "Jars of the scanned code's dependencies, separated by '${sys:path.separator}'. "
                    + "Optional: it sharpens type resolution, racelint works without it. "
                    + "Default: none.")
    String classpath;

    @Option(names = "--source-root", paramLabel = "DIR", showDefaultValue = Visibility.NEVER,
            description = "Folder that report paths (and SARIF URIs) are relative to. Default: the "
                    + "git work tree holding the first PATH, else that PATH.")
    Path sourceRoot;

    @Option(names = "--sarif-category", paramLabel = "CAT", showDefaultValue = Visibility.NEVER,
            description = "SARIF runs.automationDetails.id, the category GitHub code scanning files "
                    + "the results under (needed when one repository uploads several racelint "
                    + "runs). Default: none.")
    String sarifCategory;

    @Option(names = "--threads", paramLabel = "N", showDefaultValue = Visibility.NEVER,
            description = "Worker threads for parsing. Default: the number of available processors.")
    Integer threads;

    @Option(names = "--max-file-size", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Skip (with a diagnostic) source files larger than this; k, m and g "
                    + "suffixes are accepted.")
    long maxFileSize = AnalysisOptions.DEFAULT_MAX_FILE_BYTES;

    @Option(names = "--timings", description = "Print the time each analysis phase took to stderr.")
    boolean timings;

    @Option(names = "--no-color",
            description = "No ANSI colours in text output (also when the NO_COLOR environment "
                    + "variable is set; colours are only used on a terminal anyway).")
    boolean noColor;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RuleRegistry registry = parent.registry();

        AnalysisOptions options = new AnalysisOptions(
                checkedPaths(), includeTests, excludes, checkedClasspath(), checkedThreads(),
                checkedRuleIds(registry), checkedMaxFileSize(), checkedSourceRoot());
        Path target = checkedOutput();

        long start = System.nanoTime();
        AnalysisResult result;
        boolean showProgress = System.console() != null;
        try (ConsoleProgress progress = showProgress ? new ConsoleProgress(err) : null) {
            ProgressListener listener = progress == null ? ProgressListener.NONE : progress;
            result = new Analyzer(registry.rules(), ApiCatalogue.builtIn()).analyze(options, listener);
        }

        ScanReport report = new ScanReport(VersionProvider.version(), result.rules(), result.findings(),
                result.diagnostics(), result.sourceRoot(), blankToNull(sarifCategory),
                result.filesAnalysed(), new FileSourceLines());
        long beforeWrite = System.nanoTime();
        ReportWriter writer = switch (format) {
            case text -> new TextReportWriter(useColor(target));
            case sarif -> new SarifReportWriter();
            case json -> new JsonReportWriter();
        };
        if (target == null) {
            writer.write(report, out);
            out.flush();
        } else {
            writeAtomically(target, w -> writer.write(report, w));
            err.println("racelint: " + TextReportWriter.summary(report) + " Report written to " + output + ".");
        }
        long end = System.nanoTime();

        if (timings) {
            printTimings(err, result, (end - beforeWrite) / 1_000_000, (end - start) / 1_000_000);
        }
        err.flush();
        return exitCode(result.findings());
    }

    private int exitCode(List<Finding> findings) {
        Level threshold = failOn.threshold;
        if (threshold == null) {
            return ExitCodes.OK;
        }
        for (Finding finding : findings) {
            if (finding.level().isAtLeast(threshold)) {
                return ExitCodes.FINDINGS;
            }
        }
        return ExitCodes.OK;
    }

    private boolean useColor(Path target) {
        if (noColor || target != null || System.console() == null) {
            return false;
        }
        String noColorEnv = System.getenv("NO_COLOR");
        if (noColorEnv != null && !noColorEnv.isEmpty()) {
            return false;
        }
        return !"dumb".equals(System.getenv("TERM"));
    }

    private static void printTimings(PrintWriter err, AnalysisResult result, long writeMillis, long totalMillis) {
        Map<String, Long> phases = new LinkedHashMap<>(result.timingsMillis());
        phases.put("report", writeMillis);
        phases.put("total", totalMillis);
        int width = phases.keySet().stream().mapToInt(String::length).max().orElse(0);
        int numbers = phases.values().stream().mapToInt(v -> String.valueOf(v).length()).max().orElse(1);
        err.println("racelint: timings (" + plural(result.filesAnalysed(), "file") + ", "
                + plural(result.methodsAnalysed(), "method") + "):");
        for (Map.Entry<String, Long> phase : phases.entrySet()) {
            String ms = String.valueOf(phase.getValue());
            err.println("  " + phase.getKey() + " ".repeat(width - phase.getKey().length() + 2)
                    + " ".repeat(numbers - ms.length()) + ms + " ms");
        }
    }

    private static String plural(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    // ---- validation: each problem is a usage error (exit 2) reported before any work is done

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private List<Path> checkedPaths() {
        List<Path> given = paths.isEmpty() ? List.of(Path.of(".")) : paths;
        List<Path> checked = new ArrayList<>();
        for (Path path : given) {
            if (!Files.exists(path)) {
                throw usage("path does not exist: " + path);
            }
            if (!Files.isDirectory(path) && !path.getFileName().toString().endsWith(".java")) {
                throw usage("not a folder or a .java file: " + path);
            }
            if (!Files.isReadable(path)) {
                throw usage("cannot read: " + path);
            }
            checked.add(path);
        }
        return checked;
    }

    private List<Path> checkedClasspath() {
        if (classpath == null || classpath.isBlank()) {
            return List.of();
        }
        List<Path> entries = new ArrayList<>();
        for (String entry : classpath.split(java.util.regex.Pattern.quote(File.pathSeparator))) {
            if (entry.isBlank()) {
                continue;
            }
            Path path;
            try {
                path = Path.of(entry.strip());
            } catch (InvalidPathException e) {
                throw usage("bad --classpath entry: " + entry);
            }
            if (!Files.exists(path)) {
                throw usage("--classpath entry does not exist: " + entry);
            }
            entries.add(path);
        }
        return entries;
    }

    private int checkedThreads() {
        if (threads == null) {
            return Runtime.getRuntime().availableProcessors();
        }
        if (threads < 1) {
            throw usage("--threads must be at least 1, not " + threads);
        }
        return threads;
    }

    private long checkedMaxFileSize() {
        if (maxFileSize < 1) {
            throw usage("--max-file-size must be a positive number of bytes, not " + maxFileSize);
        }
        return maxFileSize;
    }

    private Set<String> checkedRuleIds(RuleRegistry registry) {
        Set<String> wanted = new LinkedHashSet<>();
        for (String id : ruleIds) {
            if (!id.isBlank()) {
                wanted.add(id.strip());
            }
        }
        if (!ruleIds.isEmpty() && wanted.isEmpty()) {
            throw usage("--rules needs at least one rule id; valid ids: " + validIds(registry));
        }
        Set<String> known = registry.descriptors().stream().map(RuleDescriptor::id)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        List<String> unknown = wanted.stream().filter(id -> !known.contains(id)).toList();
        if (!unknown.isEmpty()) {
            throw usage((unknown.size() == 1 ? "unknown rule id '" + unknown.get(0) + "'"
                    : "unknown rule ids " + unknown.stream().map(id -> "'" + id + "'")
                            .collect(Collectors.joining(", ")))
                    + " in --rules; valid ids: " + validIds(registry));
        }
        return wanted;
    }

    static String validIds(RuleRegistry registry) {
        List<String> ids = registry.descriptors().stream().map(RuleDescriptor::id).toList();
        return ids.isEmpty() ? "(none: no rules are installed)" : String.join(", ", ids);
    }

    private Path checkedSourceRoot() {
        if (sourceRoot == null) {
            return null;
        }
        if (!Files.isDirectory(sourceRoot)) {
            throw usage("--source-root is not a folder: " + sourceRoot);
        }
        return sourceRoot;
    }

    private Path checkedOutput() {
        if (output == null || output.toString().equals("-")) {
            return null;
        }
        Path absolute = output.toAbsolutePath().normalize();
        if (Files.isDirectory(absolute)) {
            throw usage("--output is a folder: " + output);
        }
        Path dir = absolute.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw usage("--output folder does not exist: " + (output.getParent() == null ? dir : output.getParent()));
        }
        return absolute;
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    // ---- output

    @FunctionalInterface
    interface WriterBody {
        void writeTo(Writer writer) throws IOException;
    }

    /**
     * Writes {@code target} through a temporary file in the same folder and a move, so readers
     * never see a half-written report and a failed run leaves the previous report in place.
     */
    static void writeAtomically(Path target, WriterBody body) {
        Path dir = target.getParent();
        Path temp = null;
        try {
            temp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
            try (Writer writer = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
                body.writeTo(writer);
            }
            copyPermissions(target, temp);
            try {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            temp = null;
        } catch (IOException e) {
            throw new OutputException("cannot write " + target + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
    }

    /** Temp files are created owner-only; give the report the old file's mode, else rw-r--r--. */
    private static void copyPermissions(Path target, Path temp) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(temp, PosixFileAttributeView.class);
        if (view == null) {
            return;
        }
        Set<PosixFilePermission> mode = Files.exists(target)
                ? Files.getPosixFilePermissions(target)
                : PosixFilePermissions.fromString("rw-r--r--");
        view.setPermissions(mode);
    }
}
