package dev.racelint.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSourceLinesTest {

    @TempDir
    Path temp;

    @Test
    void readsFilesUnderTheRootOnlyAndNeverThroughALinkOut() throws Exception {
        Path root = Files.createDirectories(temp.resolve("repo"));
        Path secret = Files.writeString(Files.createDirectories(temp.resolve("secret")).resolve("credentials"),
                "SECRET-MARKER\n");
        Path source = Files.writeString(Files.createDirectories(root.resolve("src")).resolve("A.java"), "class A {}\n");
        Path linkOut = Files.createSymbolicLink(root.resolve("src/Linked.java"), secret);
        Path folderOut = Files.createSymbolicLink(root.resolve("elsewhere"), secret.getParent());
        Path linkIn = Files.createSymbolicLink(root.resolve("src/Same.java"), source);

        FileSourceLines lines = new FileSourceLines(root);
        assertThat(lines.line(source, 1)).contains("class A {}");
        assertThat(lines.line(linkIn, 1)).as("a link that stays inside").contains("class A {}");
        assertThat(lines.line(secret, 1)).isEmpty();
        assertThat(lines.line(root.resolve("../secret/credentials"), 1)).isEmpty();
        assertThat(lines.line(Path.of("../../../../secret/credentials"), 1)).isEmpty();
        assertThat(lines.line(linkOut, 1)).as("a file link out of the root").isEmpty();
        assertThat(lines.line(folderOut.resolve("credentials"), 1)).as("a folder link out of the root").isEmpty();
    }
}
