package dev.racelint.analyzer.source;

import java.nio.file.Path;

/** A Java source file chosen for analysis. {@code path} is absolute and normalised. */
public record SourceFile(Path path, long size) {}
