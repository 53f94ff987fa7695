package dev.racelint.analyzer.report;

import static dev.racelint.analyzer.report.ReportFixtures.render;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.coverage.Coverage;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What each report format shows of a scan's coverage. */
class CoverageReportTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A coverage with some of everything; one blind-spot type name carries an escape sequence. */
    static Coverage coverage() {
        Map<String, Integer> http = counts("GET", 24, "POST", 18, "PUT", 0, "PATCH", 0, "DELETE", 0, "other", 0);
        Map<String, Integer> consumers = counts("kafka", 3, "rabbitmq", 0, "jms", 0, "sqs", 0, "other", 0);
        Map<String, Integer> operations = counts("spring-data", 480, "jpa", 0, "hibernate", 0, "jdbc", 32,
                "jdbc-template", 0, "jdbc-client", 0, "mybatis", 0, "jooq", 0, "jdbi", 0, "other", 0);
        Map<String, Integer> effects = counts("http", 40, "publish", 21, "mail", 0, "rpc", 0, "sdk", 0, "sleep", 0,
                "ack", 0, "event", 0, "lock", 0, "idempotency-claim", 0, "other", 0);
        return new Coverage(41, 3210, new Coverage.EntryPoints(http, 2, consumers, 5), new Coverage.Transactions(37, 30, 7),
                operations, new Coverage.Sql(40, 2), effects,
                new Coverage.BlindSpots(4, 20, List.of(new Coverage.BlindSpot("com.aliyun.oss.OSS", 12),
                        new Coverage.BlindSpot("evil.\u001b[2JType", 8))),
                new Coverage.DataAccess(12, 40, counts("org.apache.ibatis", 30, "java.sql", 10), 3, 7, 9, 14));
    }

    private static ScanReport with(ScanReport r, Coverage coverage) {
        return new ScanReport(r.toolVersion(), r.rules(), r.findings(), r.diagnostics(), r.sourceRoot(), r.sarifCategory(),
                r.filesAnalysed(), r.sources(), r.triage(), coverage);
    }

    private static final String LINE = "Understood: 42 HTTP entry points (GET 24, POST 18), 3 message consumers (Kafka 3),"
            + " 5 scheduled jobs; 37 transactions; 512 database operations (Spring Data 480, JDBC 32); SQL 40 parsed,"
            + " 2 by fallback; 61 effects (HTTP 40, broker publish 21); blind spots: 4 types (top: com.aliyun.oss.OSS 12);"
            + " 41 files, 3210 lines.";

    @Test
    void theTextReportHasTheCoverageLineBeforeTheSummaryAlsoWithoutFindings() {
        String text = render(new TextReportWriter(), with(ReportFixtures.emptyReport(), coverage()));

        assertThat(text).isEqualTo(LINE + "\nNo findings in 41 files.\n");
        assertThat(render(new TextReportWriter(), with(ReportFixtures.report(), coverage())))
                .contains("\n" + LINE + "\n5 findings");
    }

    @Test
    void theDetailSectionOnlyWithTheOptionAndTypeNamesEscaped() {
        ScanReport report = with(ReportFixtures.emptyReport(), coverage());
        assertThat(render(new TextReportWriter(), report)).doesNotContain("Coverage (what this scan understood)");

        String detail = render(new TextReportWriter(false, true), report);

        assertThat(detail).startsWith("Coverage (what this scan understood):\n").endsWith(LINE + "\nNo findings in 41 files.\n")
                .contains("  files analysed       41 (3210 non-blank lines)\n")
                .contains("  HTTP entry points    42: GET 24, POST 18 (2 webhooks)\n")
                .contains("  message consumers    3: Kafka 3\n")
                .contains("  scheduled jobs       5\n")
                .contains("  transactions         37: 30 @Transactional, 7 programmatic")
                .contains("  database operations  512: Spring Data 480, JDBC 32\n")
                .contains("  SQL statements       40 parsed, 2 read by the fallback parser\n")
                .contains("  effects              61: HTTP 40, broker publish 21\n")
                .contains("  data access seen     12 mapper XML files, 40 files importing data-access packages"
                        + " (org.apache.ibatis 30, java.sql 10), 3 types declared as data access, 7 named like it\n")
                .contains("  schema               9 tables with 14 primary or unique keys (DDL in .sql files, JPA mappings)\n")
                .contains("  blind spots          4 types, 20 calls in transactions and handlers")
                .contains("\n    com.aliyun.oss.OSS  12\n    evil.\\u001b[2JType  8\n")
                .doesNotContain("\u001b");
    }

    @Test
    void aReportWithoutCoverageHasNoLine() {
        assertThat(render(new TextReportWriter(), ReportFixtures.emptyReport())).isEqualTo("No findings in 41 files.\n");
    }

    @Test
    void jsonHasATopLevelCoverageObjectWithStableFieldsInOrder() throws Exception {
        JsonNode doc = MAPPER.readTree(render(new JsonReportWriter(), with(ReportFixtures.emptyReport(), coverage())));

        List<String> top = names(doc);
        assertThat(top.indexOf("coverage")).isEqualTo(top.indexOf("summary") + 1);
        JsonNode c = doc.get("coverage");
        assertThat(names(c)).containsExactly("files", "sourceLines", "entryPoints", "transactions", "databaseOperations",
                "sql", "effects", "blindSpots", "dataAccess");
        assertThat(c.get("entryPoints").toString()).isEqualTo("{\"http\":{\"total\":42,\"byVerb\":{\"GET\":24,\"POST\":18,"
                + "\"PUT\":0,\"PATCH\":0,\"DELETE\":0,\"other\":0}},\"webhooks\":2,\"consumers\":{\"total\":3,\"byBroker\":"
                + "{\"kafka\":3,\"rabbitmq\":0,\"jms\":0,\"sqs\":0,\"other\":0}},\"scheduled\":5}");
        assertThat(c.get("transactions").toString()).isEqualTo("{\"total\":37,\"annotated\":30,\"programmatic\":7}");
        assertThat(c.path("databaseOperations").path("total").asInt()).isEqualTo(512);
        assertThat(names(c.path("databaseOperations").path("byApi"))).containsExactly("spring-data", "jpa", "hibernate",
                "jdbc", "jdbc-template", "jdbc-client", "mybatis", "jooq", "jdbi", "other");
        assertThat(c.get("sql").toString()).isEqualTo("{\"parsed\":40,\"fallback\":2}");
        assertThat(c.path("effects").path("byKind").path("publish").asInt()).isEqualTo(21);
        assertThat(c.get("blindSpots").toString()).isEqualTo("{\"types\":4,\"calls\":20,\"top\":[{\"type\":"
                + "\"com.aliyun.oss.OSS\",\"calls\":12},{\"type\":\"evil.\\u001B[2JType\",\"calls\":8}]}");
        assertThat(c.get("dataAccess").toString()).isEqualTo("{\"mapperXmlFiles\":12,\"importingFiles\":40,\"imports\":"
                + "{\"org.apache.ibatis\":30,\"java.sql\":10},\"declaredTypes\":3,\"namedTypes\":7,\"schemaTables\":9,"
                + "\"schemaKeys\":14}");
        assertThat(c.get("files").asInt()).isEqualTo(41);
        assertThat(c.get("sourceLines").asLong()).isEqualTo(3210);
    }

    @Test
    void sarifCarriesItAsARunPropertyAndStillValidates() throws Exception {
        String sarif = render(new SarifReportWriter(), with(ReportFixtures.report(), coverage()));

        SarifAssertions.assertValidForGitHub(sarif);
        JsonNode property = MAPPER.readTree(sarif).path("runs").get(0).path("properties").path(CoverageReport.SARIF_PROPERTY);
        assertThat(property.isObject()).as(sarif).isTrue();
        assertThat(property.toString()).isEqualTo(CoverageReport.tree(coverage()).toString());
        assertThat(names(property)).startsWith("files", "sourceLines", "entryPoints");
        String json = render(new JsonReportWriter(), with(ReportFixtures.report(), coverage()));
        assertThat(property.toString()).isEqualTo(MAPPER.readTree(json).get("coverage").toString());
    }

    @Test
    void htmlShowsTheLine() {
        String html = render(new HtmlReportWriter(), with(ReportFixtures.emptyReport(), coverage()));

        assertThat(html).contains("<p class=\"coverage\">Understood: 42 HTTP entry points (GET 24, POST 18)")
                .contains("blind spots: 4 types (top: com.aliyun.oss.OSS 12)");
    }

    private static List<String> names(JsonNode node) {
        List<String> out = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    private static Map<String, Integer> counts(Object... pairs) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put((String) pairs[i], (Integer) pairs[i + 1]);
        }
        return out;
    }
}
