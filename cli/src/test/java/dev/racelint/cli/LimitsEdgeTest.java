package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.AnalysisLimits.Limit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A fixture on each side of every numeric bound ({@link Limit}): code whose finding (or diagnostic)
 * appears at exactly the bound and disappears one step beyond it, at the default and, through
 * {@code limits:} in racelint.yml, at another value. Each fixture is generated for a distance
 * {@code n} in the bound's own unit (calls, passes, characters, brackets...), so the edge is
 * exact: a bound that is not applied, or applied one step off, fails here.
 */
class LimitsEdgeTest {

    @TempDir
    Path dir;

    /** A source tree at distance {@code n} from the bound's start, and whether the scan saw what lies there. */
    private record Edge(String name, Writer writer, Seen seen) {}

    private interface Writer {
        void write(Path root, int n) throws IOException;
    }

    private interface Seen {
        boolean test(JsonNode report, int n);
    }

    private static final String LOADER_READ = "jdbc.queryForMap(\"SELECT p.id, b.name FROM products p \"\n"
            + "+ \"JOIN brands b ON b.id = p.brand_id WHERE p.id = ?\", id)";
    private static final String LOADER_REMOTE = "rest.getForObject(\"https://catalog.example/products/{id}\", Map.class, id)";

    /** Each bound's edges: one per place the bound is applied, so that dropping any of them fails a test. */
    private static final Map<Limit, List<Edge>> EDGES = new EnumMap<>(Limit.class);

    static {
        EDGES.put(Limit.WITNESS_CALLS, List.of(
                edge("io-in-transaction", LimitsEdgeTest::ioInTransaction, finding("io-in-transaction")),
                edge("lock-order", LimitsEdgeTest::lockOrderThroughCalls, finding("lock-order"))));
        EDGES.put(Limit.REACH_DEPTH, List.of(
                edge("consumer", LimitsEdgeTest::consumerInsert, finding("non-idempotent-consumer"))));
        EDGES.put(Limit.CACHE_LOADER_CALLS, List.of(
                edge("read", (root, n) -> cacheLoader(root, n, LOADER_READ), finding("cache-stampede")),
                edge("remote", (root, n) -> cacheLoader(root, n, LOADER_REMOTE), finding("cache-stampede"))));
        EDGES.put(Limit.LOCK_IO_CALLS, List.of(edge("http", LimitsEdgeTest::lockAcrossIo, finding("lock-across-io"))));
        EDGES.put(Limit.PUBLISH_CALLS, List.of(
                edge("kafka", (root, n) -> dualWrite(root, n, false), finding("dual-write")),
                // a publish one call away that does not count (outside the transaction) gets past the rule's
                // quick reachability test, so the bound on the path itself decides
                edge("beside-an-outside-publish", (root, n) -> dualWrite(root, n, true), finding("dual-write"))));
        // the other way round: within the bound the job is its instance's own, so no finding
        EDGES.put(Limit.JOB_STATE_CALLS, List.of(
                edge("drain", (root, n) -> flushJob(root, n, -1), finding("unlocked-scheduled-job").negate()),
                edge("read", (root, n) -> flushJob(root, 0, n), finding("unlocked-scheduled-job"))));
        EDGES.put(Limit.HELPER_CALLS, List.of(
                edge("dao-chain", LimitsEdgeTest::helperChain, finding("unchecked-row-count"))));
        EDGES.put(Limit.FLOW_PASSES, List.of(edge("locals", LimitsEdgeTest::reversedChain, finding("check-then-act"))));
        // n spokes make n cycles in one component: the n-th is seen when all n are reported
        EDGES.put(Limit.LOCK_CYCLES_PER_COMPONENT, List.of(new Edge("spokes", LimitsEdgeTest::lockSpokes,
                (report, n) -> count(report, "lock-order") == n)));
        EDGES.put(Limit.MYBATIS_INCLUDE_DEPTH, List.of(
                edge("includes", (root, n) -> mapper(root, n, 0), finding("unchecked-row-count"))));
        EDGES.put(Limit.MAPPER_FILE_BYTES, List.of(
                edge("padded", (root, n) -> mapper(root, 1, n), finding("unchecked-row-count"))));
        EDGES.put(Limit.SQL_EXPRESSION_DEPTH, List.of(
                edge("parentheses", LimitsEdgeTest::parenthesisedSql, finding("unchecked-row-count"))));
        EDGES.put(Limit.SQL_TEXT_CHARS, List.of(
                edge("concatenation", LimitsEdgeTest::longConcatenation, finding("unchecked-row-count"))));
        EDGES.put(Limit.SQL_PARSE_CHARS, List.of(edge("literal", LimitsEdgeTest::longStatement, noDiagnostic("sql-fallback"))));
        // n ANDs put the guard and the key n levels deep in the WHERE clause's tree
        EDGES.put(Limit.SQL_TREE_DEPTH, List.of(edge("where-chain", (root, n) -> debit(root,
                '"' + "UPDATE accounts SET balance = balance - ? WHERE balance >= ? AND id = ?" + " AND 1 = 1".repeat(n - 1)
                + '"'),
                finding("unchecked-row-count"))));
        EDGES.put(Limit.NESTING_DEPTH, List.of(edge("parentheses", LimitsEdgeTest::nested, noDiagnostic("too-deep"))));
    }

