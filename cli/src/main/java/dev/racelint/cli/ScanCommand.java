package dev.racelint.cli;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.AnalysisResult;
import dev.racelint.analyzer.ProgressListener;
import dev.racelint.analyzer.baseline.Baseline;
import dev.racelint.analyzer.ScanSession;
import dev.racelint.analyzer.config.ProjectConfig;
import dev.racelint.analyzer.diff.ChangedLines;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.parse.DiagnosticOrder;
import dev.racelint.analyzer.report.AtomicReplace;
import dev.racelint.analyzer.report.CoverageReport;
import dev.racelint.analyzer.report.FileSourceLines;
import dev.racelint.analyzer.report.JsonReportWriter;
import dev.racelint.analyzer.report.ReportPaths;
import dev.racelint.analyzer.report.ReportText;
import dev.racelint.analyzer.report.ReportWriter;
import dev.racelint.analyzer.report.SarifReportWriter;
import dev.racelint.analyzer.report.ScanReport;
import dev.racelint.analyzer.report.TextReportWriter;
import dev.racelint.analyzer.review.CheckChanges;
import dev.racelint.analyzer.review.Review;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
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
            "  racelint scan . --baseline racelint-baseline.json --diff origin/main",
            "",
            "Exit codes: 0 no finding at or above --fail-on, 1 at least one, 2 usage error or no file "
                    + "analysed (see --allow-empty), 3 internal error.",
        })
final class ScanCommand implements Callable<Integer> {

    /** Output formats. */
    enum Format { text, sarif, json, html }

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

