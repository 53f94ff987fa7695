package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.stmt.ForEachStmt;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Row locks taken once per element of an iteration whose order nobody chose: a write (or locking
 * read) keyed by the loop element, inside a loop over the caller's collection (a parameter of the
 * method, or a value taken from one) or over a hash-ordered map or set the method builds. Each
 * iteration locks another row and keeps it until the transaction ends, so the rows are locked in the
 * order of the input; two calls whose inputs share rows in a different order can deadlock. A
 * collection read from the database is not one of them (every transaction sees the rows in the
 * query's order), nor one sorted before the loop.
 */
public final class LoopRowLocks {

    /** A keyed lock inside a loop: the operation, the loop's iterable, and where its order comes from. */
    public record LoopLock(DbOp op, Expression iterable, Origin origin) {}

    public enum Origin {
        /** The order of a collection the caller passed in. */
        CALLER,
        /** The iteration order of a {@code HashMap} / {@code HashSet}: hash buckets, not keys. */
        HASH
    }

    private static final Set<String> HASH_TYPES = Set.of("java.util.HashMap", "java.util.HashSet",
            "java.util.concurrent.ConcurrentHashMap");
    /** The calls that iterate their receiver in its own order, running the lambda once per element. */
    private static final Set<String> FOR_EACH = Set.of("forEach");
    /** Calls that put a collection into a canonical order. */
    private static final Set<String> SORTS = Set.of("sorted", "sort");

    private LoopRowLocks() {}

    /**
     * @param fromDatabase parameters a caller fills with rows it read ({@link CallerReads}): their order
     *                     is the query's, the same for every transaction, not the caller's choice
     */
    public static List<LoopLock> of(MethodInfo method, List<DbOp> ops, ProgramIndex index, Set<Node> fromDatabase) {
        List<LoopLock> out = new ArrayList<>();
        if (!(method.declaration() instanceof MethodDeclaration decl) || method.body() == null) {
            return out;
        }
        for (DbOp op : ops) {
            if (!locksExistingRows(op)) {
                continue;
            }
            for (Node at = op.call().getParentNode().orElse(null); at != null && at != method.body();
                    at = at.getParentNode().orElse(null)) {
                LoopLock found = loop(at, op, decl, index, fromDatabase);
                if (found != null) {
                    out.add(found);
                    break;
                }
            }
        }
        return out;
    }

    /** UPDATE / DELETE, or a locking read, selecting rows by a key. */
    private static boolean locksExistingRows(DbOp op) {
        boolean locks = op.kind() == DbOp.Kind.UPDATE || op.kind() == DbOp.Kind.DELETE
                || (op.kind() == DbOp.Kind.READ && op.locked());
        return locks && (op.byPrimaryKey() || !op.keyColumns().isEmpty()) && !op.unorderedMultiRowLock();
    }

    private static LoopLock loop(Node at, DbOp op, MethodDeclaration method, ProgramIndex index,
            Set<Node> fromDatabase) {
        String element;
        Expression iterable;
        if (at instanceof ForEachStmt each && each.getBody().isAncestorOf(op.call())) {
            element = each.getVariableDeclarator().getNameAsString();
            iterable = each.getIterable();
        } else if (at instanceof LambdaExpr lambda && lambda.getParentNode().orElse(null) instanceof MethodCallExpr call
                && FOR_EACH.contains(call.getNameAsString()) && call.getScope().isPresent()
                && call.getArguments().size() == 1 && call.getArgument(0) == lambda && !lambda.getParameters().isEmpty()) {
            // Map.forEach((k, v) -> ..): either parameter is the element
            element = null;
            iterable = call.getScope().get();
            for (Parameter p : lambda.getParameters()) {
                if (usesName(op.call(), p.getNameAsString())) {
                    element = p.getNameAsString();
                }
            }
            if (element == null) {
                return null;
            }
        } else {
            return null;
        }
        if (!usesName(op.call(), element) || sortedOnTheWay(iterable)) {
            return null;
        }
        Origin origin = origin(iterable, method, index, fromDatabase);
        return origin == null ? null : new LoopLock(op, iterable, origin);
    }

    /** Does an argument (or the receiver chain) of the call use the variable? */
    private static boolean usesName(MethodCallExpr call, String name) {
        for (Expression arg : call.getArguments()) {
            if (arg.findFirst(NameExpr.class, n -> n.getNameAsString().equals(name)).isPresent()) {
                return true;
            }
        }
        return false;
    }

    /** {@code xs.stream().sorted()..} or any sort in the iterable's own chain. */
    private static boolean sortedOnTheWay(Expression iterable) {
        return iterable.findFirst(MethodCallExpr.class, c -> SORTS.contains(c.getNameAsString())).isPresent();
    }

    private static Origin origin(Expression iterable, MethodDeclaration method, ProgramIndex index,
            Set<Node> fromDatabase) {
        NameExpr root = root(iterable);
        if (root == null) {
            return null;
        }
        String name = root.getNameAsString();
        for (Parameter p : method.getParameters()) {
            if (p.getNameAsString().equals(name)) {
                return sortedInBody(method, name) || fromDatabase.contains(p) ? null : Origin.CALLER;
            }
        }
        Optional<VariableDeclarator> local = method.getBody().flatMap(b -> b.findFirst(VariableDeclarator.class,
                v -> v.getNameAsString().equals(name)));
        if (local.isEmpty() || local.get().getInitializer().isEmpty() || sortedInBody(method, name)) {
            return null;
        }
        Expression init = local.get().getInitializer().get();
        if (init instanceof ObjectCreationExpr created
                && index.resolveType(created.getType(), created).candidates().stream().anyMatch(HASH_TYPES::contains)) {
            return Origin.HASH;
        }
        return null;
    }

    /** The variable a chain of calls and field reads starts from: {@code order.getItems().stream()} -> order. */
    private static NameExpr root(Expression e) {
        while (true) {
            if (e instanceof NameExpr n) {
                return n;
            } else if (e instanceof MethodCallExpr c && c.getScope().isPresent()) {
                e = c.getScope().get();
            } else if (e.isFieldAccessExpr()) {
                e = e.asFieldAccessExpr().getScope();
            } else if (e.isEnclosedExpr()) {
                e = e.asEnclosedExpr().getInner();
            } else {
                return null;
            }
        }
    }

    /** {@code Collections.sort(xs)} / {@code xs.sort(..)} anywhere in the body: the loop sees a canonical order. */
    private static boolean sortedInBody(MethodDeclaration method, String name) {
        return method.findFirst(MethodCallExpr.class, c -> SORTS.contains(c.getNameAsString())
                && (c.getScope().map(s -> s instanceof NameExpr n && n.getNameAsString().equals(name)).orElse(false)
                        || c.getArguments().stream().anyMatch(a -> a instanceof NameExpr n
                                && n.getNameAsString().equals(name)))).isPresent();
    }
}
