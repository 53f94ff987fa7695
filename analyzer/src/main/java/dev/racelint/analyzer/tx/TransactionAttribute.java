package dev.racelint.analyzer.tx;

import com.github.javaparser.ast.expr.AnnotationExpr;

/**
 * The transactional behaviour a proxy gives a method.
 *
 * @param origin how messages describe where it comes from, e.g. {@code @Transactional} or
 *               {@code class-level @Transactional on OrderService}
 */
public record TransactionAttribute(Propagation propagation, boolean readOnly, String origin, AnnotationExpr annotation) {}
