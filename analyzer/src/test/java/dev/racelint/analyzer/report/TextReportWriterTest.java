package dev.racelint.analyzer.report;

import com.fasterxml.jackson.databind.JsonNode;

import static dev.racelint.analyzer.report.ReportFixtures.render;
import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.SourceRegion;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextReportWriterTest {

    @Test
    void findingWithPathExcerptAndFix() {
        String text = render(new TextReportWriter(), only(ReportFixtures.ioFinding()));
        assertThat(text).isEqualTo("""
                src/main/java/com/acme/OrderService.java:42:20: error [io-in-transaction] placeOrder() runs \
                inside a transaction and calls HttpClient.send() (HTTP) via RiskClient.assess(): the \
                transaction stays open while waiting.
                    public Receipt placeOrder(OrderRequest request) {
                                   ^~~~~~~~~~
                  path:
                    1. src/main/java/com/acme/OrderService.java:42  placeOrder() starts a transaction (@Transactional)
                    2. src/main/java/com/acme/OrderService.java:45  calls RiskClient.assess()
                    3. src/main/java/com/acme/RiskClient.java:30    calls HttpClient.send() (HTTP)
                  fix: Move the remote call out of the transaction, or use an outbox.

                1 finding (1 error, 0 warnings, 0 notes) in 1 file.
                """);
        // The related location is the last path step, so no "related:" line.
        assertThat(text).doesNotContain("related:");
    }

    @Test
    void relatedLocationsNotOnThePathAreListed() {
        String text = render(new TextReportWriter(), only(ReportFixtures.cafeFinding()));
        assertThat(text).contains("""
                src/main/java/com/acme/My Orders/Café.java:12:3: warning [retry-not-idempotent] \
                payments.charge(order) is retried by @Retryable but writes items[0] each time; see also \
                the second write.
                """);
        assertThat(text).contains("""
                  related: src/main/java/com/acme/My Orders/Café.java:5 @Retryable
                  related: src/main/java/com/acme/My Orders/Café.java:20 second write
                  fix: Make the write idempotent (unique key, upsert) before retrying it.
                """);
        assertThat(text).doesNotContain("  path:");
    }

    @Test
    void caretKeepsTabsOfTheSourceLine() {
        String text = render(new TextReportWriter(), only(ReportFixtures.cafeFinding()));
        assertThat(text).contains("\t\tpayments.charge(order);\t// retried\n"
                + "\t\t^" + "~".repeat(21) + "\n");
        // "payments.charge(order)" is 22 characters: one caret and 21 tildes.
        assertThat(TextReportWriter.markerLine("\t\tpayments.charge(order);", new SourceRegion(12, 3, 12, 25)))
                .isEqualTo("\t\t^" + "~".repeat(21));
    }

    @Test
    void caretIsAlignedUnderTheRegion() {
        String line = "    public Receipt placeOrder(OrderRequest request) {";
        String marker = TextReportWriter.markerLine(line, new SourceRegion(42, 20, 42, 30));
        assertThat(marker.indexOf('^')).isEqualTo(line.indexOf("placeOrder"));
        assertThat(marker.substring(marker.indexOf('^'))).hasSize("placeOrder".length());
    }

    @Test
    void caretCountsSurrogatePairsAsOneCharacter() {
        // U+1D11E takes two UTF-16 code units (columns 3 and 4) but one place on screen.
        String line = "\t\uD834\uDD1E x = note;";
        SourceRegion region = new SourceRegion(1, 5, 1, 6);   // the "x"
        assertThat(TextReportWriter.markerLine(line, region)).isEqualTo("\t  ^");
        // A region covering the pair underlines one character.
        assertThat(TextReportWriter.markerLine(line, new SourceRegion(1, 2, 1, 4))).isEqualTo("\t^");
    }

    @Test
    void multiLineRegionGetsOnlyACaret() {
        String text = render(new TextReportWriter(), only(ReportFixtures.multiLineFinding()));
        assertThat(text).contains("        repository.save(order)\n        ^\n");
        assertThat(text).doesNotContain("  fix:");   // blank fix is left out
    }

    @Test
    void regionPastTheEndOfTheLineIsClamped() {
        assertThat(TextReportWriter.markerLine("ab", new SourceRegion(1, 2, 1, 40))).isEqualTo(" ^");
        assertThat(TextReportWriter.markerLine("ab", new SourceRegion(1, 9, 1, 12))).isEqualTo("  ^");
    }

    @Test
    void noExcerptWhenTheLineIsUnknown() {
        ScanReport report = new ScanReport("1", List.of(ReportFixtures.IO_IN_TRANSACTION),
                List.of(ReportFixtures.multiLineFinding()), List.of(), ReportFixtures.ROOT, null, 1,
                (file, line) -> java.util.Optional.empty());
        assertThat(render(new TextReportWriter(), report)).isEqualTo("""
                src/main/java/com/acme/OrderService.java:70:9: error [io-in-transaction] The save spans lines.

                1 finding (1 error, 0 warnings, 0 notes) in 1 file.
                """);
    }

    @Test
    void diagnosticsAndSummary() {
        String text = render(new TextReportWriter(), ReportFixtures.report());
        assertThat(text).endsWith("""
                src/main/java/com/acme/Broken.java:7:13: error [parse-error] ';' expected
                src/main/java/com/acme/Generated.java: warning [file-too-large] skipped: 3 MB is over the 1 MB limit
                racelint: note [classpath] no classpath given: library types are resolved by name
                5 findings (2 errors, 1 warning, 2 notes) in 41 files; 2 files could not be analysed; \
                1 other diagnostic.
                """);
    }

    @Test
    void summaryWording() {
        assertThat(TextReportWriter.summary(ReportFixtures.emptyReport())).isEqualTo("No findings in 41 files.");

        ScanReport empty = ReportFixtures.emptyReport();
        ScanReport oneFailed = new ScanReport("1", empty.rules(), List.of(),
                List.of(new Diagnostic(ReportFixtures.BROKEN, 1, 1, Level.ERROR, "parse-error", "x"),
                        new Diagnostic(ReportFixtures.BROKEN, 9, 1, Level.ERROR, "parse-error", "y")),
                ReportFixtures.ROOT, null, 1, empty.sources());
        assertThat(TextReportWriter.summary(oneFailed)).isEqualTo("No findings in 1 file; 1 file could not be analysed.");

        ScanReport three = new ScanReport("1", empty.rules(),
                List.of(ReportFixtures.ioFinding(), ReportFixtures.ioFinding(), ReportFixtures.cafeFinding()),
                List.of(new Diagnostic(ReportFixtures.BROKEN, 1, 1, Level.ERROR, "parse-error", "x"),
                        new Diagnostic(ReportFixtures.HUGE, 0, 0, Level.WARNING, "file-too-large", "y")),
                ReportFixtures.ROOT, null, 41, empty.sources());
        assertThat(TextReportWriter.summary(three))
                .isEqualTo("3 findings (2 errors, 1 warning, 0 notes) in 41 files; 2 files could not be analysed.");
    }

    @Test
    void colorsOnlyWhenAskedFor() {
        ScanReport report = ReportFixtures.report();
        assertThat(render(new TextReportWriter(), report)).doesNotContain("\u001b[");
        assertThat(render(new TextReportWriter(false), report)).doesNotContain("\u001b[");
        String colored = render(new TextReportWriter(true), report);
        assertThat(colored).contains(": \u001b[1;31merror\u001b[0m [io-in-transaction] ")
                .contains(": \u001b[1;33mwarning\u001b[0m [retry-not-idempotent] ")
                .contains(": \u001b[1;36mnote\u001b[0m [classpath] ");
        // Without the escapes, the colored text is the plain text.
        assertThat(colored.replaceAll("\u001b\\[[0-9;]*m", "")).isEqualTo(render(new TextReportWriter(), report));
    }

    @Test
    void pathStepNumbersAlignPastNine() {
        Finding base = ReportFixtures.ioFinding();
        List<dev.racelint.analyzer.finding.CodeLocation> steps = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            steps.add(base.codeFlow().get(i % 3));
        }
        Finding longFlow = new Finding(base.ruleId(), base.level(), base.message(), base.primary(),
                base.related(), steps, base.fix(), base.fingerprint(), base.enclosingMethod());
        String text = render(new TextReportWriter(), only(longFlow));
        assertThat(text).contains("\n     1. src/main/java/com/acme/OrderService.java:42  placeOrder()")
                .contains("\n    10. src/main/java/com/acme/OrderService.java:42  placeOrder()");
    }

    @Test
    void concurrentPathsArePrintedAsOtherThreads() {
        Finding base = ReportFixtures.ioFinding();
        Finding deadlock = new Finding(base.ruleId(), base.level(), base.message(), base.primary(), base.related(),
                base.codeFlow(), base.fix(), base.fingerprint(), base.enclosingMethod(),
                List.of(List.of(base.codeFlow().get(2), base.codeFlow().get(0))));
        String text = render(new TextReportWriter(), only(deadlock));
        assertThat(text).contains("  path:\n    1. ")
                .contains("  other thread:\n    1. " + ReportPaths.display(ReportFixtures.ROOT, base.codeFlow().get(2).file()));
        JsonNode json;
        try {
            json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(render(new JsonReportWriter(), only(deadlock)));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        JsonNode others = json.path("findings").get(0).path("otherPaths");
        assertThat(others.size()).isEqualTo(1);
        assertThat(others.get(0).size()).isEqualTo(2);
    }

    @Test
    void nothingFromTheTreeReachesTheTerminalRaw() {
        ScanReport report = ReportFixtures.hostileReport();
        String text = render(new TextReportWriter(), report);

        for (String raw : ReportFixtures.HOSTILE_CHARACTERS) {
            assertThat(text).as("U+%04X", (int) raw.charAt(0)).doesNotContain(raw);
        }
        // shown, escaped, wherever they came from: file name, identifiers, message, labels, source, fix
        String shown = "\\u001b[2J\\u001b]8;;https://evil.example/\\u0007ok";
        assertThat(text).contains("src/main/java/com/acme/Evil\\u001b[8m\\u0007\\u0008\\u000d\\u202eavaj.java:3:30: ")
                .contains("error [io-in-transaction] run" + shown)
                .contains("\\u0008\\u0008\\u000d\\u007f\\u0085\\u009b31m\\u202e\\u2066\\u2028[Click to approve]")
                .contains("  fix: fix " + shown)
                .contains("\n    1. src/main/java/com/acme/Evil\\u001b[8m");
        // one line per line of output: no CR, LF or separator from the tree starts another
        assertThat(text.lines().filter(l -> l.startsWith("    rest.postForObject(url, \"")).count()).isEqualTo(1);
        // the caret sits under the region's start as shown
        List<String> lines = text.lines().toList();
        int source = lines.indexOf(lines.stream().filter(l -> l.startsWith("    rest.postForObject")).findFirst().orElseThrow());
        assertThat(lines.get(source + 1).indexOf('^')).isEqualTo(lines.get(source).indexOf("\\u001b[2J"));
        // in colour, the only escape sequences are racelint's own colours
        String colored = render(new TextReportWriter(true), report);
        assertThat(colored.replaceAll("\u001b\\[(?:1;3[136]|0)m", "")).isEqualTo(text);
    }

    @Test
    void noDiagnosticNamesAPathOutsideTheRoot() {
        String text = render(new TextReportWriter(), ReportFixtures.hostileReport());
        assertThat(text).doesNotContain("/home/runner").doesNotContain("../").doesNotContain(ReportFixtures.ROOT.toString())
                .contains("racelint: warning [unreadable] <outside source root>/credentials: cannot read"
                        + " <outside source root>/credentials: AccessDeniedException; results not cached in"
                        + " .racelint/cache (see <outside source root>/credentials).\n");
    }

    @Test
    void longLineIsCutAroundTheColumn() {
        String text = render(new TextReportWriter(), ReportFixtures.longLineReport());
        assertThat(text.length()).isLessThan(3 * ReportText.MAX_TEXT_CHARS);
        List<String> lines = text.lines().toList();
        String excerpt = lines.get(1);
        String marker = lines.get(2);
        assertThat(excerpt).hasSize(ReportText.MAX_LINE_CHARS + 2)
                .startsWith("…" + "x".repeat(80) + "http.send(request)").endsWith("y…");
        assertThat(marker).isEqualTo(" ".repeat(81) + "^" + "~".repeat(17));
        assertThat(lines.get(0)).endsWith("calls " + "z".repeat(ReportText.MAX_TEXT_CHARS - 6) + "…");
    }

    @Test
    void caretCountsEscapedCharactersAtTheirShownWidth() {
        // ESC is shown as \u001b: six places; the region "x\u0007" underlines 1 + 6 places.
        String line = "a\u001bb x\u0007;";
        assertThat(TextReportWriter.markerLine(line, new SourceRegion(1, 5, 1, 7))).isEqualTo(" ".repeat(9) + "^" + "~".repeat(6));
    }

    private static ScanReport only(Finding finding) {
        return new ScanReport("0.1.0", List.of(ReportFixtures.IO_IN_TRANSACTION, ReportFixtures.RETRY_NOT_IDEMPOTENT),
                List.of(finding), List.of(), ReportFixtures.ROOT, null, 1, ReportFixtures.sources());
    }
}
