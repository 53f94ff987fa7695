package dev.racelint.analyzer.report;

import static dev.racelint.analyzer.report.ReportFixtures.render;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SarifReportWriterTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static String sarif;
    private static JsonNode run;

    @BeforeAll
    static void write() throws Exception {
        sarif = render(new SarifReportWriter(), ReportFixtures.report());
        JsonNode log = MAPPER.readTree(sarif);
        assertThat(log.get("$schema").asText()).isEqualTo("https://json.schemastore.org/sarif-2.1.0.json");
        assertThat(log.get("version").asText()).isEqualTo("2.1.0");
        assertThat(log.get("runs")).hasSize(1);
        run = log.get("runs").get(0);
    }

    @Test
    void driver() {
        JsonNode driver = run.at("/tool/driver");
        assertThat(driver.get("name").asText()).isEqualTo("racelint");
        assertThat(driver.get("semanticVersion").asText()).isEqualTo("0.1.0-SNAPSHOT");
        assertThat(driver.get("version").asText()).isEqualTo("0.1.0-SNAPSHOT");
        assertThat(driver.get("informationUri").asText()).isEqualTo("https://github.com/racelint/racelint");
        assertThat(texts(driver.get("rules"), "id")).containsExactly("io-in-transaction", "retry-not-idempotent");
    }

    @Test
    void ruleMetadata() {
        JsonNode rule = run.at("/tool/driver/rules/0");
        assertThat(rule.get("name").asText()).isEqualTo("IoInTransaction");
        assertThat(rule.at("/shortDescription/text").asText()).isEqualTo(ReportFixtures.IO_IN_TRANSACTION.title());
        assertThat(rule.at("/fullDescription/text").asText())
                .isEqualTo(ReportFixtures.IO_IN_TRANSACTION.description());
        assertThat(rule.at("/help/markdown").asText()).isEqualTo(ReportFixtures.IO_IN_TRANSACTION.helpMarkdown());
        assertThat(rule.at("/help/text").asText()).isNotBlank();
        assertThat(rule.get("helpUri").asText())
                .isEqualTo("https://github.com/racelint/racelint/blob/main/docs/rules/io-in-transaction.md");
        assertThat(rule.at("/defaultConfiguration/level").asText()).isEqualTo("error");
        assertThat(texts(rule.at("/properties/tags"), null))
                .containsExactly("concurrency", "external/cwe/cwe-362", "transactions", "security");
        // A rule with a CWE is a security rule for GitHub, ranked by its level (error: high).
        assertThat(rule.get("properties").get("security-severity").asText()).isEqualTo("7.0");
        assertThat(rule.at("/properties/precision").asText()).isEqualTo("high");
        assertThat(rule.get("properties").get("problem.severity").asText()).isEqualTo("error");

        JsonNode retry = run.at("/tool/driver/rules/1");
        assertThat(retry.get("name").asText()).isEqualTo("RetryNotIdempotent"); // from "retry_not_idempotent"
        // "warning" is java-sarif's default value and would be dropped without our mix-in.
        assertThat(retry.at("/defaultConfiguration/level").asText()).isEqualTo("warning");
        assertThat(retry.at("/properties/precision").asText()).isEqualTo("medium");
        // No CWE: a quality alert, neither tagged "security" nor given a security-severity.
        assertThat(texts(retry.at("/properties/tags"), null)).doesNotContain("security");
        assertThat(retry.get("properties").has("security-severity")).isFalse();
        assertThat(retry.get("properties").get("problem.severity").asText()).isEqualTo("warning");
    }

    @Test
    void resultWithCodeFlow() {
        JsonNode result = run.at("/results/0");
        assertThat(result.get("ruleId").asText()).isEqualTo("io-in-transaction");
        assertThat(result.get("ruleIndex").asInt()).isZero();
        assertThat(result.get("level").asText()).isEqualTo("error");
        assertThat(result.at("/message/text").asText()).isEqualTo("placeOrder() runs inside a transaction and "
                + "calls [HttpClient.send() (HTTP)](1) via RiskClient.assess(): the transaction stays open while waiting."
                + " Fix: Move the remote call out of the transaction, or use an outbox.");
        JsonNode physical = result.at("/locations/0/physicalLocation");
        assertThat(physical.at("/artifactLocation/uri").asText()).isEqualTo("src/main/java/com/acme/OrderService.java");
        assertThat(physical.at("/artifactLocation/uriBaseId").asText()).isEqualTo("%SRCROOT%");
        assertThat(physical.at("/region").toString())
                .isEqualTo("{\"startLine\":42,\"startColumn\":20,\"endLine\":42,\"endColumn\":30}");

        JsonNode related = result.at("/relatedLocations/0");
        assertThat(related.get("id").asInt()).isEqualTo(1);
        assertThat(related.at("/message/text").asText()).isEqualTo("HttpClient.send() (HTTP)");
        assertThat(related.at("/physicalLocation/artifactLocation/uri").asText())
                .isEqualTo("src/main/java/com/acme/RiskClient.java");

        assertThat(result.get("codeFlows")).hasSize(1);
        assertThat(result.at("/codeFlows/0/threadFlows")).hasSize(1);
        JsonNode steps = result.at("/codeFlows/0/threadFlows/0/locations");
        assertThat(steps).hasSize(3);
        List<String> labels = new ArrayList<>();
        for (JsonNode step : steps) {
            labels.add(step.at("/location/message/text").asText());
            assertThat(step.at("/location/physicalLocation/artifactLocation/uriBaseId").asText())
                    .isEqualTo("%SRCROOT%");
        }
        assertThat(labels).containsExactly("placeOrder() starts a transaction (@Transactional)",
                "calls RiskClient.assess()", "calls HttpClient.send() (HTTP)");
        assertThat(steps.get(2).at("/location/physicalLocation/region/startLine").asInt()).isEqualTo(30);
    }

    @Test
    void resultInFileWithSpaceAndNonAscii() {
        JsonNode result = run.at("/results/1");
        assertThat(result.get("ruleIndex").asInt()).isEqualTo(1);
        // "warning" is java-sarif's default value and would be dropped without our mix-in.
        assertThat(result.get("level").asText()).isEqualTo("warning");
        assertThat(result.at("/locations/0/physicalLocation/artifactLocation/uri").asText())
                .isEqualTo("src/main/java/com/acme/My%20Orders/Caf%C3%A9.java");
        assertThat(result.at("/message/text").asText()).isEqualTo("payments.charge(order) is retried by "
                + "[@Retryable](1) but writes items\\[0\\] each time; see also [the second write](2)."
                + " Fix: Make the write idempotent (unique key, upsert) before retrying it.");
        assertThat(result.get("relatedLocations")).hasSize(2);
        assertThat(result.at("/relatedLocations/1/id").asInt()).isEqualTo(2);
        assertThat(result.has("codeFlows")).isFalse();
    }

    @Test
    void partialFingerprints() {
        JsonNode results = run.get("results");
        for (JsonNode result : results) {
            assertThat(result.at("/partialFingerprints/primaryLocationLineHash").asText())
                    .matches("[0-9a-f]{16}:[1-9][0-9]*");
        }
        assertThat(results.at("/0/partialFingerprints/racelint~1v1").asText()).isEqualTo("f3a1c0de00000001");
        // Lines 50 and 60 differ only in whitespace: same hash, occurrences 1 and 2.
        String first = results.at("/2/partialFingerprints/primaryLocationLineHash").asText();
        String second = results.at("/3/partialFingerprints/primaryLocationLineHash").asText();
        assertThat(first).endsWith(":1");
        assertThat(second).endsWith(":2");
        assertThat(first.substring(0, 16)).isEqualTo(second.substring(0, 16));
        assertThat(first.substring(0, 16)).isEqualTo(SarifReportWriter.lineHash("audit.send(event);"));
    }

    @Test
    void lineHashIgnoresWhitespaceChanges() {
        assertThat(SarifReportWriter.lineHash("\t  foo(a,  b);  "))
                .isEqualTo(SarifReportWriter.lineHash("foo(a, b);"))
                .hasSize(16)
                .isNotEqualTo(SarifReportWriter.lineHash("foo(a,b);"));
    }

    @Test
    void runProperties() {
        assertThat(run.get("columnKind").asText()).isEqualTo("utf16CodeUnits");
        // the root is named, not located: reports carry no machine paths
        assertThat(run.at("/originalUriBaseIds/%SRCROOT%").has("uri")).isFalse();
        assertThat(run.at("/originalUriBaseIds/%SRCROOT%/description/text").asText()).contains("relative to");
        assertThat(run.at("/automationDetails/id").asText()).isEqualTo("racelint/");
    }

    @Test
    void diagnosticsAreToolExecutionNotifications() {
        JsonNode invocation = run.at("/invocations/0");
        assertThat(run.get("invocations")).hasSize(1);
        assertThat(invocation.get("executionSuccessful").asBoolean()).isTrue();
        JsonNode notifications = invocation.get("toolExecutionNotifications");
        assertThat(notifications).hasSize(3);

        JsonNode parse = notifications.get(0);
        assertThat(parse.get("level").asText()).isEqualTo("error");
        assertThat(parse.at("/descriptor/id").asText()).isEqualTo("parse-error");
        assertThat(parse.at("/message/text").asText()).isEqualTo("';' expected");
        assertThat(parse.at("/locations/0/physicalLocation/artifactLocation/uri").asText())
                .isEqualTo("src/main/java/com/acme/Broken.java");
        assertThat(parse.at("/locations/0/physicalLocation/region").toString())
                .isEqualTo("{\"startLine\":7,\"startColumn\":13}");

        JsonNode tooLarge = notifications.get(1);
        assertThat(tooLarge.get("level").asText()).isEqualTo("warning");
        assertThat(tooLarge.at("/descriptor/id").asText()).isEqualTo("file-too-large");
        assertThat(tooLarge.at("/locations/0/physicalLocation/artifactLocation/uri").asText())
                .isEqualTo("src/main/java/com/acme/Generated.java");
        assertThat(tooLarge.at("/locations/0/physicalLocation").has("region")).isFalse();

        JsonNode scanWide = notifications.get(2);
        assertThat(scanWide.get("level").asText()).isEqualTo("note");
        assertThat(scanWide.has("locations")).isFalse();
    }

    @Test
    void noTimestampsAndNoAbsolutePaths() {
        assertThat(sarif).doesNotContainIgnoringCase("timeUtc").doesNotContain("guid");
        assertThat(sarif).doesNotContain("/work/acme").doesNotContain("file:/");
        assertThat(sarif).endsWith("}\n").doesNotContain("\r");
    }

    @Test
    void emptyReport() throws Exception {
        JsonNode empty = MAPPER.readTree(render(new SarifReportWriter(), ReportFixtures.emptyReport()))
                .get("runs").get(0);
        assertThat(empty.get("results").isArray()).isTrue();
        assertThat(empty.get("results")).isEmpty();
        assertThat(empty.has("automationDetails")).isFalse();
        assertThat(empty.at("/invocations/0/executionSuccessful").asBoolean()).isTrue();
        assertThat(empty.at("/tool/driver/rules")).hasSize(2);
    }

    @Test
    void automationDetailsCategory() {
        assertThat(SarifReportWriter.automationId("racelint")).isEqualTo("racelint/");
        assertThat(SarifReportWriter.automationId("racelint/")).isEqualTo("racelint/");
        assertThat(SarifReportWriter.automationId("racelint/backend")).isEqualTo("racelint/backend");
        assertThat(SarifReportWriter.automationId(null)).isNull();
        assertThat(SarifReportWriter.automationId("  ")).isNull();
    }

    @Test
    void pascalCase() {
        assertThat(SarifReportWriter.pascalCase("IoInTransaction")).isEqualTo("IoInTransaction");
        assertThat(SarifReportWriter.pascalCase("io-in-transaction")).isEqualTo("IoInTransaction");
        assertThat(SarifReportWriter.pascalCase("check then act")).isEqualTo("CheckThenAct");
        assertThat(SarifReportWriter.pascalCase("lostUpdate")).isEqualTo("LostUpdate");
    }

    @Test
    void duplicateRulesAreWrittenOnce() throws Exception {
        ScanReport full = ReportFixtures.report();
        ScanReport dup = new ScanReport(full.toolVersion(),
                List.of(ReportFixtures.IO_IN_TRANSACTION, ReportFixtures.RETRY_NOT_IDEMPOTENT,
                        ReportFixtures.IO_IN_TRANSACTION),
                full.findings(), full.diagnostics(), full.sourceRoot(), full.sarifCategory(),
                full.filesAnalysed(), full.sources());
        String out = render(new SarifReportWriter(), dup);
        assertThat(MAPPER.readTree(out).at("/runs/0/tool/driver/rules")).hasSize(2);
        SarifAssertions.assertValidForGitHub(out);
    }

    @Test
    void checkChangeNotesAreResultsWithARegionEvenForAWholeFile() throws Exception {
        ScanReport full = ReportFixtures.report();
        List<dev.racelint.analyzer.finding.Diagnostic> diagnostics = new ArrayList<>(full.diagnostics());
        diagnostics.add(new dev.racelint.analyzer.finding.Diagnostic(full.sourceRoot().resolve("racelint.yml"), 0, 0,
                dev.racelint.analyzer.finding.Level.NOTE, dev.racelint.analyzer.finding.Diagnostic.CONFIG_CHANGED,
                "added by this change"));
        ScanReport withNote = new ScanReport(full.toolVersion(), full.rules(), full.findings(), diagnostics,
                full.sourceRoot(), full.sarifCategory(), full.filesAnalysed(), full.sources());
        String out = render(new SarifReportWriter(), withNote);
        // a note whose file is not in the tree loses its location (DiagnosticPaths) and stays a notification
        diagnostics.add(new dev.racelint.analyzer.finding.Diagnostic(java.nio.file.Path.of("/elsewhere/racelint.yml"), 2,
                0, dev.racelint.analyzer.finding.Level.NOTE, dev.racelint.analyzer.finding.Diagnostic.CONFIG_CHANGED,
                "changed"));
        String outside = render(new SarifReportWriter(), new ScanReport(full.toolVersion(), full.rules(), full.findings(),
                diagnostics, full.sourceRoot(), full.sarifCategory(), full.filesAnalysed(), full.sources()));
        SarifAssertions.assertValidForGitHub(outside);
        JsonNode note = null;
        for (JsonNode result : MAPPER.readTree(out).at("/runs/0/results")) {
            if (result.path("ruleId").asText().equals("config-changed")) {
                note = result;
            }
        }
        assertThat(note).as("the note is a result").isNotNull();
        assertThat(note.path("level").asText()).isEqualTo("note");
        // code scanning wants a region on every result (the multitool's Warning_MissingRegion otherwise)
        assertThat(note.at("/locations/0/physicalLocation/region/startLine").asInt()).isEqualTo(1);
        SarifAssertions.assertValidForGitHub(out);
    }

    @Test
    void textFromTheTreeFormsNoLinkAndNoControlCharacter() throws Exception {
        ScanReport report = ReportFixtures.hostileReport();
        String out = render(new SarifReportWriter(), report);
        SarifAssertions.assertValidForGitHub(out);   // no link but racelint's own, no raw character in any message

        for (String raw : ReportFixtures.HOSTILE_CHARACTERS) {
            assertThat(out).as("U+%04X", (int) raw.charAt(0)).doesNotContain(raw);
        }
        JsonNode result = MAPPER.readTree(out).at("/runs/0/results/0");
        String message = result.at("/message/text").asText();
        // racelint's own link to the related location still resolves
        assertThat(SarifAssertions.linkTargets(message)).containsExactly("1");
        assertThat(result.at("/relatedLocations/0/id").asInt()).isEqualTo(1);
        assertThat(message).startsWith("run\\\\u001b\\[2J\\\\u001b\\]8;;https://evil.example/\\\\u0007ok")
                .contains("\\[Click to approve\\](https://evil.example/phish)")
                .contains("[send\\\\u001b\\[2J");
        List<String> texts = new ArrayList<>();
        texts.add(result.at("/relatedLocations/0/message/text").asText());
        for (JsonNode step : result.at("/codeFlows/0/threadFlows/0/locations")) {
            texts.add(step.at("/location/message/text").asText());
        }
        for (JsonNode notification : MAPPER.readTree(out).at("/runs/0/invocations/0/toolExecutionNotifications")) {
            texts.add(notification.at("/message/text").asText());
        }
        assertThat(texts).hasSize(5).allSatisfy(text -> {
            assertThat(SarifAssertions.linkTargets(text)).as(text).isEmpty();
            assertThat(text).doesNotContain("[Click to approve](");
        });
        assertThat(texts.get(2)).contains("\\[Click to approve\\](https://evil.example/phish)()");
    }

    @Test
    void noDiagnosticNamesAPathOutsideTheRoot() throws Exception {
        String out = render(new SarifReportWriter(), ReportFixtures.hostileReport());
        assertThat(out).doesNotContain("/home/runner").doesNotContain("file:/").doesNotContain("../")
                .doesNotContain("/work/acme");
        JsonNode secret = MAPPER.readTree(out).at("/runs/0/invocations/0/toolExecutionNotifications/1");
        assertThat(secret.has("locations")).isFalse();
        assertThat(secret.at("/message/text").asText()).isEqualTo("<outside source root>/credentials: cannot read"
                + " <outside source root>/credentials: AccessDeniedException; results not cached in .racelint/cache"
                + " (see <outside source root>/credentials).");
    }

    @Test
    void longTextsAreCutAndNoSourceIsCopied() throws Exception {
        String out = render(new SarifReportWriter(), ReportFixtures.longLineReport());
        SarifAssertions.assertValidForGitHub(out);
        assertThat(out.length()).isLessThan(12 * ReportText.MAX_TEXT_CHARS);
        assertThat(out).doesNotContain("xxxxxxxxxx").doesNotContain("\"snippet\"");
        JsonNode result = MAPPER.readTree(out).at("/runs/0/results/0");
        assertThat(result.at("/message/text").asText()).isEqualTo("calls [" + "z".repeat(ReportText.MAX_TEXT_CHARS - 6) + "…](1)"
                + " Fix: fix");
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        for (JsonNode node : array) {
            out.add(field == null ? node.asText() : node.get(field).asText());
        }
        return out;
    }
}
