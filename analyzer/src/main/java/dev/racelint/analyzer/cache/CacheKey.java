package dev.racelint.analyzer.cache;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.finding.Fingerprints;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Stream;

/**
 * What a scan's result depends on, in two hashes. The <em>settings</em> name a cache entry: the
 * code of racelint and its rules, the Java version, the root, every option that changes the
 * analysis, and the API catalogue (with the project's declared APIs). The <em>inputs</em> are the
 * contents of every file the scan reads. A cached result is used only when both are equal, so it
 * is the result a scan would compute.
 */
public final class CacheKey {

    /**
     * Bumped whenever the cache's layout or the meaning of an entry changes (2: signed entries,
     * root-relative paths; 3: entries carry the scan's coverage).
     */
    public static final int FORMAT = 3;

    private CacheKey() {}

    /**
     * The settings hash, or empty when racelint's own code cannot be identified (then nothing is
     * cached, since a rebuilt racelint could not be told from the one that wrote the entry).
     *
     * @param code classes whose code the result depends on (the analyzer, each rule, the parsers)
     */
    public static Optional<String> settings(AnalysisOptions options, Path root, Collection<String> ruleIds,
            String catalogueFingerprint, Collection<Class<?>> code) {
        Optional<String> identity = codeIdentity(code);
        if (identity.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder();
        line(text, "format", String.valueOf(FORMAT));
        line(text, "code", identity.get());
        line(text, "java", String.valueOf(Runtime.version().feature()));
        line(text, "root", root.toAbsolutePath().normalize().toString());
        for (Path path : options.paths()) {
            line(text, "path", path.toAbsolutePath().normalize().toString());
        }
        line(text, "includeTests", String.valueOf(options.includeTests()));
        options.excludes().forEach(glob -> line(text, "exclude", glob));
        if (!options.configExcludes().isEmpty()) {
            // the same globs from a racelint.yml in another folder leave out other files
            line(text, "configExcludeFolder", options.configExcludes().folder().toString());
            options.configExcludes().globs().forEach(glob -> line(text, "configExclude", glob));
        }
        for (Path jar : options.classpath()) {
            line(text, "classpath", fileIdentity(jar.toAbsolutePath().normalize()));
        }
        new TreeSet<>(ruleIds).forEach(id -> line(text, "rule", id));
        line(text, "maxFileBytes", String.valueOf(options.maxFileBytes()));
        line(text, "limits", options.limits().describe());
        line(text, "catalogue", catalogueFingerprint);
        return Optional.of(Fingerprints.sha256(text.toString()));
    }

    /**
     * What the scan reads: the SHA-256 of each file (absolute, normalised path to hex digest), and
     * one hash over every path and digest in path order.
     */
    public record Inputs(String hash, Map<Path, String> files) {
        public Inputs {
            files = Map.copyOf(files);
        }

        /** The digest of {@code file}'s contents as hashed, or null when it was not among the inputs. */
        public String contentHash(Path file) {
            return files.get(file.toAbsolutePath().normalize());
        }
    }

    /**
     * The digests of every file; empty when a file cannot be read (the scan then runs without the
     * cache and reports the file as it always does).
     */
    public static Optional<Inputs> inputs(List<Path> files, int threads) {
        List<Path> sorted = files.stream().map(p -> p.toAbsolutePath().normalize()).sorted().distinct().toList();
        ForkJoinPool pool = new ForkJoinPool(Math.max(1, threads));
        try {
            List<String> hashes = pool.submit(() -> sorted.parallelStream().map(CacheKey::contentHash).toList()).get();
            StringBuilder text = new StringBuilder();
            Map<Path, String> byFile = new HashMap<>();
            for (int i = 0; i < sorted.size(); i++) {
                if (hashes.get(i) == null) {
                    return Optional.empty();
                }
                line(text, sorted.get(i).toString(), hashes.get(i));
                byFile.put(sorted.get(i), hashes.get(i));
            }
            return Optional.of(new Inputs(Fingerprints.sha256(text.toString()), byFile));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            return Optional.empty();
        } finally {
            pool.shutdownNow();
        }
    }

    private static String contentHash(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = sha256();
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
    }

    /** Where each class was loaded from, with the size and modification time of that jar or folder. */
    public static Optional<String> codeIdentity(Collection<Class<?>> classes) {
        TreeSet<String> locations = new TreeSet<>();
        for (Class<?> type : classes) {
            CodeSource source = type.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                return Optional.empty();
            }
            try {
                Path location = Path.of(source.getLocation().toURI());
                if (!Files.exists(location)) {
                    return Optional.empty();
                }
                locations.add(fileIdentity(location));
            } catch (URISyntaxException | IllegalArgumentException | UncheckedIOException e) {
                return Optional.empty();
            }
        }
        return Optional.of(String.join(";", locations));
    }

    /** A jar by size and modification time; a folder of classes by its file count, total size and newest file. */
    private static String fileIdentity(Path path) {
        try {
            if (!Files.isDirectory(path)) {
                BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
                return path + "|" + attributes.size() + "|" + attributes.lastModifiedTime().toMillis();
            }
            List<long[]> files = new ArrayList<>();
            try (Stream<Path> walk = Files.walk(path)) {
                walk.filter(Files::isRegularFile).forEach(f -> {
                    try {
                        BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
                        files.add(new long[] {a.size(), a.lastModifiedTime().toMillis()});
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
            long size = files.stream().mapToLong(f -> f[0]).sum();
            long newest = files.stream().mapToLong(f -> f[1]).max().orElse(0);
            return path + "|" + files.size() + "|" + size + "|" + newest;
        } catch (IOException | UncheckedIOException e) {
            // an entry that cannot be identified never matches a later scan
            return path + "|unreadable|" + System.nanoTime();
        }
    }

    private static void line(StringBuilder text, String name, String value) {
        text.append(name).append('\t').append(value).append('\n');
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
