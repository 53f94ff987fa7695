package dev.racelint.analyzer.cache;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.report.AtomicReplace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Scan results kept between scans, one entry per set of settings (see {@link CacheKey}), in
 * {@code <directory>/v<format>/<settings>.json}. Safe to delete at any time; an entry that cannot
 * be read, was written by another format or racelint, or whose inputs differ is simply not used.
 * The directory gets a {@code .gitignore} (so it is never committed) and a {@code CACHEDIR.TAG}
 * (so backup tools skip it).
 */
public final class ScanCache {

    /** Where the CLI keeps the cache, relative to the scanned root. */
    public static final String DEFAULT_DIRECTORY = ".racelint/cache";

    /** Entries kept per cache; the least recently used beyond this are deleted. */
    static final int MAX_ENTRIES = 16;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path directory;
    private final Path entries;

    public ScanCache(Path directory) {
        this.directory = directory.toAbsolutePath().normalize();
        this.entries = this.directory.resolve("v" + CacheKey.FORMAT);
    }

    public static Path defaultDirectory(Path root) {
        return root.resolve(DEFAULT_DIRECTORY);
    }

    public Path directory() {
        return directory;
    }

    /** The entry for these settings, if it holds a result for exactly these inputs. */
    public Optional<CachedScan> read(String settings, String inputs) {
        Path file = entryFile(settings);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            CachedScan scan = JSON.readValue(file.toFile(), CachedScan.class);
            if (scan.format() != CacheKey.FORMAT || !settings.equals(scan.settings()) || !inputs.equals(scan.inputs())) {
                return Optional.empty();
            }
            markUsed(file);
            return Optional.of(scan);
        } catch (IOException | RuntimeException e) {
            // a damaged or foreign entry: the scan runs and replaces it
            return Optional.empty();
        }
    }

    /** The folder of this format's entries (result entries and the tree pack). */
    Path entries() {
        return entries;
    }

    /** Creates the entries' folder, with the marks that keep the cache out of commits and backups. */
    void prepare() throws IOException {
        Files.createDirectories(entries);
        writeIfAbsent(directory.resolve(".gitignore"), "# racelint's cache: safe to delete, never to commit\n*\n");
        writeIfAbsent(directory.resolve("CACHEDIR.TAG"), "Signature: 8a477f597d28d172789f06886806bc55\n"
                + "# This directory is racelint's scan cache (https://bford.info/cachedir/).\n");
    }

    /** Stores {@code scan} under its settings, replacing the entry atomically. */
    public void write(CachedScan scan) throws IOException {
        prepare();
        Path target = entryFile(scan.settings());
        Path temp = Files.createTempFile(entries, "entry", ".tmp");
        try {
            JSON.writeValue(temp.toFile(), scan);
            AtomicReplace.move(temp, target);
        } finally {
            Files.deleteIfExists(temp);
        }
        prune();
    }

    private Path entryFile(String settings) {
        return entries.resolve(settings + ".json");
    }

    private static void markUsed(Path file) {
        try {
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException e) {
            // only affects which entry is pruned first
        }
    }

    private void prune() throws IOException {
        List<Path> all;
        try (Stream<Path> list = Files.list(entries)) {
            all = list.filter(p -> p.getFileName().toString().endsWith(".json")).toList();
        }
        if (all.size() <= MAX_ENTRIES) {
            return;
        }
        List<Path> oldestFirst = all.stream()
                .sorted(Comparator.comparing(ScanCache::modified).thenComparing(Path::toString))
                .toList();
        for (Path old : oldestFirst.subList(0, all.size() - MAX_ENTRIES)) {
            Files.deleteIfExists(old);
        }
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    private static void writeIfAbsent(Path file, String text) throws IOException {
        if (!Files.exists(file)) {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        }
    }
}
