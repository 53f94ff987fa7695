package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    // ---- exit codes 0 and 1, --fail-on

    @Test
    void cleanCodeExitsZero() {
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);

        Cli.Run run = run(Cli.testRules(), "scan", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.report()).isEqualTo("No findings in 1 file.\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void anErrorFindingExitsOne() {
        Sources.write(dir, "src/main/java/demo/Named.java", Sources.NAMED);

        Cli.Run run = run(Cli.testRules(), "scan", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out())
                .contains("src/main/java/demo/Named.java:4:17: error [test-racy-method] Named.racyUpdate()")
                .contains("src/main/java/demo/Named.java:7:17: warning [test-shaky-method]")
                .endsWith("2 findings (1 error, 1 warning, 0 notes) in 1 file.\n");
        assertThat(run.out()).doesNotContain("\u001b[");
    }

    @Test
    void failOnSetsTheThreshold() {
        Sources.write(dir, "src/main/java/demo/ShakyOnly.java", Sources.SHAKY_ONLY);
        String path = dir.toString();

        assertThat(run(Cli.testRules(), "scan", path).exitCode()).isZero();
        assertThat(run(Cli.testRules(), "scan", path, "--fail-on", "error").exitCode()).isZero();
        assertThat(run(Cli.testRules(), "scan", path, "--fail-on", "warning").exitCode()).isEqualTo(1);
        assertThat(run(Cli.testRules(), "scan", path, "--fail-on=note").exitCode()).isEqualTo(1);
        assertThat(run(Cli.testRules(), "scan", path, "--fail-on", "WARNING").exitCode()).isEqualTo(1);
    }

    @Test
    void failOnNoneExitsZeroDespiteErrors() {
        Sources.write(dir, "src/main/java/demo/Named.java", Sources.NAMED);

        Cli.Run run = run(Cli.testRules(), "scan", dir.toString(), "--fail-on", "none");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("[test-racy-method]");
    }

    @Test
    void rulesOptionRunsOnlyTheNamedRules() throws IOException {
        Sources.write(dir, "src/main/java/demo/Named.java", Sources.NAMED);

        Cli.Run run = run(Cli.testRules(), "scan", dir.toString(), "--rules", "test-shaky-method", "--format", "json");

        assertThat(run.exitCode()).as(run.toString()).isZero(); // the warning alone does not fail
        JsonNode doc = JSON.readTree(run.out());
        assertThat(doc.path("findings")).hasSize(1);
        assertThat(doc.path("findings").get(0).path("ruleId").asText()).isEqualTo("test-shaky-method");
    }

    @Test
    void theDefaultPathIsTheCurrentFolder() {
        // The test runs in cli/: its sources hold no racy* methods, and test sources are skipped.
        // --no-cache: the cache would go to the repository's root (its git work tree)
        Cli.Run run = run(Cli.testRules(), "scan", "--format", "json", "--no-cache");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("\"files\": ");
    }

    // ---- exit code 2: usage errors, one clear line, no stack trace

    @Test
    void anUnknownOptionIsAUsageError() {
        Cli.Run run = run(Cli.testRules(), "scan", dir.toString(), "--fromat", "json");

        assertUsageError(run, "Unknown option: '--fromat'");
    }

    @Test
    void aBadOptionValueIsAUsageError() {
        assertUsageError(run(Cli.testRules(), "scan", dir.toString(), "--format", "xml"),
                "Invalid value for option '--format': expected one of [text, sarif, json, html]");
        assertUsageError(run(Cli.testRules(), "scan", dir.toString(), "--fail-on", "fatal"),
                "Invalid value for option '--fail-on'");
        assertUsageError(run(Cli.testRules(), "scan", dir.toString(), "--threads", "0"),
                "--threads must be at least 1, not 0");
        assertUsageError(run(Cli.testRules(), "scan", dir.toString(), "--threads", "many"),
                "Invalid value for option '--threads'");
        assertUsageError(run(Cli.testRules(), "scan", dir.toString(), "--max-file-size", "-5"),
                "Invalid value for option '--max-file-size'");
        assertUsageError(run(Cli.testRules(), "scan", dir.toString(), "--source-root", dir.resolve("nope").toString()),
                "--source-root is not a folder");
        assertUsageError(run(Cli.testRules(), "scan", dir.toString(), "--classpath", dir.resolve("missing.jar").toString()),
                "--classpath entry does not exist");
        assertUsageError(run(Cli.testRules(), "scan", dir.toString(), "-o", dir.resolve("no/such/dir/out.sarif").toString()),
                "--output folder does not exist");
        assertUsageError(run(Cli.testRules(), "scan", dir.toString(), "-o", dir.toString()),
                "--output is a folder");
    }

    @Test
    void anUnknownRuleIdIsAUsageErrorNamingTheValidIds() {
        Cli.Run run = run(Cli.testRules(), "scan", dir.toString(), "--rules", "test-racy-method,no-such-rule");

        assertUsageError(run, "unknown rule id 'no-such-rule' in --rules; valid ids: test-racy-method, test-shaky-method");
    }

    @Test
    void aMissingPathIsAUsageError() {
        Path missing = dir.resolve("does-not-exist");

        Cli.Run run = run(Cli.testRules(), "scan", missing.toString());

        assertUsageError(run, "path does not exist: " + missing);
    }

    @Test
    void aFileThatIsNotJavaIsAUsageError() {
        Path readme = Sources.write(dir, "README.md", "# hello\n");

        assertUsageError(run(Cli.testRules(), "scan", readme.toString()), "not a folder or a .java file");
    }

    @Test
    void noCommandIsAUsageError() {
        Cli.Run run = run(Cli.testRules());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).startsWith("racelint: missing command").contains("Commands:");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void anUnknownCommandIsAUsageError() {
        Cli.Run run = run(Cli.testRules(), "scna", ".");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("Unmatched argument").contains("Try 'racelint --help'");
    }

    private static void assertUsageError(Cli.Run run, String message) {
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).as(run.toString()).isEmpty();
        assertThat(run.err()).as(run.toString())
                .startsWith("racelint: ")
                .contains(message)
                .contains("Try 'racelint scan --help' for more information.")
                .doesNotContain("\tat ")
                .doesNotContain("Exception");
    }

    // ---- formats and output files

    @Test
    void jsonOutputParses() throws IOException {
        Sources.write(dir, "src/main/java/demo/Named.java", Sources.NAMED);
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);

        Cli.Run run = run(Cli.testRules(), "scan", dir.toString(), "--format", "json");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        assertThat(run.err()).isEmpty();
        JsonNode doc = JSON.readTree(run.out());
        assertThat(doc.path("tool").asText()).isEqualTo("racelint");
        assertThat(doc.path("version").asText()).isEqualTo(VersionProvider.version());
        assertThat(doc.path("summary").path("files").asInt()).isEqualTo(2);
        assertThat(doc.path("summary").path("error").asInt()).isEqualTo(1);
        assertThat(doc.path("summary").path("warning").asInt()).isEqualTo(1);
        JsonNode first = doc.path("findings").get(0);
        assertThat(first.path("ruleId").asText()).isEqualTo("test-racy-method");
        assertThat(first.path("file").asText()).isEqualTo("src/main/java/demo/Named.java");
        assertThat(first.path("startLine").asInt()).isEqualTo(4);
    }

    @Test
    void sarifGoesToTheOutputFileAndASummaryToStderr() throws IOException {
        Sources.write(dir, "src/main/java/demo/Named.java", Sources.NAMED);
        Path outDir = Files.createDirectories(dir.resolve("reports"));
        Path sarif = outDir.resolve("racelint.sarif");

        Cli.Run run = run(Cli.testRules(), "scan", dir.resolve("src").toString(), "--format", "sarif",
                "-o", sarif.toString(), "--sarif-category", "racelint", "--source-root", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("racelint: 2 findings (1 error, 1 warning, 0 notes) in 1 file. "
                + "Report written to " + sarif + ".\n");
        JsonNode doc = JSON.readTree(sarif.toFile());
        assertThat(doc.path("version").asText()).isEqualTo("2.1.0");
        JsonNode sarifRun = doc.path("runs").get(0);
        assertThat(sarifRun.path("tool").path("driver").path("name").asText()).isEqualTo("racelint");
        assertThat(sarifRun.path("automationDetails").path("id").asText()).startsWith("racelint");
        assertThat(sarifRun.path("results")).hasSize(2);
        assertThat(sarifRun.path("results").get(0).path("locations").get(0).path("physicalLocation")
                .path("artifactLocation").path("uri").asText()).isEqualTo("src/main/java/demo/Named.java");
        try (Stream<Path> files = Files.list(outDir)) {
            assertThat(files).containsExactly(sarif); // no temporary file left behind
        }
    }

    @Test
    void theOutputFileIsReplaced() throws IOException {
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);
        Path report = dir.resolve("report.txt");
        Files.writeString(report, "an old report that is much longer than the new one\n".repeat(50));

        Cli.Run run = run(Cli.testRules(), "scan", dir.toString(), "--output", report.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(Cli.withoutCoverage(Files.readString(report))).isEqualTo("No findings in 1 file.\n");
        assertThat(run.err()).startsWith("racelint: No findings in 1 file. Report written to ");
    }

    @Test
    void sarifIsDeterministic() throws IOException {
        Sources.write(dir, "src/main/java/demo/Named.java", Sources.NAMED);
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Sources.write(dir, "src/main/java/demo/Broken.java", "package demo;\nclass Broken { void m( }\n");
        for (int i = 0; i < 20; i++) {
            Sources.write(dir, "src/main/java/demo/p" + i + "/Named" + i + ".java",
                    Sources.NAMED.replace("package demo;", "package demo.p" + i + ";")
                            .replace("class Named", "class Named" + i));
        }
        Path first = dir.resolve("first.sarif");
        Path second = dir.resolve("second.sarif");

        Cli.Run one = run(Cli.installedAndTestRules(), "scan", dir.toString(), "--format", "sarif", "-o", first.toString(),
                "--threads", "4");
        Cli.Run two = run(Cli.installedAndTestRules(), "scan", dir.toString(), "--format", "sarif", "-o", second.toString(),
                "--threads", "1");

        assertThat(one.exitCode()).as(one.toString()).isEqualTo(1);
        assertThat(two.exitCode()).as(two.toString()).isEqualTo(1);
        byte[] a = Files.readAllBytes(first);
        assertThat(a).isEqualTo(Files.readAllBytes(second));
        String text = new String(a, StandardCharsets.UTF_8);
        assertThat(text).contains("test-racy-method").contains("parse-error");
        assertThat(text).doesNotContain("\r\n");
    }

    @Test
    void textOutputCarriesNoColourWhenNotATerminal() {
        Sources.write(dir, "src/main/java/demo/Named.java", Sources.NAMED);

        Cli.Run run = run(Cli.testRules(), "scan", dir.toString());

        assertThat(run.out()).doesNotContain("\u001b[");
        assertThat(run.err()).doesNotContain("\r"); // no progress line either
    }

    @Test
    void timingsGoToStderr() {
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);

        Cli.Run run = run(Cli.testRules(), "scan", dir.toString(), "--timings", "--no-color");

        assertThat(run.exitCode()).isZero();
        assertThat(run.report()).isEqualTo("No findings in 1 file.\n");
        assertThat(run.err()).startsWith("racelint: timings (1 file")
                .containsPattern("(?m)^  parse +\\d+ ms$")
                .containsPattern("(?m)^  total +\\d+ ms$");
    }

    @Test
    void excludeAndIncludeTests() throws IOException {
        Sources.write(dir, "src/main/java/demo/Named.java", Sources.NAMED);
        Sources.write(dir, "src/main/java/demo/generated/Gen.java",
                Sources.NAMED.replace("package demo;", "package demo.generated;").replace("class Named", "class Gen"));
        Sources.write(dir, "src/test/java/demo/NamedTest.java",
                Sources.NAMED.replace("class Named", "class NamedTest"));

        JsonNode plain = JSON.readTree(run(Cli.testRules(), "scan", dir.toString(), "--format", "json").out());
        JsonNode excluded = JSON.readTree(run(Cli.testRules(), "scan", dir.toString(), "--format", "json",
                "--exclude", "**/generated/**").out());
        JsonNode withTests = JSON.readTree(run(Cli.testRules(), "scan", dir.toString(), "--format", "json",
                "--include-tests").out());

        assertThat(plain.path("summary").path("files").asInt()).isEqualTo(2);
        assertThat(excluded.path("summary").path("files").asInt()).isEqualTo(1);
        assertThat(withTests.path("summary").path("files").asInt()).isEqualTo(3);
    }

    @Test
    void tooLargeFilesAreSkippedWithADiagnostic() throws IOException {
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);
        Sources.write(dir, "src/main/java/demo/Big.java", Sources.large("Big", 4096));

        Cli.Run run = run(Cli.testRules(), "scan", dir.toString(), "--format", "json", "--max-file-size", "2k");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode doc = JSON.readTree(run.out());
        assertThat(doc.path("summary").path("files").asInt()).isEqualTo(1);
        assertThat(doc.path("diagnostics").get(0).path("code").asText()).isEqualTo("file-too-large");
    }
}
