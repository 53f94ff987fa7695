package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.List;

/**
 * The expressions whose values an UPDATE writes into the row (not those that only select it): the
 * statement's own parameters where it is known (bound by name, by position, or through the declaring
 * method's parameters), else every argument except a property mapped to a key column.
 */
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
            if (!isKeyExpression(call.getArgument(i), op)) {
                out.add(call.getArgument(i));
            }
        }
        return out;
    }

    /**
     * Does {@code e} only pick the row, by the facts of the statement whose SQL is not known: a property
     * ({@code order.getId()}, {@code order.id}) mapped to a column the statement selects rows by, or to
     * the id of the entity it writes, or a local holding one. A parameter or any other value counts as
     * written: what a caller's own value is for, only the statement could say.
     */
    static boolean isKeyExpression(Expression e, DbOp op) {
        if (e instanceof NameExpr n) {
            Node declaration = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(n.getNameAsString(), n);
            return declaration instanceof com.github.javaparser.ast.body.VariableDeclarator v
                    && v.getInitializer().filter(init -> !(init instanceof NameExpr)).map(init -> isKeyExpression(init, op))
                            .orElse(false);
        }
        String property = null;
        if (e instanceof MethodCallExpr m && m.getArguments().isEmpty() && m.getScope().isPresent()
                && m.getNameAsString().startsWith("get") && m.getNameAsString().length() > 3) {
            property = m.getNameAsString().substring(3);
        } else if (e instanceof com.github.javaparser.ast.expr.FieldAccessExpr f) {
            property = f.getNameAsString();
        }
        return property != null && keyProperty(property, op);
    }

    /** {@code row.setId(v)}: a setter of a property mapped to a column {@code op} selects rows by. */
    static boolean keySetter(MethodCallExpr call, DbOp op) {
        return call.getArguments().size() == 1 && call.getNameAsString().startsWith("set")
                && call.getNameAsString().length() > 3 && keyProperty(call.getNameAsString().substring(3), op);
    }

    private static boolean keyProperty(String property, DbOp op) {
        Set<String> keys = new HashSet<>();
        op.keyColumns().forEach(c -> keys.add(column(c)));
        if (op.entity() != null) {
            op.entity().idColumns().forEach(c -> keys.add(column(c)));
        }
        return keys.contains(column(property));
    }

    /** A column or property name as the ORM maps them onto each other ({@code customerId}, {@code customer_id}). */
    private static String column(String name) {
        return name.replace("_", "").toLowerCase(Locale.ROOT);
    }
}
