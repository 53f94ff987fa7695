package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No silent nothing: a scan that analyses no file says why and fails unless --allow-empty; a scanned
 * path that is a symbolic link is followed within the source root and refused when it leads out; a
 * link in the tree to a file outside it is skipped, and nothing of that file reaches any report.
 */
class NothingSilentTest {

    @TempDir
    Path dir;

    @Test
    void aFolderWithoutJavaFilesFailsSayingWhyUnlessAllowed() throws IOException {
        Files.createDirectories(dir.resolve("docs"));
        Sources.write(dir, "target/classes/demo/Built.java", Sources.CLEAN);

        Cli.Run empty = run("scan", dir.toString());
        Cli.Run allowed = run("scan", dir.toString(), "--allow-empty");

        assertThat(empty.exitCode()).as(empty.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(empty.err()).contains("racelint: nothing analysed: there is no .java file under " + dir
                + " (build output, VCS, IDE and hidden folders are not searched). A scan that analyses no file fails "
                + "(exit code 2); --allow-empty accepts it.");
        assertThat(allowed.exitCode()).as(allowed.toString()).isEqualTo(ExitCodes.OK);
        assertThat(allowed.err()).contains("nothing analysed: there is no .java file under").contains("Accepted (--allow-empty).");
        assertThat(allowed.report()).isEqualTo("racelint: warning [nothing-analysed] nothing analysed: there is no .java "
                + "file under . (build output, VCS, IDE and hidden folders are not searched).\n"
                + "No findings in 0 files; 1 other diagnostic.\n");
    }

    @Test
    void theReasonIsADiagnosticInEveryReportNamingPathsAsReportsDo() {
        Sources.write(dir, "services/orders/src/test/java/demo/OrderTest.java", Sources.CLEAN);

        Cli.Run json = run("scan", dir.resolve("services/orders").toString(), "--source-root", dir.toString(),
                "--format", "json", "--allow-empty");
        Cli.Run sarif = run("scan", dir.resolve("services/orders").toString(), "--source-root", dir.toString(),
                "--format", "sarif", "--allow-empty");

        String why = "nothing analysed: the one .java file under services/orders is in test source folders "
                + "(--include-tests scans them).";
        assertThat(json.out()).contains("\"code\": \"nothing-analysed\"").contains(why).doesNotContain(dir.toString());
        assertThat(sarif.out()).contains("nothing-analysed").contains(why).doesNotContain(dir.toString());
        assertThat(json.err()).as("stderr names the PATH as typed").contains("under " + dir.resolve("services/orders"));
    }

    @Test
    void aConfigThatExcludesEverythingFailsNamingTheExclude() {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);
        Sources.write(dir, "racelint.yml", "exclude:\n  - \"**\"\n");

        Cli.Run run = run("scan", dir.toString(), "--format", "sarif", "--fail-on", "none");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("nothing analysed: all 2 .java files under " + dir
                + " were excluded by racelint.yml:2 exclude '**'.");
        assertThat(run.out()).as("the report is written all the same").contains("\"results\"");
    }

    @Test
    void theReasonCountsEachCause() {
        Sources.write(dir, "src/main/java/demo/generated/A.java", Sources.CLEAN);
        Sources.write(dir, "src/main/java/demo/B.java", Sources.CLEAN);
        Sources.write(dir, "src/test/java/demo/CTest.java", Sources.CLEAN);
        Sources.write(dir, "src/main/java/demo/Broken.java", "class Broken {");

        Cli.Run run = run("scan", dir.toString(), "--exclude", "**/generated/**", "--exclude", "**/B.java");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("nothing analysed: of the 4 .java files under " + dir + ", 1 was excluded by "
                + "--exclude '**/generated/**', 1 was excluded by --exclude '**/B.java', 1 is in test source folders "
                + "(--include-tests scans them), 1 was skipped: see the diagnostics.");
    }

