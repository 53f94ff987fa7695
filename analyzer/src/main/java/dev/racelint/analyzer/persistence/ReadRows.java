package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.stmt.ForEachStmt;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Is a value the very row object (or the rows) a read returned, rather than an object built from
 * their fields? The read's result itself; a local it is assigned to (directly, or through another such
 * local); an element of such rows (a for-each variable over them, the parameter of a lambda passed to a
 * call on them, {@code rows.get(0)}); or the rows passed through a JDK call that hands back the same
 * elements ({@code Optional.orElseThrow()}, {@code stream().filter(..).collect(..)}). A {@code new}
 * object, a converter's result ({@code row.toDto()}) or a value read from a getter is not the row.
 *
 * <p>Writing such a value back writes the row as it was read (with whatever was changed on it); inserting
 * it inserts copies of rows that were found. Lost-update and check-then-act both ask it.
 */
public final class ReadRows {

    /**
     * JDK calls (Optional, List, Stream, Iterator, Collectors) whose result is the elements of their
     * receiver, unchanged: the rows they are called on, or one of them.
     */
    private static final Set<String> SAME_ELEMENTS = Set.of("get", "orElse", "orElseThrow", "orElseGet", "getFirst",
            "getLast", "stream", "parallelStream", "filter", "sorted", "distinct", "limit", "skip", "peek", "collect",
            "toList", "findFirst", "findAny", "iterator", "next", "subList", "unmodifiableList");

    private ReadRows() {}

    /**
     * Does {@code value} hold the row object(s) {@code read} returned? With {@code every}, each value the
     * local can hold must be one (an assignment of a {@code new} object elsewhere makes it not so);
     * without, it is enough that one of its values is one (it holds the rows on some path).
     */
    public static boolean rowsOf(MethodFlow flow, Expression value, DbOp read, boolean every) {
        return rowsOf(flow, value, read, every, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static boolean rowsOf(MethodFlow flow, Expression value, DbOp read, boolean every, Set<Node> seen) {
        while (value instanceof EnclosedExpr || value instanceof CastExpr) {
            value = value instanceof EnclosedExpr e ? e.getInner() : ((CastExpr) value).getExpression();
        }
        if (value == read.end() || value == read.call()) {
            return true;
        }
        if (value instanceof MethodCallExpr call) {
            return SAME_ELEMENTS.contains(call.getNameAsString()) && call.getScope().isPresent()
                    && !flow.ops().stream().anyMatch(op -> op.call() == call || op.end() == call)
                    && rowsOf(flow, call.getScope().get(), read, every, seen);
        }
        if (!(value instanceof NameExpr name)) {
            return false;
        }
        Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
        if (declaration == null || !seen.add(declaration)) {
            return false;
        }
        if (declaration instanceof Parameter parameter) {
            // a lambda's parameter is an element of the rows the call it is passed to works on
            return parameter.getParentNode().orElse(null) instanceof LambdaExpr lambda
                    && lambda.getParentNode().orElse(null) instanceof MethodCallExpr call && call.getScope().isPresent()
                    && rowsOf(flow, call.getScope().get(), read, every, seen);
        }
        if (!(declaration instanceof VariableDeclarator variable)) {
            return false;
        }
        if (variable.getParentNode().flatMap(Node::getParentNode).orElse(null) instanceof ForEachStmt loop
                && loop.getVariable() == variable.getParentNode().get()) {
            return rowsOf(flow, loop.getIterable(), read, every, seen);
        }
        List<Expression> values = new ArrayList<>();
        variable.getInitializer().ifPresent(values::add);
        Node method = variable;
        while (method != null && !(method instanceof CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        if (method != null) {
            for (AssignExpr a : method.findAll(AssignExpr.class)) {
                if (a.getTarget() instanceof NameExpr target && target.getNameAsString().equals(name.getNameAsString())
                        && LocalVariables.declarationOf(target.getNameAsString(), target) == declaration) {
                    if (a.getOperator() != AssignExpr.Operator.ASSIGN) {
                        return false;
                    }
                    values.add(a.getValue());
                }
            }
        }
        boolean any = false;
        for (Expression v : values) {
            boolean rows = rowsOf(flow, v, read, every, seen);
            if (!every && rows) {
                return true; // on some path the local holds the read's rows themselves
            }
            if (every && !rows) {
                return false;
            }
            any = true;
        }
        return every && any;
    }
}
