package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.index.BodyNodes;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Cache writes with an expiry that the same loop gives every key: {@code set(key, value, ttl)},
 * {@code setex}, {@code expire} in a for/while loop or a {@code forEach} lambda, whose TTL is a
 * literal or a constant and has no randomness, so the whole batch expires at the same moment.
 */
public final class CacheWrites {
    private static final Set<String> WRITES = Set.of("set", "setex", "psetex", "expire", "setIfAbsent", "put");
    private static final Set<String> BATCH = Set.of("forEach", "parallelStream");

    private CacheWrites() {}

    public static List<MethodCallExpr> fixedTtlInLoop(ProgramIndex index, MethodInfo method) {
        List<MethodCallExpr> out = new ArrayList<>();
        for (MethodCallExpr call : index.bodyNodes(method).calls()) {
            if (!WRITES.contains(call.getNameAsString()) || call.getArguments().size() < 2 || !isCacheClient(call)
                    || !inLoop(call)) {
                continue;
            }
            Expression ttl = ttlArgument(call);
            if (ttl != null && isFixed(ttl)) {
                out.add(call);
            }
        }
        return out;
    }

    /** A Redis-style client: a chain through {@code opsForValue()}, or a receiver named like a cache/redis client. */
    private static boolean isCacheClient(MethodCallExpr call) {
        String scope = call.getScope().map(Object::toString).orElse("").toLowerCase(java.util.Locale.ROOT);
        return scope.contains("opsforvalue") || scope.contains("opsforhash") || scope.contains("redis")
                || scope.contains("jedis") || scope.contains("memcache") || scope.contains("lettuce");
    }

    /** The argument that holds the expiry: a Duration, or the number before a TimeUnit, or setex's seconds. */
    private static Expression ttlArgument(MethodCallExpr call) {
        List<Expression> args = call.getArguments();
        if (call.getNameAsString().equals("setex") || call.getNameAsString().equals("psetex")) {
            return args.get(1);
        }
        for (int i = 1; i < args.size(); i++) {
            String text = args.get(i).toString();
            if (text.startsWith("Duration.") || text.contains("Duration.of")) {
                return args.get(i);
            }
            if (text.contains("TimeUnit.") && i > 0) {
                return args.get(i - 1);
            }
        }
        return call.getNameAsString().equals("expire") ? args.get(1) : null;
    }

    private static boolean isFixed(Expression ttl) {
        String text = ttl.toString().toLowerCase(java.util.Locale.ROOT);
        if (text.contains("random") || text.contains("jitter")) {
            return false;
        }
        for (var name : ttl.findAll(com.github.javaparser.ast.expr.NameExpr.class)) {
            String n = name.getNameAsString();
            if (!n.equals(n.toUpperCase(java.util.Locale.ROOT)) && !n.equals("Duration") && !n.equals("TimeUnit")) {
                return false; // a variable: may be computed per key
            }
        }
        return true;
    }

    private static boolean inLoop(Node node) {
        for (Node n = node.getParentNode().orElse(null); n != null && !(n instanceof CallableDeclaration<?>);
                n = n.getParentNode().orElse(null)) {
            if (BodyNodes.isLoop(n)) {
                return true;
            }
            if (n instanceof LambdaExpr && n.getParentNode().orElse(null) instanceof MethodCallExpr call
                    && BATCH.contains(call.getNameAsString())) {
                return true;
            }
        }
        return false;
    }
}
