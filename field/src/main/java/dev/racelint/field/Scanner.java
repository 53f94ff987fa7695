package dev.racelint.field;

import java.nio.file.Path;

/** Runs one racelint scan of {@code scanned}, paths reported relative to {@code repository}, writing JSON to {@code report}. */
@FunctionalInterface
interface Scanner {

    /** The exit code and what the scan said on stderr. */
    record Outcome(int exitCode, String stderr) {}

    Outcome scan(Path repository, Path scanned, Path report) throws Exception;

    /**
     * The arguments every front end gets: the whole service, no cache, JSON, never failing on findings, and
     * every level ({@code --min-level note}): the score computes the default scan's table from each finding's
     * level, so one scan gives both tables.
     */
    static java.util.List<String> arguments(Path repository, Path scanned, Path report) {
        return java.util.List.of("scan", "--source-root", repository.toString(), scanned.toString(), "--format", "json",
                "-o", report.toString(), "--no-cache", "--fail-on", "none", "--min-level", "note", "--no-color");
    }
}
