package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which arguments of a call to a project helper reach the values its one UPDATE writes, once that
 * statement's own written arguments are known ({@link StatementArguments}): a helper parameter counts
 * when it is used in one of them, or flows into a local used there (its initializer, an assignment, a
 * setter or other call on it, except a setter of a key property). The others only reach the statement's
 * WHERE, or nothing it writes.
 */
final class HelperArguments {

    private HelperArguments() {}

    /**
     * The helper's written argument indexes in {@link DbOp#valueParameters()}'s convention
     * ({@code [parameterCount]} for none); empty when the inner statement's written values are not known.
     */
    static Optional<List<Integer>> writtenArguments(CallableDeclaration<?> helper, DbOp inner) {
        List<Integer> innerWritten = inner.valueParameters();
        if (inner.kind() != DbOp.Kind.UPDATE || innerWritten.isEmpty()) {
            return Optional.empty();
        }
        List<Expression> written = new ArrayList<>();
        for (int i : innerWritten) {
            if (i < inner.call().getArguments().size()) {
                written.add(inner.call().getArgument(i));
            }
        }
        Set<String> reaching = new HashSet<>();
        for (Expression e : written) {
            e.findAll(NameExpr.class).forEach(n -> reaching.add(n.getNameAsString()));
            if (e instanceof NameExpr n) {
                reaching.add(n.getNameAsString());
            }
        }
        // one step back through the locals the written values use: what they are given or handed
        Set<String> locals = new HashSet<>(reaching);
        for (VariableDeclarator v : helper.findAll(VariableDeclarator.class)) {
            if (locals.contains(v.getNameAsString())) {
                v.getInitializer().ifPresent(init -> init.findAll(NameExpr.class).forEach(n -> reaching.add(n.getNameAsString())));
            }
        }
        for (AssignExpr a : helper.findAll(AssignExpr.class)) {
            if (a.getTarget() instanceof NameExpr t && locals.contains(t.getNameAsString())) {
                a.getValue().findAll(NameExpr.class).forEach(n -> reaching.add(n.getNameAsString()));
                if (a.getValue() instanceof NameExpr n) {
                    reaching.add(n.getNameAsString());
                }
            }
        }
        for (MethodCallExpr m : helper.findAll(MethodCallExpr.class)) {
            if (m != inner.call() && m.getScope().orElse(null) instanceof NameExpr scope
                    && locals.contains(scope.getNameAsString()) && !WrittenValues.keySetter(m, inner)) {
                m.getArguments().forEach(arg -> {
                    arg.findAll(NameExpr.class).forEach(n -> reaching.add(n.getNameAsString()));
                    if (arg instanceof NameExpr n) {
                        reaching.add(n.getNameAsString());
                    }
                });
            }
        }
        List<Integer> out = new ArrayList<>();
        List<Parameter> parameters = helper.getParameters();
        for (int i = 0; i < parameters.size(); i++) {
            if (reaching.contains(parameters.get(i).getNameAsString())) {
                out.add(i);
            }
        }
        return Optional.of(out.isEmpty() ? List.of(parameters.size()) : List.copyOf(out));
    }
}
