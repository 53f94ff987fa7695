package dev.racelint.rules;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.List;

/**
 * Whether a value is one the caller sent, unchanged: followed back from where it is used, through
 * reads of a field or a getter ({@code form.getName()}, {@code form.name()}), locals initialised
 * from such a read, and parameters bound at the calls on the path, it ends in a parameter of the
 * handler. A value computed from the request ({@code numbers.next(form)}, {@code UUID.randomUUID()},
 * a row read back) is not: a retry gets it afresh, or it is the server's own.
 */
final class CallerSuppliedValues {

    /** Steps followed back at most (locals and getters within one method, parameters across calls). */
    private static final int MAX_STEPS = 16;

    private CallerSuppliedValues() {}

    /**
     * Is {@code value}, an expression in the method the path ends in, a handler parameter or a part of
     * one? {@code path} runs from the handler to that method.
     */
    static boolean fromCaller(Expression value, MethodInfo handler, List<CallEdge> path) {
        int depth = path.size();
        Expression e = value;
        for (int step = 0; step < MAX_STEPS; step++) {
            e = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(e);
            if (e instanceof MethodCallExpr getter && getter.getArguments().isEmpty() && getter.getScope().isPresent()) {
                e = getter.getScope().get(); // a read of the object's own state: a getter or record accessor
                continue;
            }
            if (e instanceof FieldAccessExpr field && !(field.getScope().isThisExpr())) {
                e = field.getScope();
                continue;
            }
            if (!(e instanceof NameExpr name)) {
                return false;
            }
            Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
            if (declaration instanceof VariableDeclarator local && local.getInitializer().isPresent()) {
                e = local.getInitializer().get();
                continue;
            }
            if (!(declaration instanceof Parameter parameter)
                    || !(parameter.getParentNode().orElse(null) instanceof com.github.javaparser.ast.body.CallableDeclaration<?> owner)) {
                return false;
            }
            int index = owner.getParameters().indexOf(parameter);
            if (depth == 0) {
                return owner == handler.declaration();
            }
            CallEdge edge = path.get(depth - 1);
            if (owner != edge.callee().declaration() || !(edge.site() instanceof MethodCallExpr call)
                    || index < 0 || index >= call.getArguments().size()) {
                return false;
            }
            e = call.getArgument(index);
            depth--;
        }
        return false;
    }

}
