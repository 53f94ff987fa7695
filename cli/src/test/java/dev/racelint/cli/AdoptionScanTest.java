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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Adopting racelint on existing code: suppressions, baselines and diff mode, through the command line. */
class AdoptionScanTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FILE = "src/main/java/demo/CheckoutService.java";

    @TempDir
    Path dir;

    // ---- suppressions

    @Test
    void aSuppressWarningsOnTheMethodSilencesTheRuleAndIsCounted() {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION.replace("    @Transactional\n",
                "    // the charge is idempotent by order id, and the transaction is short\n"
                        + "    @SuppressWarnings(\"racelint:io-in-transaction\")\n    @Transactional\n"));

        Cli.Run run = run("scan", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.report()).isEqualTo("No findings in 1 file; 1 suppressed in the source.\n");
    }

    @Test
    void aSuppressionForAnotherRuleDoesNotSilenceThisOne() {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION.replace("    @Transactional\n",
                "    @SuppressWarnings({\"unchecked\", \"racelint:lock-order\"}) // reviewed\n    @Transactional\n"));

        Cli.Run run = run("scan", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("[io-in-transaction]").doesNotContain("suppressed");
    }

    @Test
    void aClassWideSuppressionOfAllRules() {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION.replace("@Service\n",
                "@Service\n@SuppressWarnings(\"racelint\") // legacy checkout, replaced in Q3\n"));

        Cli.Run run = run("scan", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).endsWith("1 suppressed in the source.\n");
    }

    @Test
    void anIgnoreCommentAboveTheLineWithAReason() {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION.replace("    @Transactional\n",
                "    @Transactional\n    // racelint:ignore io-in-transaction the provider call has a 200 ms timeout\n"));

        Cli.Run run = run("scan", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.report()).isEqualTo("No findings in 1 file; 1 suppressed in the source.\n");
    }

    @Test
    void aSuppressionWithoutAReasonStillAppliesAndIsReportedAsANote() {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION.replace("    @Transactional\n",
                "    @Transactional\n    // racelint:ignore io-in-transaction\n"));

        Cli.Run run = run("scan", dir.toString(), "--format", "json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode doc = readJson(run.out());
        assertThat(doc.path("findings")).isEmpty();
        assertThat(doc.path("summary").path("suppressed").asInt()).isEqualTo(1);
        assertThat(doc.path("diagnostics").findValuesAsText("code")).containsExactly("suppression-without-reason");
        assertThat(doc.path("diagnostics").get(0).path("line").asInt()).isEqualTo(19);
    }

    @Test
    void suppressedFindingsAreLeftOutOfSarifUnlessAskedForAndThenAllResultsCarrySuppressions() throws IOException {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION.replace("    @Transactional\n",
                "    @Transactional\n    // racelint:ignore io-in-transaction reviewed: the call has a 200 ms timeout\n"));
        Sources.write(dir, "src/main/java/demo/RefundService.java", Sources.IO_IN_TRANSACTION
                .replace("CheckoutService", "RefundService").replace("checkout(", "refund("));

        JsonNode plain = readJson(run("scan", dir.toString(), "--format", "sarif", "--fail-on", "none").out());
        JsonNode plainResults = plain.path("runs").get(0).path("results");
        assertThat(plainResults).hasSize(1);
        assertThat(plainResults.get(0).has("suppressions")).isFalse();

        String sarif = run("scan", dir.toString(), "--format", "sarif", "--fail-on", "none", "--include-suppressed").out();
        SarifAssertions.assertValidForGitHub(sarif);
        JsonNode results = readJson(sarif).path("runs").get(0).path("results");
        assertThat(results).hasSize(2);
        List<Integer> sizes = new ArrayList<>();
        for (JsonNode result : results) {
            assertThat(result.has("suppressions")).as("every result says whether it is suppressed").isTrue();
            sizes.add(result.path("suppressions").size());
        }
        assertThat(sizes).containsExactly(1, 0);
        JsonNode mark = results.get(0).path("suppressions").get(0);
        assertThat(mark.path("kind").asText()).isEqualTo("inSource");
        assertThat(mark.path("justification").asText()).isEqualTo("reviewed: the call has a 200 ms timeout");
    }

    // ---- baselines

    @Test
    void aBaselineAcceptsKnownFindingsAndKeepsMatchingWhenCodeMoves() throws IOException {
        Path source = Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        Path baseline = dir.resolve("racelint-baseline.json");
        Cli.Run create = run("baseline", "create", dir.toString(), "--file", baseline.toString());
        assertThat(create.exitCode()).as(create.toString()).isZero();
        JsonNode entries = readJson(Files.readString(baseline)).path("findings");
        assertThat(entries).hasSize(1);
        assertThat(entries.get(0).path("rule").asText()).isEqualTo("io-in-transaction");
        assertThat(entries.get(0).path("file").asText()).isEqualTo(FILE);

        Cli.Run known = run("scan", dir.toString(), "--baseline", baseline.toString());
        assertThat(known.exitCode()).as(known.toString()).isZero();
        assertThat(known.report()).isEqualTo("No findings in 1 file; 1 in the baseline.\n");

        // Lines added above, the method moved below a new one, re-indented: still the same finding.
        String moved = Sources.IO_IN_TRANSACTION
                .replace("public class CheckoutService {\n", "public class CheckoutService {\n"
                        + "    // Checkout: charge, then mark paid.\n\n    public String describe() {\n"
                        + "        return \"checkout\";\n    }\n\n")
                .replace("                    String charge", "                        String charge");
        Files.writeString(source, moved, StandardCharsets.UTF_8);
        Cli.Run after = run("scan", dir.toString(), "--baseline", baseline.toString());
        assertThat(after.exitCode()).as(after.toString()).isZero();
        assertThat(after.report()).isEqualTo("No findings in 1 file; 1 in the baseline.\n");

        // A second, new race is reported; the baselined one is not.
        Sources.write(dir, "src/main/java/demo/RefundService.java", Sources.IO_IN_TRANSACTION
                .replace("CheckoutService", "RefundService").replace("checkout(", "refund("));
        Cli.Run fresh = run("scan", dir.toString(), "--baseline", baseline.toString());
        assertThat(fresh.exitCode()).as(fresh.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(fresh.out()).contains("RefundService.java:19:17: error [io-in-transaction]")
                .doesNotContain("CheckoutService.java:")
                .endsWith("1 finding (1 error, 0 warnings, 0 notes) in 2 files; 1 in the baseline.\n");
    }

    @Test
    void fixedBaselineEntriesAreCountedAndUpdateDropsThem() throws IOException {
        Path source = Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        Path baseline = dir.resolve("racelint-baseline.json");
        assertThat(run("baseline", "create", dir.toString(), "--file", baseline.toString()).exitCode()).isZero();
        assertThat(run("baseline", "create", dir.toString(), "--file", baseline.toString()).exitCode())
                .as("create refuses to overwrite").isEqualTo(ExitCodes.USAGE);

        Files.writeString(source, Sources.IO_IN_TRANSACTION.replace("    @Transactional\n", ""), StandardCharsets.UTF_8);
        Cli.Run run = run("scan", dir.toString(), "--baseline", baseline.toString());
        assertThat(run.report()).isEqualTo("No findings in 1 file; 0 in the baseline (1 baseline entry no longer found: fixed).\n");

        Cli.Run update = run("baseline", "update", dir.toString(), "--file", baseline.toString());
        assertThat(update.exitCode()).as(update.toString()).isZero();
        assertThat(update.err()).contains("0 added, 1 fixed and removed, 0 in all");
        assertThat(readJson(Files.readString(baseline)).path("findings")).isEmpty();
    }

    @Test
    void aFileThatIsNotABaselineIsAUsageError() throws IOException {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        Path notBaseline = Files.writeString(dir.resolve("b.json"), "{\"findings\": []}");

        Cli.Run run = run("scan", dir.toString(), "--baseline", notBaseline.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("not a racelint baseline");
    }

    // ---- diff mode

    @Test
    void diffModeReportsOnlyFindingsOnChangedLines() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        git("init", "-q");
        git("add", ".");
        git("commit", "-q", "-m", "first");
        // A change: a new racy file, and a new race in the old file; the old race is untouched.
        Sources.write(dir, "src/main/java/demo/RefundService.java", Sources.IO_IN_TRANSACTION
                .replace("CheckoutService", "RefundService").replace("checkout(", "refund("));
        Path source = dir.resolve(FILE);
        Files.writeString(source, Files.readString(source).replace("    }\n}\n", "    }\n\n"
                + "    @Transactional\n    public void retry(String orderId) {\n"
                + "        jdbc.update(\"UPDATE orders SET retried = true WHERE id = ?\", orderId);"
                + " rest.postForObject(\"https://payments.example.com/retries\", orderId, String.class);\n"
                + "    }\n}\n"), StandardCharsets.UTF_8);

        Cli.Run all = run("scan", dir.toString(), "--fail-on", "none");
        assertThat(all.out()).contains("3 findings");

        Cli.Run diff = run("scan", dir.toString(), "--diff", "HEAD");
        assertThat(diff.exitCode()).as(diff.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(diff.out())
                .contains("CheckoutService.java:26:17: error [io-in-transaction] retry()")
                .contains("RefundService.java:19:17: error [io-in-transaction]")
                .doesNotContain("CheckoutService.java:19:")
                .endsWith("2 findings (2 errors, 0 warnings, 0 notes) in 2 files; 1 outside the diff.\n");

        Cli.Run unknown = run("scan", dir.toString(), "--diff", "no-such-branch");
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("unknown git revision 'no-such-branch'");
    }

    private void git(String... args) throws IOException, InterruptedException {
        Sources.git(dir, args);
    }

    private static JsonNode readJson(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}
