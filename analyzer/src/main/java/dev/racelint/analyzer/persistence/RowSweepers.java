package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import dev.racelint.analyzer.handlers.Handler;
import dev.racelint.analyzer.handlers.HandlerModel;
import dev.racelint.analyzer.index.FileContext;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Rows a scheduled job sweeps: the job reads a table selecting rows by a constant state
 * ({@code eq(Order::getState, Order.STATE_ING)}, MyBatis-Plus wrapper literals) and then writes.
 * A row written in that state is picked up again by the job whatever happened after the write, so
 * the row itself is the outbox of the work that follows it. Values are compared by the constant's
 * literal (or the field it names when it has none), properties by the accessor they name.
 */
public final class RowSweepers {
    private static final Map<PersistenceModel, RowSweepers> BUILT = new WeakHashMap<>();

    /** "table|property|value" for every state a scheduled job selects. */
    private final Set<String> swept;

    private RowSweepers(Set<String> swept) {
        this.swept = swept;
    }

    public static synchronized RowSweepers of(PersistenceModel persistence, HandlerModel handlers) {
        return BUILT.computeIfAbsent(persistence, p -> build(p, handlers));
    }

    private static RowSweepers build(PersistenceModel persistence, HandlerModel handlers) {
        ProgramIndex index = persistence.index();
        Set<String> swept = new HashSet<>();
        for (MethodInfo method : index.methods()) {
            Optional<Handler> handler = handlers.handler(method);
            if (handler.isEmpty() || handler.get().kind() != Handler.Kind.SCHEDULED) {
                continue;
            }
            Set<String> selected = new HashSet<>();
            boolean writes = false;
            for (DbOp op : persistence.ops(method)) {
                if (op.isWrite()) {
                    writes = true;
                } else if (!op.table().isEmpty()) {
                    for (Expression argument : op.call().getArguments()) {
                        for (MethodCallExpr eq : conditionsOf(argument, method)) {
                            String value = constant(index, eq.getArgument(1));
                            String property = property(eq.getArgument(0));
                            if (value != null && property != null) {
                                selected.add(op.table() + "|" + property + "|" + value);
                            }
                        }
                    }
                }
            }
            // a job that only reads redoes nothing; its writes may sit one helper further down
            if (writes || !selected.isEmpty() && hasWriteBelow(persistence, method)) {
                swept.addAll(selected);
            }
        }
        return new RowSweepers(swept);
    }

    private static boolean hasWriteBelow(PersistenceModel persistence, MethodInfo job) {
        for (MethodCallExpr call : persistence.index().ownCalls(job)) {
            for (MethodInfo target : persistence.resolver().resolve(call).targets()) {
                if (persistence.ops(target).stream().anyMatch(DbOp::isWrite)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Does some scheduled job select rows of {@code op}'s table in a state that {@code op} writes? */
    public boolean sweepsStateWrittenBy(ProgramIndex index, DbOp op) {
        if (!op.isWrite() || op.table().isEmpty() || swept.isEmpty()) {
            return false;
        }
        CallableDeclaration<?> method = op.call().findAncestor(CallableDeclaration.class).orElse(null);
        if (method == null) {
            return false;
        }
        for (Expression argument : op.call().getArguments()) {
            if (!(argument instanceof NameExpr row)) {
                continue;
            }
            // entity setters on the row object handed to the write: row.setState(Order.STATE_ING)
            for (MethodCallExpr set : method.findAll(MethodCallExpr.class)) {
                if (set.getArguments().size() == 1 && set.getNameAsString().startsWith("set")
                        && set.getNameAsString().length() > 3
                        && set.getScope().orElse(null) instanceof NameExpr scope
                        && scope.getNameAsString().equals(row.getNameAsString())) {
                    String value = constant(index, set.getArgument(0));
                    String property = decapitalize(set.getNameAsString().substring(3));
                    if (value != null && swept.contains(op.table() + "|" + property + "|" + value)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The {@code eq(column, value)} calls of a wrapper chain given directly or through a local variable. */
    private static java.util.List<MethodCallExpr> conditionsOf(Expression argument, MethodInfo method) {
        Expression chain = argument;
        if (argument instanceof NameExpr name && method.body() != null) {
            chain = null;
            for (VariableDeclarator local : method.body().findAll(VariableDeclarator.class)) {
                if (local.getNameAsString().equals(name.getNameAsString()) && local.getInitializer().isPresent()) {
                    chain = local.getInitializer().get();
                }
            }
        }
        if (chain == null || chain instanceof ObjectCreationExpr && chain.findAll(MethodCallExpr.class).isEmpty()) {
            return java.util.List.of();
        }
        return chain.findAll(MethodCallExpr.class, c -> c.getNameAsString().equals("eq") && c.getArguments().size() == 2);
    }

    private static String property(Expression column) {
        if (column instanceof MethodReferenceExpr ref && ref.getIdentifier().startsWith("get")
                && ref.getIdentifier().length() > 3) {
            return decapitalize(ref.getIdentifier().substring(3));
        }
        return null;
    }

    private static String decapitalize(String s) {
        return s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
    }

    /** The constant's value: a literal, or a static field of a project type (its literal, else its name). */
    static String constant(ProgramIndex index, Expression value) {
        if (value instanceof LiteralExpr literal) {
            return literal.toString();
        }
        TypeInfo owner = null;
        String field = null;
        if (value instanceof FieldAccessExpr access && access.getScope() instanceof NameExpr type) {
            FileContext file = index.fileOf(value);
            if (file != null) {
                TypeRef ref = index.resolveTypeName(type.getNameAsString(), value, file);
                owner = ref.isProject() ? ref.project() : null;
            }
            field = access.getNameAsString();
        } else if (value instanceof NameExpr name) {
            owner = index.enclosingType(value);
            field = name.getNameAsString();
        }
        if (owner == null) {
            return null;
        }
        VariableDeclarator declarator = owner.fieldDeclarator(field);
        if (declarator == null || !(declarator.getParentNode().orElse(null)
                instanceof com.github.javaparser.ast.body.FieldDeclaration declaration)
                || !declaration.isStatic() && !owner.isInterface() || !declaration.isFinal() && !owner.isInterface()) {
            return null;
        }
        Node initializer = declarator.getInitializer().orElse(null);
        if (initializer instanceof com.github.javaparser.ast.expr.CastExpr cast) {
            initializer = cast.getExpression();
        }
        return initializer instanceof LiteralExpr literal ? literal.toString() : owner.qualifiedName() + "." + field;
    }
}
