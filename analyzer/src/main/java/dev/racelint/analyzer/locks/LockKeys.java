package dev.racelint.analyzer.locks;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.index.Expressions;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The key of a lock looked up by a value - a distributed lock's name ({@code redisson.getLock(PREFIX +
 * order.getSn())}), a per-key lock of a map ({@code locks.computeIfAbsent(id, ..)}) - or the key argument of
 * a team's lock API, and whether it is a value of the call: built, through locals,
 * from a parameter of the method that takes the lock, and no caller binds that parameter to a fixed value
 * (a literal or a field). Such a lock is one per key: only calls for the same key wait on each other.
 */
public final class LockKeys {

    /** The key, and the parameter of the locking method it is built from. */
    public record CallKey(Expression key, Parameter parameter) {}

    /** Locals followed back at most from the key to a parameter. */
    private static final int MAX_STEPS = 12;

    private LockKeys() {}

    /** {@code scope}'s key when it is built from a parameter that every caller passes a value of its own. */
    public static Optional<CallKey> fromCall(LockScope scope, CallGraph graph) {
        if (scope.kind() != LockScope.Kind.LOCK || !(scope.site() instanceof MethodCallExpr call)) {
            return Optional.empty();
        }
        // a lock API of the catalogue or racelint.yml takes its key as an argument; Lock.lock() has it in the lookup
        boolean api = graph.facts(scope.method()).effects().stream()
                .anyMatch(site -> site.call() == call && site.effect().kind() == EffectKind.LOCK);
        Optional<Expression> key = keyOf(call, api);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        CallableDeclaration<?> method = scope.method().declaration();
        Optional<Parameter> parameter = parameterIn(key.get(), method);
        if (parameter.isEmpty() || fixedByACaller(scope.method(), parameter.get(), graph)) {
            return Optional.empty();
        }
        return Optional.of(new CallKey(key.get(), parameter.get()));
    }

    /**
     * The key of the lock {@code call} takes: the first argument of the call that looked the receiver up
     * ({@code getLock(key).lock()}, or a local initialised with it), or a lock API's first argument.
     */
    private static Optional<Expression> keyOf(MethodCallExpr call, boolean api) {
        if (api) {
            return call.getArguments().isEmpty() ? Optional.empty() : Optional.of(call.getArgument(0));
        }
        Expression receiver = call.getScope().map(Expressions::withoutParenthesesAndCasts).orElse(null);
        if (receiver instanceof NameExpr name
                && LocalVariables.declarationOf(name.getNameAsString(), name) instanceof VariableDeclarator local
                && !LocalVariables.reassigned(local)) {
            receiver = local.getInitializer().map(Expressions::withoutParenthesesAndCasts).orElse(null);
        }
        // the lock object is looked up by a value (getLock(key), locks.computeIfAbsent(key, ..)): the key
        if (receiver instanceof MethodCallExpr lookup && !lookup.getArguments().isEmpty()) {
            return Optional.of(lookup.getArgument(0));
        }
        return Optional.empty();
    }

    /** A parameter of {@code method} that {@code value} is computed from, through locals initialised once. */
    private static Optional<Parameter> parameterIn(Expression value, CallableDeclaration<?> method) {
        List<Expression> work = new ArrayList<>(List.of(value));
        Set<Node> seen = new HashSet<>();
        for (int step = 0; step < MAX_STEPS && !work.isEmpty(); step++) {
            Expression e = work.remove(0);
            List<NameExpr> names = new ArrayList<>(e.findAll(NameExpr.class));
            for (NameExpr name : names) {
                Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
                if (declaration == null || !seen.add(declaration)) {
                    continue;
                }
                if (declaration instanceof Parameter p && p.getParentNode().orElse(null) == method) {
                    return Optional.of(p);
                }
                if (declaration instanceof VariableDeclarator local && local.getInitializer().isPresent()
                        && !LocalVariables.reassigned(local)) {
                    work.add(local.getInitializer().get());
                }
            }
        }
        return Optional.empty();
    }

    /** Does a caller of {@code method} pass a fixed value (no local or parameter of its own) for {@code parameter}? */
    private static boolean fixedByACaller(MethodInfo method, Parameter parameter, CallGraph graph) {
        int index = method.declaration().getParameters().indexOf(parameter);
        for (CallEdge edge : graph.callers(method)) {
            if (!(edge.site() instanceof MethodCallExpr site) || site.getArguments().size() != method.declaration().getParameters().size()) {
                continue;
            }
            Expression argument = site.getArgument(index);
            boolean own = argument.findAll(NameExpr.class).stream()
                    .anyMatch(n -> LocalVariables.declarationOf(n.getNameAsString(), n) != null);
            if (!own) {
                return true;
            }
        }
        return false;
    }
}
