package dev.racelint.analyzer.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.SourceRegion;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;

/**
 * Plain JSON for scripts:
 *
 * <pre>
 * {
 *   "tool": "racelint",
 *   "version": "0.1.0",
 *   "sourceRoot": "orders-service",
 *   "summary": {"findings": 3, "error": 2, "warning": 1, "note": 0, "files": 41, "diagnostics": 2,
 *               "sqlFallback": 0, "suppressed": 0, "baselined": 1, "baselineFixed": 0, "outsideDiff": 4,
 *               "checkChanges": 1},
 *   "coverage": {"files": 41, "sourceLines": 3210, "entryPoints": {...}, "transactions": {...},
 *                "databaseOperations": {...}, "sql": {...}, "effects": {...}, "blindSpots": {...},
 *                "dataAccess": {...}},
 *   "findings": [{
 *     "ruleId": "io-in-transaction", "level": "error", "message": "plain text",
 *     "file": "src/main/java/A.java", "startLine": 42, "startColumn": 20, "endLine": 42,
 *     "endColumn": 30, "method": "...", "fingerprint": "...", "fix": "...",
 *     "related": [{"file": "...", "line": 30, "column": 9, "label": "..."}],
 *     "path": [{"file": "...", "line": 42, "column": 5, "label": "..."}]
 *   }],
 *   "diagnostics": [{"file": "...", "line": 3, "column": 1, "level": "error",
 *                    "code": "parse-error", "message": "..."}]
 * }
 * </pre>
 *
 * <p>Files are relative to {@code sourceRoot}, {@code /}-separated, not URI-encoded;
 * {@code sourceRoot} is the name of that folder (no absolute path is written). Columns are 1-based UTF-16 code units and
 * {@code endColumn} is one past the last character. A diagnostic's {@code file}, {@code line} and
 * {@code column} are {@code null} when not known. Keys always appear, in the order above; the
 * output is deterministic and ends with a newline. {@code baselined} and {@code baselineFixed} are
 * there with a baseline; {@code outsideDiff} and {@code checkChanges} (the diagnostics that note a
 * suppression, baseline entry or config setting the change adds) with {@code --diff}. Strings keep
 * the scanned tree's text as it is (a script gets the real file name), written with control, bidi
 * and separator characters as {@code \}{@code uXXXX} escapes; a message, label, fix or diagnostic
 * longer than {@value ReportText#MAX_TEXT_CHARS} characters is cut, ending with
 * {@value ReportText#ELLIPSIS}. A script that prints the values to a terminal must escape them itself.
 */
public final class JsonReportWriter implements ReportWriter {

    public static final String TOOL_NAME = "racelint";

    private static final ObjectMapper MAPPER = JsonSupport.newMapper();
    private static final ObjectWriter WRITER = JsonSupport.prettyWriter(MAPPER);

    @Override
    public void write(ScanReport report, Writer out) throws IOException {
        JsonSupport.write(WRITER, toJson(report), out);
    }

