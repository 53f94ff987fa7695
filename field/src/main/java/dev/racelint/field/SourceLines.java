package dev.racelint.field;

import dev.racelint.analyzer.source.SourceDiscovery;
import dev.racelint.analyzer.source.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Non-blank lines of the .java files a scan of a folder takes (racelint's own source discovery, no
 * test sources), the denominator of "findings per kLOC".
 */
final class SourceLines {
    private SourceLines() {}

    static long count(Path repository, Path scanned) throws IOException {
        long lines = 0;
        for (SourceFile file : new SourceDiscovery(false, List.of(), Long.MAX_VALUE)
                .discover(List.of(scanned), repository).files()) {
            lines += new String(Files.readAllBytes(file.path()), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank()).count();
        }
        return lines;
    }
}
