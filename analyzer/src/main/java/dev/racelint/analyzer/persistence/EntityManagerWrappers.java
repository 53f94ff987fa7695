package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.resolve.CallResolver;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.List;
import java.util.Set;

/**
 * A project method that hands one of its own parameters straight to its only EntityManager (or
 * Hibernate Session) call, as a generic DAO base does: {@code <T> T merge(T e) { return em.merge(e); }},
 * {@code <T> TypedQuery<T> namedQuery(Class<T> type, String name) { return em.createNamedQuery(name, type); }}.
 * Inside the wrapper the entity is only a type parameter; at a call the caller's argument says which
 * entity it is (the value's type, or the class literal) and which named query runs. A call to such a
 * wrapper is that operation, where the wrapper is called: how deep helpers are followed
 * ({@code helper-calls}) does not count the wrapper, which adds no logic of its own.
 */
final class EntityManagerWrappers {

    /** EntityManager calls whose first argument is the entity (a value, or its class for the finders). */
    private static final Set<String> ENTITY_ARGUMENT = Set.of("merge", "persist", "remove", "find", "getReference");

    private EntityManagerWrappers() {}

    static DbOp classify(DbOpClassifier classifier, ProgramIndex index, CallResolver resolver, MethodCallExpr call) {
        List<MethodInfo> targets = resolver.resolve(call).targets();
        if (targets.size() != 1 || targets.get(0).body() == null) {
            return null;
        }
        MethodInfo target = targets.get(0);
        MethodCallExpr inner = null;
        for (MethodCallExpr own : index.ownCalls(target)) {
            if (classifier.entityManagerCall(own)) {
                if (inner != null) {
                    return null; // more than one operation: a helper with logic of its own, not a wrapper
                }
                inner = own;
            }
        }
        if (inner == null || inner.getArguments().isEmpty()) {
            return null;
        }
        int parameter = parameterIndex(target.declaration(), inner.getArgument(0));
        if (parameter < 0 || parameter >= call.getArguments().size()) {
            return null;
        }
        Expression argument = call.getArgument(parameter);
        String name = inner.getNameAsString();
        if (name.equals("createNamedQuery") || name.equals("createNativeQuery") || name.equals("createQuery")) {
            if (!(argument instanceof StringLiteralExpr text)) {
                return null;
            }
            return name.equals("createNamedQuery") ? classifier.namedQuery(call, text.asString())
                    : classifier.queryText(call, argument, name.equals("createQuery"));
        }
        if (!ENTITY_ARGUMENT.contains(name)) {
            return null;
        }
        DbOp op = classifier.classify(inner).orElse(null);
        EntityModel.Entity entity = classifier.entityOfArgument(argument);
        if (op == null || op.entity() != null || entity == null) {
            return null;
        }
        return new DbOp(call, call, op.kind(), entity.table(), entity, op.shape(), op.keyColumns(), op.conditional(),
                op.selfRelative(), op.locked(), op.upsert(), op.describe(), classifier.location(call), target.displayName(),
                op.valueParameters(), op.valueNames(), op.lockDetail(), op.endState(), op.byPrimaryKey());
    }

    /** The position of the wrapper's parameter that {@code value} names, or -1. */
    private static int parameterIndex(CallableDeclaration<?> declaration, Expression value) {
        if (declaration == null || !(value instanceof NameExpr name)) {
            return -1;
        }
        Node declared = LocalVariables.declarationOf(name.getNameAsString(), name);
        if (!(declared instanceof Parameter p)) {
            return -1;
        }
        return declaration.getParameters().indexOf(p);
    }
}