    @Mixin
    AnalysisInput input;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "Report format: ${COMPLETION-CANDIDATES}. SARIF 2.1.0 is what GitHub code "
                    + "scanning uploads; JSON is a plain document for scripts; HTML is one self-contained "
                    + "page for people (open it in a browser, works offline).")
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

    @Option(names = "--sarif-category", paramLabel = "CAT", showDefaultValue = Visibility.NEVER,
            description = "SARIF runs.automationDetails.id, the category GitHub code scanning files "
                    + "the results under (needed when one repository uploads several racelint "
                    + "runs). Default: none.")
    String sarifCategory;

    @Option(names = "--baseline", paramLabel = "FILE", showDefaultValue = Visibility.NEVER,
            description = "Report only findings that are not in this baseline (see 'racelint baseline "
                    + "create'); the summary says how many were baselined and how many baseline entries "
                    + "no longer match (fixed).")
    Path baseline;

    @Option(names = "--diff", paramLabel = "REF", showDefaultValue = Visibility.NEVER,
            description = "Report only findings whose location or path touches a line changed since the "
                    + "git revision REF (committed, staged or not, and untracked files), e.g. origin/main: "
                    + "what a pull request introduces. Also notes, with file:line, each suppression, "
                    + "--baseline entry and racelint.yml setting the change adds or alters (they make "
                    + "findings go away without fixing them); notes never fail the scan.")
    String diffRef;

    @Option(names = "--config-from-base",
            description = "With --diff REF: read racelint.yml as it is at REF (from git), not from the work "
                    + "tree. For CI on pull requests: a change cannot then loosen its own check by switching "
                    + "rules off or adding excludes; its racelint.yml edits are still noted.")
    boolean configFromBase;

    @Option(names = "--include-suppressed",
            description = "Also write findings suppressed in the source (@SuppressWarnings(\"racelint:ID\"), "
                    + "// racelint:ignore ID reason), marked as suppressed. Default: they are only counted.")
    boolean includeSuppressed;

    @Option(names = "--coverage",
            description = "Print what the scan understood in detail: entry points by verb and broker, transactions, "
                    + "database operations by API, SQL parsed and by fallback, effects by kind, data access seen, and "
                    + "the blind spots (the types most called in transactions and handlers that racelint does not know). "
                    + "In the text report, before its one-line summary of the same; with another format, on stderr. "
                    + "JSON (coverage) and SARIF (run property racelint/coverage) always carry it.")
    boolean coverage;

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

        ChangedLines changes = checkedDiff(input.checkedPaths());
        ProjectConfig config = configFromBase ? checkedBaseConfig(registry, changes) : input.config(registry);
        AnalysisOptions options = input.options(registry, config);
        Path target = checkedOutput();
        Baseline loadedBaseline = checkedBaseline();

        long start = System.nanoTime();
        AnalysisResult result;
        boolean showProgress = System.console() != null;
        try (ConsoleProgress progress = showProgress ? new ConsoleProgress(err) : null) {
            ProgressListener listener = progress == null ? ProgressListener.NONE : progress;
            result = ScanSession.analyse(registry.rules(), config, options, listener);
        }
        if (result.fromCache()) {
            note(err, "racelint: no file, option or racelint changed since the last scan: results from "
                    + shown(result.sourceRoot(), options.cacheDirectory()) + " (--no-cache to analyse again).");
        } else if (result.treesFromCache() > 0) {
            note(err, "racelint: " + result.treesFromCache() + " of " + result.filesAnalysed()
                    + " files unchanged since the last scan: their syntax trees read from "
                    + shown(result.sourceRoot(), options.cacheDirectory()) + ", the others parsed.");
        }
        if (config != null) {
            note(err, "racelint: " + ScanSession.describe(config, result.sourceRoot(), options.paths())
                    + (configFromBase ? " as it is at " + changes.ref() : ""));
        }

        Review review = Review.of(result, loadedBaseline, changes, includeSuppressed, input.minLevel(config));
        List<Diagnostic> diagnostics = result.diagnostics();
        if (changes != null) {
            diagnostics = new ArrayList<>(diagnostics);
            diagnostics.addAll(checkChanges(registry, changes, options, result, config));
            diagnostics.sort(DiagnosticOrder.INSTANCE);
        }
        java.util.Optional<String> nothingInReport = input.nothingAnalysed(options, config, result, true);
        if (nothingInReport.isPresent()) {
            // in the report too, so that a SARIF or JSON reader (a CI upload) sees why it is empty
            diagnostics = new ArrayList<>(diagnostics);
            diagnostics.add(new Diagnostic(null, 0, 0, Level.WARNING, "nothing-analysed", nothingInReport.get()));
            diagnostics.sort(DiagnosticOrder.INSTANCE);
        }
        ScanReport report = new ScanReport(VersionProvider.version(), result.rules(), review.findings(),
                diagnostics, result.sourceRoot(), blankToNull(sarifCategory),
                result.filesAnalysed(), new FileSourceLines(result.sourceRoot()), review.triage(), result.coverage());
        long beforeWrite = System.nanoTime();
        ReportWriter writer = switch (format) {
            case text -> new TextReportWriter(useColor(target), coverage);
            case sarif -> new SarifReportWriter();
            case json -> new JsonReportWriter();
            case html -> new dev.racelint.analyzer.report.HtmlReportWriter();
        };
        if (target == null) {
            writer.write(report, out);
            out.flush();
        } else {
            writeAtomically(target, w -> writer.write(report, w));
            if (coverage && format != Format.text && result.coverage() != null) {
                printCoverage(err, result, review);
            }
            err.println(ReportText.terminal("racelint: " + TextReportWriter.summary(report) + " Report written to "
                    + output + "."));
        }
        if (target == null && coverage && format != Format.text && result.coverage() != null) {
            printCoverage(err, result, review);
        }
        long end = System.nanoTime();

        if (timings) {
            printTimings(err, result, (end - beforeWrite) / 1_000_000, (end - start) / 1_000_000);
        }
        java.util.Optional<String> nothing = input.nothingAnalysed(options, config, result);
        if (nothing.isPresent()) {
            // the report is written all the same: it says what was skipped, and CI may upload it
            err.println("racelint: " + nothing.get() + (input.allowEmpty ? " Accepted (--allow-empty)."
                    : " A scan that analyses no file fails (exit code 2); --allow-empty accepts it."));
            if (!input.allowEmpty) {
                err.flush();
                return ExitCodes.USAGE;
            }
        }
        err.flush();
        return exitCode(review.findings());
    }

    /** The --coverage section on stderr (a report in another format than text), with what the level left out. */
    private static void printCoverage(PrintWriter err, AnalysisResult result, Review review) {
        err.print(CoverageReport.detail(result.coverage()));
        review.triage().belowMinLevelText("--min-level ").ifPresent(left -> err.println("  left out: " + left));
    }

    /** A line about the scan on stderr, control and bidi characters from the tree (folder names) shown escaped. */
    private static void note(PrintWriter err, String line) {
        err.println(ReportText.terminal(line));
    }

    /** A folder relative to the source root when it is inside it (the default cache); else as the user gave it. */
    private static String shown(Path root, Path folder) {
        return ReportPaths.relative(root, folder).filter(p -> !p.isEmpty() && !p.equals("..") && !p.startsWith("../"))
                .orElse(folder.toString());
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

    private Baseline checkedBaseline() {
        if (baseline == null) {
            return null;
        }
        if (!Files.isRegularFile(baseline)) {
            throw usage("--baseline file does not exist: " + baseline);
        }
        try {
            return Baseline.read(baseline);
        } catch (IOException e) {
            throw usage("--baseline: " + e.getMessage());
        }
    }

    /**
     * What the change does to the check itself: the suppressions, baseline entries and racelint.yml
     * settings it adds or alters, as notes.
     */
    private List<Diagnostic> checkChanges(RuleRegistry registry, ChangedLines changes, AnalysisOptions options,
            AnalysisResult result, ProjectConfig config) {
        List<Diagnostic> notes = new ArrayList<>(CheckChanges.suppressions(changes, options, result.suppressed()));
        if (baseline != null) {
            try {
                notes.addAll(CheckChanges.baseline(changes, baseline, result.findings()));
            } catch (IOException e) {
                notes.add(new Diagnostic(baseline.toAbsolutePath().normalize(), 0, 0, Level.NOTE,
                        Diagnostic.BASELINE_ENTRY_ADDED, "cannot compare the baseline with " + changes.ref() + ": "
                        + e.getMessage()));
            }
        }
        if (!input.noConfig) {
            Map<String, Level> defaults = new java.util.HashMap<>();
            registry.descriptors().forEach(d -> defaults.put(d.id(), d.level()));
            ProjectConfig base = config;
            ProjectConfig head = config;
            Path where = input.configFile != null ? input.configFile.toAbsolutePath().normalize()
                    : ProjectConfig.find(input.checkedPaths().get(0)).orElse(null);
            try {
                if (configFromBase) {
                    head = input.config(registry);
                } else if (where == null || changes.relative(where).isPresent()) {
                    base = input.configAt(registry, changes);
                } else {
                    base = head; // a config outside the work tree is no part of the change
                }
                notes.addAll(CheckChanges.config(changes, base, head, defaults, configFromBase));
            } catch (ParameterException | IOException e) {
                String which = configFromBase ? "racelint.yml in the work tree" : "racelint.yml at " + changes.ref();
                notes.add(new Diagnostic(where, 0, 0, Level.NOTE, Diagnostic.CONFIG_CHANGED,
                        "cannot compare with " + which + ": " + e.getMessage()));
            }
        }
        return notes;
    }

    /** --config-from-base: racelint.yml from the --diff revision; each problem is a usage error. */
    private ProjectConfig checkedBaseConfig(RuleRegistry registry, ChangedLines changes) {
        if (changes == null) {
            throw usage("--config-from-base needs --diff REF: the revision to read racelint.yml from");
        }
        if (input.noConfig) {
            throw usage("--config-from-base and --no-config contradict each other: choose one");
        }
        try {
            return input.configAt(registry, changes);
        } catch (IOException e) {
            throw usage("--config-from-base: " + e.getMessage());
        }
    }

    private ChangedLines checkedDiff(List<Path> paths) {
        if (diffRef == null) {
            return null;
        }
        Path first = paths.get(0).toAbsolutePath();
        Path folder = Files.isDirectory(first) ? first : first.getParent();
        try {
            return ChangedLines.since(diffRef.strip(), folder);
        } catch (IOException e) {
            throw usage("--diff " + diffRef + ": " + e.getMessage());
        }
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

    /** Temporary report files being written: removed if the JVM stops (Ctrl-C) before they are moved into place. */
    private static final Set<Path> PENDING_TEMP_FILES = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Path temp : PENDING_TEMP_FILES) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) {
                    // best effort while the JVM stops
                }
            }
        }, "racelint-cleanup"));
    }

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
        Path created = null;
        try {
            temp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
            created = temp;
            PENDING_TEMP_FILES.add(created);
            try (Writer writer = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
                body.writeTo(writer);
            }
            copyPermissions(target, temp);
            AtomicReplace.move(temp, target);
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
            if (created != null) {
                PENDING_TEMP_FILES.remove(created);
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
