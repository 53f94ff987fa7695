package dev.racelint.analyzer.report;

import dev.racelint.analyzer.Analyzer;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.suppress.SuppressedFinding;
import dev.racelint.analyzer.suppress.Suppression;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One self-contained HTML page for people: the findings grouped by race shape, then by rule, with
 * counts; each finding with its source excerpt, the path drawn as a chain of boxes from the entry
 * (transaction, handler, lock) to the effect (side by side with the other threads' paths for a
 * deadlock), related locations, the fix, and a link to the rule's page.
 *
 * <p>The page loads nothing: the stylesheet is inlined (from {@value #CSS_RESOURCE}), there is no
 * script, font or image, and a Content-Security-Policy {@code default-src 'none'} makes the
 * browser refuse any fetch. The only external URLs are the rule-page links
 * ({@link #helpUri(String)}), followed only when clicked.
 *
 * <p>Findings are {@code <details>} elements, open when the report has at most
 * {@value #OPEN_LIMIT} findings and closed (one line each: level, place, message) above that.
 *
 * <p>Like the other writers the output is deterministic (no timestamps; the same report gives the
 * same characters), paths are relative to the source root and {@code /}-separated, and the source
 * root itself is never written (a file with no relative path shows only its file name). All text
 * (messages, labels, source lines, rule help) is HTML-escaped. Lines end with {@code \n}.
 */
public final class HtmlReportWriter implements ReportWriter {

    /** The stylesheet inlined into every report. */
    public static final String CSS_RESOURCE = "racelint/html/report.css";

    /** Above this many findings the finding boxes start closed. */
    public static final int OPEN_LIMIT = 200;

    /** Source lines shown before and after the finding's region. */
    static final int CONTEXT_LINES = 2;
    /** Lines of a multi-line region shown (the rest is cut). */
    static final int MAX_REGION_LINES = 8;
    /** Characters of one source line shown in an excerpt: a window around the reported column. */
    static final int MAX_LINE_CHARS = ReportText.MAX_LINE_CHARS;
    /** Characters of the source line shown in a path step. */
    static final int MAX_SNIPPET_CHARS = 160;

    private static final String CSP =
            "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'";

    private static final String CSS = loadCss();

    @Override
    public void write(ScanReport report, Writer out) throws IOException {
        out.write(new Page(report).render());
        out.flush();
    }

    /** The rule's documentation page: the URI SARIF gives as {@code helpUri}. */
    public static String helpUri(String ruleId) {
        return SarifReportWriter.HELP_URI_PREFIX + ReportPaths.encodePath(ruleId) + ".md";
    }

    // ---- one rendering

    /** A finding to show, and its suppression when it is a suppressed one. */
    private record Shown(Finding finding, Suppression suppression) {}

    private static final class Page {
        private final ScanReport report;
        private final Path root;
        private final StringBuilder html = new StringBuilder(64 * 1024);
        private final Map<String, RuleDescriptor> rules = new LinkedHashMap<>();
        private int findingNumber;

        Page(ScanReport report) {
            this.report = report;
            this.root = report.sourceRoot();
            for (RuleDescriptor rule : report.rules()) {
                rules.putIfAbsent(rule.id(), rule);
            }
        }

        String render() {
            List<Shown> shown = shownFindings();
            // shape -> rule id -> findings; shapes 1-7 first in number order, then the families by name
            Map<ShapeKey, Map<String, List<Shown>>> groups = new TreeMap<>();
            for (Shown s : shown) {
                RuleDescriptor rule = rule(s.finding().ruleId());
                groups.computeIfAbsent(ShapeKey.of(rule.shape()), k -> new TreeMap<>())
                        .computeIfAbsent(rule.id(), k -> new ArrayList<>()).add(s);
            }
            boolean open = shown.size() <= OPEN_LIMIT;

            html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                    .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                    .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(CSP).append("\">\n")
                    .append("<meta name=\"referrer\" content=\"no-referrer\">\n")
                    .append("<meta name=\"generator\" content=\"racelint ").append(esc(report.toolVersion()))
                    .append("\">\n")
                    .append("<title>racelint report: ").append(esc(shortSummary())).append("</title>\n")
                    .append("<style>\n").append(CSS).append("</style>\n</head>\n<body>\n<div class=\"page\">\n");

            header(groups, open);
            if (shown.isEmpty()) {
                html.append("<p class=\"empty\">No findings.</p>\n");
            }
            html.append("<main>\n");
            for (Map.Entry<ShapeKey, Map<String, List<Shown>>> shape : groups.entrySet()) {
                shapeSection(shape.getKey(), shape.getValue(), open);
            }
            html.append("</main>\n");
            diagnostics();
            html.append("<footer>Generated by racelint ").append(esc(report.toolVersion()))
                    .append(". Paths are relative to the scanned source root. This page loads nothing from the"
                            + " network; rule pages open on GitHub.</footer>\n");
            html.append("</div>\n</body>\n</html>\n");
            return html.toString();
        }

        private List<Shown> shownFindings() {
            ScanReport.Triage triage = report.triage();
            List<Shown> shown = new ArrayList<>();
            if (!triage.includeSuppressed() || triage.suppressed().isEmpty()) {
                report.findings().forEach(f -> shown.add(new Shown(f, null)));
                return shown;
            }
            Map<Finding, Suppression> suppressions = new IdentityHashMap<>();
            List<Finding> all = new ArrayList<>(report.findings());
            for (SuppressedFinding s : triage.suppressed()) {
                suppressions.put(s.finding(), s.suppression());
                all.add(s.finding());
            }
            all.sort(Analyzer.FINDING_ORDER);
            all.forEach(f -> shown.add(new Shown(f, suppressions.get(f))));
            return shown;
        }

        private RuleDescriptor rule(String id) {
            RuleDescriptor rule = rules.get(id);
            if (rule == null) {
                rule = new RuleDescriptor(id, id, "other", id, null, null, null, null, List.of(), null, null);
                rules.put(id, rule);
            }
            return rule;
        }

        private String shortSummary() {
            int total = report.findings().size();
            return total == 0 ? "no findings" : total + (total == 1 ? " finding" : " findings");
        }

        // ---- header: summary line, counts, contents

        private void header(Map<ShapeKey, Map<String, List<Shown>>> groups, boolean open) {
            LevelCounts counts = LevelCounts.of(report.findings());
            html.append("<header class=\"top\">\n<h1>racelint report</h1>\n")
                    .append("<p class=\"summary\">").append(esc(TextReportWriter.summary(report))).append("</p>\n")
                    .append(report.coverage() == null ? "" : "<p class=\"coverage\">"
                            + esc(CoverageReport.line(report.coverage())) + "</p>\n")
                    .append("<ul class=\"counts\">")
                    .append("<li class=\"error\"><b>").append(counts.errors()).append("</b> ")
                    .append(counts.errors() == 1 ? "error" : "errors").append("</li>")
                    .append("<li class=\"warning\"><b>").append(counts.warnings()).append("</b> ")
                    .append(counts.warnings() == 1 ? "warning" : "warnings").append("</li>")
                    .append("<li class=\"note\"><b>").append(counts.notes()).append("</b> ")
                    .append(counts.notes() == 1 ? "note" : "notes").append("</li>")
                    .append("<li><b>").append(report.filesAnalysed()).append("</b> ")
                    .append(report.filesAnalysed() == 1 ? "file" : "files").append("</li>")
                    .append("</ul>\n");
            if (!groups.isEmpty()) {
                html.append("<nav class=\"toc\" aria-label=\"Contents\">\n<ul>\n");
                for (Map.Entry<ShapeKey, Map<String, List<Shown>>> shape : groups.entrySet()) {
                    ShapeKey key = shape.getKey();
                    html.append("<li><a href=\"#").append(key.anchor()).append("\">")
                            .append(esc(shapeTitle(key))).append("</a> <span class=\"n\">(")
                            .append(reportedCount(shape.getValue().values())).append(")</span>\n<ul>\n");
                    for (Map.Entry<String, List<Shown>> rule : shape.getValue().entrySet()) {
                        RuleDescriptor descriptor = rule(rule.getKey());
                        html.append("<li><a href=\"#").append(ruleAnchor(rule.getKey())).append("\"><code>")
                                .append(esc(rule.getKey())).append("</code></a> ")
                                .append(esc(descriptor.title())).append(" <span class=\"n\">(")
                                .append(reportedCount(List.of(rule.getValue()))).append(")</span></li>\n");
                    }
                    html.append("</ul></li>\n");
                }
                html.append("</ul>\n</nav>\n");
            }
            html.append("<p class=\"meta\">racelint ").append(esc(report.toolVersion()))
                    .append(". Findings are grouped by race shape, then by rule.")
                    .append(open ? "" : " Over " + OPEN_LIMIT + " findings, so they start closed: click one to see"
                            + " its code and path.")
                    .append("</p>\n</header>\n");
        }

        private static int reportedCount(Iterable<List<Shown>> lists) {
            int n = 0;
            for (List<Shown> list : lists) {
                for (Shown s : list) {
                    if (s.suppression() == null) {
                        n++;
                    }
                }
            }
            return n;
        }

        private static String countText(List<Shown> list) {
            int reported = reportedCount(List.of(list));
            int suppressed = list.size() - reported;
            String text = reported + (reported == 1 ? " finding" : " findings");
            return suppressed == 0 ? text : text + ", " + suppressed + " suppressed";
        }

        private String shapeTitle(ShapeKey key) {
            if (key.number() > 0) {
                String name = null;
                for (RuleDescriptor rule : rules.values()) {
                    if (key.name().equals(rule.shape())) {
                        name = shapeName(key.name(), rule.helpMarkdown());
                        if (name != null) {
                            break;
                        }
                    }
                }
                return "Shape " + key.name() + (name == null ? "" : ": " + name);
            }
            String name = key.name();
            return name.isEmpty() ? name : name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
        }

        // ---- groups

        private void shapeSection(ShapeKey key, Map<String, List<Shown>> byRule, boolean open) {
            List<List<Shown>> lists = new ArrayList<>(byRule.values());
            int reported = reportedCount(lists);
            int all = lists.stream().mapToInt(List::size).sum();
            html.append("<section class=\"shape\" id=\"").append(key.anchor()).append("\">\n<h2>")
                    .append(esc(shapeTitle(key))).append(" <span class=\"count\" title=\"")
                    .append(reported).append(reported == 1 ? " finding" : " findings")
                    .append(all > reported ? ", " + (all - reported) + " suppressed" : "")
                    .append("\">").append(reported).append("</span></h2>\n");
            for (Map.Entry<String, List<Shown>> rule : byRule.entrySet()) {
                ruleSection(rule(rule.getKey()), rule.getValue(), open);
            }
            html.append("</section>\n");
        }

        private void ruleSection(RuleDescriptor rule, List<Shown> findings, boolean open) {
            String uri = helpUri(rule.id());
            html.append("<section class=\"rule\" id=\"").append(ruleAnchor(rule.id())).append("\">\n<h3><code>")
                    .append(esc(rule.id())).append("</code> ").append(esc(rule.title()))
                    .append(" <span class=\"count\" title=\"").append(countText(findings)).append("\">")
                    .append(reportedCount(List.of(findings))).append("</span>");
            if (rule.level() != null) {
                html.append(" <span class=\"badge ").append(rule.level().sarifName()).append("\">")
                        .append(rule.level().sarifName()).append("</span>");
            }
            html.append("</h3>\n");
            if (rule.description() != null && !rule.description().isBlank()) {
                html.append("<p class=\"rule-desc\">").append(esc(rule.description())).append("</p>\n");
            }
            html.append("<p class=\"rule-links\">").append(esc(countText(findings)))
                    .append(" · <a class=\"rule-page\" href=\"").append(esc(uri))
                    .append("\" rel=\"noreferrer\">Rule page: ").append(esc(rule.id())).append("</a></p>\n");
            if (rule.helpMarkdown() != null && !rule.helpMarkdown().isBlank()) {
                html.append("<details class=\"rule-help\"><summary>Rule documentation (offline copy)</summary><pre>")
                        .append(esc(rule.helpMarkdown().strip())).append("</pre></details>\n");
            }
            for (Shown shown : findings) {
                finding(shown, open);
            }
            html.append("</section>\n");
        }

        // ---- one finding

        private void finding(Shown shown, boolean open) {
            Finding finding = shown.finding();
            String id = "f" + (++findingNumber);
            String level = finding.level().sarifName();
            CodeLocation primary = finding.primary();

            // Related locations that are also path steps link to the step rather than being listed twice.
            Map<String, String> stepAnchors = new HashMap<>();
            List<List<CodeLocation>> flows = new ArrayList<>();
            if (!finding.codeFlow().isEmpty()) {
                flows.add(finding.codeFlow());
            }
            for (List<CodeLocation> other : finding.otherFlows()) {
                if (!other.isEmpty()) {
                    flows.add(other);
                }
            }
            for (int t = 0; t < flows.size(); t++) {
                List<CodeLocation> flow = flows.get(t);
                for (int s = 0; s < flow.size(); s++) {
                    stepAnchors.putIfAbsent(place(flow.get(s)), stepAnchor(id, t, s));
                }
            }
            List<String> relatedAnchors = new ArrayList<>();
            List<Integer> listedRelated = new ArrayList<>();
            for (int i = 0; i < finding.related().size(); i++) {
                String step = stepAnchors.get(place(finding.related().get(i)));
                if (step != null) {
                    relatedAnchors.add(step);
                } else {
                    relatedAnchors.add(id + "-r" + (i + 1));
                    listedRelated.add(i);
                }
            }

            html.append("<details class=\"finding ").append(level)
                    .append(shown.suppression() != null ? " is-suppressed" : "").append("\" id=\"").append(id)
                    .append('"').append(open ? " open" : "").append(">\n<summary><span class=\"badge ")
                    .append(level).append("\">").append(level).append("</span> ");
            if (shown.suppression() != null) {
                html.append("<span class=\"badge suppressed\">suppressed</span> ");
            }
            html.append("<span class=\"where\">").append(escPath(placeWithColumn(primary))).append("</span> ")
                    .append("<span class=\"msg\">");
            message(finding.message(), relatedAnchors);
            html.append("</span></summary>\n<div class=\"body\">\n");

            if (finding.enclosingMethod() != null && !finding.enclosingMethod().isBlank()) {
                html.append("<p class=\"method\"><b>In</b> <code>").append(escText(finding.enclosingMethod()))
                        .append("</code></p>\n");
            }
            excerpt(primary);

            if (!flows.isEmpty()) {
                html.append("<div class=\"flows\">\n");
                for (int t = 0; t < flows.size(); t++) {
                    String title = flows.size() == 1 ? "Path: entry to effect"
                            : "Thread " + (t + 1) + (t == 0 ? " (this path)" : "");
                    flow(id, t, title, flows.get(t));
                }
                html.append("</div>\n");
            }

            if (!listedRelated.isEmpty()) {
                html.append("<h4>Related</h4>\n<ul class=\"related\">\n");
                for (int i : listedRelated) {
                    CodeLocation related = finding.related().get(i);
                    html.append("<li id=\"").append(id).append("-r").append(i + 1).append("\"><span class=\"place\">")
                            .append(escText(place(related))).append("</span>");
                    if (related.label() != null && !related.label().isBlank()) {
                        html.append(' ').append(escText(related.label()));
                    }
                    html.append("</li>\n");
                }
                html.append("</ul>\n");
            }

            if (finding.fix() != null && !finding.fix().isBlank()) {
                html.append("<p class=\"fix\"><b>Fix:</b> ").append(escText(finding.fix())).append("</p>\n");
            }
            if (shown.suppression() != null) {
                Suppression suppression = shown.suppression();
                html.append("<p class=\"suppression\"><b>Suppressed</b> by ")
                        .append(suppression.kind() == Suppression.Kind.COMMENT ? "a comment" : "an annotation");
                if (suppression.location() != null && suppression.location().file() != null) {
                    html.append(" at <span class=\"place\">").append(escText(place(suppression.location())))
                            .append("</span>");
                }
                html.append(suppression.hasJustification()
                        ? ": " + escText(suppression.justification()) : " (no reason given)").append("</p>\n");
            }
            html.append("<p class=\"rule-links\"><a class=\"rule-page\" href=\"").append(esc(helpUri(finding.ruleId())))
                    .append("\" rel=\"noreferrer\">Rule page: ").append(esc(finding.ruleId())).append("</a></p>\n");
            html.append("</div>\n</details>\n");
        }

        private void message(Message message, List<String> relatedAnchors) {
            for (Message.Segment segment : message.segments()) {
                int index = segment.relatedIndex();
                if (index >= 0 && index < relatedAnchors.size()) {
                    html.append("<a href=\"#").append(relatedAnchors.get(index)).append("\">")
                            .append(escText(segment.text())).append("</a>");
                } else {
                    html.append(escText(segment.text()));
                }
            }
        }

        private void flow(String findingId, int thread, String title, List<CodeLocation> steps) {
            html.append("<div class=\"flow\">\n<h4>").append(esc(title)).append("</h4>\n<ol class=\"steps\">\n");
            for (int s = 0; s < steps.size(); s++) {
                CodeLocation step = steps.get(s);
                String role = s == 0 ? "entry" : s == steps.size() - 1 ? "effect" : null;
                html.append("<li class=\"step").append(role == null ? "" : " " + role).append("\" id=\"")
                        .append(stepAnchor(findingId, thread, s)).append("\"><div class=\"box\"><span class=\"num\">")
                        .append(s + 1).append("</span><div class=\"what\"><span class=\"label\">")
                        .append(escText(step.label() == null || step.label().isBlank() ? "(step)" : step.label()));
                if (role != null && steps.size() > 1) {
                    html.append("<span class=\"role\">").append(role).append("</span>");
                }
                html.append("</span><span class=\"place\">").append(escPath(place(step))).append("</span>");
                Optional<String> line = line(step.file(), step.region() == null ? 0 : step.region().startLine());
                if (line.isPresent()) {
                    String text = line.get().strip();
                    if (!text.isEmpty()) {
                        int indent = line.get().length() - line.get().stripLeading().length();
                        ReportText.Window window = ReportText.window(text,
                                step.region().startColumn() - 1 - indent, MAX_SNIPPET_CHARS);
                        html.append("<code class=\"snippet\">").append(shown(window)).append("</code>");
                    }
                }
                html.append("</div></div></li>\n");
            }
            html.append("</ol>\n</div>\n");
        }

        /** The region's lines with {@value #CONTEXT_LINES} lines around them, the region marked. */
        private void excerpt(CodeLocation location) {
            SourceRegion region = location.region();
            if (region == null || report.sources() == null || location.file() == null) {
                return;
            }
            int last = Math.min(region.endLine(), region.startLine() + MAX_REGION_LINES - 1);
            List<String> lines = new ArrayList<>();
            int first = Math.max(1, region.startLine() - CONTEXT_LINES);
            for (int n = first; n <= last + CONTEXT_LINES; n++) {
                Optional<String> line = line(location.file(), n);
                if (line.isEmpty()) {
                    if (n < region.startLine()) {
                        first = n + 1;      // unreadable context before the region: start after it
                        lines.clear();
                        continue;
                    }
                    break;
                }
                lines.add(line.get());
            }
            if (first > region.startLine() || first + lines.size() <= region.startLine()) {
                return;         // the region's own line cannot be read
            }
            html.append("<pre class=\"code\"><code>");
            for (int i = 0; i < lines.size(); i++) {
                int n = first + i;
                String text = lines.get(i);
                boolean hit = n >= region.startLine() && n <= last;
                html.append("<span class=\"l").append(hit ? " hit" : "").append("\"><span class=\"ln\">")
                        .append(n).append("</span>");
                if (!hit) {
                    html.append(shown(ReportText.window(text, region.startColumn() - 1)));
                } else {
                    int from = n == region.startLine() ? region.startColumn() - 1 : 0;
                    int to = n == region.endLine() ? region.endColumn() - 1 : text.length();
                    marked(text, from, to);
                }
                html.append("</span>");
            }
            if (last < region.endLine()) {
                html.append("<span class=\"l\"><span class=\"ln\">…</span></span>");
            }
            html.append("</code></pre>\n");
        }

        /**
         * {@code text} with the UTF-16 range [from, to) in a {@code <mark>}. A long line is cut to
         * {@value #MAX_LINE_CHARS} characters around {@code from} ({@link ReportText#window}), with
         * … where text was left out, so the mark stays in view.
         */
        private void marked(String text, int from, int to) {
            ReportText.Window window = ReportText.window(text, Math.max(0, from));
            String shown = window.text();
            int length = shown.length();
            from = boundary(shown, Math.max(0, Math.min(from - window.offset(), length)));
            to = boundary(shown, Math.max(from, Math.min(to - window.offset(), length)));
            html.append(window.cutBefore() ? ReportText.ELLIPSIS : "").append(escText(shown.substring(0, from)));
            if (to > from) {
                html.append("<mark>").append(escText(shown.substring(from, to))).append("</mark>");
            }
            html.append(escText(shown.substring(to))).append(window.cutAfter() ? ReportText.ELLIPSIS : "");
        }

        /** A cut source line, escaped, with … where text was left out. */
        private static String shown(ReportText.Window window) {
            return (window.cutBefore() ? ReportText.ELLIPSIS : "") + escText(window.text())
                    + (window.cutAfter() ? ReportText.ELLIPSIS : "");
        }

        private Optional<String> line(Path file, int n) {
            if (report.sources() == null || file == null || n < 1) {
                return Optional.empty();
            }
            return report.sources().line(file, n).map(HtmlReportWriter::stripLineEnd);
        }

        private String place(CodeLocation location) {
            String path = path(location.file());
            return location.region() == null ? path : path + ":" + location.region().startLine();
        }

        private String placeWithColumn(CodeLocation location) {
            String path = path(location.file());
            SourceRegion region = location.region();
            return region == null ? path : path + ":" + region.startLine() + ":" + region.startColumn();
        }

        /** Relative to the root; a file with no relative path shows its name only (never an absolute path). */
        private String path(Path file) {
            if (file == null) {
                return "";
            }
            if (root == null) {
                Path name = file.getFileName();
                return name == null ? "" : name.toString();
            }
            return ReportPaths.relative(root, file).orElseGet(() -> {
                Path name = file.getFileName();
                return name == null ? "" : name.toString();
            });
        }

        // ---- diagnostics

        private void diagnostics() {
            List<Diagnostic> diagnostics = report.diagnostics();
            if (diagnostics.isEmpty()) {
                return;
            }
            html.append("<details class=\"diagnostics\" id=\"diagnostics\"><summary>Diagnostics <span class=\"count\">")
                    .append(diagnostics.size()).append("</span></summary>\n")
                    .append("<p class=\"meta\">Files that could not be analysed, and notes about the scan.</p>\n<ul>\n");
            for (Diagnostic diagnostic : diagnostics) {
                String level = diagnostic.level() == null ? "warning" : diagnostic.level().sarifName();
                html.append("<li><span class=\"badge ").append(level).append("\">").append(level).append("</span> ");
                if (diagnostic.file() != null) {
                    String where = path(diagnostic.file());
                    if (diagnostic.line() > 0) {
                        where += ":" + diagnostic.line() + (diagnostic.column() > 0 ? ":" + diagnostic.column() : "");
                    }
                    html.append("<span class=\"place\">").append(escText(where)).append("</span> ");
                }
                if (diagnostic.code() != null) {
                    html.append("<code>[").append(esc(diagnostic.code())).append("]</code> ");
                }
                html.append(escText(diagnostic.message() == null ? "" : diagnostic.message())).append("</li>\n");
            }
            html.append("</ul>\n</details>\n");
        }
    }

    // ---- shapes

    /** A shape key: numbered shapes (1-7) sort first by number, then the named families by name. */
    record ShapeKey(int number, String name) implements Comparable<ShapeKey> {
        static ShapeKey of(String shape) {
            String name = shape == null || shape.isBlank() ? "other" : shape.strip();
            int number = 0;
            if (name.chars().allMatch(Character::isDigit) && name.length() < 6) {
                number = Integer.parseInt(name);
            }
            return new ShapeKey(number, name);
        }

        String anchor() {
            return "shape-" + slug(name);
        }

        @Override
        public int compareTo(ShapeKey other) {
            boolean numbered = number > 0;
            if (numbered != (other.number > 0)) {
                return numbered ? -1 : 1;
            }
            if (numbered && number != other.number) {
                return Integer.compare(number, other.number);
            }
            return name.compareTo(other.name);
        }
    }

    /**
     * The shape's name from a rule's help page, whose table has a row {@code | Shape | 6 - lock
     * ordering / deadlock |} or {@code | Shape | 6 (deadlock from inconsistent lock order) |}:
     * {@code lock ordering / deadlock}; null when there is none.
     */
    static String shapeName(String number, String helpMarkdown) {
        if (helpMarkdown == null) {
            return null;
        }
        for (String line : helpMarkdown.split("\n")) {
            String row = line.strip();
            if (!row.startsWith("|")) {
                continue;
            }
            String[] cells = row.split("\\|");
            if (cells.length < 3 || !cells[1].strip().equalsIgnoreCase("shape")) {
                continue;
            }
            String value = cells[2].strip();
            if (!value.startsWith(number)) {
                return null;
            }
            value = value.substring(number.length()).strip();
            if (value.startsWith("(") && value.endsWith(")")) {
                value = value.substring(1, value.length() - 1).strip();
            } else if (value.startsWith("-") || value.startsWith(":") || value.startsWith("–")) {
                value = value.substring(1).strip();
            }
            return value.isEmpty() ? null : value;
        }
        return null;
    }

    // ---- text helpers

    private static String stepAnchor(String findingId, int thread, int step) {
        return findingId + (thread == 0 ? "" : "-t" + (thread + 1)) + "-s" + (step + 1);
    }

    private static String ruleAnchor(String ruleId) {
        return "rule-" + slug(ruleId);
    }

    /** Lower-case letters, digits and {@code -} only: safe as an id and in a fragment. */
    static String slug(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toLowerCase(Locale.ROOT).toCharArray()) {
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
                out.append(c);
            } else if (out.length() > 0 && out.charAt(out.length() - 1) != '-') {
                out.append('-');
            }
        }
        while (out.length() > 0 && out.charAt(out.length() - 1) == '-') {
            out.setLength(out.length() - 1);
        }
        return out.length() == 0 ? "x" : out.toString();
    }

    /**
     * {@link #esc} of a string from the scanned tree: cut after {@value ReportText#MAX_TEXT_CHARS}
     * characters, and its line breaks shown as escapes too (only racelint's own text spans lines).
     */
    static String escText(String text) {
        return esc(ReportText.cut(text, ReportText.MAX_TEXT_CHARS), false);
    }

    /**
     * HTML-escapes text for element content and double- or single-quoted attribute values. The
     * characters {@link ReportText#isUnsafe} names (C0 controls other than tab, line feed and
     * carriage return; DEL; C1; the bidi overrides and isolates that could make the code shown
     * read differently from the code compiled; U+2028/U+2029) and unpaired surrogates are shown
     * as {@code \}{@code uXXXX}, so the page stays valid, encodes to UTF-8 as written and hides
     * nothing.
     */
    static String esc(String text) {
        return esc(text, true);
    }

    private static String esc(String text, boolean keepLineBreaks) {
        if (text == null) {
            return "";
        }
        StringBuilder out = null;
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            String replacement;
            switch (c) {
                case '&' -> replacement = "&amp;";
                case '<' -> replacement = "&lt;";
                case '>' -> replacement = "&gt;";
                case '"' -> replacement = "&quot;";
                case '\'' -> replacement = "&#39;";
                default -> {
                    if (ReportText.isUnsafe(c) && c != '\t' && !(keepLineBreaks && (c == '\n' || c == '\r'))) {
                        replacement = ReportText.visible(String.valueOf(c), false);
                    } else if (Character.isHighSurrogate(c)) {
                        if (i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                            if (out != null) {
                                out.append(c).append(text.charAt(i + 1));
                            }
                            i++;
                            continue;
                        }
                        replacement = ReportText.visible(String.valueOf(c), false);
                    } else if (Character.isLowSurrogate(c)) {
                        replacement = ReportText.visible(String.valueOf(c), false);
                    } else {
                        replacement = null;
                    }
                }
            }
            if (replacement == null) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(length + 16);
                out.append(text, 0, i);
            }
            out.append(replacement);
        }
        return out == null ? text : out.toString();
    }

    /** {@link #escText} with a line-break opportunity ({@code <wbr>}) after each {@code /} of a path. */
    static String escPath(String path) {
        return escText(path).replace("/", "/<wbr>");
    }

    /** {@code index} moved back off the middle of a surrogate pair. */
    private static int boundary(String text, int index) {
        return ReportText.boundary(text, index);
    }

    private static String stripLineEnd(String line) {
        int end = line.length();
        while (end > 0 && (line.charAt(end - 1) == '\n' || line.charAt(end - 1) == '\r')) {
            end--;
        }
        return line.substring(0, end);
    }

    private static String loadCss() {
        try (InputStream in = HtmlReportWriter.class.getClassLoader().getResourceAsStream(CSS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + CSS_RESOURCE);
            }
            String css = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
            if (css.contains("</")) {
                throw new IllegalStateException(CSS_RESOURCE + " must not contain '</'");
            }
            return css.endsWith("\n") ? css : css + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
