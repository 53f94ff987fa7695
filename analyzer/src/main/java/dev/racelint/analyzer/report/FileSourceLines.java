package dev.racelint.analyzer.report;

import dev.racelint.analyzer.source.SourceText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Source lines for excerpts, read on demand (only files with findings) and decoded like the parser
 * does. Only files inside the source root are read, and never through a symbolic link that leads
 * out of it: a path from anywhere (a cache entry, say) cannot put another file's lines in a report.
 */
public final class FileSourceLines implements ScanReport.SourceLines {
    private final Path root;
    private Path realRoot;
    private final Map<Path, String[]> cache = new HashMap<>();

    /** Lines of the files under {@code root}, the report's source root. */
    public FileSourceLines(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    @Override
    public synchronized Optional<String> line(Path file, int line) {
        String[] lines = cache.computeIfAbsent(file.toAbsolutePath().normalize(), this::read);
        if (line < 1 || line > lines.length) {
            return Optional.empty();
        }
        return Optional.of(lines[line - 1]);
    }

    private String[] read(Path file) {
        try {
            if (!file.startsWith(root)) {
                return new String[0];
            }
            if (realRoot == null) {
                realRoot = root.toRealPath();
            }
            // the file as the file system resolves it, links and all, must still be inside the root
            Path real = file.toRealPath();
            if (!real.startsWith(realRoot) || !Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) {
                return new String[0];
            }
            return SourceText.decode(Files.readAllBytes(real)).text().split("\r\n|\r|\n", -1);
        } catch (IOException | RuntimeException e) {
            return new String[0];
        }
    }
}
