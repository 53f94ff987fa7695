package dev.racelint.analyzer.index;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SynchronizedStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import java.util.ArrayList;
import java.util.List;

/**
 * The nodes of a method body that the models and rules look for, found by one walk, each kind in the
 * order {@code body.findAll(Kind.class)} gives (pre-order), including those of lambdas and of classes
 * declared in the body. Several models and rules used to walk every body once each for these.
 *
 * @param loops for, enhanced-for, while and do statements
 */
public record BodyNodes(List<MethodCallExpr> calls, List<ObjectCreationExpr> creations, List<CatchClause> catches,
        List<SynchronizedStmt> synchronizedBlocks, List<Statement> loops) {

    static final BodyNodes NONE = new BodyNodes(List.of(), List.of(), List.of(), List.of(), List.of());

    static BodyNodes of(MethodInfo method) {
        Node body = method.body();
        if (body == null) {
            return NONE;
        }
        List<MethodCallExpr> calls = new ArrayList<>();
        List<ObjectCreationExpr> creations = new ArrayList<>();
        List<CatchClause> catches = new ArrayList<>();
        List<SynchronizedStmt> synchronizedBlocks = new ArrayList<>();
        List<Statement> loops = new ArrayList<>();
        body.walk(Node.TreeTraversal.PREORDER, node -> {
            if (node instanceof MethodCallExpr call) {
                calls.add(call);
            } else if (node instanceof ObjectCreationExpr creation) {
                creations.add(creation);
            } else if (node instanceof CatchClause clause) {
                catches.add(clause);
            } else if (node instanceof SynchronizedStmt sync) {
                synchronizedBlocks.add(sync);
            } else if (isLoop(node)) {
                loops.add((Statement) node);
            }
        });
        return new BodyNodes(List.copyOf(calls), List.copyOf(creations), List.copyOf(catches),
                List.copyOf(synchronizedBlocks), List.copyOf(loops));
    }

    /** A for, enhanced-for, while or do statement. */
    public static boolean isLoop(Node node) {
        return node instanceof ForStmt || node instanceof ForEachStmt || node instanceof WhileStmt || node instanceof DoStmt;
    }
}