    @ParameterizedTest
    @EnumSource(Limit.class)
    void atTheDefaultTheBoundIsSeenAndOneStepBeyondItIsNot(Limit limit) throws IOException {
        int bound = limit.defaultValue();
        for (Edge edge : EDGES.get(limit)) {
            String what = limit.key() + " (" + edge.name() + ")";
            assertThat(scanAt(limit, edge, bound, null)).as(what + " at " + bound).isTrue();
            assertThat(scanAt(limit, edge, bound + 1, null)).as(what + " at " + (bound + 1)).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(Limit.class)
    void racelintYmlMovesTheEdge(Limit limit) throws IOException {
        // up where the range allows it (the bound is then really the setting, not a fixed cap below it), else down
        int bound = limit.defaultValue() < limit.max() ? limit.defaultValue() + 1 : limit.defaultValue() - 1;
        String yml = "limits:\n  " + limit.key() + ": " + bound + "\n";
        for (Edge edge : EDGES.get(limit)) {
            String what = limit.key() + " (" + edge.name() + ") set to " + bound;
            assertThat(scanAt(limit, edge, bound, yml)).as(what + ", at " + bound).isTrue();
            assertThat(scanAt(limit, edge, bound + 1, yml)).as(what + ", at " + (bound + 1)).isFalse();
        }
    }

    @Test
    void everyLimitHasAnEdge() {
        assertThat(EDGES.keySet()).containsExactlyInAnyOrder(Limit.values());
        assertThat(EDGES.values()).allSatisfy(edges -> assertThat(edges).isNotEmpty());
    }

    @Test
    void aChangedLimitIsNotAnsweredFromTheCache() throws IOException {
        Path project = dir.resolve("cached");
        ioInTransaction(project, Limit.WITNESS_CALLS.defaultValue());
        Path cache = dir.resolve("cache");
        Cli.Run first = Cli.run("scan", project.toString(), "--format", "json", "--fail-on", "none",
                "--cache-dir", cache.toString());
        assertThat(count(json(first), "io-in-transaction")).as(first.toString()).isEqualTo(1);

        Sources.write(project, "racelint.yml", "limits:\n  witness-calls: " + (Limit.WITNESS_CALLS.defaultValue() - 1) + "\n");
        Cli.Run second = Cli.run("scan", project.toString(), "--format", "json", "--fail-on", "none",
                "--cache-dir", cache.toString());
        assertThat(count(json(second), "io-in-transaction")).as(second.toString()).isZero();
    }

    @Test
    void aLowerNestingDepthIsNotAnsweredFromCachedSyntaxTrees() throws IOException {
        Path project = dir.resolve("trees");
        nested(project, 20);
        Path cache = dir.resolve("tree-cache");
        Cli.Run first = Cli.run("scan", project.toString(), "--format", "json", "--fail-on", "none",
                "--cache-dir", cache.toString());
        assertThat(noDiagnostic("too-deep").test(json(first))).as(first.toString()).isTrue();

        Sources.write(project, "racelint.yml", "limits:\n  nesting-depth: 19\n");
        Cli.Run second = Cli.run("scan", project.toString(), "--format", "json", "--fail-on", "none",
                "--cache-dir", cache.toString());
        assertThat(noDiagnostic("too-deep").test(json(second))).as("the cached tree passed 1,000, not 19: " + second)
                .isFalse();
    }

    // ---- running ----------------------------------------------------------------------------

    private boolean scanAt(Limit limit, Edge edge, int n, String yml) throws IOException {
        Path project = Files.createDirectories(dir.resolve(limit.key() + "-" + edge.name() + "-" + n
                + (yml == null ? "" : "-configured")));
        edge.writer().write(project, n);
        if (yml != null) {
            Sources.write(project, "racelint.yml", yml);
        }
        Cli.Run run = Cli.run("scan", project.toString(), "--format", "json", "--fail-on", "none", "--no-cache",
                "--min-level", "note"); // cache-stampede is a note rule
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return edge.seen().test(json(run), n);
    }

    private static JsonNode json(Cli.Run run) {
        try {
            return new ObjectMapper().readTree(run.out());
        } catch (IOException e) {
            throw new UncheckedIOException(run.toString(), e);
        }
    }

    private static int count(JsonNode report, String ruleId) {
        int n = 0;
        for (JsonNode f : report.path("findings")) {
            n += f.path("ruleId").asText().equals(ruleId) ? 1 : 0;
        }
        return n;
    }

    private static Predicate<JsonNode> finding(String ruleId) {
        return report -> count(report, ruleId) > 0;
    }

    private static Predicate<JsonNode> noDiagnostic(String code) {
        return report -> {
            for (JsonNode d : report.path("diagnostics")) {
                if (d.path("code").asText().equals(code)) {
                    return false;
                }
            }
            return true;
        };
    }

    private static Edge edge(String name, Writer writer, Predicate<JsonNode> seen) {
        return new Edge(name, writer, (report, n) -> seen.test(report));
    }

    // ---- the fixtures -----------------------------------------------------------------------

    /**
     * {@code entry} calls {@code step1}, which calls {@code step2} ... {@code stepN}, which runs {@code effect}:
     * the effect is {@code n} calls from {@code entry} (in {@code entry} itself for n = 0).
     */
    private static String chain(String entryHead, int n, String effect) {
        StringBuilder out = new StringBuilder();
        out.append("    ").append(entryHead).append(" {\n        ")
                .append(n == 0 ? effect : "step1();").append("\n    }\n");
        for (int i = 1; i <= n; i++) {
            out.append("\n    void step").append(i).append("() {\n        ")
                    .append(i == n ? effect : "step" + (i + 1) + "();").append("\n    }\n");
        }
        return out.toString();
    }

    private static void ioInTransaction(Path root, int n) {
        Sources.write(root, "src/main/java/demo/Checkout.java", """
                package demo;

                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.stereotype.Service;
                import org.springframework.transaction.annotation.Transactional;
                import org.springframework.web.client.RestTemplate;

                @Service
                public class Checkout {
                    private final RestTemplate rest;
                    private final JdbcTemplate jdbc;

                    public Checkout(RestTemplate rest, JdbcTemplate jdbc) {
                        this.rest = rest;
                        this.jdbc = jdbc;
                    }

                """ + chain("@Transactional\n    public void checkout()", n,
                "rest.postForObject(\"https://payments.example/charge\", \"order\", String.class);")
                        // the transaction writes first, so the call puts something at risk
                        .replaceFirst("\\{\n        ", "{\n        jdbc.update(\"UPDATE orders SET state = 'PAYING'\");\n        ")
                + "}\n");
    }

    private static void consumerInsert(Path root, int n) {
        Sources.write(root, "src/main/java/demo/PaymentListener.java", """
                package demo;

                import org.apache.kafka.clients.consumer.ConsumerRecord;
                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.kafka.annotation.KafkaListener;
                import org.springframework.stereotype.Component;

                @Component
                public class PaymentListener {
                    private final JdbcTemplate jdbc;

                    public PaymentListener(JdbcTemplate jdbc) {
                        this.jdbc = jdbc;
                    }

                """ + chain("@KafkaListener(topics = \"payments.captured\", groupId = \"ledger\")\n"
                        + "    public void onPaymentCaptured(ConsumerRecord<String, String> record)", n,
                "jdbc.update(\"INSERT INTO ledger_entries (account_id, amount_cents) VALUES (?, ?)\", \"a\", 1L);")
                + "}\n");
    }

    /** A {@code @Cacheable} loader that gets its value {@code n} calls down, from {@code load}. */
    private static void cacheLoader(Path root, int n, String load) {
        StringBuilder steps = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            steps.append("\n    Map<String, Object> step").append(i).append("(long id) {\n        return ")
                    .append(i == n ? load : "step" + (i + 1) + "(id)").append(";\n    }\n");
        }
        Sources.write(root, "src/main/java/demo/ProductCatalog.java", """
                package demo;

                import java.util.Map;
                import org.springframework.cache.annotation.Cacheable;
                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.stereotype.Service;
                import org.springframework.web.client.RestTemplate;

                @Service
                public class ProductCatalog {
                    private final JdbcTemplate jdbc;
                    private final RestTemplate rest;

                    public ProductCatalog(JdbcTemplate jdbc, RestTemplate rest) {
                        this.jdbc = jdbc;
                        this.rest = rest;
                    }

                    @Cacheable("products")
                    public Map<String, Object> product(long id) {
                        return %s;
                    }
                %s}
                """.formatted(n == 0 ? load : "step1(id)", steps));
    }

    /** One method takes PRICES then CATALOG directly; another holds CATALOG and reaches PRICES {@code n} calls down. */
    private static void lockOrderThroughCalls(Path root, int n) {
        Sources.write(root, "src/main/java/demo/PriceBook.java", """
                package demo;

                public class PriceBook {
                    private final Object catalogLock = new Object();
                    private final Object pricesLock = new Object();

                    public void snapshot() {
                        synchronized (pricesLock) {
                            synchronized (catalogLock) {
                                System.out.println("snapshot");
                            }
                        }
                    }

                    public void reprice() {
                        synchronized (catalogLock) {
                            %s
                        }
                    }
                %s}
                """.formatted(n == 0 ? "synchronized (pricesLock) { System.out.println(0); }" : "step1();",
                steps(n, "synchronized (pricesLock) {\n            System.out.println(1);\n        }")));
    }

    private static void lockAcrossIo(Path root, int n) {
        Sources.write(root, "src/main/java/demo/TokenRefresher.java", """
                package demo;

                import org.springframework.web.client.RestTemplate;

                public class TokenRefresher {
                    private final RestTemplate rest = new RestTemplate();

                """ + chain("public synchronized void refresh()", n,
                "rest.getForObject(\"https://auth.example/token\", String.class);") + "}\n");
    }

    private static void dualWrite(Path root, int n, boolean outsidePublish) {
        Sources.write(root, "src/main/java/demo/ReturnIntake.java", """
                package demo;

                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.kafka.core.KafkaTemplate;
                import org.springframework.stereotype.Service;

                @Service
                public class ReturnIntake {
                    private final JdbcTemplate jdbc;
                    private final KafkaTemplate<String, String> kafka;
                    private final AuditFeed audit;

                    public ReturnIntake(JdbcTemplate jdbc, KafkaTemplate<String, String> kafka, AuditFeed audit) {
                        this.jdbc = jdbc;
                        this.kafka = kafka;
                        this.audit = audit;
                    }

                    public void open(String returnId) {
                        jdbc.update("INSERT INTO returns (id) VALUES (?)", returnId);
                        %s
                        %s
                    }
                %s}
                """.formatted(outsidePublish ? "audit.record(returnId);" : "",
                n == 0 ? "kafka.send(\"returns.opened\", returnId);" : "step1();",
                steps(n, "kafka.send(\"returns.opened\", \"r\");")));
        Sources.write(root, "src/main/java/demo/AuditFeed.java", """
                package demo;

                import org.springframework.kafka.core.KafkaTemplate;
                import org.springframework.stereotype.Service;
                import org.springframework.transaction.annotation.Propagation;
                import org.springframework.transaction.annotation.Transactional;

                @Service
                public class AuditFeed {
                    private final KafkaTemplate<String, String> kafka;

                    public AuditFeed(KafkaTemplate<String, String> kafka) {
                        this.kafka = kafka;
                    }

                    @Transactional(propagation = Propagation.NOT_SUPPORTED)
                    public void record(String id) {
                        kafka.send("returns.audit", id);
                    }
                }
                """);
    }

    /**
     * A scheduled job that empties an in-memory counter {@code drainCalls} calls down and writes what it
     * took; with {@code readCalls} at 0 or more, it also reads the database that many calls down.
     */
    private static void flushJob(Path root, int drainCalls, int readCalls) {
        String drain = "long calls = counts.get(\"api\").sumThenReset();\n        jdbc.update(\"INSERT INTO api_usage (calls) "
                + "VALUES (?)\", calls);";
        String read = "jdbc.queryForList(\"SELECT client_id FROM api_clients\");";
        StringBuilder body = new StringBuilder();
        StringBuilder methods = new StringBuilder();
        body.append(drainCalls == 0 ? drain : "drain1();").append("\n");
        for (int i = 1; i <= drainCalls; i++) {
            methods.append("\n    void drain").append(i).append("() {\n        ")
                    .append(i == drainCalls ? drain : "drain" + (i + 1) + "();").append("\n    }\n");
        }
        if (readCalls >= 0) {
            body.append("        ").append(readCalls == 0 ? read : "read1();").append("\n");
            for (int i = 1; i <= readCalls; i++) {
                methods.append("\n    void read").append(i).append("() {\n        ")
                        .append(i == readCalls ? read : "read" + (i + 1) + "();").append("\n    }\n");
            }
        }
        Sources.write(root, "src/main/java/demo/UsageFlusher.java", """
                package demo;

                import java.util.Map;
                import java.util.concurrent.ConcurrentHashMap;
                import java.util.concurrent.atomic.LongAdder;
                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.scheduling.annotation.Scheduled;
                import org.springframework.stereotype.Component;

                @Component
                public class UsageFlusher {
                    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
                    private final JdbcTemplate jdbc;

                    public UsageFlusher(JdbcTemplate jdbc) {
                        this.jdbc = jdbc;
                    }

                    @Scheduled(fixedDelay = 30000)
                    public void flush() {
                        %s    }
                %s}
                """.formatted(body, methods));
    }

    /** A guarded update in a helper {@code n} calls below the method that drops its count. */
    private static void helperChain(Path root, int n) {
        String update = "jdbc.update(\"UPDATE shipments SET state = 'SHIPPED' WHERE id = ? AND state = 'PACKED'\", id)";
        StringBuilder steps = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            steps.append("\n    int step").append(i).append("(long id) {\n        return ")
                    .append(i == n ? update : "step" + (i + 1) + "(id)").append(";\n    }\n");
        }
        Sources.write(root, "src/main/java/demo/Dispatch.java", """
                package demo;

                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.stereotype.Service;

                @Service
                public class Dispatch {
                    private final JdbcTemplate jdbc;

                    public Dispatch(JdbcTemplate jdbc) {
                        this.jdbc = jdbc;
                    }

                    public void ship(long id) {
                        %s;
                    }
                %s}
                """.formatted(n == 0 ? update : "step1(id)", steps));
    }

