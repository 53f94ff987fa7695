package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * A value drawn from a random generator in a method, passed to a call of that method and set, in
 * the same method, as the value of a cache key: a one-time code that is sent and whose stored copy
 * a second request replaces. The generators are known by their library types (the JDK's
 * {@code Random}, {@code SecureRandom}, {@code ThreadLocalRandom}, {@code UUID.randomUUID},
 * {@code Math.random}, Commons Lang and Hutool's random helpers), never by what a variable is called.
 */
public final class FreshCodes {

    /** Library types whose every method draws a random value. */
    private static final Set<String> RANDOM_TYPES = Set.of("java.util.Random", "java.security.SecureRandom",
            "java.util.concurrent.ThreadLocalRandom", "java.util.SplittableRandom", "cn.hutool.core.util.RandomUtil",
            "org.apache.commons.lang3.RandomStringUtils", "org.apache.commons.lang3.RandomUtils",
            "org.apache.commons.lang.RandomStringUtils", "org.apache.commons.text.RandomStringGenerator");

    private FreshCodes() {}

    /** The random draw and the cache write of the value that {@code site} also sends. */
    public record SentAndStored(MethodCallExpr draw, MethodCallExpr store) {}

    /**
     * Whether an argument of {@code site} (a call in {@code in}) carries a value drawn at random in
     * {@code in}, and {@code in} also sets that value as a cache entry's value.
     */
    public static Optional<SentAndStored> of(MethodInfo in, Node site) {
        Node body = in.body();
        if (body == null || !(site instanceof MethodCallExpr call)) {
            return Optional.empty();
        }
        Set<Node> fresh = freshLocals(body);
        MethodCallExpr draw = null;
        for (Expression argument : call.getArguments()) {
            draw = draw != null ? draw : drawIn(argument, fresh);
        }
        if (draw == null) {
            return Optional.empty();
        }
        for (MethodCallExpr store : body.findAll(MethodCallExpr.class)) {
            if (CacheWrites.setsValue(store)) {
                for (int i = 1; i < store.getArguments().size(); i++) {
                    if (drawIn(store.getArgument(i), fresh) != null) {
                        return Optional.of(new SentAndStored(draw, store));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The declarations of the locals that hold a random value or a value built from one: assigned
     * from an expression that uses one, or handed one through a call on them ({@code map.put("code", code)}).
     */
    private static Set<Node> freshLocals(Node body) {
        Set<Node> fresh = new HashSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (VariableDeclarator v : body.findAll(VariableDeclarator.class)) {
                if (!fresh.contains(v) && v.getInitializer().map(init -> uses(init, fresh)).orElse(false)) {
                    grew |= fresh.add(v);
                }
            }
            for (AssignExpr assign : body.findAll(AssignExpr.class)) {
                Node target = local(assign.getTarget());
                if (target != null && !fresh.contains(target) && uses(assign.getValue(), fresh)) {
                    grew |= fresh.add(target);
                }
            }
            for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
                Node receiver = call.getScope().map(FreshCodes::local).orElse(null);
                if (receiver != null && !fresh.contains(receiver)
                        && call.getArguments().stream().anyMatch(a -> uses(a, fresh))) {
                    grew |= fresh.add(receiver);
                }
            }
        }
        return fresh;
    }

    private static boolean uses(Expression expression, Set<Node> fresh) {
        return drawIn(expression, fresh) != null;
    }

    /** The random draw that {@code expression} uses, directly or through a fresh local; null when none. */
    private static MethodCallExpr drawIn(Expression expression, Set<Node> fresh) {
        for (MethodCallExpr call : expression.findAll(MethodCallExpr.class)) {
            if (isDraw(call)) {
                return call;
            }
        }
        for (NameExpr name : expression.findAll(NameExpr.class)) {
            Node declaration = local(name);
            if (declaration != null && fresh.contains(declaration)) {
                return drawOf(declaration, fresh);
            }
        }
        return null;
    }

    /** The draw a fresh local's initialiser holds (for the message), or any draw that made it fresh. */
    private static MethodCallExpr drawOf(Node declaration, Set<Node> fresh) {
        Set<Node> without = new HashSet<>(fresh);
        without.remove(declaration);
        if (declaration instanceof VariableDeclarator v && v.getInitializer().isPresent()) {
            MethodCallExpr direct = drawIn(v.getInitializer().get(), without);
            if (direct != null) {
                return direct;
            }
        }
        Node body = declaration;
        while (body.getParentNode().isPresent() && !(body instanceof com.github.javaparser.ast.body.CallableDeclaration<?>)) {
            body = body.getParentNode().get();
        }
        for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
            if (isDraw(call)) {
                return call;
            }
        }
        return null;
    }

    private static Node local(Expression expression) {
        if (!(expression instanceof NameExpr name)) {
            return null;
        }
        Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
        return declaration instanceof VariableDeclarator || declaration instanceof Parameter ? declaration : null;
    }

    /**
     * A call that draws a random value: any method of a random type (a static call on the type, or a
     * call on an instance declared or created with it, {@code ThreadLocalRandom.current().nextInt()}),
     * {@code UUID.randomUUID()} or {@code Math.random()}.
     */
    static boolean isDraw(MethodCallExpr call) {
        Expression root = call.getScope().orElse(null);
        while (root instanceof MethodCallExpr inner && inner.getScope().isPresent()) {
            root = inner.getScope().get();
        }
        String type = null;
        if (root instanceof ObjectCreationExpr created) {
            type = qualified(created.getType().getNameWithScope(), call);
        } else if (root instanceof com.github.javaparser.ast.expr.FieldAccessExpr field && field.getScope().isThisExpr()) {
            String declared = fieldType(field.getNameAsString(), field);
            type = declared == null ? null : qualified(declared, call);
        } else if (root instanceof NameExpr name) {
            Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
            String declared = declaration instanceof VariableDeclarator v ? v.getTypeAsString()
                    : declaration instanceof Parameter p ? p.getTypeAsString() : fieldType(name.getNameAsString(), name);
            type = qualified(declared != null ? declared : name.getNameAsString(), call);
        }
        if (type == null) {
            return false;
        }
        if (type.equals("java.util.UUID")) {
            return call.getNameAsString().equals("randomUUID");
        }
        if (type.equals("java.lang.Math")) {
            return call.getNameAsString().equals("random");
        }
        return RANDOM_TYPES.contains(type);
    }

    /** The qualified name {@code type} has where {@code at} is written: by its file's imports, or java.lang. */
    private static String qualified(String type, Node at) {
        if (type.contains(".")) {
            return type;
        }
        CompilationUnit unit = at.findCompilationUnit().orElse(null);
        if (unit == null) {
            return null;
        }
        for (ImportDeclaration imported : unit.getImports()) {
            String name = imported.getNameAsString();
            if (!imported.isAsterisk() && !imported.isStatic() && name.endsWith("." + type)) {
                return name;
            }
            if (imported.isAsterisk() && !imported.isStatic() && (RANDOM_TYPES.contains(name + "." + type)
                    || (name + "." + type).equals("java.util.UUID"))) {
                return name + "." + type;
            }
        }
        return type.equals("Math") ? "java.lang.Math" : null;
    }

    private static String fieldType(String name, Node at) {
        for (Node n = at; n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof TypeDeclaration<?> declaring) {
                Optional<FieldDeclaration> field = declaring.getFieldByName(name);
                if (field.isPresent()) {
                    return field.get().getVariable(0).getTypeAsString();
                }
            }
        }
        return null;
    }
}
