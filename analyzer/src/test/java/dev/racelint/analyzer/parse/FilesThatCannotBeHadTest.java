package dev.racelint.analyzer.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.source.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files that cannot be had: one that parses too slowly is given up with a diagnostic, one that
 * cannot be read (gone, or a folder where a file was) is reported; the others are parsed.
 */
class FilesThatCannotBeHadTest {

    @TempDir
    Path dir;

    @Test
    void anUnreadableFileIsADiagnosticAndTheRestAreParsed() throws IOException {
        // As root every permission bit is ignored, so unreadable means: gone since discovery, or not a file.
        Path gone = dir.resolve("Gone.java");
        Path folder = Files.createDirectories(dir.resolve("Folder.java"));
        Path fine = Files.writeString(dir.resolve("Fine.java"), "package demo;\nclass Fine {}\n");
        List<SourceFile> sources = List.of(new SourceFile(gone, 10), new SourceFile(folder, 10),
                new SourceFile(fine, Files.size(fine)));

        JavaSourceParser.Result result = new JavaSourceParser(2).parseAll(sources, done -> { });

        assertThat(result.files()).extracting(f -> f.path().getFileName().toString()).containsExactly("Fine.java");
        assertThat(result.diagnostics()).extracting(Diagnostic::code).containsExactly("unreadable", "unreadable");
        assertThat(result.diagnostics()).extracting(d -> d.message()).allMatch(m -> m.startsWith("cannot read: "));
        assertThat(result.diagnostics()).extracting(d -> d.message()).as("no machine path in a message")
                .allSatisfy(m -> assertThat(m).doesNotContain(dir.getFileName().toString()).doesNotContain("/"))
                .contains("cannot read: NoSuchFileException");
    }

    @Test
    void aFileOverTheTimeLimitIsSkippedAndTheRestAreParsed() throws IOException {
        StringBuilder big = new StringBuilder("package demo;\nclass Big {\n");
        for (int i = 0; i < 5_000; i++) {
            big.append("  int m").append(i).append("(int a) { return a * ").append(i).append(" + (a >> 2); }\n");
        }
        big.append("}\n");
        Path slow = Files.writeString(dir.resolve("Big.java"), big);
        List<SourceFile> sources = new ArrayList<>();
        sources.add(new SourceFile(slow, Files.size(slow)));
        for (int i = 0; i < 5; i++) {
            Path small = Files.writeString(dir.resolve("Small" + i + ".java"), "package demo;\nclass Small" + i + " {}\n");
            sources.add(new SourceFile(small, Files.size(small)));
        }

        // 1 ms is far less than the 400 kB file needs, and more than enough for the small ones once warm
        JavaSourceParser.Result result = new JavaSourceParser(2, Duration.ofMillis(1)).parseAll(sources, done -> { });
        JavaSourceParser.Result unlimited = new JavaSourceParser(2).parseAll(sources, done -> { });

        assertThat(result.diagnostics()).extracting(Diagnostic::code).contains("too-slow");
        assertThat(result.diagnostics()).filteredOn(d -> d.code().equals("too-slow"))
                .extracting(d -> d.file().getFileName().toString()).contains("Big.java");
        assertThat(unlimited.diagnostics()).isEmpty();
        assertThat(unlimited.files()).hasSize(6);
    }
}
