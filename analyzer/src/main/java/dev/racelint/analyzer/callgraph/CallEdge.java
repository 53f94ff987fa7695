package dev.racelint.analyzer.callgraph;

import com.github.javaparser.ast.Node;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.index.MethodInfo;

/**
 * A call from one scanned method to another, executed on the caller's thread.
 *
 * @param viaProxy true when the call goes through another object's reference, so Spring's
 *                 proxy-based advice (@Transactional, @Async) applies to the callee
 * @param site     the call expression (method call, reference, {@code new}, publishEvent)
 */
public record CallEdge(MethodInfo caller, MethodInfo callee, Node site, CallKind kind, boolean viaProxy,
        CodeLocation location) {}
