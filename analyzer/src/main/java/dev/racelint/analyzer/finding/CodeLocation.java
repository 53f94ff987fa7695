package dev.racelint.analyzer.finding;

import java.nio.file.Path;

/**
 * A place in a scanned file, with a short label saying what happens there (used for related
 * locations and code-flow steps).
 *
 * @param file absolute, normalised path of the source file
 */
public record CodeLocation(Path file, SourceRegion region, String label) {
    public CodeLocation withLabel(String newLabel) {
        return new CodeLocation(file, region, newLabel);
    }
}
