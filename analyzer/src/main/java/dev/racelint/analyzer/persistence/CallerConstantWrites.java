package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.LocalVariables;
import dev.racelint.analyzer.sql.EndStateWrites;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A conditional UPDATE whose SET writes a parameter of the method that runs it
 * ({@code record.setState(state); update(record, eq(State, ACCEPT))}) is an end-state write when
 * every call of that method passes a constant the statement's guard excludes (callers pass
 * {@code STATE_SUCCESS} or {@code STATE_FAIL}, or a local chosen between the two): the
 * {@link EndStateWrites} test, run once per value the callers can pass. One call level, values read
 * from the source (a constant with a stated value, a conditional between such constants, a local
 * initialised with one and never assigned again); any other argument keeps the statement an
 * ordinary conditional write.
 */
public final class CallerConstantWrites {

    /**
     * The statement as the framework builds it, with the SET items whose value is a parameter open.
     *
     * @param head            {@code UPDATE table SET }
     * @param items           every SET item, a parameter's as {@code col = ?}
     * @param parameterOfItem for the open items, the index of the parameter each writes
     * @param where           the WHERE clause, with its leading space
     */
    public record OpenWrites(String head, List<String> items, Map<String, Integer> parameterOfItem, String where) {}

    private CallerConstantWrites() {}

    /** Is the UPDATE {@code call} in {@code method} an end-state write with every value its callers pass? */
    public static boolean endStateForEveryCall(DbOpClassifier classifier, CallGraph graph, MethodInfo method,
            MethodCallExpr call) {
        Optional<OpenWrites> open = classifier.openWrites(call);
        List<CallEdge> callers = graph.callers(method);
        if (open.isEmpty() || callers.isEmpty() || method.declaration() == null) {
            return false;
        }
        for (Map.Entry<String, Integer> item : open.get().parameterOfItem().entrySet()) {
            if (reassigned(method, item.getValue())) {
                return false;
            }
        }
        for (CallEdge edge : callers) {
            if (!(edge.site() instanceof MethodCallExpr site)
                    || site.getArguments().size() != method.declaration().getParameters().size()) {
                return false;
            }
            List<String> statements = new ArrayList<>();
            statements.add(open.get().head());
            for (String item : open.get().items()) {
                Integer parameter = open.get().parameterOfItem().get(item);
                if (parameter == null) {
                    statements.replaceAll(s -> s + item + ", ");
                    continue;
                }
                Set<String> values = values(classifier, site.getArgument(parameter), 0);
                if (values.isEmpty()) {
                    values = Set.of("?"); // a value the source does not state: a guard on this column fails the test
                }
                String column = item.substring(0, item.indexOf(" = "));
                List<String> next = new ArrayList<>();
                for (String s : statements) {
                    for (String v : values) {
                        next.add(s + column + " = " + v + ", ");
                    }
                }
                statements = next;
            }
            for (String s : statements) {
                String sql = s.substring(0, s.length() - 2) + open.get().where();
                if (!EndStateWrites.endState(sql, false)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Is the parameter assigned in the method's body (then its value is not the caller's)? */
    private static boolean reassigned(MethodInfo method, int parameter) {
        if (method.body() == null || parameter < 0 || parameter >= method.declaration().getParameters().size()) {
            return true;
        }
        String name = method.declaration().getParameter(parameter).getNameAsString();
        return method.body().findAll(AssignExpr.class).stream()
                .anyMatch(a -> a.getTarget() instanceof NameExpr n && n.getNameAsString().equals(name));
    }

    /** The SQL literals {@code e} can have, or none when any of them is not a constant with a stated value. */
    private static Set<String> values(DbOpClassifier classifier, Expression e, int depth) {
        while (e instanceof EnclosedExpr || e instanceof CastExpr) {
            e = e instanceof EnclosedExpr en ? en.getInner() : ((CastExpr) e).getExpression();
        }
        Set<String> out = new LinkedHashSet<>();
        if (depth > 3) {
            return out;
        }
        if (e instanceof ConditionalExpr c) {
            Set<String> a = values(classifier, c.getThenExpr(), depth + 1);
            Set<String> b = values(classifier, c.getElseExpr(), depth + 1);
            if (!a.isEmpty() && !b.isEmpty()) {
                out.addAll(a);
                out.addAll(b);
            }
            return out;
        }
        if (e instanceof NameExpr n && LocalVariables.declarationOf(n.getNameAsString(), n) instanceof VariableDeclarator v) {
            if (v.getInitializer().isEmpty() || assignedAgain(v)) {
                return out;
            }
            return values(classifier, v.getInitializer().get(), depth + 1);
        }
        classifier.constantLiteral(e).ifPresent(out::add);
        return out;
    }

    /** Is the local assigned or stepped after its declaration? */
    private static boolean assignedAgain(VariableDeclarator v) {
        Node scope = v;
        while (scope != null && !(scope instanceof CallableDeclaration<?>)
                && !(scope instanceof com.github.javaparser.ast.expr.LambdaExpr)) {
            scope = scope.getParentNode().orElse(null);
        }
        if (scope == null) {
            return true;
        }
        String name = v.getNameAsString();
        return scope.findAll(AssignExpr.class).stream()
                .anyMatch(a -> a.getTarget() instanceof NameExpr n && n.getNameAsString().equals(name))
                || scope.findAll(UnaryExpr.class).stream()
                .anyMatch(u -> u.getExpression() instanceof NameExpr n && n.getNameAsString().equals(name)
                        && u.getOperator() != UnaryExpr.Operator.LOGICAL_COMPLEMENT
                        && u.getOperator() != UnaryExpr.Operator.MINUS && u.getOperator() != UnaryExpr.Operator.PLUS
                        && u.getOperator() != UnaryExpr.Operator.BITWISE_COMPLEMENT);
    }
}
