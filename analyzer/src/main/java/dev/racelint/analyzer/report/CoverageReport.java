package dev.racelint.analyzer.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.racelint.analyzer.coverage.Coverage;
import dev.racelint.analyzer.coverage.CoverageModel;
import dev.racelint.analyzer.persistence.DbApiFamily;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the reports show a scan's {@link Coverage}: one line for the text summary, a detail section
 * for {@code --coverage}, and one tree with stable field names for JSON ({@code coverage}) and
 * SARIF (run property {@value #SARIF_PROPERTY}). Type names come from the scanned tree: the text
 * forms escape them ({@link ReportText#terminal}).
 */
public final class CoverageReport {

    /** The SARIF run property that holds {@link #tree}. */
    public static final String SARIF_PROPERTY = "racelint/coverage";

    private static final Map<String, String> BROKER_LABELS = Map.of("kafka", "Kafka", "rabbitmq", "RabbitMQ",
            "jms", "JMS", "sqs", "SQS", "other", "other");

    private CoverageReport() {}

    /**
     * The one line every text report has, e.g. {@code Understood: 42 HTTP entry points (POST 18, GET 24), 3 message
     * consumers (Kafka 3), 5 scheduled jobs; 37 transactions; 512 database operations (Spring Data 480, JDBC 32);
     * SQL 40 parsed, 2 by fallback; 61 effects (HTTP 40, broker publish 21); blind spots: 4 types (top:
     * com.aliyun.oss.OSS 12); 41 files, 3210 lines.}
     */
    public static String line(Coverage c) {
        Coverage.EntryPoints entry = c.entryPoints();
        StringBuilder line = new StringBuilder("Understood: ");
        line.append(count(entry.httpCount(), "HTTP entry point", "HTTP entry points"))
                .append(breakdown(entry.http(), Map.of())).append(", ")
                .append(count(entry.consumerCount(), "message consumer", "message consumers"))
                .append(breakdown(entry.consumers(), BROKER_LABELS)).append(", ")
                .append(count(entry.scheduled(), "scheduled job", "scheduled jobs")).append("; ")
                .append(count(c.transactions().scopes(), "transaction", "transactions")).append("; ")
                .append(count(c.databaseOperationCount(), "database operation", "database operations"))
                .append(breakdown(c.databaseOperations(), familyLabels())).append("; ")
                .append("SQL ").append(c.sql().parsed()).append(" parsed, ").append(c.sql().fallback())
                .append(" by fallback; ")
                .append(count(c.effectCount(), "effect", "effects"))
                .append(breakdown(c.effects(), CoverageModel.EFFECT_KINDS)).append("; ")
                .append("blind spots: ").append(count(c.blindSpots().types(), "type", "types"));
        if (!c.blindSpots().top().isEmpty()) {
            Coverage.BlindSpot top = c.blindSpots().top().get(0);
            line.append(" (top: ").append(ReportText.terminal(top.type())).append(' ').append(top.calls()).append(')');
        }
        line.append("; ").append(count(c.files(), "file", "files")).append(", ")
                .append(count(c.sourceLines(), "line", "lines")).append('.');
        return line.toString();
    }

    /** The {@code --coverage} section: every figure, one per line, ending with a newline. */
    public static String detail(Coverage c) {
        Coverage.EntryPoints entry = c.entryPoints();
        List<String[]> rows = new ArrayList<>();
        rows.add(row("files analysed", c.files() + " (" + count(c.sourceLines(), "non-blank line", "non-blank lines") + ")"));
        rows.add(row("HTTP entry points", entry.httpCount() + list(entry.http(), Map.of())
                + (entry.webhooks() > 0 ? " (" + count(entry.webhooks(), "webhook", "webhooks") + ")" : "")));
        rows.add(row("message consumers", entry.consumerCount() + list(entry.consumers(), BROKER_LABELS)));
        rows.add(row("scheduled jobs", String.valueOf(entry.scheduled())));
        rows.add(row("transactions", c.transactions().scopes() + ": " + c.transactions().annotated() + " @Transactional, "
                + c.transactions().programmatic() + " programmatic (TransactionTemplate, jOOQ, JDBC auto-commit off)"));
        rows.add(row("database operations", c.databaseOperationCount() + list(c.databaseOperations(), familyLabels())));
        rows.add(row("SQL statements", c.sql().parsed() + " parsed, " + c.sql().fallback() + " read by the fallback parser"));
        rows.add(row("effects", c.effectCount() + list(c.effects(), CoverageModel.EFFECT_KINDS)));
        Coverage.DataAccess access = c.dataAccess();
        StringBuilder data = new StringBuilder();
        data.append(count(access.mapperXmlFiles(), "mapper XML file", "mapper XML files")).append(", ")
                .append(count(access.importingFiles(), "file", "files")).append(" importing data-access packages");
        if (!access.imports().isEmpty()) {
            data.append(" (");
            String sep = "";
            for (Map.Entry<String, Integer> e : access.imports().entrySet()) {
                data.append(sep).append(e.getKey()).append(' ').append(e.getValue());
                sep = ", ";
            }
            data.append(')');
        }
        data.append(", ").append(count(access.declaredTypes(), "type", "types")).append(" declared as data access, ")
                .append(access.namedTypes()).append(" named like it");
        rows.add(row("data access seen", data.toString()));
        rows.add(row("schema", count(access.schemaTables(), "table", "tables") + " with "
                + count(access.schemaKeys(), "primary or unique key", "primary or unique keys")
                + " (DDL in .sql files, JPA mappings)"));
        rows.add(row("blind spots", count(c.blindSpots().types(), "type", "types") + ", "
                + count(c.blindSpots().calls(), "call", "calls")
                + " in transactions and handlers on types racelint does not know"
                + (c.blindSpots().top().isEmpty() ? "" : ":")));
        int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
        StringBuilder text = new StringBuilder("Coverage (what this scan understood):\n");
        for (String[] r : rows) {
            text.append("  ").append(r[0]).append(" ".repeat(width - r[0].length() + 2)).append(r[1]).append('\n');
        }
        for (Coverage.BlindSpot spot : c.blindSpots().top()) {
            text.append("    ").append(ReportText.terminal(spot.type())).append("  ").append(spot.calls()).append('\n');
        }
        return text.toString();
    }

    /**
     * The figures as a JSON tree in a fixed key order, for JSON and SARIF (a tree, not maps: the
     * writers' mappers sort map keys, and the order here is part of the format).
     */
    public static ObjectNode tree(Coverage c) {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("files", c.files());
        doc.put("sourceLines", c.sourceLines());
        Coverage.EntryPoints entry = c.entryPoints();
        ObjectNode entryPoints = doc.putObject("entryPoints");
        totalled(entryPoints.putObject("http"), entry.httpCount(), "byVerb", entry.http());
        entryPoints.put("webhooks", entry.webhooks());
        totalled(entryPoints.putObject("consumers"), entry.consumerCount(), "byBroker", entry.consumers());
        entryPoints.put("scheduled", entry.scheduled());
        ObjectNode transactions = doc.putObject("transactions");
        transactions.put("total", c.transactions().scopes());
        transactions.put("annotated", c.transactions().annotated());
        transactions.put("programmatic", c.transactions().programmatic());
        totalled(doc.putObject("databaseOperations"), c.databaseOperationCount(), "byApi", c.databaseOperations());
        ObjectNode sql = doc.putObject("sql");
        sql.put("parsed", c.sql().parsed());
        sql.put("fallback", c.sql().fallback());
        totalled(doc.putObject("effects"), c.effectCount(), "byKind", c.effects());
        ObjectNode blind = doc.putObject("blindSpots");
        blind.put("types", c.blindSpots().types());
        blind.put("calls", c.blindSpots().calls());
        ArrayNode top = blind.putArray("top");
        for (Coverage.BlindSpot spot : c.blindSpots().top()) {
            top.addObject().put("type", spot.type()).put("calls", spot.calls());
        }
        Coverage.DataAccess access = c.dataAccess();
        ObjectNode data = doc.putObject("dataAccess");
        data.put("mapperXmlFiles", access.mapperXmlFiles());
        data.put("importingFiles", access.importingFiles());
        counts(data.putObject("imports"), access.imports());
        data.put("declaredTypes", access.declaredTypes());
        data.put("namedTypes", access.namedTypes());
        data.put("schemaTables", access.schemaTables());
        data.put("schemaKeys", access.schemaKeys());
        return doc;
    }

    private static void totalled(ObjectNode node, int total, String name, Map<String, Integer> counts) {
        node.put("total", total);
        counts(node.putObject(name), counts);
    }

    private static void counts(ObjectNode node, Map<String, Integer> counts) {
        counts.forEach(node::put);
    }

    private static Map<String, String> familyLabels() {
        Map<String, String> labels = new LinkedHashMap<>();
        for (DbApiFamily family : DbApiFamily.values()) {
            labels.put(family.id(), family.label());
        }
        return labels;
    }

    /** {@code " (POST 18, GET 24)"}: the non-zero counts, most first (then in the fixed order); "" when none. */
    private static String breakdown(Map<String, Integer> counts, Map<String, String> labels) {
        List<Map.Entry<String, Integer>> nonZero = new ArrayList<>();
        counts.entrySet().stream().filter(e -> e.getValue() > 0).forEach(nonZero::add);
        if (nonZero.isEmpty()) {
            return "";
        }
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(nonZero);
        // stable: equal counts keep the fixed order
        sorted.sort((a, b) -> Integer.compare(b.getValue(), a.getValue()));
        StringBuilder text = new StringBuilder(" (");
        for (int i = 0; i < sorted.size(); i++) {
            Map.Entry<String, Integer> e = sorted.get(i);
            text.append(i == 0 ? "" : ", ").append(labels.getOrDefault(e.getKey(), e.getKey())).append(' ').append(e.getValue());
        }
        return text.append(')').toString();
    }

    /** {@code ": GET 24, POST 18"}: the non-zero counts in the fixed order; "" when none. */
    private static String list(Map<String, Integer> counts, Map<String, String> labels) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (e.getValue() > 0) {
                text.append(text.isEmpty() ? ": " : ", ").append(labels.getOrDefault(e.getKey(), e.getKey())).append(' ')
                        .append(e.getValue());
            }
        }
        return text.toString();
    }

    private static String[] row(String name, String value) {
        return new String[] {name, value};
    }

    private static String count(long n, String singular, String plural) {
        return n + " " + (n == 1 ? singular : plural);
    }
}
