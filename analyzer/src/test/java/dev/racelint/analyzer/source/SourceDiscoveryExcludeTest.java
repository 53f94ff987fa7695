package dev.racelint.analyzer.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exclude globs come from the scanned tree's racelint.yml: the glob syntax as documented, and no stall. */
class SourceDiscoveryExcludeTest {

    private static final String BACKTRACKING = "**a**a**a**a**a**a**a**a**a**a**a**aZ";

    @TempDir
    Path dir;

    @Test
    void aBacktrackingExcludeFinishesAtOnceOnALongPath() throws IOException {
        String longName = "a".repeat(100);
        write("src/main/java/" + longName + "/" + longName + ".java");

        SourceDiscovery.Result result = assertTimeoutPreemptively(Duration.ofSeconds(1),
                () -> new SourceDiscovery(false, List.of(BACKTRACKING), 1 << 20).discover(List.of(dir)));

        assertThat(result.files()).hasSize(1);
    }

    @Test
    void excludesLeaveOutWhatTheDocumentedGlobsSay() throws IOException {
        write("generated/Top.java");
        write("src/main/java/demo/generated/Nested.java");
        write("src/main/java/demo/Kept.java");
        write("src/a/Foo.java");
        write("src/a/b/Foo.java");
        write("legacy/Old.java");
        write("gen/G.java");

        List<String> names = names(new SourceDiscovery(false, List.of("**/generated/**", "src/*/Foo.java", "{legacy,gen}"),
                1 << 20).discover(List.of(dir)));

        assertThat(names).containsExactly("src/a/b/Foo.java", "src/main/java/demo/Kept.java");
    }

    @Test
    void saysWhichGlobLeavesAPathOut() {
        ExcludeGlobs globs = new ExcludeGlobs(List.of("**/generated/**", "**/Kept.java"));

        assertThat(globs.firstMatching(Path.of("generated/Top.java"))).contains("**/generated/**");
        assertThat(globs.firstMatching(Path.of("src/demo/Kept.java"))).contains("**/Kept.java");
        assertThat(globs.firstMatching(Path.of("src/demo/Other.java"))).isEmpty();
    }

    @Test
    void aMalformedGlobIsRefusedWithItsReason() {
        assertThatThrownBy(() -> new SourceDiscovery(false, List.of("src/[main"), 1 << 20))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("exclude glob 'src/[main': a [class] is not closed with ']'");
    }

    private void write(String relative) throws IOException {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "class X {}\n");
    }

    private List<String> names(SourceDiscovery.Result result) {
        Path root = dir.toAbsolutePath().normalize();
        return result.files().stream().map(f -> root.relativize(f.path()).toString().replace('\\', '/')).sorted().toList();
    }
}
