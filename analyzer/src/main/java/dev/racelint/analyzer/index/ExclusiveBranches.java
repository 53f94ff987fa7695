package dev.racelint.analyzer.index;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.ContinueStmt;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import com.github.javaparser.ast.stmt.YieldStmt;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether two places of one method body can both run in one call of it: not when they sit in the
 * two arms of one {@code if}/{@code else} or {@code ?:}, or in two cases of one {@code switch} where
 * the earlier case cannot fall through, or when one sits in an arm that returns or throws and the
 * other comes after that {@code if} - and no loop around that branch runs it again.
 */
public final class ExclusiveBranches {

    private ExclusiveBranches() {}

    /** True when {@code a} and {@code b} can never both run in one execution of their method. */
    public static boolean exclusive(Node a, Node b) {
        Map<Node, Node> childOnPathToA = new IdentityHashMap<>();
        Node child = a;
        for (Node n = a.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            childOnPathToA.put(n, child);
            if (n instanceof CallableDeclaration<?>) {
                break;
            }
            child = n;
        }
        Node fromB = b;
        for (Node n = b.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            Node fromA = childOnPathToA.get(n);
            if (fromA != null) {
                return (splits(n, fromA, fromB) || leavesBefore(n, fromA, a, fromB, b)) && !repeated(n);
            }
            if (n instanceof CallableDeclaration<?>) {
                return false;
            }
            fromB = n;
        }
        return false;
    }

    /** {@code branch} sends control into {@code one} or into {@code other}, never into both. */
    private static boolean splits(Node branch, Node one, Node other) {
        if (one == other) {
            return false;
        }
        if (branch instanceof IfStmt s) {
            return s.getElseStmt().isPresent() && isArm(s, one) && isArm(s, other);
        }
        if (branch instanceof ConditionalExpr c) {
            return one != c.getCondition() && other != c.getCondition();
        }
        if (one instanceof SwitchEntry first && other instanceof SwitchEntry second) {
            List<Node> entries = new ArrayList<>(branch.getChildNodes());
            SwitchEntry earlier = entries.indexOf(first) < entries.indexOf(second) ? first : second;
            return earlier.getType() != SwitchEntry.Type.STATEMENT_GROUP || leaves(earlier.getStatements());
        }
        return false;
    }

    /**
     * In one block, the earlier of the two statements is an {@code if} whose arm holding its place always
     * leaves the method ({@code return} or {@code throw} last): {@code if (invalid) { reject(); return; }
     * save(row);} never runs the reject and the save in one call.
     */
    private static boolean leavesBefore(Node block, Node fromA, Node a, Node fromB, Node b) {
        if (!(block instanceof com.github.javaparser.ast.stmt.BlockStmt body)) {
            return false;
        }
        int ia = body.getStatements().indexOf(fromA);
        int ib = body.getStatements().indexOf(fromB);
        if (ia < 0 || ib < 0 || ia == ib) {
            return false;
        }
        Node earlier = ia < ib ? fromA : fromB;
        Node place = ia < ib ? a : b;
        if (!(earlier instanceof IfStmt test)) {
            return false;
        }
        Node child = place;
        while (child.getParentNode().orElse(null) != test) {
            child = child.getParentNode().orElseThrow();
        }
        return isArm(test, child) && leavesMethod((Statement) child);
    }

    /** The statement ends by returning or throwing, whatever runs before that. */
    private static boolean leavesMethod(Statement statement) {
        if (statement.isBlockStmt()) {
            List<Statement> statements = statement.asBlockStmt().getStatements();
            return !statements.isEmpty() && leavesMethod(statements.get(statements.size() - 1));
        }
        return statement instanceof ReturnStmt || statement instanceof ThrowStmt;
    }

    private static boolean isArm(IfStmt s, Node child) {
        return child == s.getThenStmt() || s.getElseStmt().map(e -> e == child).orElse(false);
    }

    /** A case that ends by leaving the switch (or the method): control does not fall into the next one. */
    private static boolean leaves(List<Statement> statements) {
        if (statements.isEmpty()) {
            return false;
        }
        Statement last = statements.get(statements.size() - 1);
        if (last.isBlockStmt()) {
            return leaves(last.asBlockStmt().getStatements());
        }
        return last instanceof BreakStmt || last instanceof ReturnStmt || last instanceof ThrowStmt
                || last instanceof ContinueStmt || last instanceof YieldStmt;
    }

    /** A loop or lambda between the branch and its method runs the branch more than once. */
    private static boolean repeated(Node branch) {
        for (Node n = branch.getParentNode().orElse(null); n != null && !(n instanceof CallableDeclaration<?>);
                n = n.getParentNode().orElse(null)) {
            if (n instanceof ForStmt || n instanceof ForEachStmt || n instanceof WhileStmt || n instanceof DoStmt
                    || n instanceof LambdaExpr) {
                return true;
            }
        }
        return false;
    }
}
