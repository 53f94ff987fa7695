package dev.racelint.analyzer.report;

import static dev.racelint.analyzer.report.ReportFixtures.render;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonReportWriterTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void topLevelAndSummary() throws Exception {
        JsonNode doc = MAPPER.readTree(render(new JsonReportWriter(), ReportFixtures.report()));
        assertThat(fieldNames(doc)).containsExactly("tool", "version", "sourceRoot", "summary", "coverage", "findings",
                "diagnostics");
        assertThat(doc.get("tool").asText()).isEqualTo("racelint");
        assertThat(doc.get("version").asText()).isEqualTo("0.1.0-SNAPSHOT");
        assertThat(doc.get("sourceRoot").asText()).isEqualTo("acme shop");
        assertThat(doc.get("summary").toString()).isEqualTo(
                "{\"findings\":5,\"error\":2,\"warning\":1,\"note\":2,\"files\":41,\"diagnostics\":3,\"sqlFallback\":0,"
                        + "\"suppressed\":0}");
    }

    @Test
    void findings() throws Exception {
        JsonNode findings = MAPPER.readTree(render(new JsonReportWriter(), ReportFixtures.report())).get("findings");
        assertThat(findings).hasSize(5);

        JsonNode io = findings.get(0);
        assertThat(fieldNames(io)).containsExactly("ruleId", "level", "message", "file", "startLine", "startColumn",
                "endLine", "endColumn", "method", "fingerprint", "fix", "related", "path");
        assertThat(io.get("ruleId").asText()).isEqualTo("io-in-transaction");
        assertThat(io.get("level").asText()).isEqualTo("error");
        assertThat(io.get("message").asText()).isEqualTo("placeOrder() runs inside a transaction and calls "
                + "HttpClient.send() (HTTP) via RiskClient.assess(): the transaction stays open while waiting.");
        assertThat(io.get("file").asText()).isEqualTo("src/main/java/com/acme/OrderService.java");
        assertThat(io.get("startLine").asInt()).isEqualTo(42);
        assertThat(io.get("startColumn").asInt()).isEqualTo(20);
        assertThat(io.get("endLine").asInt()).isEqualTo(42);
        assertThat(io.get("endColumn").asInt()).isEqualTo(30);
        assertThat(io.get("method").asText()).isEqualTo("com.acme.OrderService.placeOrder(OrderRequest)");
        assertThat(io.get("fingerprint").asText()).isEqualTo("f3a1c0de00000001");
        assertThat(io.get("fix").asText()).isEqualTo("Move the remote call out of the transaction, or use an outbox.");
        assertThat(io.get("related").toString()).isEqualTo("[{\"file\":\"src/main/java/com/acme/RiskClient.java\","
                + "\"line\":30,\"column\":16,\"label\":\"HttpClient.send() (HTTP)\"}]");
        assertThat(io.get("path")).hasSize(3);
        assertThat(io.at("/path/1").toString()).isEqualTo("{\"file\":\"src/main/java/com/acme/OrderService.java\","
                + "\"line\":45,\"column\":21,\"label\":\"calls RiskClient.assess()\"}");

        JsonNode cafe = findings.get(1);
        assertThat(cafe.get("file").asText()).isEqualTo("src/main/java/com/acme/My Orders/Café.java");
        assertThat(cafe.get("message").asText()).contains("writes items[0] each time");
        assertThat(cafe.get("related")).hasSize(2);
        assertThat(cafe.get("path").isArray()).isTrue();
        assertThat(cafe.get("path")).isEmpty();
        assertThat(findings.get(2).get("level").asText()).isEqualTo("note");
        assertThat(findings.get(4).get("endLine").asInt()).isEqualTo(72);
    }

    @Test
    void diagnostics() throws Exception {
        JsonNode diagnostics = MAPPER.readTree(render(new JsonReportWriter(), ReportFixtures.report()))
                .get("diagnostics");
        assertThat(diagnostics).hasSize(3);
        assertThat(diagnostics.get(0).toString()).isEqualTo("{\"file\":\"src/main/java/com/acme/Broken.java\","
                + "\"line\":7,\"column\":13,\"level\":\"error\",\"code\":\"parse-error\",\"message\":\"';' expected\"}");
        assertThat(diagnostics.get(1).get("line").isNull()).isTrue();
        assertThat(diagnostics.get(1).get("column").isNull()).isTrue();
        assertThat(diagnostics.get(1).get("code").asText()).isEqualTo("file-too-large");
        assertThat(diagnostics.get(2).get("file").isNull()).isTrue();
        assertThat(diagnostics.get(2).get("level").asText()).isEqualTo("note");
    }

    @Test
    void emptyReport() throws Exception {
        String json = render(new JsonReportWriter(), ReportFixtures.emptyReport());
        JsonNode doc = MAPPER.readTree(json);
        assertThat(doc.get("findings").isArray()).isTrue();
        assertThat(doc.get("findings")).isEmpty();
        assertThat(doc.get("diagnostics")).isEmpty();
        assertThat(doc.at("/summary/findings").asInt()).isZero();
        assertThat(doc.at("/summary/files").asInt()).isEqualTo(41);
        assertThat(json).contains("\"findings\": []").endsWith("}\n").doesNotContain("\r");
    }

    @Test
    void controlAndBidiCharactersAreEscapedInTheBytes() throws Exception {
        ScanReport report = ReportFixtures.hostileReport();
        String json = render(new JsonReportWriter(), report);

        for (String raw : ReportFixtures.HOSTILE_CHARACTERS) {
            assertThat(json).as("U+%04X", (int) raw.charAt(0)).doesNotContain(raw);
        }
        assertThat(json).contains("\\u001B[2J").contains("\\u007F\\u0085\\u009B31m\\u202E\\u2066\\u2028[Click");
        // the values are the tree's text, unchanged, for scripts
        JsonNode finding = MAPPER.readTree(json).at("/findings/0");
        assertThat(finding.get("message").asText()).isEqualTo(report.findings().get(0).message().plain());
        assertThat(finding.get("file").asText()).isEqualTo(ReportPaths.display(ReportFixtures.ROOT, ReportFixtures.HOSTILE_FILE));
        assertThat(finding.at("/path/1/label").asText()).isEqualTo("calls send" + ReportFixtures.HOSTILE + "()");
    }

    @Test
    void noDiagnosticNamesAPathOutsideTheRoot() throws Exception {
        String json = render(new JsonReportWriter(), ReportFixtures.hostileReport());
        assertThat(json).doesNotContain("/home/runner").doesNotContain("../").doesNotContain(ReportFixtures.ROOT.toString());
        JsonNode secret = MAPPER.readTree(json).at("/diagnostics/1");
        assertThat(secret.get("file").isNull()).isTrue();
        assertThat(secret.get("message").asText()).isEqualTo("<outside source root>/credentials: cannot read"
                + " <outside source root>/credentials: AccessDeniedException; results not cached in .racelint/cache"
                + " (see <outside source root>/credentials).");
    }

    @Test
    void longTextsAreCut() throws Exception {
        String json = render(new JsonReportWriter(), ReportFixtures.longLineReport());
        assertThat(json.length()).isLessThan(4 * ReportText.MAX_TEXT_CHARS);
        JsonNode finding = MAPPER.readTree(json).at("/findings/0");
        assertThat(finding.get("message").asText()).hasSize(ReportText.MAX_TEXT_CHARS + 1).endsWith("z…");
        assertThat(finding.at("/path/0/label").asText()).hasSize(ReportText.MAX_TEXT_CHARS + 1);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
