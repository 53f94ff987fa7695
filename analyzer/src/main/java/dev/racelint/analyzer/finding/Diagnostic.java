package dev.racelint.analyzer.finding;

import java.nio.file.Path;

/**
 * Something the scan could not do with an input (a file that does not parse, a file skipped as
 * too large, an unreadable file...). The scan goes on; diagnostics are reported alongside findings.
 *
 * @param file   the file concerned (absolute), or null for scan-wide notes
 * @param line   1-based line, or 0 when not known
 * @param column 1-based column, or 0 when not known
 * @param code   short stable identifier, e.g. {@code parse-error}, {@code file-too-large}
 */
public record Diagnostic(Path file, int line, int column, Level level, String code, String message) {

    /** Codes meaning the file was left out of the analysis (the others only qualify it); too-slow keeps none of its findings. */
    private static final java.util.Set<String> SKIPPING = java.util.Set.of(
            "parse-error", "too-deep", "unreadable", "file-too-large", "path-not-found", "outside-root", "too-slow");

    /** Code of the note for a SQL statement JSqlParser could not parse (read by the weaker token model). */
    public static final String SQL_FALLBACK = "sql-fallback";
    /** Findings left out because their code is no production entry point (schema migrations). */
    public static final String NOT_AN_ENTRY_POINT = "not-an-entry-point";
    /** The scan's result could not be stored in the cache (the result itself is complete). */
    public static final String CACHE_NOT_WRITTEN = "cache-not-written";
    /** A suppression in the source that gives no reason. */
    public static final String SUPPRESSION_WITHOUT_REASON = "suppression-without-reason";

    /** Diff mode: a suppression on a line the change adds. */
    public static final String SUPPRESSION_ADDED = "suppression-added";
    /** Diff mode: a finding on lines the change touches, hidden by a suppression the change did not add. */
    public static final String SUPPRESSED_IN_DIFF = "suppressed-in-diff";
    /** Diff mode: an entry the change adds to the baseline file. */
    public static final String BASELINE_ENTRY_ADDED = "baseline-entry-added";
    /** Diff mode: a setting of racelint.yml the change adds, alters or removes. */
    public static final String CONFIG_CHANGED = "config-changed";

    /** The codes of diff mode's notes on what a change does to the check itself. */
    public static final java.util.List<String> CHECK_CHANGES = java.util.List.of(SUPPRESSION_ADDED, SUPPRESSED_IN_DIFF,
            BASELINE_ENTRY_ADDED, CONFIG_CHANGED);

    /** True for a note on what the change under review does to the check itself (diff mode). */
    public boolean checkChange() {
        return CHECK_CHANGES.contains(code);
    }

    /** True when this diagnostic means its file was not analysed at all. */
    public boolean fileSkipped() {
        return file != null && SKIPPING.contains(code);
    }
}
