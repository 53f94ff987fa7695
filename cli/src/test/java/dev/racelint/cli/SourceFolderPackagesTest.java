package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A package that javac compiles as main code is analysed whatever its folder is called: names such
 * as {@code out}, {@code bin} or {@code src/test} are skipped only as build layouts, not inside
 * {@code src/main/java}.
 */
class SourceFolderPackagesTest {

    @TempDir
    Path dir;

    @Test
    void aRaceInAPackageNamedLikeBuildOutputIsFound() {
        Sources.write(dir, "pom.xml", "<project/>\n");
        Sources.write(dir, "src/main/java/demo/out/CheckoutService.java",
                Sources.IO_IN_TRANSACTION.replace("package demo;", "package demo.out;"));
        Sources.write(dir, "target/classes/demo/Built.java",
                Sources.IO_IN_TRANSACTION.replace("CheckoutService", "Built"));

        Cli.Run run = run("scan", dir.toString(), "--no-cache");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("src/main/java/demo/out/CheckoutService.java:19:17: error [io-in-transaction]")
                .as("build output beside the pom is still skipped").doesNotContain("Built")
                .endsWith("in 1 file.\n");
    }
}
