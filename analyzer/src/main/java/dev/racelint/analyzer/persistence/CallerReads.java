package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rows a method is given by its callers: a caller reads a row and passes it (or a value computed from
 * it) as an argument, so what the method computes from that parameter carries the row's stored values
 * although the read is not in its body. One call deep, argument by position.
 */
public final class CallerReads {

    private CallerReads() {}

    /** A read in a caller whose stored values reach {@code parameter} through the call {@code edge}. */
    public record Arrival(Parameter parameter, DbOp read, CallEdge edge) {}

    public static List<Arrival> of(CallGraph graph, PersistenceModel persistence, MethodInfo method) {
        List<Arrival> out = new ArrayList<>();
        List<Parameter> parameters = method.declaration().getParameters();
        if (parameters.isEmpty() || parameters.stream().anyMatch(Parameter::isVarArgs)) {
            return out;
        }
        for (CallEdge edge : graph.callers(method)) {
            if (!(edge.site() instanceof MethodCallExpr call) || call.getArguments().size() != parameters.size()
                    || edge.caller() == method) {
                continue;
            }
            MethodFlow flow = persistence.flow(edge.caller()).orElse(null);
            if (flow == null) {
                continue;
            }
            for (int i = 0; i < parameters.size(); i++) {
                for (DbOp read : flow.valuesReaching(call.getArgument(i))) {
                    if (read.kind() == DbOp.Kind.READ && carriedToCall(flow, call.getArgument(i), read, call)) {
                        out.add(new Arrival(parameters.get(i), read, edge));
                    }
                }
            }
        }
        return out;
    }

    /**
     * For a local argument: one of its assignments that carries the read can run before the call, not
     * only in a branch the call is not in ({@code if (found == null) { create(row); } else { row = found; }}).
     */
    private static boolean carriedToCall(MethodFlow flow, com.github.javaparser.ast.expr.Expression argument, DbOp read,
            MethodCallExpr call) {
        if (!(argument instanceof com.github.javaparser.ast.expr.NameExpr name)) {
            return true;
        }
        Node declaration = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(name.getNameAsString(), name);
        if (!(declaration instanceof com.github.javaparser.ast.body.VariableDeclarator variable)) {
            return true; // a parameter or a loop / lambda variable: it holds the rows it ranges over
        }
        List<Node> carriers = new ArrayList<>();
        variable.getInitializer().filter(init -> flow.valuesReaching(init).contains(read)).ifPresent(carriers::add);
        Node method = variable;
        while (method != null && !(method instanceof com.github.javaparser.ast.body.CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        if (method != null) {
            for (com.github.javaparser.ast.expr.AssignExpr a : method.findAll(com.github.javaparser.ast.expr.AssignExpr.class)) {
                if (a.getTarget() instanceof com.github.javaparser.ast.expr.NameExpr t
                        && dev.racelint.analyzer.resolve.LocalVariables.declarationOf(t.getNameAsString(), t) == declaration
                        && flow.valuesReaching(a.getValue()).contains(read)) {
                    carriers.add(a);
                }
            }
        }
        return carriers.isEmpty() || carriers.stream().anyMatch(c -> !dev.racelint.analyzer.index.ExclusiveBranches.exclusive(c, call));
    }

    /** The arrivals keyed by the parameter's declaration, as {@link MethodFlow#withArriving} takes them. */
    public static Map<Node, Set<DbOp>> byParameter(List<Arrival> arrivals) {
        Map<Node, Set<DbOp>> out = new IdentityHashMap<>();
        for (Arrival a : arrivals) {
            out.computeIfAbsent(a.parameter(), k -> new LinkedHashSet<>()).add(a.read());
        }
        return out;
    }
}
