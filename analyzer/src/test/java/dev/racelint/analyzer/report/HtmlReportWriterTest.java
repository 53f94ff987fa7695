package dev.racelint.analyzer.report;

import static dev.racelint.analyzer.report.ReportFixtures.render;
import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.suppress.SuppressedFinding;
import dev.racelint.analyzer.suppress.Suppression;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlReportWriterTest {

    private static final Path LOCKS = ReportFixtures.ROOT.resolve("src/main/java/com/acme/Ledger.java");

    private static final RuleDescriptor LOCK_ORDER = new RuleDescriptor(
            "lock-order", "LockOrder", "6", "Locks acquired in inconsistent order",
            "Two code paths wait for the same locks in opposite orders: a deadlock.",
            Level.ERROR, Precision.HIGH, "833", List.of("concurrency", "locks"),
            "Take the locks in one global order.",
            "# lock-order\n\n| | |\n|---|---|\n| Level | error |\n| Shape | 6 - lock ordering / deadlock |\n\n"
                    + "Text with <b>tags</b> & \"quotes\".\n");

    private final HtmlReportWriter writer = new HtmlReportWriter();

    private static String html(ScanReport report) {
        return render(new HtmlReportWriter(), report);
    }

    @Test
    void isOneHtmlDocumentWithTheSummaryAndInlineStyle() {
        String html = html(ReportFixtures.report());

        assertThat(html).startsWith("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .contains("<style>\n/* racelint HTML report stylesheet").contains(":root {")
                .contains("@media (max-width: 40rem)")
                .contains("Content-Security-Policy\" content=\"default-src 'none'")
                .endsWith("</html>\n")
                .doesNotContain("\r");
        assertThat(html).contains(HtmlReportWriter.esc(TextReportWriter.summary(ReportFixtures.report())));
        assertThat(html).contains("<li class=\"error\"><b>2</b> errors</li>")
                .contains("<li class=\"warning\"><b>1</b> warning</li>")
                .contains("<li class=\"note\"><b>2</b> notes</li>")
                .contains("<li><b>41</b> files</li>");
        assertThat(count(html, "<details class=\"finding ")).isEqualTo(ReportFixtures.report().findings().size());
    }

    @Test
    void groupsFindingsByShapeThenRuleWithCounts() {
        String html = html(ReportFixtures.report());

        // both fixture rules have named shapes (families), which sort by name
        int retries = html.indexOf("<section class=\"shape\" id=\"shape-retries\">");
        int transactions = html.indexOf("<section class=\"shape\" id=\"shape-transaction-boundaries\">");
        assertThat(retries).isPositive();
        assertThat(transactions).isGreaterThan(retries);
        assertThat(html).contains("<h2>Retries <span class=\"count\" title=\"1 finding\">1</span></h2>")
                .contains("<h2>Transaction boundaries <span class=\"count\" title=\"4 findings\">4</span></h2>");

        // io-in-transaction: 4 findings, all inside its rule section, in report order
        int ioSection = html.indexOf("<section class=\"rule\" id=\"rule-io-in-transaction\">");
        int retrySection = html.indexOf("<section class=\"rule\" id=\"rule-retry-not-idempotent\">");
        assertThat(ioSection).isGreaterThan(transactions);
        assertThat(retrySection).isBetween(retries, transactions);
        assertThat(html).contains("<h3><code>io-in-transaction</code> Remote call inside a database transaction"
                + " <span class=\"count\" title=\"4 findings\">4</span> <span class=\"badge error\">error</span></h3>");
        String ioPart = html.substring(ioSection);
        assertThat(count(ioPart, "<details class=\"finding ")).isEqualTo(4);
        assertThat(ioPart.indexOf("OrderService.java:42:20")).isLessThan(ioPart.indexOf("OrderService.java:50:9"));
        assertThat(ioPart.indexOf("OrderService.java:50:9")).isLessThan(ioPart.indexOf("OrderService.java:60:13"));

        // contents: each shape and rule linked with its count
        assertThat(html).contains("<a href=\"#shape-transaction-boundaries\">Transaction boundaries</a>"
                        + " <span class=\"n\">(4)</span>")
                .contains("<a href=\"#rule-retry-not-idempotent\"><code>retry-not-idempotent</code></a>"
                        + " Retried operation is not idempotent <span class=\"n\">(1)</span>");
        // the rule's short description is embedded
        assertThat(html).contains("<p class=\"rule-desc\">Flags retry loops and @Retryable methods");
    }

    @Test
    void numberedShapesComeFirstAndTakeTheirNameFromTheRuleHelp() {
        ScanReport report = new ScanReport("1.0", List.of(ReportFixtures.IO_IN_TRANSACTION, LOCK_ORDER),
                List.of(lockOrderFinding(), ReportFixtures.ioFinding()), List.of(), ReportFixtures.ROOT, null, 3,
                ReportFixtures.sources());

        String html = html(report);

        assertThat(html).contains("<h2>Shape 6: lock ordering / deadlock <span class=\"count\"");
        assertThat(html.indexOf("id=\"shape-6\"")).isLessThan(html.indexOf("id=\"shape-transaction-boundaries\""));
        assertThat(HtmlReportWriter.shapeName("6", "| Shape | 6 (deadlock from inconsistent lock order) |"))
                .isEqualTo("deadlock from inconsistent lock order");
        assertThat(HtmlReportWriter.shapeName("2", "| Shape | 2 - lost update |")).isEqualTo("lost update");
        assertThat(HtmlReportWriter.shapeName("2", "no table")).isNull();
    }

    @Test
    void eachFindingHasItsExcerptPathDiagramFixAndRuleLink() {
        String html = html(ReportFixtures.report());
        String io = findingHtml(html, "f" + (indexOfFinding(html, "OrderService.java:42:20")));

        // the message, with its linked span pointing at the path step that is the same place
        assertThat(io).contains("<span class=\"msg\">placeOrder() runs inside a transaction and calls "
                + "<a href=\"#");
        assertThat(io).contains("In</b> <code>com.acme.OrderService.placeOrder(OrderRequest)</code>");
        // excerpt: the primary line marked, with the context that can be read
        assertThat(io).contains("<span class=\"l hit\"><span class=\"ln\">42</span>    public Receipt "
                + "<mark>placeOrder</mark>(OrderRequest request) {</span>");
        // the path: three boxes, entry first, effect last, with place and source
        assertThat(count(io, "<li class=\"step")).isEqualTo(3);
        assertThat(io).contains("<li class=\"step entry\"")
                .contains("placeOrder() starts a transaction (@Transactional)<span class=\"role\">entry</span>")
                .contains("<span class=\"place\">" + wbr("src/main/java/com/acme/OrderService.java:42") + "</span>")
                .contains("<li class=\"step effect\"")
                .contains("calls HttpClient.send() (HTTP)<span class=\"role\">effect</span>")
                .contains("<span class=\"place\">" + wbr("src/main/java/com/acme/RiskClient.java:30") + "</span>")
                .contains("<code class=\"snippet\">return http.send(request, BodyHandlers.ofString());</code>");
        assertThat(io.indexOf("step entry")).isLessThan(io.indexOf("step effect"));
        assertThat(io).contains("<p class=\"fix\"><b>Fix:</b> Move the remote call out of the transaction, or use"
                + " an outbox.</p>");
        assertThat(io).contains("<a class=\"rule-page\" href=\"https://github.com/racelint/racelint/blob/main/docs/"
                + "rules/io-in-transaction.md\" rel=\"noreferrer\">Rule page: io-in-transaction</a>");

        // the related locations that are not path steps are listed, and the message links to them
        String cafe = findingHtml(html, "f" + indexOfFinding(html, "Café.java:12:3"));
        assertThat(cafe).contains("<a href=\"#f1-r1\">@Retryable</a>")
                .contains("<li id=\"f1-r1\"><span class=\"place\">src/main/java/com/acme/My Orders/Café.java:5</span>"
                        + " @Retryable</li>")
                .contains("<li id=\"f1-r2\">")
                .doesNotContain("class=\"flows\"");
        // tabs kept, non-BMP characters whole
        assertThat(cafe).contains("<span class=\"ln\">12</span>\t\t<mark>payments.charge(order)</mark>;\t// retried");
    }

    @Test
    void aLockOrderFindingShowsEachThreadSideBySide() {
        ScanReport report = new ScanReport("1.0", List.of(LOCK_ORDER), List.of(lockOrderFinding()), List.of(),
                ReportFixtures.ROOT, null, 1, ReportFixtures.sources());

        String html = html(report);

        assertThat(html).contains("<div class=\"flows\">")
                .contains("<h4>Thread 1 (this path)</h4>")
                .contains("<h4>Thread 2</h4>")
                .contains("id=\"f1-s1\"").contains("id=\"f1-s2\"")
                .contains("id=\"f1-t2-s1\"").contains("id=\"f1-t2-s2\"");
        assertThat(count(html, "<div class=\"flow\">")).isEqualTo(2);
        assertThat(html.indexOf("Thread 1")).isLessThan(html.indexOf("Thread 2"));
        assertThat(html).contains("holds Ledger.a, waits for Ledger.b").contains("holds Ledger.b, waits for Ledger.a");
    }

    @Test
    void escapesEveryTextItWrites() {
        Path evil = ReportFixtures.ROOT.resolve("src/main/java/com/acme/<x>&\"Evil'.java");
        ReportFixtures.Sources sources = ReportFixtures.sources()
                .put(evil, 3, "String s = \"</pre><script>alert('line')</script>\" + a < b && c > d;");
        Finding finding = new Finding("io-in-transaction", Level.ERROR,
                Message.builder().text("call <script>alert(1)</script> & \"x\" ").link("<img src=x onerror=y>", 0)
                        .build(),
                new CodeLocation(evil, new SourceRegion(3, 12, 3, 30), null),
                List.of(new CodeLocation(evil, new SourceRegion(3, 1, 3, 2), "<b>related</b>")),
                List.of(new CodeLocation(evil, new SourceRegion(3, 1, 3, 2), "starts <tx> & \"more\""),
                        new CodeLocation(evil, new SourceRegion(3, 12, 3, 30), "calls </li><script>")),
                "Fix <script>alert('fix')</script>", "e1", "Evil.<init>(\"\")");
        RuleDescriptor rule = new RuleDescriptor("io-in-transaction", "x", "<shape>", "Title <i>",
                "Desc <script>alert('d')</script>", Level.ERROR, Precision.HIGH, "", List.of(), "",
                "# Help <script>alert('help')</script>\n");
        ScanReport report = new ScanReport("1.0<script>", List.of(rule), List.of(finding),
                List.of(new dev.racelint.analyzer.finding.Diagnostic(evil, 1, 1, Level.ERROR, "parse<error>",
                        "unexpected <script> & \u0000")),
                ReportFixtures.ROOT, null, 1, sources);

        String html = html(report);

        assertThat(html).doesNotContain("<script").doesNotContain("<img").doesNotContain("<x>")
                .doesNotContain("<b>related").doesNotContain("<tx>").doesNotContain("<i>")
                .doesNotContain("</li><script").doesNotContain("\u0000");
        assertThat(html).contains("call &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; ")
                .contains("&lt;img src=x onerror=y&gt;</a>")
                .contains("&lt;/pre&gt;&lt;script&gt;alert(&#39;line&#39;)&lt;/script&gt;")
                .contains("a &lt; b &amp;&amp; c &gt; d;")
                .contains(wbr("src/main/java/com/acme/&lt;x&gt;&amp;&quot;Evil&#39;.java:3:12"))
                .contains("Fix &lt;script&gt;")
                .contains("# Help &lt;script&gt;")
                .contains("&lt;shape&gt;")
                .contains("unexpected &lt;script&gt; &amp; \\u0000");
        // every tag in the page is one the writer writes
        Matcher tags = Pattern.compile("<(/?)([a-zA-Z0-9!]+)").matcher(html);
        List<String> allowed = List.of("!DOCTYPE", "html", "head", "meta", "title", "style", "body", "div", "header",
                "h1", "h2", "h3", "h4", "p", "ul", "ol", "li", "b", "a", "span", "code", "nav", "main", "section",
                "details", "summary", "pre", "mark", "footer", "wbr");
        while (tags.find()) {
            assertThat(allowed).as("tag <%s> at %d", tags.group(2), tags.start()).contains(tags.group(2));
        }
        assertThat(HtmlReportWriter.esc("a\uD800b\uDC00c\uD83D\uDE00")).isEqualTo("a\\ud800b\\udc00c\uD83D\uDE00");
    }

    @Test
    void loadsNothingFromOutside() {
        String html = html(ReportFixtures.report()) + html(ReportFixtures.emptyReport());

        assertThat(html).doesNotContainIgnoringCase("<script")
                .doesNotContainIgnoringCase("<link")
                .doesNotContainIgnoringCase("<img")
                .doesNotContainIgnoringCase("<iframe")
                .doesNotContainIgnoringCase("<object")
                .doesNotContainIgnoringCase("<embed")
                .doesNotContainIgnoringCase("@import")
                .doesNotContainIgnoringCase("url(")
                .doesNotContainIgnoringCase(" src=")
                .doesNotContainIgnoringCase("@font-face");
        // every http(s) URL is a rule-page link
        Matcher urls = Pattern.compile("https?://").matcher(html);
        int links = 0;
        while (urls.find()) {
            String before = html.substring(Math.max(0, urls.start() - 30), urls.start());
            assertThat(before).as("URL at %d", urls.start()).endsWith("<a class=\"rule-page\" href=\"");
            assertThat(html.substring(urls.start()))
                    .startsWith(SarifReportWriter.HELP_URI_PREFIX);
            links++;
        }
        assertThat(links).isPositive();
        // and every other href is a fragment of this page that exists
        Matcher hrefs = Pattern.compile("href=\"([^\"]*)\"").matcher(html(ReportFixtures.report()));
        String one = html(ReportFixtures.report());
        while (hrefs.find()) {
            String href = hrefs.group(1);
            if (href.startsWith("#")) {
                assertThat(one).as(href).contains("id=\"" + href.substring(1) + "\"");
            } else {
                assertThat(href).startsWith(SarifReportWriter.HELP_URI_PREFIX);
            }
        }
    }

    @Test
    void writesNoAbsolutePath() {
        String html = html(ReportFixtures.report());

        assertThat(html).doesNotContain(ReportFixtures.ROOT.toString())
                .doesNotContain(ReportPaths.absolute(ReportFixtures.ROOT))
                .doesNotContain("acme shop")
                .doesNotContain("file:")
                .contains(wbr("src/main/java/com/acme/OrderService.java:42:20"))
                .contains("src/main/java/com/acme/Broken.java:7:13");
    }

    @Test
    void sameReportSameBytes() {
        String first = render(writer, ReportFixtures.report());
        String second = render(writer, ReportFixtures.report());
        String other = render(new HtmlReportWriter(), ReportFixtures.report());
        assertThat(second).isEqualTo(first);
        assertThat(other).isEqualTo(first);
        assertThat(render(writer, ReportFixtures.emptyReport())).isEqualTo(html(ReportFixtures.emptyReport()));
    }

    @Test
    void anEmptyReportSaysSo() {
        String html = html(ReportFixtures.emptyReport());

        assertThat(html).contains("<p class=\"empty\">No findings.</p>")
                .contains("<title>racelint report: no findings</title>")
                .doesNotContain("<details class=\"finding")
                .doesNotContain("<nav")
                .doesNotContain("class=\"diagnostics\"");
    }

    @Test
    void listsTheDiagnostics() {
        String html = html(ReportFixtures.report());

        assertThat(html).contains("<details class=\"diagnostics\" id=\"diagnostics\"><summary>Diagnostics"
                        + " <span class=\"count\">3</span></summary>")
                .contains("<span class=\"place\">src/main/java/com/acme/Broken.java:7:13</span>"
                        + " <code>[parse-error]</code> &#39;;&#39; expected</li>")
                .contains("<code>[classpath]</code> no classpath given");
    }

    @Test
    void manyFindingsStartClosed() {
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i <= HtmlReportWriter.OPEN_LIMIT; i++) {
            findings.add(ReportFixtures.auditFinding(50, 9, "fp" + i));
        }
        ScanReport many = new ScanReport("1.0", List.of(ReportFixtures.IO_IN_TRANSACTION), findings, List.of(),
                ReportFixtures.ROOT, null, 1, ReportFixtures.sources());

        assertThat(html(many)).doesNotContain("\" open>").contains("they start closed");
        assertThat(html(ReportFixtures.report())).contains("\" open>").doesNotContain("they start closed");
    }

    @Test
    void suppressedFindingsAreShownOnlyWhenAskedAndMarked() {
        Finding quiet = ReportFixtures.auditFinding(60, 13, "q1");
        Suppression suppression = new Suppression(Suppression.Kind.COMMENT, "io-in-transaction",
                "audit is fire & forget", new CodeLocation(ReportFixtures.ORDER_SERVICE,
                        new SourceRegion(59, 13, 59, 40), null));
        ScanReport.Triage triage = ScanReport.Triage.NONE
                .withSuppressed(List.of(new SuppressedFinding(quiet, suppression)), true);
        ScanReport base = ReportFixtures.report();
        ScanReport report = new ScanReport(base.toolVersion(), base.rules(), List.of(ReportFixtures.ioFinding()),
                List.of(), base.sourceRoot(), null, 1, base.sources(), triage);

        String html = html(report);

        assertThat(count(html, "<details class=\"finding ")).isEqualTo(2);
        assertThat(html).contains("<span class=\"badge suppressed\">suppressed</span>")
                .contains("<b>Suppressed</b> by a comment at <span class=\"place\">"
                        + "src/main/java/com/acme/OrderService.java:59</span>: audit is fire &amp; forget")
                .contains("title=\"1 finding, 1 suppressed\">1</span>");

        ScanReport counted = new ScanReport(base.toolVersion(), base.rules(), List.of(ReportFixtures.ioFinding()),
                List.of(), base.sourceRoot(), null, 1, base.sources(), triage.withSuppressed(triage.suppressed(), false));
        assertThat(count(html(counted), "<details class=\"finding ")).isEqualTo(1);
        assertThat(html(counted)).contains("1 suppressed in the source");
    }

    @Test
    void cutsHugeLinesAndKeepsTheMark() {
        Path big = ReportFixtures.ROOT.resolve("src/main/java/com/acme/Min.java");
        String line = "x".repeat(5000) + "CALL()" + "y".repeat(5000);
        ReportFixtures.Sources sources = ReportFixtures.sources().put(big, 1, line);
        Finding finding = new Finding("io-in-transaction", Level.ERROR, Message.of("m"),
                new CodeLocation(big, new SourceRegion(1, 5001, 1, 5007), null), List.of(), List.of(), "f", "b1",
                "Min.m()");
        ScanReport report = new ScanReport("1.0", List.of(ReportFixtures.IO_IN_TRANSACTION), List.of(finding),
                List.of(), ReportFixtures.ROOT, null, 1, sources);

        String html = html(report);

        // A window around the mark: the text before and after it is cut, the mark stays in view.
        assertThat(html).contains("…" + "x".repeat(80) + "<mark>CALL()</mark>" + "y".repeat(154) + "…")
                .doesNotContain("x".repeat(81)).doesNotContain("y".repeat(155));
    }

    @Test
    void controlAndBidiCharactersAreShownNotObeyed() {
        String html = html(ReportFixtures.hostileReport());
        for (String raw : ReportFixtures.HOSTILE_CHARACTERS) {
            assertThat(html).as("U+%04X", (int) raw.charAt(0)).doesNotContain(raw);
        }
        assertThat(html).contains("run\\u001b[2J\\u001b]8;;https://evil.example/\\u0007ok")
                .contains("\\u0008\\u0008\\u000d\\u007f\\u0085\\u009b31m\\u202e\\u2066\\u2028[Click to approve]")
                .contains(wbr("src/main/java/com/acme/Evil\\u001b[8m\\u0007\\u0008\\u000d\\u202eavaj.java:3:30"));
        // the only links out of the page are the rule pages
        Matcher links = Pattern.compile("href=\"([^\"]*)\"").matcher(html);
        while (links.find()) {
            assertThat(links.group(1)).matches("#.*|https://github\\.com/racelint/racelint/blob/main/docs/rules/.*");
        }
    }

    @Test
    void noDiagnosticNamesAPathOutsideTheRoot() {
        String html = html(ReportFixtures.hostileReport());
        assertThat(html).doesNotContain("/home/runner").doesNotContain("../").doesNotContain("/work/acme")
                .contains("&lt;outside source root&gt;/credentials: cannot read &lt;outside source root&gt;/credentials:");
    }

    @Test
    void longLineIsCutAroundTheColumn() {
        String html = html(ReportFixtures.longLineReport());
        assertThat(html.length()).isLessThan(40_000);
        assertThat(html).contains("…" + "x".repeat(80) + "<mark>http.send(request)</mark>" + "y".repeat(142) + "…")
                .doesNotContain("x".repeat(81)).doesNotContain("z".repeat(ReportText.MAX_TEXT_CHARS + 1))
                // the path step's snippet is cut around the step's column too
                .contains("<code class=\"snippet\">…" + "x".repeat(53) + "http.send(request)");
    }

    private static Finding lockOrderFinding() {
        CodeLocation holdA = new CodeLocation(LOCKS, new SourceRegion(10, 9, 10, 25), "holds Ledger.a, waits for Ledger.b");
        return new Finding("lock-order", Level.ERROR, Message.of("Ledger.a and Ledger.b are taken in both orders."),
                new CodeLocation(LOCKS, new SourceRegion(10, 9, 10, 25), null), List.of(),
                List.of(new CodeLocation(LOCKS, new SourceRegion(9, 5, 9, 20), "transfer() locks Ledger.a"), holdA),
                "Take the locks in one global order.", "lo1", "com.acme.Ledger.transfer()",
                List.of(List.of(new CodeLocation(LOCKS, new SourceRegion(20, 5, 20, 20), "refund() locks Ledger.b"),
                        new CodeLocation(LOCKS, new SourceRegion(21, 9, 21, 25), "holds Ledger.b, waits for Ledger.a"))));
    }

    /** A path as the page writes it in a finding's heading and path steps: breakable after each {@code /}. */
    private static String wbr(String path) {
        return path.replace("/", "/<wbr>");
    }

    /** 1-based number of the finding whose place is {@code place}. */
    private static int indexOfFinding(String html, String place) {
        int at = html.indexOf(place);
        String before = html.substring(0, at);
        return count(before, "<details class=\"finding ");
    }

    private static String findingHtml(String html, String id) {
        int start = html.indexOf("id=\"" + id + "\"");
        assertThat(start).as(id).isPositive();
        return html.substring(start, html.indexOf("</details>", start));
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }
}