    @Test
    void sourceSetsWhoseNamesOnlyContainTestAreScanned() {
        Sources.write(dir, "src/testcases/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Sources.write(dir, "src/latest/java/demo/Clean.java", Sources.CLEAN);

        Cli.Run run = run("scan", dir.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("src/testcases/java/demo/CheckoutService.java:19:17: error [io-in-transaction]")
                .endsWith("in 2 files.\n");
    }

    @Test
    void baselineCreateAndUpdateRefuseAnEmptyScanAndLeaveTheFileAlone() throws IOException {
        Path baseline = dir.resolve("baseline.json");
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        assertThat(run("baseline", "create", dir.toString(), "--file", baseline.toString()).exitCode()).isZero();
        String before = Files.readString(baseline);

        Cli.Run update = run("baseline", "update", dir.toString(), "--file", baseline.toString(), "--exclude", "**");
        Cli.Run create = run("baseline", "create", Files.createDirectories(dir.resolve("empty")).toString(), "--file",
                dir.resolve("other.json").toString());

        assertThat(update.exitCode()).as(update.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(update.err()).contains("excluded by --exclude '**'").contains("No baseline written");
        assertThat(Files.readString(baseline)).as("an empty scan does not wipe the baseline").isEqualTo(before);
        assertThat(create.exitCode()).as(create.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(create.err()).contains("there is no .java file under");
        assertThat(dir.resolve("other.json")).doesNotExist();
    }

    @Test
    void aScannedPathThatIsALinkWithinTheRootIsFollowedAndNamedWhereItsFilesAre() throws IOException {
        Files.createDirectories(dir.resolve(".git"));
        Sources.write(dir, "services/orders/src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Path link = Files.createSymbolicLink(dir.resolve("current"), dir.resolve("services/orders"));

        Cli.Run run = run("scan", link.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("services/orders/src/main/java/demo/CheckoutService.java:19:17: error [io-in-transaction]")
                .endsWith("in 1 file.\n");
    }

    @Test
    void aScannedPathThatIsALinkLeadingOutOfTheRootIsRefused(@TempDir Path elsewhere) throws IOException {
        Files.createDirectories(dir.resolve(".git"));
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);
        Sources.write(elsewhere, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Path link = Files.createSymbolicLink(dir.resolve("vendor"), elsewhere);

        Cli.Run run = run("scan", link.toString());
        Cli.Run sibling = run("scan", dir.toString(), elsewhere.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains(link + " is a symbolic link, or lies under one, that leads outside the source root")
                .contains("it is not followed").doesNotContain(elsewhere.toString());
        assertThat(run.out()).isEmpty();
        assertThat(sibling.exitCode()).as(sibling.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(sibling.err()).contains(elsewhere + " is outside the source root")
                .contains("give --source-root a folder that holds every PATH");
    }

    @Test
    void outsideAGitWorkTreeAScannedPathThatIsALinkOutIsRefusedAndNothingIsWrittenThere(@TempDir Path elsewhere)
            throws IOException {
        Sources.write(elsewhere, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Path link = Files.createSymbolicLink(dir.resolve("module"), elsewhere);

        Cli.Run run = run("scan", link.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains(link + " is a symbolic link, or lies under one, that leads outside the source root")
                .contains("pass --source-root").doesNotContain(elsewhere.toString());
        assertThat(run.out()).isEmpty();
        assertThat(elsewhere.resolve(".racelint")).as("no cache written where the link leads").doesNotExist();
        try (var listed = Files.list(elsewhere)) {
            assertThat(listed.map(p -> p.getFileName().toString())).containsExactly("src");
        }
        Cli.Run accepted = run("scan", link.toString(), "--source-root", link.toString(), "--no-cache");
        assertThat(accepted.exitCode()).as("--source-root accepts it: " + accepted).isEqualTo(ExitCodes.FINDINGS);
    }

    @Test
    void aLinkInTheTreeToASecretOutsideItReachesNoReport(@TempDir Path home) throws IOException {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Path secret = Sources.write(home, "secret/Credentials.java", Sources.IO_IN_TRANSACTION
                .replace("CheckoutService", "Credentials").replace("https://payments.example.com", "https://AKIA-SECRET-KEY"));
        Files.createSymbolicLink(dir.resolve("src/main/java/demo/Credentials.java"), secret);
        Files.createSymbolicLink(dir.resolve("src/main/java/vendor"), secret.getParent());

        for (String format : new String[] {"text", "json", "sarif", "html"}) {
            Cli.Run run = run("scan", dir.toString(), "--format", format, "--fail-on", "none", "--no-cache");
            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.out()).as(format).doesNotContain("AKIA-SECRET-KEY").doesNotContain(home.toString())
                    .doesNotContain("../").contains("outside-root").contains("CheckoutService.java");
        }
        Cli.Run text = run("scan", dir.toString(), "--fail-on", "none", "--no-cache");
        assertThat(text.out()).contains("src/main/java/demo/Credentials.java: warning [outside-root] skipped: a symbolic "
                + "link to a file outside the source root is not followed")
                .contains("src/main/java/vendor: warning [outside-root] skipped: a symbolic link to a folder outside");
    }
}
