package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.racelint.analyzer.report.SarifAssertions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The composite action in the repository root: its inputs, and its scan step run as GitHub would
 * run it (bash, GITHUB_OUTPUT, RUNNER_TEMP), against a racelint built from these sources.
 */
class GitHubActionTest {

    private static final Path ACTION = Path.of("../action.yml");

    @TempDir
    Path dir;

    @Test
    void theActionDeclaresItsInputsAndUploadsBeforeFailing() throws IOException {
        JsonNode action = yaml();
        assertThat(action.path("inputs").fieldNames()).toIterable()
                .contains("path", "fail-on", "min-level", "category", "baseline", "diff-base", "config-from-base");
        assertThat(action.path("runs").path("using").asText()).isEqualTo("composite");
        List<String> uses = new ArrayList<>();
        for (JsonNode step : action.path("runs").path("steps")) {
            uses.add(step.path("uses").asText(step.path("id").asText("")));
        }
        assertThat(uses).containsSubsequence("java", "actions/setup-java@v4", "build-key", "actions/cache@v4", "scan",
                "github/codeql-action/upload-sarif@v4", "");
        JsonNode setupJava = null;
        for (JsonNode step : action.path("runs").path("steps")) {
            if (step.path("uses").asText().startsWith("actions/setup-java")) {
                setupJava = step;
            }
        }
        assertThat(setupJava.path("if").asText()).as("Java is installed only when the runner has no Java 17+")
                .contains("steps.java.outputs.home == ''");
        assertThat(setupJava.path("with").has("cache")).as("setup-java cannot hash the action's files").isFalse();
    }

