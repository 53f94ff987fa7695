package dev.racelint.analyzer.index;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether two places of one method sit in opposite arms of two {@code if}s that test the same
 * condition on locals nothing assigns in between: {@code if (id == null) { row = new Row(); } else
 * { row = find(id); } ... if (id == null) { save(row); }}. The condition has the same value at both
 * tests, so one call takes the read's arm or the write's, never both. (The one-{@code if} case is
 * {@link ExclusiveBranches}.)
 */
public final class RepeatedConditions {

    private RepeatedConditions() {}

    /** True when {@code a} and {@code b} are in opposite arms of two tests of one unchanged condition. */
    public static boolean exclusive(Node a, Node b) {
        for (Arm armA : arms(a)) {
            for (Arm armB : arms(b)) {
                if (armA.test() != armB.test() && armA.then() != armB.then()
                        && armA.test().getCondition().equals(armB.test().getCondition())
                        && stable(armA.test(), armB.test())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** An enclosing {@code if} with an else, and whether the node is in its then-arm. */
    private record Arm(IfStmt test, boolean then) {}

    private static List<Arm> arms(Node node) {
        List<Arm> out = new ArrayList<>();
        Node child = node;
        for (Node n = node.getParentNode().orElse(null); n != null && !(n instanceof CallableDeclaration<?>);
                n = n.getParentNode().orElse(null)) {
            if (n instanceof LambdaExpr) {
                break; // a lambda body runs when its caller decides, not where it is written
            }
            if (n instanceof IfStmt s && child != s.getCondition()) {
                // without an else the false side is "after the if", which the other place may also be
                boolean then = child == s.getThenStmt();
                if (then || s.getElseStmt().isPresent()) {
                    out.add(new Arm(s, then));
                }
            }
            child = n;
        }
        return out;
    }

    /**
     * The condition reads only locals, literals and operators, and none of its locals is assigned
     * from the first test to the second, and no loop around both runs them with different values.
     */
    private static boolean stable(IfStmt one, IfStmt other) {
        IfStmt first = position(one) <= position(other) ? one : other;
        IfStmt second = first == one ? other : one;
        if (!pure(first.getCondition())) {
            return false;
        }
        Node method = first;
        while (method != null && !(method instanceof CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        if (method == null || inLoopAroundBoth(first, second)) {
            return false;
        }
        List<String> names = first.getCondition().findAll(NameExpr.class).stream().map(NameExpr::getNameAsString).toList();
        long from = position(first);
        long to = second.getCondition().getEnd().map(p -> p.line * 10_000L + p.column).orElse(Long.MAX_VALUE);
        for (AssignExpr assign : method.findAll(AssignExpr.class)) {
            if (assign.getTarget() instanceof NameExpr target && names.contains(target.getNameAsString())
                    && position(assign) >= from && position(assign) <= to) {
                return false;
            }
        }
        for (UnaryExpr step : method.findAll(UnaryExpr.class)) {
            if (step.getExpression() instanceof NameExpr target && names.contains(target.getNameAsString())
                    && step.getOperator() != UnaryExpr.Operator.LOGICAL_COMPLEMENT
                    && step.getOperator() != UnaryExpr.Operator.MINUS && step.getOperator() != UnaryExpr.Operator.PLUS
                    && step.getOperator() != UnaryExpr.Operator.BITWISE_COMPLEMENT
                    && position(step) >= from && position(step) <= to) {
                return false;
            }
        }
        return true;
    }

    private static boolean pure(Expression e) {
        if (e instanceof NameExpr name) {
            // a local or parameter: a field could be changed by a call in between, or by another thread
            return dev.racelint.analyzer.resolve.LocalVariables.declarationOf(name.getNameAsString(), name) != null;
        }
        if (e instanceof LiteralExpr) {
            return true;
        }
        if (e instanceof EnclosedExpr en) {
            return pure(en.getInner());
        }
        if (e instanceof UnaryExpr u) {
            return u.getOperator() == UnaryExpr.Operator.LOGICAL_COMPLEMENT && pure(u.getExpression());
        }
        if (e instanceof BinaryExpr b) {
            return pure(b.getLeft()) && pure(b.getRight());
        }
        return false;
    }

    /** A loop or lambda enclosing both tests would run them with the locals of different iterations. */
    private static boolean inLoopAroundBoth(Node first, Node second) {
        for (Node n = first.getParentNode().orElse(null); n != null && !(n instanceof CallableDeclaration<?>);
                n = n.getParentNode().orElse(null)) {
            if ((n instanceof ForStmt || n instanceof ForEachStmt || n instanceof WhileStmt || n instanceof DoStmt
                    || n instanceof LambdaExpr) && n.isAncestorOf(second)) {
                return true;
            }
        }
        return false;
    }

    private static long position(Node n) {
        return n.getBegin().map(p -> p.line * 10_000L + p.column).orElse(0L);
    }
}