    /** {@code step1} .. {@code stepN}, each calling the next, the last running {@code effect}. */
    private static String steps(int n, String effect) {
        StringBuilder out = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            out.append("\n    void step").append(i).append("() {\n        ")
                    .append(i == n ? effect : "step" + (i + 1) + "();").append("\n    }\n");
        }
        return out.toString();
    }

    /**
     * A count read that decides an insert through {@code n} locals assigned in reverse order in a loop
     * ({@code v3 = v2; v2 = v1; v1 = count}): each pass over the locals carries the result one link on.
     */
    private static void reversedChain(Path root, int n) {
        StringBuilder assignments = new StringBuilder();
        for (int i = n; i >= 2; i--) {
            assignments.append("            v").append(i).append(" = v").append(i - 1).append(";\n");
        }
        StringBuilder declarations = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            declarations.append("        int v").append(i).append(" = 1;\n");
        }
        Sources.write(root, "src/main/java/demo/Registration.java", """
                package demo;

                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.stereotype.Service;

                @Service
                public class Registration {
                    private final JdbcTemplate jdbc;

                    public Registration(JdbcTemplate jdbc) {
                        this.jdbc = jdbc;
                    }

                    public void register(String email) {
                %s        for (int attempt = 0; attempt < 2; attempt++) {
                %s            v1 = jdbc.queryForObject("SELECT COUNT(*) FROM users WHERE email = ?", Integer.class, email);
                        }
                        if (v%d == 0) {
                            jdbc.update("INSERT INTO users (email) VALUES (?)", email);
                        }
                    }
                }
                """.formatted(declarations, assignments, n));
    }

    /** A hub lock and {@code n} spoke locks, each taken in both orders with the hub: {@code n} cycles in one component. */
    private static void lockSpokes(Path root, int n) {
        StringBuilder out = new StringBuilder("package demo;\n\npublic class Spokes {\n"
                + "    private static final Object HUB = new Object();\n");
        for (int i = 1; i <= n; i++) {
            out.append("    private static final Object SPOKE").append(i).append(" = new Object();\n");
        }
        for (int i = 1; i <= n; i++) {
            out.append("""

                        public void out%1$d() {
                            synchronized (HUB) {
                                synchronized (SPOKE%1$d) {
                                    System.out.println(%1$d);
                                }
                            }
                        }

                        public void back%1$d() {
                            synchronized (SPOKE%1$d) {
                                synchronized (HUB) {
                                    System.out.println(-%1$d);
                                }
                            }
                        }
                    """.formatted(i));
        }
        Sources.write(root, "src/main/java/demo/Spokes.java", out.append("}\n").toString());
    }

    /**
     * A guarded MyBatis update whose WHERE clause is {@code includes} {@code <include>}s deep, in a mapper
     * file padded to {@code bytes} bytes (0: not padded).
     */
    private static void mapper(Path root, int includes, int bytes) {
        Sources.write(root, "src/main/java/demo/WikiPageMapper.java", """
                package demo;

                import org.apache.ibatis.annotations.Mapper;
                import org.apache.ibatis.annotations.Param;

                @Mapper
                public interface WikiPageMapper {
                    int updateBody(@Param("id") long id, @Param("body") String body, @Param("expectedVersion") long expectedVersion);
                }
                """);
        Sources.write(root, "src/main/java/demo/WikiEditService.java", """
                package demo;

                import org.springframework.stereotype.Service;

                @Service
                public class WikiEditService {
                    private final WikiPageMapper pages;

                    public WikiEditService(WikiPageMapper pages) {
                        this.pages = pages;
                    }

                    public String save(long pageId, String body, long baseVersion) {
                        pages.updateBody(pageId, body, baseVersion);
                        return "saved";
                    }
                }
                """);
        StringBuilder xml = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <mapper namespace="demo.WikiPageMapper">
                  <update id="updateBody">
                    UPDATE wiki_pages SET body = #{body}, version = version + 1 <include refid="part1"/>
                  </update>
                """);
        for (int i = 1; i <= includes; i++) {
            xml.append("  <sql id=\"part").append(i).append("\">")
                    .append(i == includes ? "WHERE id = #{id} AND version = #{expectedVersion}" : "<include refid=\"part" + (i + 1) + "\"/>")
                    .append("</sql>\n");
        }
        String tail = "</mapper>\n";
        if (bytes > 0) {
            int pad = bytes - xml.length() - tail.length() - "<!--  -->\n".length();
            assertThat(pad).isNotNegative();
            xml.append("<!-- ").append("x".repeat(pad)).append(" -->\n");
        }
        xml.append(tail);
        if (bytes > 0) {
            assertThat(xml.length()).isEqualTo(bytes);
        }
        Sources.write(root, "src/main/resources/demo/WikiPageMapper.xml", xml.toString());
    }

    private static final String GUARDED_UPDATE = "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?";

    private static void debit(Path root, String sqlExpression) {
        Sources.write(root, "src/main/java/demo/WalletDebit.java", """
                package demo;

                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.stereotype.Service;

                @Service
                public class WalletDebit {
                    private final JdbcTemplate jdbc;

                    public WalletDebit(JdbcTemplate jdbc) {
                        this.jdbc = jdbc;
                    }

                    public void pay(long accountId, long amountCents) {
                        jdbc.update(%s, amountCents, accountId, amountCents);
                    }
                }
                """.formatted(sqlExpression));
    }

    /** The guarded update's text at depth {@code n}: inside {@code n} parentheses. */
    private static void parenthesisedSql(Path root, int n) {
        debit(root, "(".repeat(n) + '"' + GUARDED_UPDATE + '"' + ")".repeat(n));
    }

    /** The guarded update concatenated with a comment, {@code n} characters of SQL text in all. */
    private static void longConcatenation(Path root, int n) {
        String comment = " /*" + "x".repeat(n - GUARDED_UPDATE.length() - " /**/".length()) + "*/";
        assertThat(GUARDED_UPDATE.length() + comment.length()).isEqualTo(n);
        debit(root, '"' + GUARDED_UPDATE + "\" + \"" + comment + '"');
    }

    /** A statement of {@code n} characters as JSqlParser gets it (a string literal is kept as written). */
    private static void longStatement(Path root, int n) {
        String head = "UPDATE accounts SET note = '";
        String tail = "' WHERE id = ?";
        String sql = head + "x".repeat(n - head.length() - tail.length()) + tail;
        assertThat(sql.length()).isEqualTo(n);
        debit(root, '"' + sql + '"');
    }

    /** A file whose brackets nest {@code n} deep (the class body is the first). */
    private static void nested(Path root, int n) {
        Sources.write(root, "src/main/java/demo/Clean.java", Sources.CLEAN); // so the scan has a file to analyse
        Sources.write(root, "src/main/java/demo/Deep.java", "package demo;\n\npublic class Deep {\n    int x = "
                + "(".repeat(n - 1) + "1" + ")".repeat(n - 1) + ";\n}\n");
    }
}
