package dev.racelint.analyzer.locks;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.stmt.IfStmt;
import dev.racelint.analyzer.index.BodyNodes;
import dev.racelint.analyzer.index.Expressions;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.resolve.ExpressionTyper;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.Optional;

/**
 * A {@code Thread.sleep(ms)} that waits at most {@link #SHORT_SLEEP_MILLIS} once: a pacing gap (the
 * inter-frame silence a serial bus protocol requires), not a wait for another party. Its argument is a
 * constant of at most the bound, or {@code C - elapsed} under {@code if (elapsed < C)} with {@code C}
 * such a constant and {@code elapsed} a local set once to {@code System.currentTimeMillis() - earlier}
 * (a difference to an earlier reading of the same clock, so never above {@code C} unless the wall clock
 * steps back). A sleep inside a loop of its method repeats and is never short.
 */
public final class ShortSleeps {

    /**
     * The longest single sleep, in milliseconds, that holding a lock across does not count as lock-across-io:
     * below one scheduler tick of a loaded JVM host and far below any remote call's latency.
     */
    public static final long SHORT_SLEEP_MILLIS = 50;

    private ShortSleeps() {}

    /** Is {@code call} a {@code Thread.sleep(ms)} outside any loop of its method, waiting at most the bound? */
    public static boolean isShort(MethodCallExpr call, TypeInfo context, ProgramIndex index, ExpressionTyper typer) {
        if (!call.getNameAsString().equals("sleep") || call.getArguments().size() != 1 || call.getScope().isEmpty()
                || !isType(call.getScope().get(), "java.lang.Thread", typer) || inLoop(call)) {
            return false;
        }
        Expression ms = Expressions.withoutParenthesesAndCasts(call.getArgument(0));
        Optional<Long> constant = constant(ms, context, index);
        if (constant.isPresent()) {
            return constant.get() >= 0 && constant.get() <= SHORT_SLEEP_MILLIS;
        }
        return ms instanceof BinaryExpr gap && gap.getOperator() == BinaryExpr.Operator.MINUS
                && constant(Expressions.withoutParenthesesAndCasts(gap.getLeft()), context, index)
                        .filter(c -> c <= SHORT_SLEEP_MILLIS).isPresent()
                && Expressions.withoutParenthesesAndCasts(gap.getRight()) instanceof NameExpr elapsed
                && elapsedMillis(elapsed, typer) && guardedBelow(call, elapsed, gap.getLeft());
    }

    /** {@code elapsed} is a local set once to {@code System.currentTimeMillis() - x}. */
    private static boolean elapsedMillis(NameExpr elapsed, ExpressionTyper typer) {
        if (!(LocalVariables.declarationOf(elapsed.getNameAsString(), elapsed) instanceof VariableDeclarator local)
                || LocalVariables.reassigned(local)) {
            return false;
        }
        return local.getInitializer().map(Expressions::withoutParenthesesAndCasts).orElse(null) instanceof BinaryExpr diff
                && diff.getOperator() == BinaryExpr.Operator.MINUS
                && Expressions.withoutParenthesesAndCasts(diff.getLeft()) instanceof MethodCallExpr now
                && now.getNameAsString().equals("currentTimeMillis") && now.getArguments().isEmpty()
                && now.getScope().filter(s -> isType(s, "java.lang.System", typer)).isPresent();
    }

    /** The sleep sits in the then-branch of {@code if (elapsed < C)}, so {@code C - elapsed} is positive. */
    private static boolean guardedBelow(MethodCallExpr call, NameExpr elapsed, Expression bound) {
        Node child = call;
        for (Node n = call.getParentNode().orElse(null); n != null && !(n instanceof CallableDeclaration<?>);
                n = n.getParentNode().orElse(null)) {
            if (n instanceof IfStmt test && test.getThenStmt() == child
                    && Expressions.withoutParenthesesAndCasts(test.getCondition()) instanceof BinaryExpr below
                    && below.getOperator() == BinaryExpr.Operator.LESS
                    && below.getLeft().toString().equals(elapsed.toString())
                    && below.getRight().toString().equals(bound.toString())) {
                return true;
            }
            child = n;
        }
        return false;
    }

    private static boolean inLoop(Node call) {
        for (Node n = call.getParentNode().orElse(null); n != null && !(n instanceof CallableDeclaration<?>);
                n = n.getParentNode().orElse(null)) {
            if (BodyNodes.isLoop(n)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isType(Expression scope, String qualified, ExpressionTyper typer) {
        ExpressionTyper.Typed typed = typer.typeOf(scope);
        return typed.isTypeName() && typed.type().candidates().contains(qualified);
    }

    /** A literal, or a static final field of {@code context} (or an outer type) initialised with one. */
    private static Optional<Long> constant(Expression e, TypeInfo context, ProgramIndex index) {
        if (e instanceof IntegerLiteralExpr i) {
            return parse(i.getValue());
        }
        if (e instanceof LongLiteralExpr l) {
            return parse(l.getValue().replaceAll("[lL]$", ""));
        }
        if (!(e instanceof NameExpr name) || LocalVariables.declarationOf(name.getNameAsString(), name) != null) {
            return Optional.empty();
        }
        for (TypeInfo t = context; t != null; t = t.outer()) {
            ProgramIndex.FieldRef field = index.findField(t, name.getNameAsString());
            TypeInfo owner = t;
            if (field != null) {
                return field.owner().declaration() == null ? Optional.empty() : field.owner().declaration()
                        .getFieldByName(name.getNameAsString()).filter(f -> f.isStatic() && f.isFinal())
                        .flatMap(f -> f.getVariables().stream()
                                .filter(v -> v.getNameAsString().equals(name.getNameAsString())).findFirst())
                        .flatMap(VariableDeclarator::getInitializer)
                        .flatMap(init -> init instanceof NameExpr ? Optional.empty() : constant(init, owner, index));
            }
        }
        return Optional.empty();
    }

    private static Optional<Long> parse(String literal) {
        try {
            return Optional.of(Long.parseLong(literal.replace("_", "")));
        } catch (NumberFormatException ex) {
            return Optional.empty();
        }
    }
}
