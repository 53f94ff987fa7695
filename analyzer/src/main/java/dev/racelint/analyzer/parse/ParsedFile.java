package dev.racelint.analyzer.parse;

import com.github.javaparser.ast.CompilationUnit;
import java.nio.file.Path;

/** A source file and its syntax tree. */
public record ParsedFile(Path path, CompilationUnit unit) {}
