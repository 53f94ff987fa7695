package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.report.SarifAssertions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pull request that writes terminal escapes, a bidi override and a markdown link into string
 * literals, a file name and racelint.yml, scanned end to end: no report format and no line on
 * stderr passes one of those characters on raw, and SARIF carries no link but racelint's own.
 */
class HostileReportTest {

    /** Clear screen, an OSC 8 hyperlink ended by BEL, backspaces, DEL, a bidi override, a markdown link. */
    private static final String HOSTILE = "\u001b[2J\u001b]8;;https://evil.example/\u0007ok\u001b]8;;\u0007\b\b"
            + "\u007f\u202e[Click to approve](https://evil.example/phish)";
    private static final List<String> RAW = List.of("\u001b", "\u0007", "\b", "\u007f", "\u202e");

    /** A lock-order cycle on two distributed locks named by the hostile literal: the names reach messages and flows. */
    private static final String LEDGER = """
            package demo;

            import java.util.concurrent.locks.Lock;
            import org.redisson.api.RedissonClient;

            class Ledger {
                private final RedissonClient redisson;

                Ledger(RedissonClient redisson) {
                    this.redisson = redisson;
                }

                void transfer() {
                    Lock a = redisson.getLock("A%1$s");
                    a.lock();
                    try {
                        Lock b = redisson.getLock("B%1$s"); b.lock();
                        try {
                            work();
                        } finally {
                            b.unlock();
                        }
                    } finally {
                        a.unlock();
                    }
                }

                void refund() {
                    Lock b = redisson.getLock("B%1$s");
                    b.lock();
                    try {
                        Lock a = redisson.getLock("A%1$s"); a.lock();
                        try {
                            work();
                        } finally {
                            a.unlock();
                        }
                    } finally {
                        b.unlock();
                    }
                }

                void work() {
                }
            }
            """.formatted(HOSTILE);

    @TempDir
    Path dir;

    @Test
    void noReportPassesControlCharactersOrLinksFromTheTreeOn() throws IOException {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java",
                Sources.IO_IN_TRANSACTION.replace("https://payments.example.com/charges", HOSTILE));
        Sources.write(dir, "src/main/java/demo/Led\u001b[8mger\u0007\u202e.java", LEDGER);

        Cli.Run text = run("scan", dir.toString(), "--no-cache");
        assertThat(text.exitCode()).as(text.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(text.out()).contains("[lock-order]").contains("[io-in-transaction]")
                // the file name, the lock names in message and path, the source line: all shown escaped
                .contains("src/main/java/demo/Led\\u001b[8mger\\u0007\\u202e.java:")
                .contains("waits for the distributed lock \"B\\u001b[2J\\u001b]8;;https://evil.example/\\u0007ok")
                .contains("Lock b = redisson.getLock(\"B\\u001b[2J");
        assertNoRaw("text", text.out() + text.err());

        for (String format : List.of("json", "sarif", "html")) {
            Path report = dir.resolve("report." + format);
            Cli.Run run = run("scan", dir.toString(), "--no-cache", "--format", format, "--output", report.toString());
            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.FINDINGS);
            assertNoRaw(format, Files.readString(report, StandardCharsets.UTF_8) + run.err());
        }

        // explain --finding prints the finding's place and message to the terminal too
        String fingerprint = null;
        for (JsonNode finding : new ObjectMapper().readTree(dir.resolve("report.json").toFile()).path("findings")) {
            if (finding.path("ruleId").asText().equals("lock-order")) {
                fingerprint = finding.path("fingerprint").asText();
            }
        }
        Cli.Run explain = run("explain", "lock-order", "--finding", fingerprint, "--path", dir.toString());
        assertThat(explain.exitCode()).as(explain.toString()).isZero();
        assertThat(explain.out()).startsWith("src/main/java/demo/Led\\u001b[8mger\\u0007\\u202e.java:");
        assertNoRaw("explain", explain.out() + explain.err());

        String sarif = Files.readString(dir.resolve("report.sarif"), StandardCharsets.UTF_8);
        // valid, and no message (results, related locations, code-flow steps) holds a link but racelint's own
        SarifAssertions.assertValidForGitHub(sarif);
        JsonNode results = new ObjectMapper().readTree(sarif).at("/runs/0/results");
        JsonNode lockOrder = null;
        for (JsonNode result : results) {
            if (result.path("ruleId").asText().equals("lock-order")) {
                lockOrder = result;
            }
        }
        assertThat(lockOrder).as(sarif).isNotNull();
        assertThat(lockOrder.at("/message/text").asText())
                .contains("\\[Click to approve\\](https://evil.example/phish)")
                .contains("\\\\u001b\\[2J");
        assertThat(lockOrder.at("/codeFlows/0/threadFlows/0/locations/0/location/message/text").asText())
                .contains("\\[Click to approve\\](https://evil.example/phish)");
    }

    @Test
    void configValuesEchoedInAnErrorAreEscaped() {
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);
        // YAML's \e and \a escapes put ESC and BEL into the key, which the error message quotes
        Sources.write(dir, "racelint.yml", "\"\\e[2J\\a\\u202e[Click](https://evil.example)\": 1\n");

        Cli.Run run = run("scan", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("\\u001b[2J\\u0007\\u202e[Click](https://evil.example)");
        assertNoRaw("stderr", run.out() + run.err());
    }

    @Test
    void theCacheNoteNamesNoMachinePath() {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        run("scan", dir.toString(), "--fail-on", "none");

        Cli.Run again = run("scan", dir.toString(), "--fail-on", "none");

        assertThat(again.err()).as(again.toString()).contains("results from .racelint/cache (--no-cache")
                .doesNotContain(dir.toString());
    }

    private static void assertNoRaw(String what, String output) {
        for (String raw : RAW) {
            assertThat(output).as("%s: U+%04X", what, (int) raw.charAt(0)).doesNotContain(raw);
        }
    }
}
