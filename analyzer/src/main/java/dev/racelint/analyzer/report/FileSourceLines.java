package dev.racelint.analyzer.report;

import dev.racelint.analyzer.source.SourceText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Source lines for excerpts, read on demand (only files with findings) and decoded like the parser does. */
public final class FileSourceLines implements ScanReport.SourceLines {
    private final Map<Path, String[]> cache = new HashMap<>();

    @Override
    public synchronized Optional<String> line(Path file, int line) {
        String[] lines = cache.computeIfAbsent(file, FileSourceLines::read);
        if (line < 1 || line > lines.length) {
            return Optional.empty();
        }
        return Optional.of(lines[line - 1]);
    }

    private static String[] read(Path file) {
        try {
            return SourceText.decode(Files.readAllBytes(file)).text().split("\r\n|\r|\n", -1);
        } catch (IOException | RuntimeException e) {
            return new String[0];
        }
    }
}
