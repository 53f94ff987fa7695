package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The release workflow: a version tag builds, tests, and attaches the jar; its version script runs here. */
class ReleaseWorkflowTest {

    private static final Path WORKFLOW = Path.of("../.github/workflows/release.yml");
    private static final Path VERSION_SCRIPT = Path.of("../.ci/release-version").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void aTagRunsTheWholeTestSuiteBeforeTheJarIsAttachedAndCentralIsOnlyTriedWithItsSecrets() throws Exception {
        JsonNode workflow = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(WORKFLOW));
        assertThat(workflow.path("on").path("push").path("tags").get(0).asText()).isEqualTo("v*");
        List<String> runs = new ArrayList<>();
        JsonNode publish = null;
        for (JsonNode step : workflow.path("jobs").path("release").path("steps")) {
            runs.add(step.path("run").asText(step.path("uses").asText()));
            if (step.path("run").asText().contains("-Prelease deploy")) {
                publish = step;
            }
        }
        assertThat(runs).containsSubsequence(".ci/release-version", ".ci/run");
        int tests = runs.indexOf(".ci/run");
        int attach = -1;
        for (int i = 0; i < runs.size(); i++) {
            if (runs.get(i).contains("gh release create") && runs.get(i).contains("cli/target/racelint.jar")) {
                attach = i;
            }
        }
        assertThat(attach).as("the jar is attached after the tests passed").isGreaterThan(tests);
        assertThat(publish).isNotNull();
        assertThat(publish.path("if").asText()).contains("env.CENTRAL_USERNAME != ''");
    }

    @Test
    void theVersionComesFromTheTagAndAnyOtherTagIsRefused() throws Exception {
        assertThat(version("v1.2.3")).isEqualTo("version=1.2.3\n");
        assertThat(version("v0.4.0-rc.1")).isEqualTo("version=0.4.0-rc.1\n");
        for (String bad : List.of("1.2.3", "v1.2", "v1.2.3-", "v1.2.3;rm -rf /", "release")) {
            assertThat(version(bad)).as(bad).isNull();
        }
    }

    /** What the script writes to GITHUB_OUTPUT, or null when it refuses the tag. */
    private String version(String tag) throws Exception {
        Path output = dir.resolve("output");
        Files.deleteIfExists(output);
        ProcessBuilder pb = new ProcessBuilder("bash", VERSION_SCRIPT.toString()).redirectErrorStream(true);
        pb.environment().put("GITHUB_REF_NAME", tag);
        pb.environment().put("GITHUB_OUTPUT", output.toString());
        Process p = pb.start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        if (p.exitValue() != 0) {
            assertThat(log).contains("is not v<major>.<minor>.<patch>");
            return null;
        }
        return Files.readString(output);
    }
}
