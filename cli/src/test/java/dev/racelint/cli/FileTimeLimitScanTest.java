package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.AnalysisOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One big file cannot stall the scan: a 10 MB one-class file (under the default size limit) is given
 * up at the per-file time limit with a diagnostic, and the rest of the scan goes on. A small limit keeps
 * the test short; the analyzer's FileTimeLimitTest shows each side of the limit exactly.
 */
class FileTimeLimitScanTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int LIMIT_SECONDS = 5; // the small file needs well under it even on a busy machine; the big one needs far more
    /** JVM start, the other file's analysis and the report, on a busy machine; parsing and analysing the big file take far longer. */
    private static final int MARGIN_SECONDS = 25;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aTenMegabyteOneClassFileFinishesWithinTheLimitWithADiagnosticAndTheOtherFileKeepsItsFinding() throws Exception {
        Path big = Sources.write(dir, "src/main/java/demo/Big.java", Sources.large("Big", 10 * 1024 * 1024 - 4096));
        assertThat(Files.size(big)).isGreaterThan(10_000_000L).isLessThanOrEqualTo(AnalysisOptions.DEFAULT_MAX_FILE_BYTES);
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Path report = dir.resolve("report.json");
        Path log = dir.resolve("log.txt");

        long start = System.nanoTime();
        // a fresh JVM, so that the parser worker given up on keeps no core of this one busy afterwards
        Process scan = Sources.racelintProcess(List.of(), log, "scan", dir.toString(), "--no-cache", "--threads", "2",
                "--format", "json", "--output", report.toString(), "--file-time-limit", String.valueOf(LIMIT_SECONDS))
                .start();
        int exit = scan.waitFor();
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

        assertThat(exit).as(Files.readString(log)).isEqualTo(ExitCodes.FINDINGS);
        assertThat(seconds).as("the whole scan, JVM start included").isLessThan(LIMIT_SECONDS + MARGIN_SECONDS);
        JsonNode doc = JSON.readTree(report.toFile());
        List<String> tooSlow = new ArrayList<>();
        doc.path("diagnostics").forEach(d -> {
            if (d.path("code").asText().equals("too-slow")) {
                tooSlow.add(d.path("file").asText() + ": " + d.path("message").asText());
            }
        });
        assertThat(tooSlow).singleElement().asString()
                .startsWith("src/main/java/demo/Big.java: ").contains(LIMIT_SECONDS + " s");
        assertThat(Files.readString(log)).as("the summary").contains("; 1 file could not be analysed");
        List<String> found = new ArrayList<>();
        doc.path("findings").forEach(f -> found.add(f.path("ruleId").asText() + " " + f.path("file").asText()));
        assertThat(found).containsExactly("io-in-transaction src/main/java/demo/CheckoutService.java");
    }

    @Test
    void theLimitIsAPositiveNumberOfSeconds() {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Cli.Run zero = Cli.run("scan", dir.toString(), "--no-cache", "--file-time-limit", "0");
        assertThat(zero.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(zero.err()).contains("--file-time-limit must be a positive number of seconds, not 0");
        assertThat(Cli.run("scan", dir.toString(), "--no-cache", "--file-time-limit", "30").exitCode())
                .isEqualTo(ExitCodes.FINDINGS);
    }
}
