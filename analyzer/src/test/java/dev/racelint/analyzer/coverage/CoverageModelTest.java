package dev.racelint.analyzer.coverage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.AnalysisResult;
import dev.racelint.analyzer.Analyzer;
import dev.racelint.analyzer.ProgressListener;
import dev.racelint.analyzer.effects.ApiCatalogue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each coverage figure counted on a small tree, by a scan with no rule at all (rules never compute it). */
class CoverageModelTest {

    @TempDir
    Path dir;

    private static final String CONTROLLER = """
            package shop.web;

            import org.springframework.web.bind.annotation.*;
            import shop.OrderService;

            @RestController
            @RequestMapping("/orders")
            public class OrderController {
                private final OrderService orders;

                public OrderController(OrderService orders) { this.orders = orders; }

                @GetMapping("/{id}") public String get(@PathVariable long id) { return orders.describe(id); }
                @PostMapping public void create(@RequestBody String body) { orders.place(body); }
                @PostMapping("/payments") public void paid(@RequestBody String body, @RequestHeader("Signature") String signature) {
                    if (!java.security.MessageDigest.isEqual(signature.getBytes(), body.getBytes())) { throw new IllegalStateException(); }
                }
                @PostMapping("/payment-webhook-callback") public void notifyCallback(@RequestBody String body) { }
                @RequestMapping(value = "/x", method = RequestMethod.PUT) public void put() { }
                @RequestMapping(value = "/x", method = RequestMethod.HEAD) public void head() { }
                @DeleteMapping("/{id}") public void delete(@PathVariable long id) { }
            }
            """;

    private static final String LISTENERS = """
            package shop.messaging;

            import org.springframework.amqp.rabbit.annotation.RabbitListener;
            import org.springframework.jms.annotation.JmsListener;
            import org.springframework.kafka.annotation.KafkaListener;
            import org.springframework.kafka.core.KafkaTemplate;
            import org.springframework.scheduling.annotation.Scheduled;

            public class Listeners {
                private final KafkaTemplate<String, String> kafka;

                public Listeners(KafkaTemplate<String, String> kafka) { this.kafka = kafka; }

                @KafkaListener(topics = "orders") public void onOrder(String m) { kafka.send("audit", m); }
                @KafkaListener(topics = "refunds") public void onRefund(String m) { }
                @RabbitListener(queues = "mails") public void onMail(String m) { }
                @JmsListener(destination = "legacy") public void onLegacy(String m) { }

                @Scheduled(fixedDelay = 1000)
                public void poll() {
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
            """;

    private static final String SERVICE = """
            package shop;

            import com.aliyun.oss.OSS;
            import jakarta.persistence.EntityManager;
            import org.springframework.jdbc.core.JdbcTemplate;
            import org.springframework.transaction.annotation.Transactional;
            import org.springframework.transaction.support.TransactionTemplate;
            import org.springframework.web.client.RestTemplate;

            public class OrderService {
                private final JdbcTemplate jdbc;
                private final RestTemplate rest;
                private final EntityManager em;
                private final OSS oss;
                private final TransactionTemplate tx;
                private final OrderRepository repo;
                private final Audit audit;

                public OrderService(JdbcTemplate jdbc, RestTemplate rest, EntityManager em, OSS oss, TransactionTemplate tx,
                        OrderRepository repo, Audit audit) {
                    this.jdbc = jdbc; this.rest = rest; this.em = em; this.oss = oss; this.tx = tx; this.repo = repo;
                    this.audit = audit;
                }

                @Transactional
                public void place(String body) {
                    jdbc.update("UPDATE orders SET state = 'PLACED' WHERE id = ?", 1L);
                    jdbc.update("UPDATE orders SET used = used + 1 WHERE id = ? !!! VENDOR HINT ((", 2L);
                    em.persist(new Order());
                    repo.save(new Order());
                    rest.postForObject("https://risk.example/check", body, String.class);
                    oss.putObject("bucket", "key", body);
                    oss.putObject("bucket", "key2", body);
                    body.trim();
                    rest.getMessageConverters();
                    audit.record(body);
                }

                public String describe(long id) {
                    return tx.execute(status -> jdbc.queryForObject("SELECT state FROM orders WHERE id = ?", String.class, id));
                }

                public void sweep() {
                    oss.listObjects("outside the callback, reached from nowhere");
                    tx.executeWithoutResult(status -> oss.deleteObject("bucket", "inside the callback"));
                }

                public void neverCalled() {
                    oss.deleteObject("bucket", "nobody calls this");
                }
            }
            """;