    /** The document as a Jackson tree, before serialisation. */
    public ObjectNode toJson(ScanReport report) {
        Path root = report.sourceRoot();
        ObjectNode doc = MAPPER.createObjectNode();
        doc.put("tool", TOOL_NAME);
        doc.put("version", report.toolVersion());
        // the root's folder name only: reports carry no machine paths (they are shared and uploaded)
        doc.put("sourceRoot", root == null || root.getFileName() == null ? null : root.getFileName().toString());

        LevelCounts counts = LevelCounts.of(report.findings());
        int errors = counts.errors();
        int warnings = counts.warnings();
        int notes = counts.notes();
        ObjectNode summary = doc.putObject("summary");
        summary.put("findings", report.findings().size());
        summary.put("error", errors);
        summary.put("warning", warnings);
        summary.put("note", notes);
        summary.put("files", report.filesAnalysed());
        summary.put("diagnostics", report.diagnostics().size());
        summary.put("sqlFallback", report.diagnostics().stream()
                .filter(d -> d.code().equals(dev.racelint.analyzer.finding.Diagnostic.SQL_FALLBACK)).count());

        ScanReport.Triage triage = report.triage();
        summary.put("suppressed", triage.suppressed().size());
        if (triage.baselined() >= 0) {
            summary.put("baselined", triage.baselined());
            summary.put("baselineFixed", triage.baselineFixed());
        }
        if (triage.minLevel() != null) {
            summary.put("minLevel", triage.minLevel().sarifName());
            summary.put("belowMinLevel", triage.belowMinLevel());
        }
        if (triage.outsideDiff() >= 0) {
            summary.put("outsideDiff", triage.outsideDiff());
            summary.put("checkChanges", report.diagnostics().stream().filter(Diagnostic::checkChange).count());
        }

        // what the scan understood (CoverageReport.tree); null for a report made without analysing
        doc.set("coverage", report.coverage() == null ? doc.nullNode() : CoverageReport.tree(report.coverage()));

        java.util.Map<Finding, dev.racelint.analyzer.suppress.Suppression> suppressions = new java.util.IdentityHashMap<>();
        List<Finding> written = new java.util.ArrayList<>(report.findings());
        if (triage.includeSuppressed()) {
            triage.suppressed().forEach(s -> {
                suppressions.put(s.finding(), s.suppression());
                written.add(s.finding());
            });
            written.sort(dev.racelint.analyzer.Analyzer.FINDING_ORDER);
        }
        ArrayNode findings = doc.putArray("findings");
        for (Finding finding : written) {
            ObjectNode f = findings.addObject();
            f.put("ruleId", finding.ruleId());
            f.put("level", finding.level().sarifName());
            f.put("message", bounded(finding.message().plain()));
            f.put("file", ReportPaths.display(root, finding.primary().file()));
            SourceRegion region = finding.primary().region();
            f.put("startLine", region == null ? null : region.startLine());
            f.put("startColumn", region == null ? null : region.startColumn());
            f.put("endLine", region == null ? null : region.endLine());
            f.put("endColumn", region == null ? null : region.endColumn());
            f.put("method", bounded(finding.enclosingMethod()));
            f.put("fingerprint", finding.fingerprint());
            f.put("fix", bounded(finding.fix()));
            putLocations(f.putArray("related"), root, finding.related());
            putLocations(f.putArray("path"), root, finding.codeFlow());
            dev.racelint.analyzer.suppress.Suppression suppression = suppressions.get(finding);
            if (suppression != null) {
                ObjectNode sup = f.putObject("suppressed");
                sup.put("kind", suppression.kind() == dev.racelint.analyzer.suppress.Suppression.Kind.COMMENT
                        ? "comment" : "annotation");
                sup.put("justification", bounded(suppression.justification()));
            }
            if (!finding.otherFlows().isEmpty()) {
                ArrayNode others = f.putArray("otherPaths");
                for (List<CodeLocation> other : finding.otherFlows()) {
                    putLocations(others.addArray(), root, other);
                }
            }
        }

        ArrayNode diagnostics = doc.putArray("diagnostics");
        for (Diagnostic diagnostic : report.diagnostics()) {
            ObjectNode d = diagnostics.addObject();
            d.put("file", ReportPaths.display(root, diagnostic.file()));
            d.put("line", diagnostic.line() > 0 ? diagnostic.line() : null);
            d.put("column", diagnostic.column() > 0 ? diagnostic.column() : null);
            d.put("level", diagnostic.level() == null ? null : diagnostic.level().sarifName());
            d.put("code", diagnostic.code());
            d.put("message", bounded(diagnostic.message()));
        }
        return doc;
    }

    /** Text from the tree is kept as it is (Jackson escapes the unsafe characters), but not without end. */
    private static String bounded(String text) {
        return ReportText.cut(text, ReportText.MAX_TEXT_CHARS);
    }

    private static void putLocations(ArrayNode array, Path root, List<CodeLocation> locations) {
        for (CodeLocation location : locations) {
            ObjectNode l = array.addObject();
            l.put("file", ReportPaths.display(root, location.file()));
            SourceRegion region = location.region();
            l.put("line", region == null ? null : region.startLine());
            l.put("column", region == null ? null : region.startColumn());
            l.put("label", bounded(location.label()));
        }
    }
}
