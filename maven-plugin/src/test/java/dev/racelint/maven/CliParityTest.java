package dev.racelint.maven;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.racelint.analyzer.config.ProjectConfig;
import dev.racelint.analyzer.rule.RuleRegistry;
import dev.racelint.cli.RacelintCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The plugin and the command line build a scan the same way: on one tree, with the repository's
 * racelint.yml found above the scanned module (rules off, a level, an exclude, a declared API), they
 * write the same SARIF results and rules, and analyse the same files: the exclude, a path from the
 * folder holding racelint.yml, leaves out the same file whether the CLI scans the module or the
 * plugin each source folder.
 */
class CliParityTest {

    @TempDir
    Path repo;

    private static final String CHECKOUT = """
            package demo;

            import org.springframework.jdbc.core.JdbcTemplate;
            import org.springframework.transaction.annotation.Transactional;

            public class CheckoutService {
                private final JdbcTemplate jdbc;
                private final RiskGateway risk;

                public CheckoutService(JdbcTemplate jdbc, RiskGateway risk) {
                    this.jdbc = jdbc;
                    this.risk = risk;
                }

                @Transactional
                public void place(String orderId) {
                    jdbc.update("UPDATE orders SET state = 'PLACED' WHERE id = ?", orderId);
                    risk.score(orderId);
                }
            }
            """;

    private static final String GATEWAY = """
            package demo;

            public interface RiskGateway {
                int score(String orderId);
            }
            """;

    private static final String LEGACY = """
            package demo.legacy;

            import org.springframework.transaction.annotation.Transactional;
            import org.springframework.web.client.RestTemplate;

            public class OldCheckout {
                private final RestTemplate rest = new RestTemplate();
                private final org.springframework.jdbc.core.JdbcTemplate jdbc = null;

                @Transactional
                public void place(String orderId) {
                    jdbc.update("UPDATE orders SET state = 'PLACED' WHERE id = ?", orderId);
                    rest.postForObject("http://payments/charge", orderId, String.class);
                }
            }
            """;

    /** At the repository root, above the module: found by walking up from the scanned folder. */
    private static final String CONFIG = """
            rules:
              io-in-transaction: warning
              cache-stampede: off
            exclude:
              - "shop/src/main/java/demo/legacy/**"
            apis:
              "demo.RiskGateway#score": http
            """;

    private void write(String relative, String text) throws Exception {
        Path file = repo.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    @Test
    void theCommandLineAndThePluginWriteTheSameFindingsForOneTreeAndItsRacelintYml() throws Exception {
        write("shop/src/main/java/demo/CheckoutService.java", CHECKOUT);
        write("shop/src/main/java/demo/RiskGateway.java", GATEWAY);
        write("shop/src/main/java/demo/legacy/OldCheckout.java", LEGACY);
        write("racelint.yml", CONFIG);
        Path module = repo.resolve("shop");
        Path sources = module.resolve("src/main/java");

        Path cliSarif = repo.resolve("cli.sarif");
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new RacelintCommand());
        cli.setErr(new PrintWriter(err));
        int code = cli.execute("scan", module.toString(), "--source-root", repo.toString(), "--format", "sarif",
                "--output", cliSarif.toString(), "--no-cache", "--fail-on", "none");
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).as("the CLI found the root racelint.yml above the scanned folder").contains("racelint.yml");

        RuleRegistry registry = RuleRegistry.load(CliParityTest.class.getClassLoader());
        ProjectConfig config = ModuleScan.readConfig(module, repo, null, registry);
        assertThat(config).as("the plugin found it too").isNotNull();
        Set<String> ruleIds = RuleSelection.resolve(registry, List.of(), config.disabledRules());
        ModuleScan.Request request = new ModuleScan.Request(List.of(sources), List.of(), false, List.of(), List.of(),
                ruleIds, repo, null, null, "parity", 1, null, config, dev.racelint.analyzer.finding.Level.WARNING);
        ModuleScan.Outcome outcome = ModuleScan.run(request, registry);
        Path pluginDir = repo.resolve("plugin-out");
        ModuleScan.writeReports(outcome.report(), pluginDir, Set.of(OutputFormat.SARIF));

        JsonNode fromCli = comparable(Files.readString(cliSarif));
        JsonNode fromPlugin = comparable(Files.readString(pluginDir.resolve("racelint.sarif")));
        List<String> results = new ArrayList<>();
        fromCli.path("results").forEach(r -> results.add(r.path("ruleId").asText() + " " + r.path("level").asText()));
        assertThat(results).as("the declared API makes the race, the level applies, the exclude and the rule off hold")
                .containsExactly("io-in-transaction warning");
        assertThat(fromPlugin.path("results")).isEqualTo(fromCli.path("results"));
        Path cliJson = repo.resolve("cli.json");
        int json = cli.execute("scan", module.toString(), "--source-root", repo.toString(), "--format", "json",
                "--output", cliJson.toString(), "--no-cache", "--fail-on", "none");
        assertThat(json).as(err.toString()).isZero();
        assertThat(outcome.report().filesAnalysed()).as("the same files analysed: the legacy one left out by both")
                .isEqualTo(filesAnalysed(cliJson)).isEqualTo(2);
        assertThat(fromPlugin.path("tool").path("driver").path("rules"))
                .isEqualTo(fromCli.path("tool").path("driver").path("rules"));
    }

    /** How many files the CLI's JSON report says it analysed. */
    private static int filesAnalysed(Path json) throws Exception {
        return new ObjectMapper().readTree(Files.readString(json)).path("summary").path("files").asInt(-1);
    }

    /** The run without what names the front end (its version) or its environment (notifications). */
    private static JsonNode comparable(String sarif) throws Exception {
        JsonNode run = new ObjectMapper().readTree(sarif).path("runs").get(0);
        ObjectNode driver = (ObjectNode) run.path("tool").path("driver");
        driver.remove(List.of("version", "semanticVersion"));
        ((ObjectNode) run).remove(List.of("invocations", "properties"));
        return run;
    }
}
