package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder with a broken file, an empty file, a 5 MB file and a Latin-1 file, beside a file with
 * a real io-in-transaction problem: the scan completes, reports the broken file and analyses the rest.
 */
class MessyInputTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static Cli.Run run;
    private static JsonNode doc;

    @BeforeAll
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    static void scan() throws IOException {
        Sources.write(dir, "src/main/java/demo/Broken.java", """
                package demo;

                public class Broken {
                    public void racyHalf( {
                        int x = ;
                }
                """);
        Sources.write(dir, "src/main/java/demo/Empty.java", "");
        Path big = Sources.write(dir, "src/main/java/demo/Big.java", Sources.large("Big", 5 * 1024 * 1024));
        assertThat(Files.size(big)).isGreaterThanOrEqualTo(5L * 1024 * 1024);
        // "Grüße aus Köln" and "café" in ISO-8859-1: not valid UTF-8.
        Path latin1 = Sources.write(dir, "src/main/java/demo/Latin1.java", """
                // Grüße aus Köln
                package demo;

                public class Latin1 {
                    private final String drink = "café";

                    public String racyMenu() {
                        return drink;
                    }
                }
                """, StandardCharsets.ISO_8859_1);
        byte[] latin1Bytes = Files.readAllBytes(latin1);
        assertThatThrownBy(() -> StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(latin1Bytes)))
                .isInstanceOf(CharacterCodingException.class);
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);

        // The 5 MB file takes most of the default per-file limit (60 s) on a loaded 2-core machine; this
        // test is about messy input, not that limit (LimitsEdgeTest covers it), so the limit is generous.
        run = Cli.run(Cli.installedAndTestRules(), "scan", dir.toString(), "--format", "json", "--file-time-limit", "600");
        doc = JSON.readTree(run.out());
    }

    @Test
    void theScanCompletes() {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.err()).isEmpty();
    }

    @Test
    void theBrokenFileIsADiagnostic() {
        List<String> diagnostics = new ArrayList<>();
        for (JsonNode d : doc.path("diagnostics")) {
            diagnostics.add(d.path("file").asText() + " " + d.path("code").asText());
        }
        assertThat(diagnostics).contains("src/main/java/demo/Broken.java parse-error");
        assertThat(diagnostics).noneMatch(d -> d.startsWith("src/main/java/demo/Big.java")
                || d.startsWith("src/main/java/demo/Empty.java")
                || d.startsWith("src/main/java/demo/CheckoutService.java"));
    }

    @Test
    void theOtherFilesAreAnalysed() {
        // Empty, Big, Latin1 and CheckoutService; not Broken.
        assertThat(doc.path("summary").path("files").asInt()).isEqualTo(4);
    }

    @Test
    void theLatin1FileIsReadAndAnalysed() {
        List<String> findings = findings();
        assertThat(findings).contains("test-racy-method src/main/java/demo/Latin1.java:7");
        assertThat(findings).noneMatch(f -> f.contains("Broken.java"));
    }

    @Test
    void theIoInTransactionProblemIsFound() {
        assertThat(findings()).contains("io-in-transaction src/main/java/demo/CheckoutService.java:19");
    }

    private static List<String> findings() {
        List<String> findings = new ArrayList<>();
        for (JsonNode f : doc.path("findings")) {
            findings.add(f.path("ruleId").asText() + " " + f.path("file").asText() + ":" + f.path("startLine").asInt());
        }
        return findings;
    }
}
