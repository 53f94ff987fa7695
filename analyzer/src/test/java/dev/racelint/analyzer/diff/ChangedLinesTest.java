package dev.racelint.analyzer.diff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** git's diff output is data from the scanned repository: parsed by its counts, names kept inside the work tree. */
class ChangedLinesTest {

    private static final Path TOP = Path.of("/work/repo").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void anAddedLineThatReadsLikeAFileHeaderStaysALineOfItsFile() {
        String diff = """
                diff --git a/src/A.java b/src/A.java
                --- a/src/A.java
                +++ b/src/A.java
                @@ -3,0 +4,2 @@
                +++ b/src/Other.java
                +// racelint:ignore
                """;

        ChangedLines.Parsed parsed = ChangedLines.parse(diff, TOP);

        assertThat(parsed.added()).containsOnlyKeys(TOP.resolve("src/A.java"));
        assertThat(parsed.added().get(TOP.resolve("src/A.java"))).isEqualTo(bits(4, 5));
    }

    @Test
    void quotedNamesAreUnescapedAndNamesThatLeaveTheWorkTreeAreDropped() {
        String diff = """
                +++ "b/src/caf\\303\\251 \\"x\\".java"
                @@ -0,0 +1 @@
                +class X {}
                +++ b/../../etc/passwd
                @@ -0,0 +1 @@
                +root
                +++ b//etc/shadow
                @@ -0,0 +1 @@
                +root
                """;

        ChangedLines.Parsed parsed = ChangedLines.parse(diff, TOP);

        assertThat(parsed.added()).containsOnlyKeys(TOP.resolve("src/café \"x\".java"));
    }

    @Test
    void aDeletionTouchesTheLinesAroundItButAddsNone() {
        String diff = """
                +++ b/src/A.java
                @@ -7,2 +6,0 @@
                -    // racelint:ignore lost-update
                -    int old;
                """;

        ChangedLines.Parsed parsed = ChangedLines.parse(diff, TOP);

        assertThat(parsed.touched().get(TOP.resolve("src/A.java"))).isEqualTo(bits(6, 7));
        assertThat(parsed.added().get(TOP.resolve("src/A.java")).isEmpty()).isTrue();
    }

    @Test
    void aRevisionThatGitCouldReadAsAnOptionIsRefusedBeforeGitRuns() {
        for (String ref : List.of("--output=/tmp/x", "-p", " ", "main\nHEAD", "a b")) {
            assertThatThrownBy(() -> ChangedLines.since(ref, dir)).as(ref).isInstanceOf(ChangedLines.DiffException.class)
                    .hasMessageStartingWith("not a git revision");
        }
    }

    @Test
    void filesAtTheBaseAreReadFromGitAndALinkThereIsRefused() throws Exception {
        Files.writeString(dir.resolve("racelint.yml"), "rules:\n  lost-update: off\n");
        Files.createSymbolicLink(dir.resolve("linked.yml"), Path.of("/etc/hostname"));
        git("init", "-q");
        git("add", ".");
        git("commit", "-q", "-m", "base");
        Files.writeString(dir.resolve("racelint.yml"), "rules: {}\n");

        ChangedLines changes = ChangedLines.since("HEAD", dir);

        assertThat(changes.atBase(dir.resolve("racelint.yml"), 1024)).map(b -> new String(b, StandardCharsets.UTF_8))
                .contains("rules:\n  lost-update: off\n");
        assertThat(changes.atBase(dir.resolve("missing.yml"), 1024)).isEmpty();
        assertThatThrownBy(() -> changes.atBase(dir.resolve("linked.yml"), 1024))
                .hasMessageContaining("symbolic link");
        assertThatThrownBy(() -> changes.atBase(dir.resolve("racelint.yml"), 10)).hasMessageContaining("more than 10 bytes");
        assertThatThrownBy(() -> changes.atBase(dir.getParent().resolve("elsewhere.yml"), 1024))
                .hasMessageContaining("outside the git work tree");
        assertThat(changes.adds(dir.resolve("racelint.yml"), 1, 1)).isTrue();
        assertThat(changes.adds(dir.resolve("racelint.yml"), 2, 9)).isFalse();
    }

    private void git(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-c", "user.name=racelint-test",
                "-c", "user.email=test@racelint.dev", "-c", "commit.gpgsign=false", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("git " + String.join(" ", args) + ": " + output).isZero();
    }

    private static BitSet bits(int from, int to) {
        BitSet set = new BitSet();
        set.set(from, to + 1);
        return set;
    }
}
