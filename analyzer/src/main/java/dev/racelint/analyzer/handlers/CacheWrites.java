package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import dev.racelint.analyzer.index.BodyNodes;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    /** Writes that replace the value a key holds ({@code set}, {@code setex}, a hash {@code put}), not appends or counters. */
    private static final Set<String> OVERWRITES = Set.of("set", "setex", "psetex", "put");

    /** A write on a cache client that sets a key's value, replacing what the key held. */
    public static boolean setsValue(MethodCallExpr call) {
        return OVERWRITES.contains(call.getNameAsString()) && call.getArguments().size() >= 2 && isCacheClient(call);
    }

    /** Cache client types whose {@code set/setex/expire/put} write an entry with an expiry. */
    private static final Set<String> CLIENT_TYPES = Set.of("RedisTemplate", "StringRedisTemplate",
            "ReactiveRedisTemplate", "ReactiveStringRedisTemplate", "ValueOperations", "HashOperations",
            "ReactiveValueOperations", "BoundValueOperations", "Jedis", "JedisCluster", "JedisPooled", "UnifiedJedis",
            "RedisCommands", "RedisAsyncCommands", "RedisClusterCommands", "MemcachedClient");

    /**
     * A Redis-style client, told by the API and not by what a variable is called: a chain through
     * {@code opsForValue()} / {@code opsForHash()}, or a receiver declared as a cache client type.
     */
    private static boolean isCacheClient(MethodCallExpr call) {
        String scope = call.getScope().map(Object::toString).orElse("").toLowerCase(java.util.Locale.ROOT);
        if (scope.contains("opsforvalue") || scope.contains("opsforhash")) {
            return true;
        }
        Expression root = call.getScope().orElse(null);
        while (root instanceof MethodCallExpr m && m.getScope().isPresent()) {
            root = m.getScope().get();
        }
        if (root instanceof com.github.javaparser.ast.expr.FieldAccessExpr f && f.getScope().isThisExpr()) {
            return CLIENT_TYPES.contains(simpleName(fieldType(f.getNameAsString(), f)));
        }
        if (root instanceof NameExpr n) {
            Node declaration = LocalVariables.declarationOf(n.getNameAsString(), n);
            String type = declaration instanceof VariableDeclarator v ? v.getTypeAsString()
                    : declaration instanceof Parameter p ? p.getTypeAsString() : fieldType(n.getNameAsString(), n);
            return CLIENT_TYPES.contains(simpleName(type));
        }
        return false;
    }

    private static String simpleName(String type) {
        if (type == null) {
            return "";
        }
        String raw = type.contains("<") ? type.substring(0, type.indexOf('<')) : type;
        return raw.substring(raw.lastIndexOf('.') + 1);
    }

    /** The field {@code name} of a type enclosing {@code at}, innermost first; null when none declares it. */
    private static FieldDeclaration field(String name, Node at) {
        for (Node n = at; n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof TypeDeclaration<?> type) {
                Optional<FieldDeclaration> f = type.getFieldByName(name);
                if (f.isPresent()) {
                    return f.get();
                }
            }
        }
        return null;
    }

    private static String fieldType(String name, Node at) {
        FieldDeclaration f = field(name, at);
        return f == null ? null : f.getVariable(0).getTypeAsString();
    }

    /** The argument that holds the expiry: a Duration, or the number before a TimeUnit, or setex's seconds. */
    private static Expression ttlArgument(MethodCallExpr call) {
        List<Expression> args = call.getArguments();
        if (call.getNameAsString().equals("setex") || call.getNameAsString().equals("psetex")) {
            return args.get(1);
        }
        if ((call.getNameAsString().equals("set") || call.getNameAsString().equals("setIfAbsent")) && args.size() == 3) {
            // set(key, value, Duration): the expiry by its place in the API (a number there is an offset)
            return args.get(2) instanceof com.github.javaparser.ast.expr.LiteralExpr ? null : args.get(2);
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

    /**
     * A TTL that is the same for every key: no random draw (ThreadLocalRandom, Math.random...), and
     * every name in it a constant - a {@code static final} field, or a type ({@code Duration},
     * {@code TimeUnit}) - rather than a local, a parameter or an instance field, which may differ per
     * key. Decided by declarations, not by whether a name is spelled in capitals.
     */
    private static boolean isFixed(Expression ttl) {
        String text = ttl.toString().toLowerCase(java.util.Locale.ROOT);
        if (text.contains("random")) {
            return false;
        }
        if (ttl.findAll(MethodCallExpr.class).stream().anyMatch(c -> c.getScope().isEmpty())) {
            return false; // computed by the project's own code (a jitter helper, a per-key policy)
        }
        for (NameExpr name : ttl.findAll(NameExpr.class)) {
            String n = name.getNameAsString();
            if (LocalVariables.declarationOf(n, name) != null) {
                return false; // a local or a parameter: may be computed per key
            }
            FieldDeclaration f = field(n, name);
            if (f != null && !(f.isStatic() && f.isFinal())) {
                return false;
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
