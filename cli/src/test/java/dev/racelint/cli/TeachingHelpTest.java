package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Help that teaches: the fix for the user's own finding, rules by shape, and the nearest id for a typo. */
class TeachingHelpTest {

    private static final String KAFKA_IN_TRANSACTION = """
            package demo;

            import org.springframework.kafka.core.KafkaTemplate;
            import org.springframework.jdbc.core.JdbcTemplate;
            import org.springframework.transaction.annotation.Transactional;

            public class ShippingService {
                private final JdbcTemplate jdbc;
                private final KafkaTemplate<String, String> kafka;

                public ShippingService(JdbcTemplate jdbc, KafkaTemplate<String, String> kafka) {
                    this.jdbc = jdbc;
                    this.kafka = kafka;
                }

                @Transactional
                public void ship(String orderId) {
                    jdbc.update("UPDATE orders SET status = 'SHIPPED' WHERE id = ?", orderId);
                    kafka.send("shipments", orderId).join(); // waited on: the transaction holds for the broker
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void explainWithAFindingReadsTheRacelintYmlThatScanRead() throws Exception {
        Sources.write(dir, "racelint.yml", "apis:\n  \"demo.RiskGateway#score\": http\n");
        Sources.write(dir, "shop/src/main/java/demo/RiskGateway.java",
                "package demo;\n\npublic interface RiskGateway {\n    int score(String orderId);\n}\n");
        String viaGateway = Sources.IO_IN_TRANSACTION
                .replace("String charge = rest.postForObject(\"https://payments.example.com/charges\", orderId, String.class);",
                        "String charge = String.valueOf(risk.score(orderId));")
                .replace("private final RestTemplate rest;", "private final RestTemplate rest;\n    private RiskGateway risk;");
        assertThat(viaGateway).contains("risk.score(orderId)").doesNotContain("postForObject");
        Sources.write(dir, "shop/src/main/java/demo/CheckoutService.java", viaGateway);
        Path shop = dir.resolve("shop");
        Sources.git(dir, "init", "-q"); // the source root, for scan and explain alike: the work tree's root
        JsonNode findings = new ObjectMapper().readTree(run("scan", shop.toString(), "--format", "json",
                "--fail-on", "none").out()).path("findings");
        assertThat(findings).as("the declared API of the root racelint.yml makes the finding").hasSize(1);
        String fingerprint = findings.get(0).path("fingerprint").asText();

        Cli.Run explained = run("explain", "io-in-transaction", "--finding", fingerprint, "--path", shop.toString());
        assertThat(explained.exitCode()).as(explained.toString()).isZero();
        assertThat(explained.out()).contains("[io-in-transaction]").contains("RiskGateway.score");
    }

    @Test
    void explainWithAFindingShowsTheFixForItsFramework() throws Exception {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Sources.write(dir, "src/main/java/demo/ShippingService.java", KAFKA_IN_TRANSACTION);
        JsonNode findings = new ObjectMapper().readTree(run("scan", dir.toString(), "--format", "json", "--fail-on", "none")
                .out()).path("findings");
        String http = null;
        String kafka = null;
        for (JsonNode f : findings) {
            if (!f.path("ruleId").asText().equals("io-in-transaction")) {
                continue;
            }
            if (f.path("file").asText().endsWith("CheckoutService.java")) {
                http = f.path("fingerprint").asText();
            } else {
                kafka = f.path("fingerprint").asText();
            }
        }

        Cli.Run forHttp = run("explain", "io-in-transaction", "--finding", http.substring(0, 12), "--path", dir.toString());
        assertThat(forHttp.exitCode()).as(forHttp.toString()).isZero();
        assertThat(forHttp.out()).startsWith("src/main/java/demo/CheckoutService.java:19: [io-in-transaction]")
                .contains("- **Spring `@Transactional`**").doesNotContain("- **Broker publish");

        Cli.Run forKafka = run("explain", "io-in-transaction", "--finding", kafka, "--path", dir.toString());
        assertThat(forKafka.out()).contains("(@Transactional, Kafka, broker publish)").contains("- **Broker publish");

        Cli.Run unknown = run("explain", "io-in-transaction", "--finding", "0123456789abcdef", "--path", dir.toString());
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("no io-in-transaction finding with fingerprint 0123456789abcdef");
    }

    @Test
    void rulesByShape() {
        Cli.Run six = run("rules", "--shape", "6");
        assertThat(six.exitCode()).isZero();
        assertThat(six.out().lines().skip(1).map(l -> l.split(" ")[0]).toList())
                .containsExactly("lock-order", "unordered-multi-row-lock");
        Cli.Run none = run("rules", "--shape", "42");
        assertThat(none.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).contains("no rule has shape '42'; shapes: 1, 2, 3");
    }

    @Test
    void aMistypedRuleIdSuggestsTheNearestOne() {
        assertThat(run("explain", "io-in-transactoin").err()).contains("(did you mean 'io-in-transaction'?)");
        assertThat(run("scan", dir.toString(), "--rules", "lockorder").err()).contains("(did you mean 'lock-order'?)");
        assertThat(run("explain", "quantum-entanglement").err()).doesNotContain("did you mean");
    }
}
