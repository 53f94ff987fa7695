package dev.racelint.analyzer.tx;

import com.github.javaparser.ast.expr.AnnotationExpr;

/**
 * The transactional behaviour a proxy gives a method. {@code isolation} is Spring's constant name
 * ({@code DEFAULT} when not set).
 *
 * @param origin how messages describe where it comes from, e.g. {@code @Transactional} or
 *               {@code class-level @Transactional on OrderService}
 */
public record TransactionAttribute(Propagation propagation, boolean readOnly, String isolation, String origin,
        AnnotationExpr annotation) {

    /** Isolation SERIALIZABLE: the database detects write skew (and the caller must retry). */
    public boolean serializable() {
        return isolation.equals("SERIALIZABLE");
    }
}
