package dev.racelint.analyzer.index;

import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;

/** Small views of an expression that several analyses need the same way. */
public final class Expressions {

    private Expressions() {}

    /** {@code ((x))} -> {@code x}. */
    public static Expression withoutParentheses(Expression e) {
        while (e instanceof EnclosedExpr en) {
            e = en.getInner();
        }
        return e;
    }

    /** {@code ((Long) (x))} -> {@code x}: the value an expression passes on, parentheses and casts taken off. */
    public static Expression withoutParenthesesAndCasts(Expression e) {
        while (true) {
            if (e instanceof EnclosedExpr en) {
                e = en.getInner();
            } else if (e instanceof CastExpr c) {
                e = c.getExpression();
            } else {
                return e;
            }
        }
    }
}
