package dev.racelint.maven;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.baseline.Baseline;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.report.SarifAssertions;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModuleScanTest {

    private static RuleRegistry registry;
    private static Set<String> allRules;

    @TempDir
    Path repo;

    @BeforeAll
    static void loadRules() {
        registry = RuleRegistry.load(ModuleScanTest.class.getClassLoader());
        allRules = RuleSelection.resolve(registry, List.of(), List.of());
    }

    private static final String CHECKOUT = """
            package com.example.app;

            import com.example.client.PaymentClient;
            import org.springframework.transaction.annotation.Transactional;

            public class CheckoutService {
                private final PaymentClient payments; private final org.springframework.jdbc.core.JdbcTemplate jdbc = null;

                public CheckoutService(PaymentClient payments) {
                    this.payments = payments;
                }

                @Transactional
                public String checkout(String orderId) {
                    jdbc.update("UPDATE orders SET state = 'PAYING' WHERE id = ?", orderId); return payments.charge(orderId);
                }
            }
            """;

    private static final String PAYMENT_CLIENT = """
            package com.example.client;

            import org.springframework.transaction.annotation.Transactional;
            import org.springframework.web.client.RestTemplate;

            public class PaymentClient {
                private final RestTemplate restTemplate = new RestTemplate(); private final org.springframework.jdbc.core.JdbcTemplate jdbc = null;

                public String charge(String orderId) {
                    return restTemplate.postForObject("http://payments/charge", orderId, String.class);
                }

                @Transactional
                public String refund(String orderId) {
                    jdbc.update("UPDATE refunds SET state = 'SENT' WHERE order_id = ?", orderId); return restTemplate.postForObject("http://payments/refund", orderId, String.class);
                }
            }
            """;

    private Path write(String relative, String text) throws IOException {
        Path file = repo.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private Path appRoot;
    private Path clientRoot;

    private void twoModules() throws IOException {
        write("app/src/main/java/com/example/app/CheckoutService.java", CHECKOUT);
        write("client/src/main/java/com/example/client/PaymentClient.java", PAYMENT_CLIENT);
        appRoot = repo.resolve("app/src/main/java");
        clientRoot = repo.resolve("client/src/main/java");
    }

    private ModuleScan.Request request(List<Path> own, List<Path> context, Baseline baseline) {
        return new ModuleScan.Request(own, context, false, List.of(), List.of(), allRules, repo, baseline,
                "racelint/test", "0.0.0-test", 2);
    }

    @Test
    void upstreamSourcesAreAnalysedButOnlyTheModulesFindingsAreKept() throws IOException {
        twoModules();

        ModuleScan.Outcome app = ModuleScan.run(request(List.of(appRoot), List.of(clientRoot), null), registry);

        assertThat(app.findings()).extracting(Finding::ruleId).containsExactly("io-in-transaction");
        Finding finding = app.findings().get(0);
        assertThat(finding.primary().file()).isEqualTo(appRoot.resolve("com/example/app/CheckoutService.java"));
        assertThat(finding.message().plain()).contains("via PaymentClient.charge()");
        assertThat(finding.codeFlow()).anySatisfy(step ->
                assertThat(step.file()).isEqualTo(clientRoot.resolve("com/example/client/PaymentClient.java")));
        // client's own finding (refund) is client's to report, not app's
        assertThat(app.report().filesAnalysed()).isEqualTo(1);
        assertThat(app.totalFiles()).isEqualTo(2);
    }

    @Test
    void anUnchangedModuleIsAnsweredFromTheCacheUntilAnUpstreamSourceChanges() throws IOException {
        twoModules();
        Path cache = repo.resolve("app/target/racelint-cache");
        ModuleScan.Request cached = new ModuleScan.Request(List.of(appRoot), List.of(clientRoot), false, List.of(),
                List.of(), allRules, repo, null, "racelint/test", "0.0.0-test", 2, cache);

        ModuleScan.Outcome first = ModuleScan.run(cached, registry);
        ModuleScan.Outcome second = ModuleScan.run(cached, registry);
        assertThat(first.fromCache()).isFalse();
        assertThat(second.fromCache()).isTrue();
        assertThat(second.findings()).usingRecursiveFieldByFieldElementComparator().isEqualTo(first.findings());
        assertThat(second.report().filesAnalysed()).isEqualTo(1);

        // the upstream client stops making the HTTP call: the app's finding goes, as without the cache
        write("client/src/main/java/com/example/client/PaymentClient.java",
                PAYMENT_CLIENT.replace("return restTemplate.postForObject(\"http://payments/charge\", orderId, String.class);",
                        "return orderId;"));
        ModuleScan.Outcome edited = ModuleScan.run(cached, registry);
        assertThat(edited.fromCache()).isFalse();
        assertThat(edited.treesFromCache()).as("the app's file is read from the cache, the client's parsed").isEqualTo(1);
        assertThat(edited.findings()).isEmpty();
    }

    @Test
    void aCacheUnderTargetThatIsALinkOutOfTheTreeIsRefusedAndNothingOutsideIsTouched(@TempDir Path outside)
            throws IOException {
        twoModules();
        List<String> expected = ModuleScan.run(request(List.of(appRoot), List.of(clientRoot), null), registry).findings()
                .stream().map(Finding::fingerprint).toList();
        Path stale = Files.writeString(Files.createDirectories(outside.resolve("v" + dev.racelint.analyzer.cache.CacheKey.FORMAT))
                .resolve("trees1.tmp"), "an old temporary pack");
        Files.setLastModifiedTime(stale, java.nio.file.attribute.FileTime.fromMillis(0));
        for (String linked : List.of("app/target/racelint-cache", "app/target")) {
            Path link = repo.resolve(linked);
            Files.deleteIfExists(link);
            Files.createDirectories(link.getParent());
            Files.createSymbolicLink(link, outside);
            ModuleScan.Request cached = new ModuleScan.Request(List.of(appRoot), List.of(clientRoot), false, List.of(),
                    List.of(), allRules, repo, null, "racelint/test", "0.0.0-test", 2,
                    repo.resolve("app/target/racelint-cache"));

            ModuleScan.Outcome outcome = ModuleScan.run(cached, registry);
            assertThat(outcome.findings()).extracting(Finding::fingerprint).isEqualTo(expected);
            assertThat(outcome.report().diagnostics()).filteredOn(d -> d.code().equals("cache-refused"))
                    .singleElement().satisfies(d -> assertThat(d.message()).contains(linked + " is a symbolic link"));
            try (java.util.stream.Stream<Path> files = Files.walk(outside)) {
                assertThat(files.map(f -> outside.relativize(f).toString()).sorted())
                        .as("nothing written or deleted through " + linked)
                        .containsExactly("", "v" + dev.racelint.analyzer.cache.CacheKey.FORMAT,
                                "v" + dev.racelint.analyzer.cache.CacheKey.FORMAT + "/trees1.tmp");
            }
            Files.delete(link);
        }
    }

    @Test
    void withoutTheUpstreamSourcesTheCrossModulePathIsNotSeen() throws IOException {
        twoModules();

        ModuleScan.Outcome app = ModuleScan.run(request(List.of(appRoot), List.of(), null), registry);

        assertThat(app.findings()).isEmpty();
    }

    @Test
    void theUpstreamModuleReportsItsOwnFinding() throws IOException {
        twoModules();

        ModuleScan.Outcome client = ModuleScan.run(request(List.of(clientRoot), List.of(), null), registry);

        assertThat(client.findings()).hasSize(1);
        assertThat(client.findings().get(0).message().plain()).startsWith("refund()");
    }

    @Test
    void theSarifReportMatchesTheSchemaWithRepositoryRelativeUris() throws IOException {
        twoModules();
        ModuleScan.Outcome app = ModuleScan.run(request(List.of(appRoot), List.of(clientRoot), null), registry);

        Path out = repo.resolve("app/target");
        List<Path> written = ModuleScan.writeReports(app.report(), out, EnumSet.allOf(OutputFormat.class));

        assertThat(written).containsExactly(out.resolve("racelint.sarif"), out.resolve("racelint.json"),
                out.resolve("racelint.txt"), out.resolve("racelint.html"));
        assertThat(Files.readString(out.resolve("racelint.html"))).contains("<!DOCTYPE html>").contains("io-in-transaction");

        List<Path> shared = ModuleScan.writeReports(app.report(), repo.resolve("target/racelint"),
                EnumSet.of(OutputFormat.SARIF, OutputFormat.TEXT), "app");
        assertThat(shared).as("a folder the modules share: names carry the module").containsExactly(
                repo.resolve("target/racelint/racelint-app.sarif"), repo.resolve("target/racelint/racelint-app.txt"));
        String sarif = Files.readString(out.resolve("racelint.sarif"));
        SarifAssertions.assertSchemaValid(sarif);
        JsonNode run = new ObjectMapper().readTree(sarif).path("runs").path(0);
        assertThat(run.path("automationDetails").path("id").asText()).isEqualTo("racelint/test");
        assertThat(run.path("results")).hasSize(1);
        JsonNode result = run.path("results").path(0);
        assertThat(result.path("locations").path(0).path("physicalLocation").path("artifactLocation").path("uri").asText())
                .isEqualTo("app/src/main/java/com/example/app/CheckoutService.java");
        assertThat(result.path("locations").path(0).path("physicalLocation").path("artifactLocation").path("uriBaseId").asText())
                .isEqualTo("%SRCROOT%");
        assertThat(result.path("codeFlows").findValuesAsText("uri"))
                .contains("client/src/main/java/com/example/client/PaymentClient.java");
        assertThat(Files.readString(out.resolve("racelint.txt")))
                .startsWith("app/src/main/java/com/example/app/CheckoutService.java:14:19: error [io-in-transaction]");
        assertThat(Files.list(out)).allSatisfy(f -> assertThat(f.getFileName().toString()).startsWith("racelint."));
    }

    @Test
    void anEmptyReportIsValidSarifToo() throws IOException {
        write("app/src/main/java/com/example/app/Plain.java", "package com.example.app;\nclass Plain {}\n");
        ModuleScan.Outcome app = ModuleScan.run(request(List.of(repo.resolve("app/src/main/java")), List.of(), null), registry);

        Path out = repo.resolve("out");
        ModuleScan.writeReports(app.report(), out, EnumSet.of(OutputFormat.SARIF));

        SarifAssertions.assertSchemaValid(Files.readString(out.resolve("racelint.sarif")));
    }

    @Test
    void aBaselineAcceptsTheModulesFindingAndOnlyTheModulesEntriesCountAsFixed() throws IOException {
        twoModules();
        ModuleScan.Outcome first = ModuleScan.run(request(List.of(appRoot), List.of(clientRoot), null), registry);
        ModuleScan.Outcome client = ModuleScan.run(request(List.of(clientRoot), List.of(), null), registry);
        List<Finding> both = new java.util.ArrayList<>(first.findings());
        both.addAll(client.findings());
        Path file = repo.resolve("racelint-baseline.json");
        Baseline.of(both, repo).write(file);
        Baseline baseline = Baseline.read(file);

        ModuleScan.Outcome app = ModuleScan.run(request(List.of(appRoot), List.of(clientRoot), baseline), registry);

        assertThat(app.findings()).isEmpty();
        assertThat(app.report().triage().baselined()).isEqualTo(1);
        // client's entry is not matched by app's scan, but it is not app's entry: not "fixed" here
        assertThat(app.report().triage().baselineFixed()).isZero();

        // once app's race is gone, app's entry is fixed
        write("app/src/main/java/com/example/app/CheckoutService.java", CHECKOUT.replace("@Transactional", ""));
        ModuleScan.Outcome fixed = ModuleScan.run(request(List.of(appRoot), List.of(clientRoot), baseline), registry);
        assertThat(fixed.report().triage().baselined()).isZero();
        assertThat(fixed.report().triage().baselineFixed()).isEqualTo(1);
    }

    @Test
    void excludesAreGlobsRelativeToEachSourceFolder() throws IOException {
        twoModules();

        ModuleScan.Request excluded = new ModuleScan.Request(List.of(appRoot), List.of(clientRoot), false,
                List.of("com/example/app/**"), List.of(), allRules, repo, null, null, "test", 1);

        assertThat(ModuleScan.run(excluded, registry).findings()).isEmpty();
    }

    @Test
    void racelintYmlsExcludesAreRelativeToItsFolderNotToEachSourceFolder() throws IOException {
        twoModules();
        write("app/src/main/java/com/example/app/legacy/OldCheckout.java",
                CHECKOUT.replace("package com.example.app;", "package com.example.app.legacy;")
                        .replace("class CheckoutService", "class OldCheckout").replace("public CheckoutService(", "public OldCheckout("));
        write("racelint.yml", "exclude:\n  - \"app/src/main/java/com/example/app/legacy/**\"\n");
        dev.racelint.analyzer.config.ProjectConfig fromRoot = ModuleScan.readConfig(repo.resolve("app"), repo, null, registry);

        ModuleScan.Outcome app = ModuleScan.run(new ModuleScan.Request(List.of(appRoot), List.of(clientRoot), false,
                List.of(), List.of(), allRules, repo, null, null, "test", 1, null, fromRoot, null), registry);

        assertThat(app.findings()).extracting(f -> repo.relativize(f.primary().file()).toString().replace('\\', '/'))
                .as("the glob names the file from the root racelint.yml's folder").containsExactly(
                        "app/src/main/java/com/example/app/CheckoutService.java");
        assertThat(app.report().filesAnalysed()).as("the module's own count leaves it out too").isEqualTo(1);

        write("racelint.yml", "exclude:\n  - \"com/example/app/legacy/**\"\n");
        dev.racelint.analyzer.config.ProjectConfig sourceFolderRelative = ModuleScan.readConfig(repo.resolve("app"), repo,
                null, registry);
        ModuleScan.Outcome unmatched = ModuleScan.run(new ModuleScan.Request(List.of(appRoot), List.of(clientRoot), false,
                List.of(), List.of(), allRules, repo, null, null, "test", 1, null, sourceFolderRelative, null), registry);
        assertThat(unmatched.findings()).as("a glob relative to src/main/java names nothing from the root")
                .hasSize(2);
    }

    @Test
    void onlyTheSelectedRulesRun() throws IOException {
        twoModules();
        Set<String> others = new LinkedHashSet<>(allRules);
        others.remove("io-in-transaction");

        ModuleScan.Request request = new ModuleScan.Request(List.of(appRoot), List.of(clientRoot), false, List.of(),
                List.of(), others, repo, null, null, "test", 1);

        ModuleScan.Outcome outcome = ModuleScan.run(request, registry);
        assertThat(outcome.findings()).isEmpty();
        assertThat(outcome.report().rules()).noneMatch(r -> r.id().equals("io-in-transaction"));
    }

    /** minLevel: a note (cache-stampede's level) is left out of the report and counted; minLevel note keeps it. */
    @Test
    void findingsBelowMinLevelAreLeftOutAndCounted() throws IOException {
        write("app/src/main/java/com/example/app/PriceService.java", """
                package com.example.app;

                import org.springframework.cache.annotation.Cacheable;
                import org.springframework.web.client.RestTemplate;

                public class PriceService {
                    private final RestTemplate rest = new RestTemplate();

                    @Cacheable("prices")
                    public String price(String sku) {
                        return rest.getForObject("https://prices.example.com/" + sku, String.class);
                    }
                }
                """);
        Path app = repo.resolve("app/src/main/java");

        ModuleScan.Outcome byDefault = ModuleScan.run(new ModuleScan.Request(List.of(app), List.of(), false, List.of(),
                List.of(), allRules, repo, null, null, "test", 1, null, dev.racelint.analyzer.finding.Level.WARNING),
                registry);
        ModuleScan.Outcome all = ModuleScan.run(new ModuleScan.Request(List.of(app), List.of(), false, List.of(),
                List.of(), allRules, repo, null, null, "test", 1, null, dev.racelint.analyzer.finding.Level.NOTE),
                registry);

        assertThat(all.findings()).extracting(Finding::ruleId).containsExactly("cache-stampede");
        assertThat(byDefault.findings()).isEmpty();
        assertThat(byDefault.report().triage().belowMinLevel()).isEqualTo(1);
        assertThat(dev.racelint.analyzer.report.TextReportWriter.summary(byDefault.report(), "-Dracelint.minLevel="))
                .contains("1 note not shown (below the minimum level warning; -Dracelint.minLevel=note shows them)");
    }

    @Test
    void isUnderComparesWholePathSegments() {
        Path root = repo.resolve("app/src/main/java").toAbsolutePath().normalize();
        assertThat(ModuleScan.isUnder(root.resolve("a/B.java"), List.of(root))).isTrue();
        assertThat(ModuleScan.isUnder(repo.resolve("app/src/main/java2/B.java"), List.of(root))).isFalse();
        assertThat(ModuleScan.isUnder(null, List.of(root))).isFalse();
    }
}
