package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * racelint.yml's exclude globs are relative to the folder holding it: a root racelint.yml found from a
 * scanned module leaves out the files its globs name from the root; --exclude stays relative to the
 * scanned folder; the census names the glob and its file:line; a --config file elsewhere says its globs
 * are matched from the scanned folder; diff mode notes an exclude whose racelint.yml moved.
 */
class ConfigExcludeBaseTest {

    @TempDir
    Path repo;

    private static final String KEPT = "services/orders/src/main/java/demo/CheckoutService.java";
    private static final String LEGACY = "services/orders/src/main/java/demo/legacy/CheckoutService.java";

    @BeforeEach
    void repository() throws Exception {
        Sources.git(repo, "init", "-q");
        Sources.write(repo, KEPT, Sources.IO_IN_TRANSACTION);
        Sources.write(repo, LEGACY, Sources.IO_IN_TRANSACTION.replace("package demo;", "package demo.legacy;"));
    }

    @Test
    void aModuleScanLeavesOutWhatTheRootConfigNamesFromTheRoot() {
        Sources.write(repo, "racelint.yml", "exclude:\n  - \"services/orders/src/main/java/demo/legacy/**\"\n");

        Cli.Run module = run("scan", repo.resolve("services/orders").toString(), "--no-cache", "--fail-on", "none");
        Cli.Run root = run("scan", repo.toString(), "--no-cache", "--fail-on", "none");

        assertThat(module.exitCode()).as(module.toString()).isZero();
        assertThat(module.err()).contains("racelint: config racelint.yml (0 rule settings, 1 exclude, 0 declared APIs)\n");
        assertThat(module.out()).as(module.toString()).contains(KEPT).doesNotContain("legacy");
        assertThat(root.out()).as("the same file left out when the root is scanned").contains(KEPT).doesNotContain("legacy");
    }

    @Test
    void explainFindsOnlyWhatTheModuleScanReportsWithTheRootConfigsExclude() throws Exception {
        com.fasterxml.jackson.databind.JsonNode all = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                run("scan", repo.toString(), "--format", "json", "--no-cache", "--fail-on", "none").out()).path("findings");
        String legacy = null;
        String kept = null;
        for (com.fasterxml.jackson.databind.JsonNode f : all) {
            if (f.toString().contains("demo/legacy/")) {
                legacy = f.path("fingerprint").asText();
            } else {
                kept = f.path("fingerprint").asText();
            }
        }
        assertThat(legacy).as(all.toString()).isNotNull();
        assertThat(kept).as(all.toString()).isNotNull();
        Sources.write(repo, "racelint.yml", "exclude:\n  - \"services/orders/src/main/java/demo/legacy/**\"\n");
        String module = repo.resolve("services/orders").toString();

        Cli.Run excluded = run("explain", "io-in-transaction", "--finding", legacy, "--path", module);
        Cli.Run reported = run("explain", "io-in-transaction", "--finding", kept, "--path", module);

        assertThat(excluded.exitCode()).as(excluded.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(excluded.err()).contains("no io-in-transaction finding with fingerprint " + legacy);
        assertThat(reported.exitCode()).as(reported.toString()).isZero();
    }

    @Test
    void theCommandLinesExcludeStaysRelativeToTheScannedFolder() {
        Cli.Run run = run("scan", repo.resolve("services/orders").toString(), "--exclude", "src/main/java/demo/legacy/**",
                "--no-cache", "--fail-on", "none");

        assertThat(run.out()).as(run.toString()).contains(KEPT).doesNotContain("legacy");
    }

    @Test
    void anEmptyScanNamesTheRootConfigsGlobAndLine() {
        Sources.write(repo, "racelint.yml", "rules:\n  cache-stampede: off\nexclude:\n  - \"services/orders/**\"\n");

        Cli.Run run = run("scan", repo.resolve("services/orders").toString(), "--no-cache");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("nothing analysed: all 2 .java files under " + repo.resolve("services/orders")
                + " were excluded by racelint.yml:4 exclude 'services/orders/**'.");
    }

    @Test
    void aConfigFromElsewhereSaysItsGlobsAreMatchedFromTheScannedFolder() throws Exception {
        Path elsewhere = Files.createDirectories(repo.resolve("tools/racelint"));
        Sources.write(elsewhere, "shared.yml", "exclude:\n  - \"src/main/java/demo/legacy/**\"\n");

        Cli.Run run = run("scan", repo.resolve("services/orders").toString(), "--config",
                elsewhere.resolve("shared.yml").toString(), "--no-cache", "--fail-on", "none");

        assertThat(run.out()).as(run.toString()).contains(KEPT).doesNotContain("legacy");
        assertThat(run.err()).contains("racelint: config tools/racelint/shared.yml (0 rule settings, 1 exclude, 0 declared "
                + "APIs); its excludes are matched relative to the scanned folder for files outside the folder holding it\n");
    }

    @Test
    void aDiffNotesAnExcludeWhoseRacelintYmlMovedToAnotherFolder() throws Exception {
        Sources.write(repo, "services/orders/racelint.yml", "exclude:\n  - \"src/main/java/demo/legacy/**\"\n");
        Sources.git(repo, "add", ".");
        Sources.git(repo, "commit", "-q", "-m", "base");
        Files.delete(repo.resolve("services/orders/racelint.yml"));
        Sources.write(repo, "racelint.yml", "exclude:\n  - \"src/main/java/demo/legacy/**\"\n");

        Cli.Run run = run("scan", repo.resolve("services/orders").toString(), "--diff", "HEAD", "--no-cache",
                "--fail-on", "none");

        assertThat(run.out()).as(run.toString())
                .contains("racelint.yml:2: note [config-changed] exclude: \"src/main/java/demo/legacy/**\" is relative to ./ "
                        + "(at HEAD: to services/orders/), where racelint.yml now is: the files it leaves out are not the same.\n")
                .as("relative to the root, the glob names nothing: both files analysed").contains(" in 2 files;");
    }
}
