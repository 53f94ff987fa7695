package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.ThrowStmt;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.CallResolver;
import dev.racelint.analyzer.resolve.ExpressionTyper;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A guard kept in Redis that reads the key and sets it in two commands: {@code get(key)} (or
 * {@code hasKey(key)}) decides, through an {@code if} whose one branch throws, whether a plain
 * {@code set(key, ..)} of the same key runs ({@code if (value != null) throw ..; else set(key, ..)}).
 * Two requests can both read no key and both go on; {@code setIfAbsent} (SET NX) is the one-command
 * form. Both calls may sit in a project helper one call away whose parameter is the key (a
 * {@code RedisService.getCacheObject(key)} wrapper). Told by the receiver's type (Spring Data
 * Redis's templates and value operations), never by what a variable or a helper is called.
 */
public final class CacheKeyChecks {

    private static final Set<String> TEMPLATES = Set.of("org.springframework.data.redis.core.RedisTemplate",
            "org.springframework.data.redis.core.StringRedisTemplate",
            "org.springframework.data.redis.core.RedisOperations");
    private static final Set<String> VALUE_OPERATIONS = Set.of("org.springframework.data.redis.core.ValueOperations");

    /** A read of a key that decides a plain set of the same key: {@code read} and {@code set} are calls in the method. */
    public record KeyCheck(MethodCallExpr read, MethodCallExpr set, Expression key, String readVia, String setVia) {}

    private CacheKeyChecks() {}

