package dev.racelint.analyzer.index;

import com.github.javaparser.Position;
import com.github.javaparser.Range;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.SourceRegion;
import java.nio.file.Path;

/** Turns syntax-tree positions into report locations. */
public final class SourceLocations {
    private SourceLocations() {}

    public static SourceRegion region(Range range) {
        return new SourceRegion(range.begin.line, range.begin.column, range.end.line, range.end.column + 1);
    }

    public static SourceRegion region(Node node) {
        return node.getRange().map(SourceLocations::region).orElse(new SourceRegion(1, 1, 1, 1));
    }

    public static CodeLocation of(Path file, Node node, String label) {
        return new CodeLocation(file, region(node), label);
    }

    /**
     * A call from the start of its receiver expression to the end of the method name, leaving out
     * the arguments (which may be a long lambda).
     */
    public static CodeLocation ofCall(Path file, MethodCallExpr call, String label) {
        Position begin = call.getBegin().orElse(null);
        Position end = call.getName().getEnd().orElse(null);
        if (begin == null || end == null) {
            return of(file, call, label);
        }
        return new CodeLocation(file, region(new Range(begin, end)), label);
    }
}
