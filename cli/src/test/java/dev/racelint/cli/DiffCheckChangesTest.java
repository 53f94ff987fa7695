package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.report.SarifAssertions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Diff mode and the changes that switch the check off instead of fixing the code: a suppression, a
 * baseline entry or a racelint.yml setting that the change itself adds is noted with its place, and
 * {@code --config-from-base} keeps the base's racelint.yml in force.
 */
class DiffCheckChangesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FILE = "src/main/java/demo/CheckoutService.java";
    /** A second racy method, appended to the class by a change. */
    private static final String RETRY = "\n    @Transactional\n    public void retry(String orderId) {\n"
            + "        jdbc.update(\"UPDATE orders SET retried = true WHERE id = ?\", orderId);"
            + " rest.postForObject(\"https://payments.example.com/retries\", orderId, String.class);\n    }\n}\n";

    @TempDir
    Path dir;

    @BeforeEach
    void repository() throws Exception {
        git("init", "-q");
    }

    // ---- suppressions

    @Test
    void aSuppressionAddedInTheDiffIsReportedWithItsPlaceWhatItHidesAndItsReason() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        commit();
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION.replace("    @Transactional\n",
                "    @SuppressWarnings(\"racelint:io-in-transaction\") // payments are idempotent\n    @Transactional\n"));

        Cli.Run text = run("scan", dir.toString(), "--diff", "HEAD");

        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.report()).isEqualTo(FILE + ":18:5: note [suppression-added] @SuppressWarnings for io-in-transaction"
                + " added by this change: it hides 1 finding (io-in-transaction at line 20); reason given: "
                + "\"payments are idempotent\".\n"
                + "No findings in 1 file; 1 suppressed in the source; 0 outside the diff; 1 check change in the diff "
                + "(suppressions, baseline entries, config).\n");

        JsonNode json = JSON.readTree(run("scan", dir.toString(), "--diff", "HEAD", "--format", "json").out());
        assertThat(json.path("summary").path("checkChanges").asInt()).isEqualTo(1);
        JsonNode note = json.path("diagnostics").get(0);
        assertThat(note.path("code").asText()).isEqualTo("suppression-added");
        assertThat(note.path("level").asText()).isEqualTo("note");
        assertThat(note.path("file").asText()).isEqualTo(FILE);
        assertThat(note.path("line").asInt()).isEqualTo(18);

        // in SARIF a result, which GitHub shows the pull request's reviewer; a notification it would not
        String sarif = run("scan", dir.toString(), "--diff", "HEAD", "--format", "sarif").out();
        SarifAssertions.assertValidForGitHub(sarif);
        JsonNode runNode = JSON.readTree(sarif).path("runs").get(0);
        JsonNode result = runNode.path("results").get(0);
        assertThat(result.path("ruleId").asText()).isEqualTo("suppression-added");
        assertThat(result.path("level").asText()).isEqualTo("note");
        JsonNode location = result.path("locations").get(0).path("physicalLocation");
        assertThat(location.path("artifactLocation").path("uri").asText()).isEqualTo(FILE);
        assertThat(location.path("region").path("startLine").asInt()).isEqualTo(18);
        JsonNode rules = runNode.path("tool").path("driver").path("rules");
        assertThat(rules.get(result.path("ruleIndex").asInt()).path("id").asText()).isEqualTo("suppression-added");
        assertThat(runNode.path("invocations").get(0).path("toolExecutionNotifications").isMissingNode()).isTrue();
    }

    @Test
    void onlyTheSuppressionsTheChangeWritesAreReportedNotThoseTheBaseHad() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION.replace("    @Transactional\n",
                "    @SuppressWarnings(\"racelint:io-in-transaction\") // reviewed in PAY-12\n    @Transactional\n"));
        commit();
        Path source = dir.resolve(FILE);
        // the change edits the same file: a new method silenced by a comment, and a comment that silences nothing
        Files.writeString(source, Files.readString(source).replace("    }\n}\n", "    }\n" + RETRY
                .replace("    public void retry", "    // racelint:ignore io-in-transaction the retries endpoint dedups\n"
                        + "    public void retry")
                .replace("        jdbc.update(\"UPDATE orders SET retried", "        // racelint:ignore lock-order\n"
                        + "        jdbc.update(\"UPDATE orders SET retried")));

        Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .contains(FILE + ":27:1: note [suppression-added] // racelint:ignore for io-in-transaction added by this "
                        + "change: it hides 1 finding (io-in-transaction at line 28); reason given: \"the retries endpoint "
                        + "dedups\".\n")
                .contains(FILE + ":29:1: note [suppression-added] // racelint:ignore for lock-order added by this change: "
                        + "it hides no finding of this scan; no reason given.\n")
                .doesNotContain(":18:5: note [suppression-added]")
                .contains("2 check changes in the diff");
    }

    /** A method with no I/O and no transaction, appended to the class at the base. */
    private static final String COUNT_RETRY = "\n    public void retry(String orderId) {\n"
            + "        jdbc.update(\"UPDATE orders SET retries = retries + 1 WHERE id = ?\", orderId);\n    }\n}\n";

    @Test
    void aFindingTheChangeBringsUnderACommentTheBaseHadIsReported() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION.replace("    }\n}\n", "    }\n" + COUNT_RETRY
                .replace("    public void retry", "    // racelint:ignore io-in-transaction reviewed in PAY-12\n    public void retry")));
        commit();
        // the change makes the reviewed method transactional and adds a call out: the old comment now hides it
        Path source = dir.resolve(FILE);
        Files.writeString(source, Files.readString(source)
                .replace("    // racelint:ignore io-in-transaction reviewed", "    @Transactional\n    // racelint:ignore io-in-transaction reviewed")
                .replace("retries + 1 WHERE id = ?\", orderId);\n", "retries + 1 WHERE id = ?\", orderId);\n"
                        + "        rest.postForObject(\"https://payments.example.com/retries\", orderId, String.class);\n"));

        Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD");

        assertThat(run.exitCode()).as("notes never fail the scan: " + run).isZero();
        assertThat(run.out()).contains(FILE + ":29:9: note [suppressed-in-diff] the io-in-transaction finding at line 27, on "
                        + "lines this change touches, is hidden by the // racelint:ignore for io-in-transaction at line 26, which this "
                        + "change did not add; reason given: \"reviewed in PAY-12\".\n")
                .doesNotContain("[suppression-added]")
                .endsWith("No findings in 1 file; 1 suppressed in the source; 1 outside the diff; 1 check change in the diff "
                        + "(suppressions, baseline entries, config).\n");
    }

    @Test
    void aFindingTheChangeBringsUnderAClassLevelAnnotationTheBaseHadIsReported() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION.replace("@Service\n",
                "@Service\n@SuppressWarnings(\"racelint:io-in-transaction\") // the charge is idempotent\n")
                .replace("    }\n}\n", "    }\n" + COUNT_RETRY));
        commit();
        Path source = dir.resolve(FILE);
        Files.writeString(source, Files.readString(source)
                .replace("    public void retry", "    @Transactional\n    public void retry")
                .replace("retries + 1 WHERE id = ?\", orderId);\n", "retries + 1 WHERE id = ?\", orderId);\n"
                        + "        rest.postForObject(\"https://payments.example.com/retries\", orderId, String.class);\n"));

        Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD", "--format", "json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode json = JSON.readTree(run.out());
        assertThat(json.path("summary").path("checkChanges").asInt()).as(run.out()).isEqualTo(1);
        JsonNode note = json.path("diagnostics").get(0);
        assertThat(note.path("code").asText()).isEqualTo("suppressed-in-diff");
        assertThat(note.path("file").asText()).isEqualTo(FILE);
        assertThat(note.path("line").asInt()).as("the call the change adds").isEqualTo(29);
        assertThat(note.path("message").asText()).isEqualTo("the io-in-transaction finding at line 27, on lines this change "
                + "touches, is hidden by the @SuppressWarnings for io-in-transaction at line 9, which this change did not "
                + "add; reason given: \"the charge is idempotent\".");
        // the base's own finding, under the same annotation, is not part of the change
        assertThat(json.path("diagnostics").size()).isEqualTo(1);
    }

    // ---- attributes in the scanned tree

    @Test
    void aGitattributesThatMakesJavaBinaryDoesNotHideTheChangedLines() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        commit();
        for (String attributes : List.of("*.java -diff\n", "*.java binary\n")) {
            // the change declares Java files binary, so git would print "Binary files differ" and no hunk
            Files.writeString(dir.resolve(".gitattributes"), attributes);
            Path source = dir.resolve(FILE);
            Files.writeString(source, Sources.IO_IN_TRANSACTION.replace("    }\n}\n", "    }\n" + RETRY
                    .replace("        jdbc.update(\"UPDATE orders SET retried", "        // racelint:ignore lock-order\n"
                        + "        jdbc.update(\"UPDATE orders SET retried")));

            Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD");

            assertThat(run.exitCode()).as(attributes + run).isEqualTo(ExitCodes.FINDINGS);
            assertThat(run.out()).as(attributes).contains(FILE + ":26:17: error [io-in-transaction] retry()")
                    .contains(FILE + ":27:1: note [suppression-added] // racelint:ignore for lock-order added by this change")
                    .contains("1 outside the diff");
        }
    }

    @Test
    void aGitattributesThatMakesGitReencodeJavaCountsTheFileAsChangedInFull() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        commit();
        // git would read the UTF-8 file as UTF-16 before diffing it: its new side is one line of noise
        Files.writeString(dir.resolve(".gitattributes"), "*.java working-tree-encoding=UTF-16LE\n");
        Path source = dir.resolve(FILE);
        Files.writeString(source, Sources.IO_IN_TRANSACTION.replace("    }\n}\n", "    }\n" + RETRY
                .replace("        jdbc.update(\"UPDATE orders SET retried", "        // racelint:ignore lock-order\n"
                        + "        jdbc.update(\"UPDATE orders SET retried")));

        Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains(FILE + ":26:17: error [io-in-transaction] retry()")
                .contains(FILE + ":27:1: note [suppression-added] // racelint:ignore for lock-order added by this change")
                .contains("0 outside the diff");
    }

    @Test
    void aLoneCarriageReturnCannotMoveTheChangesCodeOntoLinesGitCallsUnchanged() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION.replace("    }\n}\n", "    }\n" + COUNT_RETRY
                .replace("    public void retry", "    @Transactional\n    public void retry")));
        commit();
        // Java ends a line at a lone CR, git does not: for git the change rewrites one line, the call is on the next
        Path source = dir.resolve(FILE);
        Files.writeString(source, Files.readString(source).replace("retries + 1 WHERE id = ?\", orderId);\n",
                "retries + 1 WHERE id = ?\", orderId);\r"
                        + "        rest.postForObject(\"https://payments.example.com/retries\", orderId, String.class);\n"));

        Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains(FILE + ":26:17: error [io-in-transaction] retry()");
    }

    // ---- baseline

    @Test
    void baselineEntriesTheChangeAddsAreReportedAtTheirLine() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        Path baseline = dir.resolve("racelint-baseline.json");
        assertThat(run("baseline", "create", dir.toString(), "--file", baseline.toString()).exitCode()).isZero();
        commit();
        // the change adds a race and accepts it into the baseline instead of fixing it
        Path source = dir.resolve(FILE);
        Files.writeString(source, Files.readString(source).replace("    }\n}\n", "    }\n" + RETRY));
        assertThat(run("baseline", "update", dir.toString(), "--file", baseline.toString()).exitCode()).isZero();
        int entryLine = entryLine(baseline, "retry(");

        Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD", "--baseline", baseline.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("racelint-baseline.json:" + entryLine + ": note [baseline-entry-added] baseline entry "
                        + "added by this change: io-in-transaction in \"" + FILE + "\", \"demo.CheckoutService#retry(String)\": it "
                        + "accepts a "
                        + "finding of this scan, which is not reported.\n")
                .endsWith("No findings in 1 file; 2 in the baseline; 0 outside the diff; 1 check change in the diff "
                        + "(suppressions, baseline entries, config).\n");
        assertThat(run.out().split("baseline-entry-added", -1)).as("only the new entry").hasSize(2);
    }

    @Test
    void aBaselineFileTheChangeAddsCountsInFull() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        commit();
        Path baseline = dir.resolve("racelint-baseline.json");
        assertThat(run("baseline", "create", dir.toString(), "--file", baseline.toString()).exitCode()).isZero();

        Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD", "--baseline", baseline.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("racelint-baseline.json:" + entryLine(baseline, "checkout(") + ": note "
                + "[baseline-entry-added] baseline entry added by this change: io-in-transaction in \"" + FILE
                + "\", \"demo.CheckoutService#checkout(String)\": it accepts a finding of this scan, which is not reported.\n");
    }

    // ---- racelint.yml

    @Test
    void aRuleTheChangeSwitchesOffAndAnExcludeItAddsAreReportedAtTheirLines() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        Files.writeString(dir.resolve("racelint.yml"), "rules:\n  cache-stampede: off\n");
        commit();
        Files.writeString(dir.resolve("racelint.yml"), "rules:\n  cache-stampede: off\n  io-in-transaction: off\n"
                + "  lost-update: note\nexclude:\n  - \"**/payments/**\"\napis:\n  \"demo.Ledger#claim\": idempotency-store\n");
        Path source = dir.resolve(FILE);
        Files.writeString(source, Files.readString(source).replace("    }\n}\n", "    }\n" + RETRY));

        Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD");

        assertThat(run.exitCode()).as("the rule is off in the work tree's racelint.yml: " + run).isZero();
        assertThat(run.out())
                .contains("racelint.yml:3: note [config-changed] rules: io-in-transaction is off (at HEAD: not set): "
                        + "the rule no longer runs.\n")
                .contains("racelint.yml:4: note [config-changed] rules: lost-update is note (at HEAD: not set): its findings "
                        + "are reported at a lower level, which may no longer fail the build.\n")
                .contains("racelint.yml:6: note [config-changed] exclude: \"**/payments/**\" added by this change: files "
                        + "it matches are no longer scanned.\n")
                .contains("racelint.yml:8: note [config-changed] apis: \"demo.Ledger#claim\" is idempotency-store, added by "
                        + "this change: racelint now takes every call to it for idempotency-store, so code that calls it "
                        + "counts as guarded and findings there can go away.\n")
                .doesNotContain("cache-stampede")
                .endsWith("4 check changes in the diff (suppressions, baseline entries, config).\n");
    }

    @Test
    void withConfigFromBaseTheBasesRacelintYmlApplies() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        Files.writeString(dir.resolve("racelint.yml"), "rules:\n  cache-stampede: off\n");
        commit();
        Files.writeString(dir.resolve("racelint.yml"), "rules:\n  cache-stampede: off\n  io-in-transaction: off\n");
        Path source = dir.resolve(FILE);
        Files.writeString(source, Files.readString(source).replace("    }\n}\n", "    }\n" + RETRY));

        Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD", "--config-from-base");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains(FILE + ":26:17: error [io-in-transaction] retry()")
                .contains("racelint.yml:3: note [config-changed] rules: io-in-transaction is off (at HEAD: not set): the rule "
                        + "no longer runs (not applied: this scan reads racelint.yml from HEAD).\n");
        assertThat(run.err()).contains("racelint.yml (1 rule setting, 0 excludes, 0 declared APIs) as it is at HEAD");

        // deleting the file does not help either
        Files.delete(dir.resolve("racelint.yml"));
        Cli.Run deleted = run("scan", dir.toString(), "--diff", "HEAD", "--config-from-base");
        assertThat(deleted.exitCode()).as(deleted.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(deleted.out()).contains("racelint.yml: note [config-changed] deleted by this change");
    }

    @Test
    void configFromBaseNeedsADiffAndABaseConfigThatReads() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        Files.writeString(dir.resolve("racelint.yml"), "rules:\n  io-in-transaction: maybe\n");
        commit();
        Files.writeString(dir.resolve("racelint.yml"), "rules:\n  io-in-transaction: off\n");

        Cli.Run noDiff = run("scan", dir.toString(), "--config-from-base");
        assertThat(noDiff.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noDiff.err()).contains("--config-from-base needs --diff REF");

        Cli.Run broken = run("scan", dir.toString(), "--diff", "HEAD", "--config-from-base");
        assertThat(broken.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(broken.err()).contains("racelint.yml at HEAD:2: rule 'io-in-transaction': 'maybe' is not one of")
                .doesNotContain(dir.toString());
    }

    // ---- helpers

    /** The line a baseline entry holding {@code text} opens on (its "{", the line above its "rule"). */
    private static int entryLine(Path baseline, String text) throws IOException {
        List<String> lines = Files.readAllLines(baseline);
        int at = -1;
        for (int i = 0; i < lines.size() && at < 0; i++) {
            if (lines.get(i).contains(text)) {
                at = i;
            }
        }
        assertThat(at).as(text + " in " + baseline).isNotNegative();
        while (!lines.get(at).contains("\"rule\"")) {
            at--;
        }
        assertThat(lines.get(at - 1)).endsWith("{");
        return at; // the 0-based index of "rule" is the 1-based number of the line above
    }

    private void commit() throws Exception {
        git("add", ".");
        git("commit", "-q", "-m", "base");
    }

    private void git(String... args) throws IOException, InterruptedException {
        Sources.git(dir, args);
    }
}
