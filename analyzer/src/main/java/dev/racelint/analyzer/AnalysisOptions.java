package dev.racelint.analyzer;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What to analyse and how.
 *
 * @param paths         files or folders to scan
 * @param includeTests  also analyse test source folders
 * @param excludes      glob patterns (relative to each scanned folder) of files to leave out
 * @param classpath     jars to resolve external types against (optional; improves resolution)
 * @param threads       worker threads for parsing and rules
 * @param ruleIds       rules to run; empty = all
 * @param maxFileBytes  larger files are skipped with a diagnostic
 * @param sourceRoot    directory URIs are relative to; null = the git work tree holding the
 *                      first path, else that path
 */
public record AnalysisOptions(
        List<Path> paths,
        boolean includeTests,
        List<String> excludes,
        List<Path> classpath,
        int threads,
        Set<String> ruleIds,
        long maxFileBytes,
        Path sourceRoot) {

    public static final long DEFAULT_MAX_FILE_BYTES = 10L * 1024 * 1024;

    public AnalysisOptions {
        paths = List.copyOf(paths);
        excludes = List.copyOf(excludes);
        classpath = List.copyOf(classpath);
        ruleIds = Set.copyOf(ruleIds);
        threads = Math.max(1, threads);
    }

    public static AnalysisOptions of(Path... paths) {
        return new AnalysisOptions(List.of(paths), false, List.of(), List.of(),
                Runtime.getRuntime().availableProcessors(), Set.of(), DEFAULT_MAX_FILE_BYTES, null);
    }
}