    private static final String REPOSITORY = """
            package shop;

            import org.springframework.data.jpa.repository.JpaRepository;

            public interface OrderRepository extends JpaRepository<Order, Long> {}
            """;

    private static final String ENTITY = """
            package shop;

            import jakarta.persistence.Entity;
            import jakarta.persistence.Id;

            @Entity
            public class Order {
                @Id Long id;
            }
            """;

    private static final String AUDIT = """
            package shop;

            @org.springframework.stereotype.Repository
            public class Audit {
                public void record(String what) { }
            }
            """;

    private static final String MAPPER_XML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <mapper namespace="shop.AuditMapper">
              <insert id="insert">INSERT INTO audit (what) VALUES (#{what})</insert>
            </mapper>
            """;

    private void shop() {
        write("src/main/java/shop/web/OrderController.java", CONTROLLER);
        write("src/main/java/shop/messaging/Listeners.java", LISTENERS);
        write("src/main/java/shop/OrderService.java", SERVICE);
        write("src/main/java/shop/OrderRepository.java", REPOSITORY);
        write("src/main/java/shop/Order.java", ENTITY);
        write("src/main/java/shop/Audit.java", AUDIT);
        write("src/main/resources/mapper/AuditMapper.xml", MAPPER_XML);
        write("src/main/resources/mapper/NotAMapper.xml", "<configuration/>\n");
    }

    @Test
    void entryPointsByVerbAndBrokerAndScheduledJobs() {
        shop();
        Coverage.EntryPoints entry = scan().entryPoints();

        assertThat(entry.http()).containsExactly(Map.entry("GET", 1), Map.entry("POST", 3), Map.entry("PUT", 1),
                Map.entry("PATCH", 0), Map.entry("DELETE", 1), Map.entry("other", 1));
        assertThat(entry.httpCount()).isEqualTo(7);
        // the POST that verifies its sender's signature; not the one whose path only says webhook/callback
        assertThat(entry.webhooks()).isEqualTo(1);
        assertThat(entry.consumers()).containsExactly(Map.entry("kafka", 2), Map.entry("rabbitmq", 1), Map.entry("jms", 1),
                Map.entry("sqs", 0), Map.entry("other", 0));
        assertThat(entry.scheduled()).isEqualTo(1);
    }

    @Test
    void transactionsByHowTheyAreOpened() {
        shop();
        assertThat(scan().transactions()).isEqualTo(new Coverage.Transactions(3, 1, 2));
    }

    @Test
    void databaseOperationsByApiAndSqlParsedOrByFallback() {
        shop();
        Coverage coverage = scan();

        assertThat(coverage.databaseOperations()).containsEntry("jdbc-template", 3).containsEntry("jpa", 1)
                .containsEntry("spring-data", 1).containsEntry("mybatis", 0);
        assertThat(coverage.databaseOperations().keySet()).startsWith("spring-data", "jpa", "hibernate", "jdbc");
        assertThat(coverage.databaseOperationCount()).isEqualTo(5);
        assertThat(coverage.sql()).isEqualTo(new Coverage.Sql(2, 1));
    }

    @Test
    void effectsByKindWithoutTheTransactionApis() {
        shop();
        Coverage coverage = scan();

        assertThat(coverage.effects()).containsEntry("http", 1).containsEntry("publish", 1).containsEntry("sleep", 1);
        // http, publish, sleep and the webhook's signature check
        assertThat(coverage.effectCount()).as("TransactionTemplate callbacks are transactions, not effects").isEqualTo(4);
        assertThat(coverage.effects().keySet()).containsExactlyElementsOf(CoverageModel.EFFECT_KINDS.keySet());
    }

    @Test
    void blindSpotsAreUnknownTypesCalledInTransactionsAndHandlers() {
        shop();
        Coverage.BlindSpots blind = scan().blindSpots();

        // place() twice (a handler's @Transactional callee), sweep()'s callback once; not sweep()'s own
        // call outside the callback, not neverCalled(); String (inert), RestTemplate (catalogued) and
        // Audit (scanned) are no blind spots
        assertThat(blind.top()).containsExactly(new Coverage.BlindSpot("com.aliyun.oss.OSS", 3));
        assertThat(blind.types()).isEqualTo(1);
        assertThat(blind.calls()).isEqualTo(3);
    }

    @Test
    void aProjectsInertTypesAreNoBlindSpots() {
        shop();
        Coverage coverage = scan(CoverageCatalogue.withInert(List.of("com.aliyun.oss.*")));

        assertThat(coverage.blindSpots().types()).isZero();
        assertThat(coverage.blindSpots().top()).isEmpty();
    }

    @Test
    void theMostCalledBlindSpotsAreKeptMostFirstThenByName() {
        StringBuilder fields = new StringBuilder();
        StringBuilder calls = new StringBuilder();
        for (int i = 1; i <= 12; i++) {
            String type = String.format(java.util.Locale.ROOT, "T%02d", i);
            fields.append("    private ext.vendor.").append(type).append(' ').append(type.toLowerCase(java.util.Locale.ROOT))
                    .append(";\n");
            // T01..T04 once, T05..T12 i times: the ten kept are T12..T05, then T01 and T02 by name
            for (int n = 0; n < (i <= 4 ? 1 : i); n++) {
                calls.append("        ").append(type.toLowerCase(java.util.Locale.ROOT)).append(".call();\n");
            }
        }
        write("src/main/java/p/Many.java", "package p;\n\npublic class Many {\n" + fields
                + "\n    @org.springframework.transaction.annotation.Transactional\n    public void run() {\n" + calls
                + "    }\n}\n");

        Coverage.BlindSpots blind = scan().blindSpots();

        assertThat(blind.types()).isEqualTo(12);
        assertThat(blind.calls()).isEqualTo(4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12);
        assertThat(blind.top()).hasSize(CoverageModel.BLIND_SPOTS_SHOWN);
        assertThat(blind.top().stream().map(Coverage.BlindSpot::type)).containsExactly("ext.vendor.T12",
                "ext.vendor.T11", "ext.vendor.T10", "ext.vendor.T09", "ext.vendor.T08", "ext.vendor.T07", "ext.vendor.T06",
                "ext.vendor.T05", "ext.vendor.T01", "ext.vendor.T02");
    }

    @Test
    void typeVariablesAreNoBlindSpots() {
        write("src/main/java/p/Box.java", """
                package p;

                import java.util.function.Supplier;
                import org.springframework.transaction.annotation.Transactional;

                public class Box<T extends Comparable<T>> {
                    private T item;
                    private ext.Vendor vendor;

                    @Transactional
                    public <R> R run(Supplier<R> work, R seed, T other) {
                        item.compareTo(other);
                        seed.hashCode();
                        vendor.call();
                        return work.get();
                    }
                }
                """);

        assertThat(scan().blindSpots().top()).containsExactly(new Coverage.BlindSpot("ext.Vendor", 1));
    }

    @Test
    void javaLangTypesUsedWithoutAnImportAreNoBlindSpots() {
        write("src/main/java/p/Report.java", """
                package p;

                import org.springframework.transaction.annotation.Transactional;

                public class Report {
                    private ext.Vendor vendor;

                    @Transactional
                    public String line(int n) {
                        StringBuffer text = new StringBuffer("n=");
                        text.append(n);
                        vendor.call();
                        return text.toString();
                    }
                }
                """);

        assertThat(scan().blindSpots().top()).containsExactly(new Coverage.BlindSpot("ext.Vendor", 1));
    }

    @Test
    void lombokAccessorsAndCaughtExceptionsAreNoBlindSpots() {
        write("src/main/java/p/Order.java", """
                package p;

                @lombok.Data
                public class Order implements ext.Marker {
                    private Long id;
                }
                """);
        write("src/main/java/p/Plain.java", """
                package p;

                public class Plain implements ext.Marker {}
                """);
        write("src/main/java/p/Service.java", """
                package p;

                import org.springframework.transaction.annotation.Transactional;

                public class Service {
                    private ext.Vendor vendor;

                    @Transactional
                    public void run(Order order, Plain plain) {
                        order.getId();
                        plain.mark();
                        try {
                            vendor.call();
                        } catch (ext.VendorException e) {
                            e.getMessage();
                        }
                    }
                }
                """);

        // Order's getId() is Lombok's; Plain's mark() can only come from ext.Marker
        assertThat(scan().blindSpots().top()).containsExactly(new Coverage.BlindSpot("ext.Marker", 1),
                new Coverage.BlindSpot("ext.Vendor", 1));
    }

    @Test
    void aMethodInheritedFromAnUnknownSupertypeIsABlindSpotOfThatSupertype() {
        write("src/main/java/p/OrderMapper.java", """
                package p;

                import org.acme.dao.GenericMapper;

                public interface OrderMapper extends GenericMapper<Order> {}
                """);
        write("src/main/java/p/Order.java", "package p;\n\npublic class Order {}\n");
        write("src/main/java/p/OrderService.java", """
                package p;

                import org.acme.dao.GenericService;
                import org.springframework.transaction.annotation.Transactional;

                public class OrderService extends GenericService<OrderMapper, Order> {
                    private final OrderMapper orders;

                    public OrderService(OrderMapper orders) { this.orders = orders; }

                    @Transactional
                    public void pay(long id) {
                        Order order = orders.selectById(id);
                        orders.updateById(order);
                        updateById(order);
                    }
                }
                """);

        Coverage.BlindSpots blind = scan().blindSpots();

        assertThat(blind.top()).containsExactly(new Coverage.BlindSpot("org.acme.dao.GenericMapper", 2),
                new Coverage.BlindSpot("org.acme.dao.GenericService", 1));
    }

    @Test
    void myBatisPlusInheritedCrudIsReadNotABlindSpot() {
        write("src/main/java/p/OrderMapper.java", """
                package p;

                import com.baomidou.mybatisplus.core.mapper.BaseMapper;

                public interface OrderMapper extends BaseMapper<Order> {}
                """);
        write("src/main/java/p/Order.java", "package p;\n\npublic class Order {}\n");
        write("src/main/java/p/OrderService.java", """
                package p;

                import com.baomidou.mybatisplus.extension.service.impl.ServiceImpl;

                public class OrderService extends ServiceImpl<OrderMapper, Order> {
                    private final OrderMapper orders;

                    public OrderService(OrderMapper orders) { this.orders = orders; }

                    public void pay(long id) {
                        Order order = orders.selectById(id);
                        orders.updateById(order);
                        updateById(order);
                    }
                }
                """);

        Coverage coverage = scan();

        assertThat(coverage.blindSpots().top()).isEmpty();
        assertThat(coverage.databaseOperations()).containsEntry("mybatis-plus", 3);
    }

    @Test
    void filesAndNonBlankLines() {
        write("src/main/java/p/A.java", "package p;\n\n   \nclass A {\n\t\n}\n");
        write("src/main/java/p/B.java", "package p;\r\n\r\nclass B {}");
        write("src/main/java/p/Broken.java", "package p;\nclass Broken {\n");
        byte[] text = "package p;\n\n  \nclass C {}\n".getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
        byte[] withBom = new byte[text.length + 2];
        withBom[0] = (byte) 0xFF;
        withBom[1] = (byte) 0xFE;
        System.arraycopy(text, 0, withBom, 2, text.length);
        try {
            Files.write(dir.resolve("src/main/java/p/C.java"), withBom);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }

        Coverage coverage = scan();

        assertThat(coverage.files()).as("the file that does not parse is not analysed").isEqualTo(3);
        assertThat(coverage.sourceLines()).as("A 3, B 2, C (UTF-16) 2").isEqualTo(3 + 2 + 2);
    }

    @Test
    void dataAccessSeenByXmlImportsAndDeclarations() {
        shop();
        write("src/main/java/shop/OrderDto.java", """
                package shop;

                import java.sql.Timestamp;

                public record OrderDto(long id, Timestamp placedAt) {}
                """);
        write("src/main/java/shop/Carts.java", """
                package shop;

                import org.springframework.data.domain.Page;
                import org.springframework.data.redis.core.StringRedisTemplate;

                public class Carts {
                    private StringRedisTemplate redis;
                    private Page<String> page;
                }
                """);
        Coverage.DataAccess access = scan().dataAccess();

        assertThat(access.mapperXmlFiles()).as("NotAMapper.xml holds no <mapper namespace>").isEqualTo(1);
        assertThat(access.importingFiles()).as("not OrderDto (a Timestamp), not Carts (paging, Redis)").isEqualTo(3);
        assertThat(access.imports()).containsExactly(Map.entry("jakarta.persistence", 2),
                Map.entry("org.springframework.data", 1), Map.entry("org.springframework.jdbc", 1));
        assertThat(access.declaredTypes()).as("OrderRepository by its supertype, Audit by @Repository").isEqualTo(2);
        assertThat(access.namedTypes()).as("OrderRepository").isEqualTo(1);
    }

    private Coverage scan() {
        return scan(CoverageCatalogue.builtIn());
    }

    private Coverage scan(CoverageCatalogue catalogue) {
        AnalysisResult result = new Analyzer(List.of(), ApiCatalogue.builtIn(), catalogue)
                .analyze(AnalysisOptions.of(dir), ProgressListener.NONE);
        assertThat(result.coverage()).isNotNull();
        return result.coverage();
    }

    private void write(String relative, String text) {
        try {
            Path file = dir.resolve(relative);
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