    @Test
    void theScanStepWritesSarifAndReportsTheExitCodeWithoutFailingBeforeTheUpload() throws Exception {
        Sources.write(dir, "repo/src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Step run = runScanStep(Map.of("RACELINT_FAIL_ON", "error"));

        assertThat(run.exitCode()).as(run.log()).isZero();
        assertThat(run.outputs()).contains("exit-code=1");
        Path sarif = dir.resolve("tmp/racelint.sarif");
        assertThat(run.outputs()).contains("sarif=" + sarif);
        String text = Files.readString(sarif);
        SarifAssertions.assertValidForGitHub(text);
        assertThat(new ObjectMapper().readTree(text).path("runs").get(0).path("automationDetails").path("id").asText())
                .startsWith("racelint");

        Step clean = runScanStep(Map.of("RACELINT_FAIL_ON", "none"));
        assertThat(clean.exitCode()).isZero();
        assertThat(clean.outputs()).contains("exit-code=0");
    }

    @Test
    void minLevelNoteUploadsTheNotesToo() throws Exception {
        Sources.write(dir, "repo/src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Sources.write(dir, "repo/src/main/java/demo/ProductCatalog.java", CACHED_LOADER);
        Step byDefault = runScanStep(Map.of("RACELINT_FAIL_ON", "none"));
        assertThat(byDefault.exitCode()).as(byDefault.log()).isZero();
        assertThat(ruleIds()).doesNotContain("cache-stampede");

        Step all = runScanStep(Map.of("RACELINT_FAIL_ON", "none", "RACELINT_MIN_LEVEL", "note"));
        assertThat(all.exitCode()).as(all.log()).isZero();
        assertThat(ruleIds()).contains("io-in-transaction", "cache-stampede");
    }

    /** A note-level rule's finding: a cached loader without single flight. */
    private static final String CACHED_LOADER = """
            package demo;

            import java.util.List;
            import org.springframework.cache.annotation.Cacheable;
            import org.springframework.jdbc.core.JdbcTemplate;
            import org.springframework.stereotype.Service;

            @Service
            public class ProductCatalog {
                private final JdbcTemplate jdbc;

                public ProductCatalog(JdbcTemplate jdbc) {
                    this.jdbc = jdbc;
                }

                @Cacheable("catalog")
                public List<String> all() {
                    return jdbc.queryForList("SELECT name FROM products ORDER BY name", String.class);
                }
            }
            """;

    private List<String> ruleIds() throws IOException {
        List<String> rules = new ArrayList<>();
        new ObjectMapper().readTree(Files.readString(dir.resolve("tmp/racelint.sarif"))).path("runs").get(0)
                .path("results").forEach(r -> rules.add(r.path("ruleId").asText()));
        return rules;
    }

    @Test
    void aUsageErrorFailsTheStep() throws Exception {
        Sources.write(dir, "repo/src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Step run = runScanStep(Map.of("RACELINT_FAIL_ON", "error", "RACELINT_BASELINE", "missing-baseline.json"));

        assertThat(run.exitCode()).as(run.log()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.log()).contains("--baseline file does not exist");
    }

    @Test
    void onPullRequestsTheTargetBranchsRacelintYmlApplies() throws Exception {
        Path repo = dir.resolve("repo");
        Sources.write(dir, "repo/src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION
                .replace("rest.postForObject", "jdbc.hashCode();\n        rest.postForObject"));
        Files.writeString(repo.resolve("racelint.yml"), "rules:\n  cache-stampede: off\n");
        git(repo, "init", "-q");
        git(repo, "add", ".");
        git(repo, "commit", "-q", "-m", "base");
        // the pull request adds a race and switches off the rule that finds it
        Sources.write(dir, "repo/src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Files.writeString(repo.resolve("racelint.yml"), "rules:\n  cache-stampede: off\n  io-in-transaction: off\n");

        Step pullRequest = runScanStep(Map.of("RACELINT_FAIL_ON", "error", "RACELINT_DIFF_BASE", "HEAD",
                "GITHUB_EVENT_NAME", "pull_request"));
        assertThat(pullRequest.exitCode()).as(pullRequest.log()).isZero();
        assertThat(pullRequest.outputs()).as(pullRequest.log()).contains("exit-code=1");
        JsonNode results = new ObjectMapper().readTree(Files.readString(dir.resolve("tmp/racelint.sarif")))
                .path("runs").get(0).path("results");
        List<String> rules = new ArrayList<>();
        results.forEach(r -> rules.add(r.path("ruleId").asText()));
        assertThat(rules).contains("io-in-transaction", "config-changed");

        Step optedOut = runScanStep(Map.of("RACELINT_FAIL_ON", "error", "RACELINT_DIFF_BASE", "HEAD",
                "GITHUB_EVENT_NAME", "pull_request", "RACELINT_CONFIG_FROM_BASE", "false"));
        assertThat(optedOut.outputs()).as(optedOut.log()).contains("exit-code=0");
        Step push = runScanStep(Map.of("RACELINT_FAIL_ON", "error", "RACELINT_DIFF_BASE", "HEAD"));
        assertThat(push.outputs()).as("on a push the checkout's racelint.yml is the branch's own: " + push.log())
                .contains("exit-code=0");
    }

    /** A fake JDK whose java prints the version line {@code java -version} prints. */
    private Path jdk(String name, String version) throws IOException {
        Path java = Files.createDirectories(dir.resolve("jdks").resolve(name).resolve("bin")).resolve("java");
        Files.writeString(java, "#!/usr/bin/env bash\necho 'openjdk version \"" + version + "\" 2025-04-15' >&2\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return java.getParent().getParent();
    }

    @Test
    void racelintRunsOnAJava17OfTheRunnerAndTheJobKeepsItsOwnJava() throws Exception {
        Path java11 = jdk("11", "11.0.2");
        Path java8 = jdk("8", "1.8.0_402");
        Path java17 = jdk("17", "17.0.15");
        Path java21 = jdk("21", "21");
        Files.createDirectories(dir.resolve("repo"));

        Step hosted = runStep("java", Map.of("JAVA_HOME", java11.toString(), "JAVA_HOME_8_X64", java8.toString(),
                "JAVA_HOME_17_X64", java17.toString(), "JAVA_HOME_21_X64", java21.toString()));
        assertThat(hosted.outputs()).as(hosted.log()).contains("home=" + java21 + "\n", "caller-java-home=" + java11 + "\n");

        Step callers = runStep("java", Map.of("JAVA_HOME", java17.toString(), "JAVA_HOME_21_X64", java21.toString()));
        assertThat(callers.outputs()).as("the caller's own Java 17+ comes first").contains("home=" + java17 + "\n");

        Step none = runStep("java", Map.of("JAVA_HOME", java11.toString(), "JAVA_HOME_8_X64", java8.toString()));
        assertThat(none.outputs()).as("no Java 17+: setup-java installs one").contains("home=\n");

        Sources.write(dir, "repo/src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Step scan = runScanStep(Map.of("RACELINT_FAIL_ON", "none", "JAVA_HOME", java11.toString(),
                "RACELINT_JAVA_HOME", java17.toString()));
        assertThat(scan.log()).as("the launcher gets racelint's Java").contains("launcher JAVA_HOME=" + java17);
    }

    @Test
    void theBuiltJarIsKeptInTheCacheFolderAndRestoredFromIt() throws Exception {
        Sources.write(dir, "repo/src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Path cache = dir.resolve("cache");
        Path jar = dir.resolve("action/cli/target/racelint.jar");
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "built");
        Step first = runScanStep(Map.of("RACELINT_FAIL_ON", "none", "RACELINT_JAR_CACHE", cache.toString()));
        assertThat(first.exitCode()).as(first.log()).isZero();
        assertThat(cache.resolve("racelint.jar")).as("saved for the next run").hasContent("built");

        Files.delete(jar);
        Files.writeString(cache.resolve("racelint.jar"), "cached");
        Step second = runScanStep(Map.of("RACELINT_FAIL_ON", "none", "RACELINT_JAR_CACHE", cache.toString()));
        assertThat(second.exitCode()).as(second.log()).isZero();
        assertThat(jar).as("restored where the launcher looks").hasContent("cached");
    }

    @Test
    void theBuildKeyChangesWithTheActionsSourcesOnly() throws Exception {
        Path action = Files.createDirectories(dir.resolve("action"));
        Files.createDirectories(action.resolve("cli/src/main/java"));
        Files.createDirectories(dir.resolve("repo"));
        Files.writeString(action.resolve("pom.xml"), "<project/>");
        Files.writeString(action.resolve("cli/src/main/java/A.java"), "class A {}");
        String key = runStep("build-key", Map.of()).outputs();
        assertThat(key).containsPattern("key=racelint-jar-Linux-[0-9a-f]{32}\n");

        Files.createDirectories(action.resolve("cli/target"));
        Files.writeString(action.resolve("cli/target/racelint.jar"), "jar");
        assertThat(runStep("build-key", Map.of()).outputs()).as("build output is not a source").isEqualTo(key);

        Files.writeString(action.resolve("cli/src/main/java/A.java"), "class A { int x; }");
        assertThat(runStep("build-key", Map.of()).outputs()).as("a changed source").isNotEqualTo(key);
    }

    @Test
    void atAReleaseTagTheReleasedJarIsUsedWhenItsChecksumMatches() throws Exception {
        Files.createDirectories(dir.resolve("repo"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path served = Files.createDirectories(dir.resolve("served"));
        Files.writeString(served.resolve("racelint-1.2.3.jar"), "released jar");
        // a fake curl serving files from "served", named by the URL's last segment
        Files.writeString(bin.resolve("curl"), "#!/usr/bin/env bash\nout=''; url=''\n"
                + "while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift 2;; -*) shift;; *) url=$1; shift;; esac; done\n"
                + "echo \"$url\" >> '" + dir.resolve("urls") + "'\n"
                + "cp '" + served + "'/\"${url##*/}\" \"$out\"\n");
        Files.setPosixFilePermissions(bin.resolve("curl"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = Map.of("RACELINT_REF", "v1.2.3", "RACELINT_REPOSITORY", "racelint/racelint",
                "PATH", bin + ":" + System.getenv("PATH"));
        Path jar = dir.resolve("action/cli/target/racelint.jar");

        Files.writeString(served.resolve("racelint-1.2.3.jar.sha256"), "0".repeat(64) + "  racelint-1.2.3.jar\n");
        Step tampered = runStep("release-jar", env);
        assertThat(tampered.exitCode()).as(tampered.log()).isZero();
        assertThat(jar).as("a checksum mismatch: built instead").doesNotExist();

        Process sum = new ProcessBuilder("sha256sum", "racelint-1.2.3.jar").directory(served.toFile()).start();
        String line = new String(sum.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        sum.waitFor();
        Files.writeString(served.resolve("racelint-1.2.3.jar.sha256"), line);
        Step released = runStep("release-jar", env);
        assertThat(released.log()).contains("using the released jar");
        assertThat(jar).hasContent("released jar");
        assertThat(Files.readAllLines(dir.resolve("urls")))
                .contains("https://github.com/racelint/racelint/releases/download/v1.2.3/racelint-1.2.3.jar");
    }

    private static void git(Path repo, String... args) throws Exception {
        Sources.git(repo, args);
    }

    private record Step(int exitCode, String outputs, String log) {}

    private Step runScanStep(Map<String, String> inputs) throws Exception {
        return runStep("scan", inputs);
    }

    private Step runStep(String id, Map<String, String> inputs) throws Exception {
        String script = null;
        for (JsonNode step : yaml().path("runs").path("steps")) {
            if (step.path("id").asText().equals(id)) {
                script = step.path("run").asText();
            }
        }
        assertThat(script).as("the action has a step with id '" + id + "'").isNotNull();
        // The action runs its own launcher; here the launcher runs the classes under test.
        Path actionPath = Files.createDirectories(dir.resolve("action"));
        Path launcher = actionPath.resolve("racelint");
        Files.writeString(launcher, "#!/usr/bin/env bash\necho \"launcher JAVA_HOME=$JAVA_HOME\" >&2\nexec \"" + javaBin() + "\" -cp \""
                + System.getProperty("java.class.path") + "\" " + RacelintCommand.class.getName() + " \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path outputs = dir.resolve("github-output");
        Files.deleteIfExists(outputs);
        Files.createDirectories(dir.resolve("tmp"));
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(dir.resolve("repo").toFile())
                .redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("GITHUB_ACTION_PATH", actionPath.toString());
        env.put("GITHUB_OUTPUT", outputs.toString());
        env.put("RUNNER_TEMP", dir.resolve("tmp").toString());
        env.put("RACELINT_PATH", ".");
        env.put("RACELINT_CATEGORY", "racelint");
        env.put("RACELINT_BASELINE", "");
        env.put("RACELINT_MIN_LEVEL", "");
        env.put("RACELINT_DIFF_BASE", "");
        env.put("RACELINT_CONFIG_FROM_BASE", "auto");
        env.put("GITHUB_EVENT_NAME", "push");
        env.put("RUNNER_OS", "Linux");
        env.put("RACELINT_JAVA_HOME", "");
        env.put("RACELINT_JAR_CACHE", "");
        env.keySet().removeIf(name -> name.startsWith("JAVA_HOME"));
        env.putAll(inputs);
        Process p = pb.start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Step(p.exitValue(), Files.exists(outputs) ? Files.readString(outputs) : "", log);
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static JsonNode yaml() throws IOException {
        return new ObjectMapper(new YAMLFactory()).readTree(Files.readString(ACTION));
    }
}
