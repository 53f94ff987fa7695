package dev.racelint.analyzer.parse;

import com.github.javaparser.JavaToken;
import com.github.javaparser.ast.CompilationUnit;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A source file, its syntax tree, and each line's {@code //} comment as written (only kept for files
 * that mention racelint, the only comments anything reads: suppressions and their reasons).
 *
 * @param mentionsRacelint false only when the file's text does not contain "racelint", so it holds
 *                         no suppression of any kind
 */
public record ParsedFile(Path path, CompilationUnit unit, Map<Integer, String> lineComments, boolean mentionsRacelint) {

    public ParsedFile {
        lineComments = Map.copyOf(lineComments);
    }

    /** With the given line comments; the text may mention racelint. */
    public ParsedFile(Path path, CompilationUnit unit, Map<Integer, String> lineComments) {
        this(path, unit, lineComments, true);
    }

    /** Reads the line comments from the tree's stored tokens (none when it was parsed without them). */
    public ParsedFile(Path path, CompilationUnit unit) {
        this(path, unit, lineCommentsOf(unit));
    }

    private static Map<Integer, String> lineCommentsOf(CompilationUnit unit) {
        Map<Integer, String> out = new HashMap<>();
        unit.getTokenRange().ifPresent(tokens -> {
            for (JavaToken token : tokens) {
                if (token.getCategory().isComment() && token.getText().startsWith("//") && token.getRange().isPresent()) {
                    out.put(token.getRange().get().begin.line, token.getText());
                }
            }
        });
        return out;
    }
}
