package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import java.util.ArrayList;
import java.util.List;

/** The expressions whose values an UPDATE writes into the row (not those that only select it). */
public final class WrittenValues {
    private WrittenValues() {}

    public static List<Expression> of(DbOp op) {
        List<Expression> out = new ArrayList<>();
        MethodCallExpr call = op.call();
        if (!op.valueNames().isEmpty()) {
            // Named parameters: .bind("likes", v), .param("likes", v), addValue("likes", v),
            // setParameter("likes", v), Map.of("likes", v, ...), map.put("likes", v).
            java.util.Set<String> names = new java.util.HashSet<>(op.valueNames());
            List<Node> scopes = new ArrayList<>(List.of(op.end()));
            Node method = call;
            while (method != null && !(method instanceof CallableDeclaration<?>)) {
                method = method.getParentNode().orElse(null);
            }
            if (method != null) {
                scopes.add(method);
            }
            for (Node scope : scopes) {
                for (MethodCallExpr bind : scope.findAll(MethodCallExpr.class)) {
                    List<Expression> args = bind.getArguments();
                    for (int i = 0; i + 1 < args.size(); i += (bind.getNameAsString().equals("of") ? 2 : args.size())) {
                        if (args.get(i) instanceof com.github.javaparser.ast.expr.StringLiteralExpr key
                                && names.contains(key.asString())) {
                            out.add(args.get(i + 1));
                        }
                    }
                }
                if (!out.isEmpty()) {
                    return out;
                }
            }
        }
        if (!op.valueParameters().isEmpty()) {
            for (int i : op.valueParameters()) {
                if (i < call.getArguments().size()) {
                    out.add(call.getArgument(i));
                }
            }
            return out;
        }
        if (call.getNameAsString().equals("update") && call.getScope().isPresent()
                && op.describe().startsWith("DSLContext")) {
            return JooqChains.setValues(op);
        }
        if (call.getNameAsString().startsWith("execute") && call.getArguments().isEmpty()
                && call.getScope().orElse(null) instanceof NameExpr statement) {
            // JDBC: values bound with statement.setXxx(index, value) in the same method.
            Node method = call;
            while (method != null && !(method instanceof CallableDeclaration<?>)) {
                method = method.getParentNode().orElse(null);
            }
            if (method != null) {
                for (MethodCallExpr bind : method.findAll(MethodCallExpr.class)) {
                    if (bind.getNameAsString().startsWith("set") && bind.getArguments().size() >= 2
                            && bind.getScope().orElse(null) instanceof NameExpr n
                            && n.getNameAsString().equals(statement.getNameAsString())) {
                        out.add(bind.getArgument(1));
                    }
                }
            }
            return out;
        }
        // JdbcTemplate with named parameters, mapper and SQL-object methods: every argument after the
        // SQL that is not just a key (an id selects the row; it is not a value written into it).
        int first = op.describe().startsWith("JdbcTemplate") || op.describe().startsWith("NamedParameter") ? 1 : 0;
        if (first == 1 && !op.table().isEmpty()) {
            // the SQL was read and none of its SET items takes an argument (SET sent_at = now() WHERE id = ?):
            // the arguments pick rows, they write nothing
            return out;
        }
        for (int i = first; i < call.getArguments().size(); i++) {
            if (!isKeyExpression(call.getArgument(i))) {
                out.add(call.getArgument(i));
            }
        }
        return out;
    }

    /** {@code id}, {@code orderId}, {@code order.getId()}, {@code order.getCustomerId()}. */
    static boolean isKeyExpression(Expression e) {
        String name = null;
        if (e instanceof NameExpr n) {
            name = n.getNameAsString();
        } else if (e instanceof MethodCallExpr m && m.getArguments().isEmpty() && m.getNameAsString().startsWith("get")) {
            name = m.getNameAsString().substring(3);
        } else if (e instanceof com.github.javaparser.ast.expr.FieldAccessExpr f) {
            name = f.getNameAsString();
        }
        return name != null && (name.equalsIgnoreCase("id") || name.endsWith("Id") || name.endsWith("ID"));
    }
}
