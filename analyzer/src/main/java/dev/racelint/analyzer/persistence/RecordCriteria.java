package dev.racelint.analyzer.persistence;

import com.github.javaparser.Position;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The columns a generic mapper's query-by-record call selects its rows by: tk.mybatis'
 * {@code selectCount(record)}, {@code selectOne(record)} and {@code select(record)} build their WHERE
 * at run time from the record's non-null properties, so only the Java code filling the record says
 * which rows are meant ({@code u = new User(); u.setLoginName(name); mapper.selectCount(u)} counts
 * by {@code login_name}). Read only for a record this method creates with {@code new} (its last
 * assignment before the call): a record that arrives from elsewhere has properties the method
 * cannot see, so its columns are unknown.
 */
final class RecordCriteria {

    private RecordCriteria() {}

    /** The properties set on the call's record argument between its creation and the call, as columns; empty when not seen. */
    static Set<String> equalityColumns(MethodCallExpr call) {
        Set<String> out = new LinkedHashSet<>();
        if (call.getArguments().size() != 1 || !(call.getArgument(0) instanceof NameExpr record)) {
            return out;
        }
        Node method = call;
        while (method != null && !(method instanceof CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        Optional<Position> callAt = call.getBegin();
        if (method == null || callAt.isEmpty()) {
            return out;
        }
        String name = record.getNameAsString();
        Position created = lastCreation(method, name, callAt.get());
        if (created == null) {
            return out;
        }
        for (MethodCallExpr c : method.findAll(MethodCallExpr.class)) {
            String setter = c.getNameAsString();
            Position at = c.getBegin().orElse(null);
            if (at == null || !at.isAfter(created) || !at.isBefore(callAt.get()) || c.getArguments().size() != 1
                    || setter.length() <= 3 || !setter.startsWith("set") || !Character.isUpperCase(setter.charAt(3))
                    || !(c.getScope().orElse(null) instanceof NameExpr scope) || !scope.getNameAsString().equals(name)) {
                continue;
            }
            out.add(EntityModel.snake(Character.toLowerCase(setter.charAt(3)) + setter.substring(4)));
        }
        return out;
    }

    /**
     * Where {@code name} was last given its value before {@code before}, when that value is a new
     * object ({@code User u = new User()} or {@code u = new User()}); null when its last value is
     * anything else (a parameter, a fetched row) or no assignment is seen.
     */
    private static Position lastCreation(Node method, String name, Position before) {
        Position last = null;
        boolean created = false;
        for (Node n : method.findAll(Node.class, n -> n instanceof VariableDeclarator || n instanceof AssignExpr)) {
            Expression value;
            if (n instanceof VariableDeclarator v && v.getNameAsString().equals(name)) {
                value = v.getInitializer().orElse(null);
            } else if (n instanceof AssignExpr a && a.getTarget() instanceof NameExpr target
                    && target.getNameAsString().equals(name)) {
                value = a.getValue();
            } else {
                continue;
            }
            Position at = n.getBegin().orElse(null);
            if (at == null || !at.isBefore(before) || (last != null && at.isBefore(last))) {
                continue;
            }
            last = at;
            created = value instanceof ObjectCreationExpr;
        }
        return created ? last : null;
    }
}
