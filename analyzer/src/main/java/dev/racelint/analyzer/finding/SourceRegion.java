package dev.racelint.analyzer.finding;

/**
 * A span of source text: 1-based lines and columns, columns counted in UTF-16 code units,
 * {@code endColumn} one past the last character (SARIF's convention).
 */
public record SourceRegion(int startLine, int startColumn, int endLine, int endColumn) {
    public SourceRegion {
        if (startLine < 1 || startColumn < 1 || endLine < startLine
                || (endLine == startLine && endColumn < startColumn)) {
            throw new IllegalArgumentException("bad region " + startLine + ":" + startColumn
                    + "-" + endLine + ":" + endColumn);
        }
    }
}
