package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scanned tree is untrusted, racelint.yml included (issue 15): its globs and type patterns cannot
 * stall the scan, its size is bounded before parsing, and it is never read through a link out of the tree.
 */
class ConfigFromTheTreeTest {

    private static final String BACKTRACKING = "**a**a**a**a**a**a**a**a**a**a**a**aZ";

    @TempDir
    Path dir;

    @TempDir
    Path elsewhere;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBacktrackingExcludeAndTypePatternDoNotStallTheScan() {
        String longName = "a".repeat(100);
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Sources.write(dir, "src/main/java/demo/" + longName + ".java", "package demo;\n\npublic class " + longName + " {\n}\n");
        Sources.write(dir, "racelint.yml", "exclude:\n  - \"" + BACKTRACKING + "\"\napis:\n  \"" + BACKTRACKING
                + "#*\": http\n");

        Cli.Run scan = run("scan", dir.toString());

        assertThat(scan.exitCode()).as(scan.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(scan.out()).endsWith("1 finding (1 error, 0 warnings, 0 notes) in 2 files.\n");
    }

    /**
     * Each match is linear, but the cost multiplies: patterns x name length x calls. The most patterns
     * a file may declare, against a 1,001-character type called 300 times, are matched once per type.
     */
    @Test
    @Timeout(value = 15, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // 31 s unmemoised, 0.6 s memoised
    void theMostTypePatternsAgainstALongTypeCalledOftenDoNotStallTheScan() {
        String longName = "B" + "a".repeat(1000);
        StringBuilder config = new StringBuilder("apis:\n");
        for (int i = 0; i < dev.racelint.analyzer.config.ProjectConfig.MAX_PATTERNS; i++) {
            config.append("  \"").append(BACKTRACKING).append(i).append("#*\": http\n");
        }
        StringBuilder calls = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            calls.append("        target.m();\n");
        }
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        // the long-named class beside its caller (a file name that long is more than a file system takes)
        Sources.write(dir, "src/main/java/demo/Caller.java", "package demo;\n\npublic class Caller {\n    private final "
                + longName + " target = new " + longName + "();\n\n    public void run() {\n" + calls + "    }\n}\n\nclass "
                + longName + " {\n    public void m() {}\n}\n");
        Sources.write(dir, "racelint.yml", config.toString());

        Cli.Run scan = run("scan", dir.toString());

        assertThat(scan.exitCode()).as(scan.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(scan.out()).endsWith("1 finding (1 error, 0 warnings, 0 notes) in 2 files.\n");
    }

    @Test
    void moreThanTheAllowedPatternsOrALongerOneAreRefusedAtTheirLine() {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        StringBuilder apis = new StringBuilder("apis:\n");
        for (int i = 0; i <= dev.racelint.analyzer.config.ProjectConfig.MAX_PATTERNS; i++) {
            apis.append("  \"com.acme.Client").append(i).append("#*\": http\n");
        }
        Sources.write(dir, "racelint.yml", apis.toString());

        Cli.Run tooMany = run("scan", dir.toString());

        assertThat(tooMany.exitCode()).as(tooMany.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(tooMany.err()).contains("racelint.yml:" + (dev.racelint.analyzer.config.ProjectConfig.MAX_PATTERNS + 2) + ": more than "
                + dev.racelint.analyzer.config.ProjectConfig.MAX_PATTERNS + " declared APIs");

        Sources.write(dir, "racelint.yml", "exclude:\n  - \"" + "a".repeat(dev.racelint.analyzer.config.ProjectConfig.MAX_PATTERN_CHARS + 1) + "\"\n");

        Cli.Run tooLong = run("scan", dir.toString());

        assertThat(tooLong.exitCode()).as(tooLong.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(tooLong.err()).contains("racelint.yml:2: exclude glob '").contains("is longer than "
                + dev.racelint.analyzer.config.ProjectConfig.MAX_PATTERN_CHARS + " characters");
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aSixteenMillionCharacterConfigIsRefusedBeforeItIsParsed() {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Sources.write(dir, "racelint.yml", "exclude: \"" + "a".repeat(16_000_000) + "\"\n");

        Cli.Run scan = run("scan", dir.toString());

        assertThat(scan.exitCode()).as(scan.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(scan.err()).startsWith("racelint: racelint.yml: is larger than the 256 KiB a configuration file may have")
                .doesNotContain(dir.toString());
    }

    @Test
    void configIsFollowedThroughLinksOnlyWithinTheTree() throws Exception {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Path secret = Files.writeString(elsewhere.resolve("credentials"), "aws_secret_access_key: hunter2\n");
        Path link = Files.createSymbolicLink(dir.resolve("racelint.yml"), secret);

        Cli.Run refused = run("scan", dir.toString());
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.err()).startsWith("racelint: racelint.yml: leads out of the scanned tree through a symbolic link")
                .doesNotContain("aws_secret_access_key").doesNotContain("hunter2").doesNotContain(elsewhere.toString());

        Cli.Run named = run("scan", dir.toString(), "--config", link.toString());
        assertThat(named.exitCode()).as("--config naming the link in the tree: " + named).isEqualTo(ExitCodes.USAGE);
        assertThat(named.err()).doesNotContain("aws_secret_access_key");

        Files.delete(link);
        Files.writeString(Files.createDirectories(dir.resolve("config")).resolve("racelint.yml"),
                "rules:\n  io-in-transaction: off\n");
        Files.createSymbolicLink(link, Path.of("config/racelint.yml"));
        Cli.Run followed = run("scan", dir.toString());
        assertThat(followed.exitCode()).as("a link within the tree: " + followed).isZero();
        assertThat(followed.report()).isEqualTo("No findings in 1 file.\n");

        Path own = Files.writeString(elsewhere.resolve("team.yml"), "rules:\n  io-in-transaction: warning\n");
        Cli.Run trusted = run("scan", dir.toString(), "--config", own.toString());
        assertThat(trusted.exitCode()).as("a --config file outside the tree is the user's: " + trusted).isZero();
        assertThat(trusted.out()).contains("warning [io-in-transaction]");
    }

    @Test
    void configErrorsNameTheFileRelativeToTheSourceRoot() throws Exception {
        Files.createDirectories(dir.resolve(".git"));
        Sources.write(dir, "svc/src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Sources.write(dir, "svc/racelint.yml", "rules:\n  io-in-transaction: warning\nruls:\n  a: off\n");

        Cli.Run scan = run("scan", dir.resolve("svc").toString());

        assertThat(scan.exitCode()).as(scan.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(scan.err()).startsWith("racelint: svc/racelint.yml:3: unknown key 'ruls'").doesNotContain(dir.toString());
    }

    @Test
    void aMalformedExcludeGlobIsAUsageError() {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);

        Cli.Run option = run("scan", dir.toString(), "--exclude", "src/[main");
        assertThat(option.exitCode()).as(option.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(option.err()).startsWith("racelint: --exclude: exclude glob 'src/[main': a [class] is not closed with ']'");

        Sources.write(dir, "racelint.yml", "exclude:\n  - \"src/[main\"\n");
        Cli.Run config = run("scan", dir.toString());
        assertThat(config.exitCode()).as(config.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(config.err()).startsWith("racelint: racelint.yml:2: exclude 'src/[main' is not a valid glob");
    }
}
