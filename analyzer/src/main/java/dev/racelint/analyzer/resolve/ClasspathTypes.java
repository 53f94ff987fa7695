package dev.racelint.analyzer.resolve;

import com.github.javaparser.ast.expr.Expression;

/**
 * A slower, more complete way to type an expression, used only where declared types and the
 * project index cannot settle it (the symbol solver over a user-given classpath).
 */
public interface ClasspathTypes {
    /** The erased qualified type of {@code expression}, or null when unknown. */
    String qualifiedTypeOf(Expression expression);

    ClasspathTypes NONE = expression -> null;
}
