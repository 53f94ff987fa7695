package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.report.SarifAssertions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs built to break a scanner, beside real problems in modern and unusual but valid code: the
 * scan finishes, reports what it skipped and why, finds the problems, and writes the same bytes
 * however many threads it uses, with no machine path in them.
 */
class HostileInputTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static Cli.Run json;

    @BeforeAll
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    static void scan() throws IOException {
        String src = "src/main/java/demo/";
        // A BOM and Windows line endings around a real problem.
        Files.write(dir.resolve(Files.createDirectories(dir.resolve(src)).resolve("BomService.java")),
                ("\uFEFF" + Sources.IO_IN_TRANSACTION.replace("CheckoutService", "BomService").replace("\n", "\r\n"))
                        .getBytes(StandardCharsets.UTF_8));
        // A 100,000-character line in a file with a real problem.
        Sources.write(dir, src + "LongLineService.java", Sources.IO_IN_TRANSACTION
                .replace("CheckoutService", "LongLineService")
                .replace("    private final JdbcTemplate jdbc;", "    private static final String BLOB = \"" + "x".repeat(100_000)
                        + "\";\n    private final JdbcTemplate jdbc;"));
        // 10,000-deep nesting: the file is skipped with a diagnostic, nothing escapes.
        StringBuilder deep = new StringBuilder("1");
        for (int i = 0; i < 10_000; i++) {
            deep.insert(0, '(').append(" + 1)");
        }
        Sources.write(dir, src + "Deep.java", "package demo;\nclass Deep {\n    int v() { return " + deep + "; }\n}\n");
        // Binary content with a .java name (not Java: it does not parse), and a file over the size limit.
        Files.write(dir.resolve(src + "Binary.java"), new byte[] {0, 1, 2, (byte) 0xff, 0, 0x7f});
        Sources.write(dir, src + "Huge.java", Sources.large("Huge", 11 * 1024 * 1024));
        // A symlink loop and a link to nowhere.
        Files.createSymbolicLink(dir.resolve(src + "loop"), dir.resolve("src"));
        Files.createSymbolicLink(dir.resolve(src + "Gone.java"), dir.resolve("no-such-file.java"));
        // Java 21 syntax around a real problem: a record, a sealed interface, a switch with patterns,
        // a text block; all analysed, not skipped.
        Sources.write(dir, src + "ModernService.java", """
                package demo;

                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.transaction.annotation.Transactional;
                import org.springframework.web.client.RestTemplate;

                public class ModernService {
                    sealed interface Event permits Paid, Refunded {}
                    record Paid(String orderId, long cents) implements Event {}
                    record Refunded(String orderId) implements Event {}

                    private final JdbcTemplate jdbc;
                    private final RestTemplate rest;

                    ModernService(JdbcTemplate jdbc, RestTemplate rest) {
                        this.jdbc = jdbc;
                        this.rest = rest;
                    }

                    @Transactional
                    public void handle(Event event) {
                        String sql = \"""
                                UPDATE orders SET status = ? WHERE id = ?
                                \""";
                        switch (event) {
                            case Paid(String id, long cents) when cents > 0 -> {
                                jdbc.update(sql, "PAID", id);
                                rest.postForObject("https://ledger.example.com/entries", id, String.class);
                            }
                            case Paid p -> jdbc.update(sql, "FREE", p.orderId());
                            case Refunded r -> jdbc.update(sql, "REFUNDED", r.orderId());
                        }
                    }
                }
                """);
        // Lombok-style code: the getters it calls do not exist in the source.
        Sources.write(dir, src + "LombokService.java", """
                package demo;

                import lombok.Data;
                import lombok.RequiredArgsConstructor;
                import org.springframework.transaction.annotation.Transactional;
                import org.springframework.web.client.RestTemplate;

                @RequiredArgsConstructor
                public class LombokService {
                    @Data
                    static class Order { private String id; private long cents; }

                    private final RestTemplate rest;
                    private final org.springframework.jdbc.core.JdbcTemplate jdbc;

                    @Transactional
                    public void charge(Order order) {
                        jdbc.update("UPDATE orders SET state = 'CHARGING' WHERE id = ?", order.getId());
                        rest.postForObject("https://payments.example.com/" + order.getId(), order.getCents(), String.class);
                    }
                }
                """);
        json = Cli.run("scan", dir.toString(), "--format", "json", "--fail-on", "none");
    }

    @Test
    void theScanFinishesAndFindsTheRealProblems() throws IOException {
        assertThat(json.exitCode()).as(json.toString()).isZero();
        JsonNode findings = JSON.readTree(json.out()).path("findings");
        java.util.List<String> files = new java.util.ArrayList<>();
        findings.forEach(f -> files.add(f.path("file").asText()));
        assertThat(files).containsExactly(
                "src/main/java/demo/BomService.java", "src/main/java/demo/LombokService.java",
                "src/main/java/demo/LongLineService.java", "src/main/java/demo/ModernService.java");
        for (JsonNode f : findings) {
            assertThat(f.path("ruleId").asText()).isEqualTo("io-in-transaction");
        }
        JsonNode bom = findings.get(0);
        assertThat(bom.path("startLine").asInt()).as("lines count the same with CRLF and a BOM").isEqualTo(19);
    }

    @Test
    void whatWasSkippedIsSaidWithAReason() throws IOException {
        JsonNode diagnostics = JSON.readTree(json.out()).path("diagnostics");
        assertThat(diagnostics.findValuesAsText("code")).contains("too-deep", "parse-error", "file-too-large");
        assertThat(diagnostics.toString()).contains("Deep.java").contains("Binary.java").contains("Huge.java");
        java.util.List<String> binary = new java.util.ArrayList<>();
        diagnostics.forEach(d -> {
            if (d.path("file").asText().endsWith("Binary.java")) {
                binary.add(d.path("code").asText());
            }
        });
        assertThat(binary).as("decoded, tried and found not to be Java").containsExactly("encoding", "parse-error");
    }

    @Test
    void outputIsTheSameWithOneOrTwoThreadsAndNamesNoMachinePath() {
        // without the cache, so that each of these scans analyses
        String sarif1 = Cli.run("scan", dir.toString(), "--format", "sarif", "--fail-on", "none", "--threads", "1",
                "--no-cache").out();
        String sarif2 = Cli.run("scan", dir.toString(), "--format", "sarif", "--fail-on", "none", "--threads", "2",
                "--no-cache").out();
        String json2 = Cli.run("scan", dir.toString(), "--format", "json", "--fail-on", "none", "--threads", "2",
                "--no-cache").out();
        assertThat(sarif2).isEqualTo(sarif1);
        assertThat(json2).isEqualTo(json.out());
        SarifAssertions.assertValidForGitHub(sarif1);
        String machine = dir.toAbsolutePath().toString();
        assertThat(sarif1).doesNotContain(machine).doesNotContain("file:/");
        assertThat(json.out()).doesNotContain(machine);
        assertThat(sarif1 + json.out()).doesNotContain(System.getProperty("user.home"));
    }

    @Test
    void aReScanAfterAnEditReadsTheOtherTreesAndReportsWhatAColdScanReports(@TempDir Path copy) throws IOException {
        // a copy, so that the edit does not reach the other tests; links are left out of it
        try (var files = Files.walk(dir)) {
            for (Path file : files.filter(f -> Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    && !f.toString().contains(".racelint")).toList()) {
                Path target = copy.resolve(dir.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target);
            }
        }
        Path cache = copy.resolve("cache");
        Cli.run("scan", copy.toString(), "--format", "json", "--fail-on", "none", "--cache-dir", cache.toString());
        Path edited = copy.resolve("src/main/java/demo/LongLineService.java");
        Files.writeString(edited, "// moved down a line\n" + Files.readString(edited, StandardCharsets.UTF_8),
                StandardCharsets.UTF_8);
        Cli.Run again = Cli.run("scan", copy.toString(), "--format", "json", "--fail-on", "none", "--cache-dir",
                cache.toString());
        Cli.Run cold = Cli.run("scan", copy.toString(), "--format", "json", "--fail-on", "none", "--no-cache");
        assertThat(again.err()).as("the parsed files' trees were kept; the skipped ones have none")
                .containsPattern("racelint: \\d+ of \\d+ files unchanged since the last scan");
        assertThat(again.out()).isEqualTo(cold.out());
        assertThat(JSON.readTree(again.out()).path("findings").toString()).contains("LongLineService.java");
    }
}
