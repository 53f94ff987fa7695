package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In diff mode, a change to {@code limits:} in racelint.yml is a check change: lowering a limit makes
 * findings go away without a line of code changing, so the scan says so at the limit's line.
 */
class LimitsCheckChangesTest {

    private static final String FILE = "src/main/java/demo/CheckoutService.java";

    @TempDir
    Path dir;

    @BeforeEach
    void repository() throws Exception {
        Sources.git(dir, "init", "-q");
    }

    private void commit() throws Exception {
        Sources.git(dir, "add", ".");
        Sources.git(dir, "commit", "-q", "-m", "base");
    }

    @Test
    void aLimitTheChangeLowersIsReportedAtItsLine() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        Files.writeString(dir.resolve("racelint.yml"), "limits:\n  flow-passes: 4\n");
        commit();
        Files.writeString(dir.resolve("racelint.yml"), "limits:\n  flow-passes: 4\n  reach-depth: 2\n  witness-calls: 6\n");

        Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD", "--fail-on", "none");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .contains("racelint.yml:3: note [config-changed] limits: reach-depth is 2 (at HEAD: 8, the default): the "
                        + "analysis looks less far, so findings past the new bound can go away.\n")
                .contains("racelint.yml:4: note [config-changed] limits: witness-calls is 6 (at HEAD: 5, the default): the "
                        + "analysis looks further.\n")
                .doesNotContain("flow-passes");
    }

    @Test
    void aLimitTheChangeRemovesIsReportedAsBackToItsDefault() throws Exception {
        Sources.write(dir, FILE, Sources.IO_IN_TRANSACTION);
        Files.writeString(dir.resolve("racelint.yml"), "limits:\n  reach-depth: 12\n");
        commit();
        Files.writeString(dir.resolve("racelint.yml"), "limits:\n");

        Cli.Run run = run("scan", dir.toString(), "--diff", "HEAD", "--fail-on", "none");

        assertThat(run.out()).as(run.toString()).contains("racelint.yml: note [config-changed] limits: reach-depth is 8 "
                + "(at HEAD: 12): the analysis looks less far, so findings past the new bound can go away.\n");
    }
}
