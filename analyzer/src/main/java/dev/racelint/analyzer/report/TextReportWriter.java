package dev.racelint.analyzer.report;

import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.SourceRegion;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Human-readable output for a terminal, compiler style:
 *
 * <pre>
 * src/main/java/com/acme/OrderService.java:42:20: error [io-in-transaction] placeOrder() runs ...
 *     public Receipt placeOrder(OrderRequest request) {
 *                    ^~~~~~~~~~
 *   path:
 *     1. src/main/java/com/acme/OrderService.java:42  placeOrder() starts a transaction
 *     2. src/main/java/com/acme/OrderService.java:45  calls RiskClient.assess()
 *     3. src/main/java/com/acme/RiskClient.java:30    calls HttpClient.send() (HTTP)
 *   related: src/main/java/com/acme/Audit.java:12 AuditLog.write()
 *   fix: move the call out of the transaction
 * </pre>
 *
 * <p>One block per finding, separated by blank lines; then the diagnostics
 * ({@code path:line:col: warning [code] message}, {@code path: warning [code] message} without a
 * line, {@code racelint: warning [code] message} without a file); then what the scan understood
 * ({@link CoverageReport#line}, one line; the {@code --coverage} section before it); then a summary line. Paths are
 * relative to the source root and {@code /}-separated. The source excerpt is the primary line as
 * written, cut to {@value ReportText#MAX_LINE_CHARS} characters around the region's start when
 * longer; the marker line keeps the line's tabs so the caret sits under the region's start,
 * with {@code ~} up to its end on one-line regions. Related locations that are already a step of
 * the path are not repeated. Lines end with {@code \n} on every platform.
 *
 * <p>Every string from the scanned tree (paths, messages, labels, the source line, fixes,
 * diagnostics) passes through {@link ReportText}: control, bidi and separator characters are
 * shown as {@code \}{@code u001b}-style escapes, so the only escape sequences the terminal sees
 * are racelint's own colours.
 */
public final class TextReportWriter implements ReportWriter {

    private static final String RESET = "\u001b[0m";

    private final boolean color;
    private final boolean coverageDetail;

    /** Plain output without colours. */
    public TextReportWriter() {
        this(false);
    }

    /** @param color wrap the level words in ANSI colours (for a terminal) */
    public TextReportWriter(boolean color) {
        this(color, false);
    }

    /**
     * @param color          wrap the level words in ANSI colours (for a terminal)
     * @param coverageDetail write the coverage section ({@code --coverage}) before the coverage line
     */
    public TextReportWriter(boolean color, boolean coverageDetail) {
        this.color = color;
        this.coverageDetail = coverageDetail;
    }

    @Override
    public void write(ScanReport report, Writer out) throws IOException {
        StringBuilder text = new StringBuilder();
        for (Finding finding : report.findings()) {
            appendFinding(text, report, finding);
            text.append('\n');
        }
        for (Diagnostic diagnostic : report.diagnostics()) {
            appendDiagnostic(text, report.sourceRoot(), diagnostic);
        }
        if (report.coverage() != null) {
            if (coverageDetail) {
                text.append(CoverageReport.detail(report.coverage()));
                report.triage().belowMinLevelText("--min-level ")
                        .ifPresent(left -> text.append("  left out: ").append(left).append('\n'));
            }
            text.append(CoverageReport.line(report.coverage())).append('\n');
        }
        text.append(summary(report)).append('\n');
        out.write(text.toString());
        out.flush();
    }

    private void appendFinding(StringBuilder text, ScanReport report, Finding finding) {
        Path root = report.sourceRoot();
        CodeLocation primary = finding.primary();
        SourceRegion region = primary.region();
        text.append(shownPath(root, primary.file()));
        if (region != null) {
            text.append(':').append(region.startLine()).append(':').append(region.startColumn());
        }
        text.append(": ").append(levelWord(finding.level()))
                .append(" [").append(ReportText.terminal(finding.ruleId())).append("] ")
                .append(ReportText.terminal(finding.message().plain())).append('\n');

        if (region != null && report.sources() != null) {
            Optional<String> line = report.sources().line(primary.file(), region.startLine());
            if (line.isPresent()) {
                appendExcerpt(text, stripLineEnd(line.get()), region);
            }
        }

        List<CodeLocation> flow = finding.codeFlow();
        appendPath(text, root, "path", flow);
        Set<String> shown = new HashSet<>();
        for (List<CodeLocation> other : finding.otherFlows()) {
            appendPath(text, root, "other thread", other);
            other.forEach(step -> shown.add(place(root, step)));
        }

        for (CodeLocation step : flow) {
            shown.add(place(root, step));
        }
        for (CodeLocation related : finding.related()) {
            String place = place(root, related);
            if (shown.contains(place)) {
                continue;
            }
            text.append("  related: ").append(place);
            if (related.label() != null && !related.label().isBlank()) {
                text.append(' ').append(ReportText.terminal(related.label()));
            }
            text.append('\n');
        }

        if (finding.fix() != null && !finding.fix().isBlank()) {
            text.append("  fix: ").append(ReportText.terminal(finding.fix())).append('\n');
        }
    }

    private static void appendPath(StringBuilder text, Path root, String title, List<CodeLocation> flow) {
        if (flow.isEmpty()) {
            return;
        }
        text.append("  ").append(title).append(":\n");
        int numberWidth = String.valueOf(flow.size()).length();
        int placeWidth = 0;
        for (CodeLocation step : flow) {
            placeWidth = Math.max(placeWidth, place(root, step).length());
        }
        for (int i = 0; i < flow.size(); i++) {
            CodeLocation step = flow.get(i);
            String number = String.valueOf(i + 1);
            text.append("    ").append(" ".repeat(numberWidth - number.length())).append(number).append(". ");
            String place = place(root, step);
            text.append(place);
            if (step.label() != null && !step.label().isBlank()) {
                text.append(" ".repeat(placeWidth - place.length() + 2)).append(ReportText.terminal(step.label()));
            }
            text.append('\n');
        }
    }

    private static String place(Path root, CodeLocation location) {
        String path = shownPath(root, location.file());
        return location.region() == null ? path : path + ":" + location.region().startLine();
    }

    private void appendDiagnostic(StringBuilder text, Path root, Diagnostic diagnostic) {
        if (diagnostic.file() == null) {
            text.append("racelint");
        } else {
            text.append(shownPath(root, diagnostic.file()));
            if (diagnostic.line() > 0) {
                text.append(':').append(diagnostic.line());
                if (diagnostic.column() > 0) {
                    text.append(':').append(diagnostic.column());
                }
            }
        }
        text.append(": ").append(levelWord(diagnostic.level()));
        if (diagnostic.code() != null) {
            text.append(" [").append(ReportText.terminal(diagnostic.code())).append(']');
        }
        text.append(' ').append(diagnostic.message() == null ? "" : ReportText.terminal(diagnostic.message()))
                .append('\n');
    }

    /** A path as printed: relative to the root, its control and bidi characters made visible. */
    private static String shownPath(Path root, Path file) {
        return ReportText.terminal(ReportPaths.display(root, file));
    }

    /**
     * The primary line and its marker line. A long line is cut to a window around the region's
     * start ({@link ReportText#window}), with … where text was left out; unsafe characters are
     * shown escaped, tabs kept.
     */
    private static void appendExcerpt(StringBuilder text, String source, SourceRegion region) {
        int from = region.startColumn() - 1;
        ReportText.Window window = ReportText.window(source, from);
        String shown = window.text();
        text.append(window.cutBefore() ? ReportText.ELLIPSIS : "")
                .append(ReportText.visible(shown, true))
                .append(window.cutAfter() ? ReportText.ELLIPSIS : "").append('\n');
        int to = region.endLine() == region.startLine() ? region.endColumn() - 1 - window.offset() : -1;
        text.append(window.cutBefore() ? " " : "")
                .append(markerLine(shown, from - window.offset(), to)).append('\n');
    }

    /**
     * The marker line under a source line: whitespace up to the region's start (tabs kept where
     * the source has tabs, one space per other character), a {@code ^}, then {@code ~} for the
     * rest of a one-line region. Columns are UTF-16 code units; a surrogate pair counts as one
     * character on screen, a character shown escaped ({@code \}{@code u001b}) as six.
     */
    static String markerLine(String source, SourceRegion region) {
        return markerLine(source, region.startColumn() - 1,
                region.endLine() == region.startLine() ? region.endColumn() - 1 : -1);
    }

    /** {@code from} and {@code to} are 0-based indices into {@code source}; {@code to < 0}: caret only. */
    private static String markerLine(String source, int from, int to) {
        int start = Math.max(0, Math.min(from, source.length()));
        StringBuilder marker = new StringBuilder();
        for (int i = 0; i < start; i++) {
            char c = source.charAt(i);
            if (c == '\t') {
                marker.append('\t');
            } else {
                marker.append(" ".repeat(ReportText.visibleWidth(source, i, true)));
            }
        }
        marker.append('^');
        int end = Math.min(to, source.length());
        if (end > start) {
            int width = 0;
            for (int i = start; i < end; i++) {
                width += ReportText.visibleWidth(source, i, true);
            }
            marker.append("~".repeat(Math.max(0, width - 1)));
        }
        return marker.toString();
    }

    /** The closing line, e.g. {@code 3 findings (2 errors, 1 warning, 0 notes) in 41 files.} */
    /** The last line of the text report, e.g. {@code 3 findings (2 errors, 1 warning, 0 notes) in 41 files.} */
    public static String summary(ScanReport report) {
        return summary(report, "--min-level ");
    }

    /**
     * As {@link #summary(ScanReport)}, naming the minimum-level setting as {@code minLevelSetting} says
     * (the Maven plugin's {@code -Dracelint.minLevel=}) where findings below it were left out.
     */
    public static String summary(ScanReport report, String minLevelSetting) {
        LevelCounts counts = LevelCounts.of(report.findings());
        int errors = counts.errors();
        int warnings = counts.warnings();
        int notes = counts.notes();
        StringBuilder line = new StringBuilder();
        int total = report.findings().size();
        if (total == 0) {
            line.append("No findings");
        } else {
            line.append(count(total, "finding", "findings")).append(" (")
                    .append(count(errors, "error", "errors")).append(", ")
                    .append(count(warnings, "warning", "warnings")).append(", ")
                    .append(count(notes, "note", "notes")).append(')');
        }
        line.append(" in ").append(count(report.filesAnalysed(), "file", "files"));

        Set<Path> failedFiles = new HashSet<>();
        int scanWide = 0;
        int sqlFallbacks = 0;
        int checkChanges = 0;
        for (Diagnostic diagnostic : report.diagnostics()) {
            if (diagnostic.checkChange()) {
                checkChanges++;
            } else if (diagnostic.fileSkipped()) {
                failedFiles.add(diagnostic.file());
            } else if (diagnostic.code().equals(Diagnostic.SQL_FALLBACK)) {
                sqlFallbacks++;
            } else {
                scanWide++;
            }
        }
        if (!failedFiles.isEmpty()) {
            line.append("; ").append(count(failedFiles.size(), "file", "files"))
                    .append(" could not be analysed");
        }
        if (sqlFallbacks > 0) {
            line.append("; ").append(count(sqlFallbacks, "SQL statement", "SQL statements"))
                    .append(" read by the fallback parser");
        }
        if (scanWide > 0) {
            line.append("; ").append(count(scanWide, "other diagnostic", "other diagnostics"));
        }
        ScanReport.Triage triage = report.triage();
        if (!triage.suppressed().isEmpty()) {
            line.append("; ").append(triage.suppressed().size()).append(" suppressed in the source");
        }
        if (triage.baselined() >= 0) {
            line.append("; ").append(triage.baselined()).append(" in the baseline");
            if (triage.baselineFixed() > 0) {
                line.append(" (").append(count(triage.baselineFixed(), "baseline entry", "baseline entries"))
                        .append(" no longer found: fixed)");
            }
        }
        if (triage.outsideDiff() >= 0) {
            line.append("; ").append(triage.outsideDiff()).append(" outside the diff");
        }
        triage.belowMinLevelText(minLevelSetting).ifPresent(text -> line.append("; ").append(text));
        if (checkChanges > 0) {
            line.append("; ").append(count(checkChanges, "check change", "check changes"))
                    .append(" in the diff (suppressions, baseline entries, config)");
        }
        return line.append('.').toString();
    }

    private static String count(int n, String singular, String plural) {
        return n + " " + (n == 1 ? singular : plural);
    }

    private String levelWord(Level level) {
        String word = level == null ? "warning" : level.sarifName();
        if (!color) {
            return word;
        }
        String code = switch (level == null ? Level.WARNING : level) {
            case ERROR -> "\u001b[1;31m";
            case WARNING -> "\u001b[1;33m";
            case NOTE -> "\u001b[1;36m";
        };
        return code + word + RESET;
    }

    private static String stripLineEnd(String line) {
        int end = line.length();
        while (end > 0 && (line.charAt(end - 1) == '\n' || line.charAt(end - 1) == '\r')) {
            end--;
        }
        return line.substring(0, end);
    }
}