    public static List<KeyCheck> in(MethodInfo method, CallResolver resolver) {
        List<KeyCheck> out = new ArrayList<>();
        Node body = method.body();
        if (body == null) {
            return out;
        }
        ExpressionTyper typer = resolver.typer();
        // each call's key command once: the pairs below look at every read against every set
        List<java.util.Map.Entry<MethodCallExpr, Access>> accesses = new ArrayList<>();
        for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
            Access a = access(call, resolver, typer);
            if (a != null) {
                accesses.add(java.util.Map.entry(call, a));
            }
        }
        for (var read : accesses) {
            Access r = read.getValue();
            IfStmt decision = r.kind == Kind.READ ? decidingIf(read.getKey()) : null;
            if (decision == null) {
                continue;
            }
            for (var setAccess : accesses) {
                MethodCallExpr set = setAccess.getKey();
                Access s = setAccess.getValue();
                if (s.kind == Kind.SET && s.key.toString().equals(r.key.toString())
                        && sameVariables(r.key, s.key) && runsOnTheOtherWay(decision, set)) {
                    out.add(new KeyCheck(read.getKey(), set, r.key, r.via, s.via));
                    break;
                }
            }
        }
        return out;
    }

    private enum Kind { READ, SET }

    /** What a call does to a key, directly or in a helper whose parameter is the key; {@code via} names the helper. */
    private record Access(Kind kind, Expression key, String via) {}

    private static Access access(MethodCallExpr call, CallResolver resolver, ExpressionTyper typer) {
        Kind direct = direct(call, typer);
        if (direct != null) {
            return new Access(direct, call.getArgument(0), null);
        }
        List<MethodInfo> targets = resolver.resolve(call).targets();
        if (targets.size() != 1 || !(targets.get(0).declaration() instanceof MethodDeclaration helper)
                || helper.getBody().isEmpty()) {
            return null;
        }
        Access found = null;
        for (MethodCallExpr inner : helper.getBody().get().findAll(MethodCallExpr.class)) {
            Kind kind = direct(inner, typer);
            if (kind == null) {
                continue;
            }
            int parameter = parameterIndex(helper, inner.getArgument(0));
            if (found != null || parameter < 0 || parameter >= call.getArguments().size()) {
                return null; // more than one key command, or a key the caller does not pass: not a plain wrapper
            }
            found = new Access(kind, call.getArgument(parameter), targets.get(0).displayName());
        }
        return found;
    }

    /** {@code get(key)} / {@code hasKey(key)} as a read, {@code set(key, ..)} as a plain set; else null. */
    private static Kind direct(MethodCallExpr call, ExpressionTyper typer) {
        String name = call.getNameAsString();
        if (call.getArguments().isEmpty() || call.getScope().isEmpty()) {
            return null;
        }
        Expression scope = call.getScope().get();
        boolean values = isValueOperations(scope, typer);
        if (values && name.equals("get") && call.getArguments().size() == 1) {
            return Kind.READ;
        }
        if (values && name.equals("set") && call.getArguments().size() >= 2) {
            return Kind.SET;
        }
        if (name.equals("hasKey") && call.getArguments().size() == 1 && typed(scope, typer, TEMPLATES)) {
            return Kind.READ;
        }
        return null;
    }

    /** A ValueOperations: a receiver of that type, or {@code opsForValue()} called on a template. */
    private static boolean isValueOperations(Expression scope, ExpressionTyper typer) {
        if (scope instanceof MethodCallExpr ops && ops.getNameAsString().equals("opsForValue")
                && ops.getArguments().isEmpty() && ops.getScope().isPresent()) {
            return typed(ops.getScope().get(), typer, TEMPLATES);
        }
        return typed(scope, typer, VALUE_OPERATIONS);
    }

    private static boolean typed(Expression e, ExpressionTyper typer, Set<String> types) {
        return typer.typeOf(e).type().candidates().stream().anyMatch(types::contains);
    }

    private static int parameterIndex(MethodDeclaration helper, Expression argument) {
        if (!(argument instanceof NameExpr name)) {
            return -1;
        }
        for (int i = 0; i < helper.getParameters().size(); i++) {
            Parameter p = helper.getParameter(i);
            if (p.getNameAsString().equals(name.getNameAsString())) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The {@code if} the read's value decides - the read in its condition, or a local it initialises
     * named there - when one of its branches ends by throwing.
     */
    private static IfStmt decidingIf(MethodCallExpr read) {
        String local = read.getParentNode().orElse(null) instanceof VariableDeclarator v
                && v.getInitializer().orElse(null) == read ? v.getNameAsString() : null;
        Node method = read;
        while (method != null && !(method instanceof CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        if (method == null) {
            return null;
        }
        for (IfStmt candidate : method.findAll(IfStmt.class)) {
            Expression condition = candidate.getCondition();
            boolean decided = condition.findAll(MethodCallExpr.class).contains(read)
                    || (local != null && condition.findAll(NameExpr.class).stream()
                            .anyMatch(n -> n.getNameAsString().equals(local)));
            if (decided && (throwsAtEnd(candidate.getThenStmt())
                    || candidate.getElseStmt().map(CacheKeyChecks::throwsAtEnd).orElse(false))) {
                return candidate;
            }
        }
        return null;
    }

    private static boolean throwsAtEnd(Statement branch) {
        if (branch instanceof ThrowStmt) {
            return true;
        }
        return branch instanceof BlockStmt block && !block.getStatements().isEmpty()
                && block.getStatements().getLast().orElseThrow() instanceof ThrowStmt;
    }

    /** Is {@code set} on the way that does not throw: in the other branch, or after the if when a branch throws? */
    private static boolean runsOnTheOtherWay(IfStmt decision, MethodCallExpr set) {
        boolean thenThrows = throwsAtEnd(decision.getThenStmt());
        Statement other = thenThrows ? decision.getElseStmt().orElse(null) : decision.getThenStmt();
        if (other != null && isInside(set, other)) {
            return true;
        }
        Statement throwing = thenThrows ? decision.getThenStmt() : decision.getElseStmt().orElse(null);
        return !isInside(set, decision) && set.getBegin().isPresent() && decision.getEnd().isPresent()
                && set.getBegin().get().isAfter(decision.getEnd().get()) && throwing != null
                && sameBlockOrBelow(decision, set);
    }

    private static boolean sameBlockOrBelow(IfStmt decision, Node set) {
        Node block = decision.getParentNode().orElse(null);
        return block instanceof BlockStmt && isInside(set, block);
    }

    private static boolean isInside(Node node, Node ancestor) {
        for (Node n = node; n != null; n = n.getParentNode().orElse(null)) {
            if (n == ancestor) {
                return true;
            }
        }
        return false;
    }

    /** Every name in the two key expressions refers to the same declaration (one local, one parameter). */
    private static boolean sameVariables(Expression a, Expression b) {
        List<NameExpr> left = a.findAll(NameExpr.class);
        List<NameExpr> right = b.findAll(NameExpr.class);
        if (left.size() != right.size()) {
            return false;
        }
        for (int i = 0; i < left.size(); i++) {
            Node l = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(left.get(i).getNameAsString(), left.get(i));
            Node r = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(right.get(i).getNameAsString(), right.get(i));
            if (l != r) {
                return false;
            }
        }
        return true;
    }
}
