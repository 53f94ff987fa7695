package dev.racelint.analyzer;

import dev.racelint.analyzer.parse.JavaSourceParser;
import dev.racelint.analyzer.source.ConfigExcludes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * What to analyse and how.
 *
 * @param paths         files or folders to scan
 * @param includeTests  also analyse test source folders
 * @param excludes      glob patterns (relative to each scanned folder: {@code --exclude}, the Maven plugin's
 *                      {@code <excludes>}) of files to leave out
 * @param classpath     jars to resolve external types against (optional; improves resolution)
 * @param threads       worker threads for parsing and rules
 * @param ruleIds       rules to run; empty = all
 * @param maxFileBytes  larger files are skipped with a diagnostic
 * @param sourceRoot    directory URIs are relative to; null = the git work tree holding the
 *                      first path, else that path
 * @param cacheDirectory where results are cached between scans (see {@code ScanCache}); null = no cache
 * @param fileTimeLimit how long one file may take to parse, and again how long all of its analysis
 *                      after parsing may take together, before the rest of it is given up with a
 *                      {@code too-slow} diagnostic (see {@code FileBudget})
 * @param limits        the numeric bounds of the analysis (call depths, path lengths, pass counts)
 * @param configExcludes racelint.yml's exclude globs, relative to the folder holding it (see {@code ScanSession})
 */
public record AnalysisOptions(
        List<Path> paths,
        boolean includeTests,
        List<String> excludes,
        List<Path> classpath,
        int threads,
        Set<String> ruleIds,
        long maxFileBytes,
        Path sourceRoot,
        Path cacheDirectory,
        Duration fileTimeLimit,
        AnalysisLimits limits,
        ConfigExcludes configExcludes) {

    public static final long DEFAULT_MAX_FILE_BYTES = 10L * 1024 * 1024;
    /** The default {@link #fileTimeLimit()}: far above what a real file needs, low enough that no file stalls a scan. */
    public static final Duration DEFAULT_FILE_TIME_LIMIT = JavaSourceParser.DEFAULT_FILE_TIME_LIMIT;

    public AnalysisOptions {
        paths = List.copyOf(paths);
        excludes = List.copyOf(excludes);
        classpath = List.copyOf(classpath);
        ruleIds = Set.copyOf(ruleIds);
        threads = Math.max(1, threads);
        if (fileTimeLimit == null || fileTimeLimit.isNegative() || fileTimeLimit.isZero()) {
            throw new IllegalArgumentException("the per-file time limit must be positive: " + fileTimeLimit);
        }
        limits = limits == null ? AnalysisLimits.DEFAULT : limits;
        configExcludes = configExcludes == null ? ConfigExcludes.NONE : configExcludes;
    }

    /** Without racelint.yml's excludes. */
    public AnalysisOptions(List<Path> paths, boolean includeTests, List<String> excludes, List<Path> classpath,
            int threads, Set<String> ruleIds, long maxFileBytes, Path sourceRoot, Path cacheDirectory,
            Duration fileTimeLimit, AnalysisLimits limits) {
        this(paths, includeTests, excludes, classpath, threads, ruleIds, maxFileBytes, sourceRoot, cacheDirectory,
                fileTimeLimit, limits, ConfigExcludes.NONE);
    }

    /** With the default limits. */
    public AnalysisOptions(List<Path> paths, boolean includeTests, List<String> excludes, List<Path> classpath,
            int threads, Set<String> ruleIds, long maxFileBytes, Path sourceRoot, Path cacheDirectory,
            Duration fileTimeLimit) {
        this(paths, includeTests, excludes, classpath, threads, ruleIds, maxFileBytes, sourceRoot, cacheDirectory,
                fileTimeLimit, AnalysisLimits.DEFAULT);
    }

    /** With the default per-file time limit. */
    public AnalysisOptions(List<Path> paths, boolean includeTests, List<String> excludes, List<Path> classpath,
            int threads, Set<String> ruleIds, long maxFileBytes, Path sourceRoot, Path cacheDirectory) {
        this(paths, includeTests, excludes, classpath, threads, ruleIds, maxFileBytes, sourceRoot, cacheDirectory,
                DEFAULT_FILE_TIME_LIMIT);
    }

    /** Without a cache. */
    public AnalysisOptions(List<Path> paths, boolean includeTests, List<String> excludes, List<Path> classpath,
            int threads, Set<String> ruleIds, long maxFileBytes, Path sourceRoot) {
        this(paths, includeTests, excludes, classpath, threads, ruleIds, maxFileBytes, sourceRoot, null);
    }

    public static AnalysisOptions of(Path... paths) {
        return new AnalysisOptions(List.of(paths), false, List.of(), List.of(),
                Runtime.getRuntime().availableProcessors(), Set.of(), DEFAULT_MAX_FILE_BYTES, null);
    }

    /** The same options with results cached in {@code directory} (null: no cache). */
    public AnalysisOptions withCacheDirectory(Path directory) {
        return new AnalysisOptions(paths, includeTests, excludes, classpath, threads, ruleIds, maxFileBytes,
                sourceRoot, directory, fileTimeLimit, limits, configExcludes);
    }

    /** The same options with another per-file time limit. */
    public AnalysisOptions withFileTimeLimit(Duration limit) {
        return new AnalysisOptions(paths, includeTests, excludes, classpath, threads, ruleIds, maxFileBytes,
                sourceRoot, cacheDirectory, limit, limits, configExcludes);
    }

    /** The same options with other numeric bounds. */
    public AnalysisOptions withLimits(AnalysisLimits newLimits) {
        return new AnalysisOptions(paths, includeTests, excludes, classpath, threads, ruleIds, maxFileBytes,
                sourceRoot, cacheDirectory, fileTimeLimit, newLimits, configExcludes);
    }

    /** The same options with racelint.yml's exclude globs (relative to its folder). */
    public AnalysisOptions withConfigExcludes(ConfigExcludes globs) {
        return new AnalysisOptions(paths, includeTests, excludes, classpath, threads, ruleIds, maxFileBytes,
                sourceRoot, cacheDirectory, fileTimeLimit, limits, globs);
    }

    /** The directory report URIs are relative to: {@link #sourceRoot()}, else found from the first path. */
    public Path resolvedSourceRoot() {
        return sourceRoot != null ? sourceRoot.toAbsolutePath().normalize()
                : paths.isEmpty() ? Path.of("").toAbsolutePath()
                : SourceRoots.forScannedPath(paths.get(0));
    }
}
