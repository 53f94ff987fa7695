package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The installed io-in-transaction rule, end to end through the command line. */
class IoInTransactionScanTest {

    @TempDir
    Path dir;

    @Test
    void anHttpCallInATransactionFailsTheScan() {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);

        Cli.Run run = run("scan", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out())
                .contains("src/main/java/demo/CheckoutService.java:19:17: error [io-in-transaction]")
                .contains("RestTemplate.postForObject()")
                .endsWith("1 finding (1 error, 0 warnings, 0 notes) in 1 file.\n");
    }

    @Test
    void sarifCarriesTheRuleAndTheResult() throws IOException {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);

        Cli.Run run = run("scan", dir.toString(), "--format", "sarif", "--fail-on", "none");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode sarifRun = new ObjectMapper().readTree(run.out()).path("runs").get(0);
        assertThat(sarifRun.path("tool").path("driver").path("rules").findValuesAsText("id"))
                .contains("io-in-transaction");
        assertThat(sarifRun.path("results")).hasSize(1);
        assertThat(sarifRun.path("results").get(0).path("ruleId").asText()).isEqualTo("io-in-transaction");
        assertThat(sarifRun.path("results").get(0).path("level").asText()).isEqualTo("error");
    }

    @Test
    void theSameCodeWithoutTheTransactionIsClean() {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java",
                Sources.IO_IN_TRANSACTION.replace("    @Transactional\n", ""));

        Cli.Run run = run("scan", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.report()).isEqualTo("No findings in 1 file.\n");
    }
}
