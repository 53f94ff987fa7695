package dev.racelint.analyzer.report;

import static dev.racelint.analyzer.report.ReportFixtures.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The SARIF output against the official SARIF 2.1.0 schema and GitHub's extra requirements, and
 * {@link SarifAssertions} itself against logs that break them.
 */
class SarifSchemaValidationTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void bundledSchemaIsTheOfficialFile() throws Exception {
        assertThat(SarifAssertions.sha256(SarifAssertions.schemaBytes())).isEqualTo(SarifAssertions.SCHEMA_SHA256);
        // Where the project's shared copy is present (the developers' machines), it is the same file.
        java.nio.file.Path shared = SarifAssertions.sharedSchemaPath();
        if (java.nio.file.Files.isRegularFile(shared)) {
            assertThat(java.nio.file.Files.readAllBytes(shared)).isEqualTo(SarifAssertions.schemaBytes());
        }
    }

    @Test
    void fullReportIsValidForGitHub() throws Exception {
        String sarif = render(new SarifReportWriter(), ReportFixtures.report());
        SarifAssertions.assertValidForGitHub(sarif);

        // Kept for tools that want to look at a real sample (e.g. the SARIF multitool).
        Path sample = Path.of("target", "report-samples", "racelint-sample.sarif");
        Files.createDirectories(sample.getParent());
        Files.writeString(sample, sarif);
    }

    @Test
    void emptyReportIsValidForGitHub() {
        SarifAssertions.assertValidForGitHub(render(new SarifReportWriter(), ReportFixtures.emptyReport()));
    }

    @Test
    void reportWithoutSourcesOrCategoryIsValidForGitHub() {
        ScanReport full = ReportFixtures.report();
        ScanReport bare = new ScanReport(full.toolVersion(), full.rules(), full.findings(),
                full.diagnostics(), full.sourceRoot(), null, full.filesAnalysed(),
                (file, line) -> java.util.Optional.empty());
        SarifAssertions.assertValidForGitHub(render(new SarifReportWriter(), bare));
    }

    // --- SarifAssertions must catch what it promises to catch ---

    @Test
    void rejectsSchemaViolations() {
        assertProblem(log -> region(log).put("startLine", 0),
                "schema: /runs/0/results/0/locations/0/physicalLocation/region/startLine: must have a minimum value of 1");
        assertProblem(log -> log.put("version", "2.0.0"), "schema: /version");
        // Format assertions are on: an unencoded space is not a URI reference.
        assertProblem(log -> artifact(log).put("uri", "src/My Orders/Café.java"), "uri-reference");
    }

    @Test
    void rejectsMissingResults() {
        assertProblem(log -> run(log).remove("results"), "results must be present");
    }

    @Test
    void rejectsWrongColumnKind() {
        assertProblem(log -> run(log).put("columnKind", "unicodeCodePoints"), "columnKind");
    }

    @Test
    void rejectsInconsistentRuleIndex() {
        assertProblem(log -> result(log).put("ruleIndex", 1), "names rule retry-not-idempotent");
        assertProblem(log -> result(log).put("ruleIndex", 7), "outside tool.driver.rules");
        assertProblem(log -> result(log).put("ruleId", "no-such-rule"), "is not a rule");
    }

    @Test
    void rejectsDuplicateRuleIds() {
        assertProblem(log -> ((ObjectNode) run(log).at("/tool/driver/rules/1")).put("id", "io-in-transaction"),
                "duplicate rule id");
    }

    @Test
    void rejectsResultWithoutLocation() {
        assertProblem(log -> result(log).remove("locations"), "has no locations");
    }

    @Test
    void rejectsAbsoluteOrSchemeUris() {
        assertProblem(log -> artifact(log).put("uri", "/work/acme/OrderService.java"), "must be relative");
        assertProblem(log -> artifact(log).put("uri", "file:///work/acme/OrderService.java"),
                "must be relative");
        assertProblem(log -> artifact(log).put("uriBaseId", "SRC"), "uriBaseId must be %SRCROOT%");
        assertProblem(log -> ((ObjectNode) run(log).at("/results/1/relatedLocations/0/physicalLocation"
                        + "/artifactLocation")).put("uri", "/abs/Café.java"), "must be relative");
    }

    @Test
    void rejectsDanglingMessageLinks() {
        assertProblem(log -> ((ObjectNode) result(log).get("message")).put("text", "see [this](3)."),
                "links to (3)");
    }

    @Test
    void rejectsLinksFromTheTreeAndRawControlCharacters() {
        String phish = "[Click to approve](https://evil.example/phish)";
        assertProblem(log -> ((ObjectNode) result(log).get("message")).put("text", "see " + phish),
                "holds an embedded link to https://evil.example/phish");
        assertProblem(log -> ((ObjectNode) result(log).at("/codeFlows/0/threadFlows/0/locations/1/location/message"))
                .put("text", phish), "codeFlows[0].threadFlows[0].locations[1].location.message.text holds an embedded link");
        assertProblem(log -> ((ObjectNode) result(log).at("/relatedLocations/0/message")).put("text", phish),
                "relatedLocations[0].message.text holds an embedded link");
        assertProblem(log -> ((ObjectNode) run(log).at("/invocations/0/toolExecutionNotifications/0/message"))
                .put("text", phish), "toolExecutionNotifications[0].message.text holds an embedded link");
        assertProblem(log -> ((ObjectNode) result(log).at("/relatedLocations/0/message")).put("text", "a\u001b[2Jb"),
                "holds the raw character U+001B");
        assertProblem(log -> ((ObjectNode) result(log).get("message")).put("text", "a\u202eb"),
                "holds the raw character U+202E");
    }

    @Test
    void hostileReportIsValidForGitHub() {
        SarifAssertions.assertValidForGitHub(render(new SarifReportWriter(), ReportFixtures.hostileReport()));
        SarifAssertions.assertValidForGitHub(render(new SarifReportWriter(), ReportFixtures.longLineReport()));
    }

    @Test
    void linkParserHonoursEscapes() {
        assertThat(SarifAssertions.linkTargets("a [b](1) c \\[d\\](2) [e \\] f](3) [g](http://x)"))
                .containsExactly("1", "3", "http://x");
    }

    private static void assertProblem(Consumer<ObjectNode> breakIt, String expected) {
        ObjectNode log;
        try {
            log = (ObjectNode) MAPPER.readTree(render(new SarifReportWriter(), ReportFixtures.report()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        breakIt.accept(log);
        assertThatThrownBy(() -> SarifAssertions.assertValidForGitHub(log.toString()))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(expected);
    }

    private static ObjectNode run(ObjectNode log) {
        return (ObjectNode) log.get("runs").get(0);
    }

    private static ObjectNode result(ObjectNode log) {
        return (ObjectNode) run(log).get("results").get(0);
    }

    private static ObjectNode artifact(ObjectNode log) {
        return (ObjectNode) result(log).at("/locations/0/physicalLocation/artifactLocation");
    }

    private static ObjectNode region(ObjectNode log) {
        return (ObjectNode) result(log).at("/locations/0/physicalLocation/region");
    }
}
