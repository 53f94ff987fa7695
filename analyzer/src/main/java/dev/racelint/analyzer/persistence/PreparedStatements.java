package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;

/** Finds the SQL a JDBC statement variable was prepared with: {@code ps = connection.prepareStatement(SQL)}. */
final class PreparedStatements {
    private PreparedStatements() {}

    static Expression sqlOf(NameExpr statement) {
        String name = statement.getNameAsString();
        Node method = statement;
        while (method != null && !(method instanceof CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        if (method == null) {
            return null;
        }
        Expression found = null;
        for (VariableDeclarator v : method.findAll(VariableDeclarator.class)) {
            if (v.getNameAsString().equals(name) && v.getInitializer().isPresent()) {
                found = prepared(v.getInitializer().get(), found);
            }
        }
        for (AssignExpr a : method.findAll(AssignExpr.class)) {
            if (a.getTarget() instanceof NameExpr n && n.getNameAsString().equals(name)) {
                found = prepared(a.getValue(), found);
            }
        }
        return found;
    }

    private static Expression prepared(Expression init, Expression previous) {
        if (init instanceof MethodCallExpr call && (call.getNameAsString().equals("prepareStatement")
                || call.getNameAsString().equals("prepareCall")) && !call.getArguments().isEmpty()) {
            return call.getArgument(0);
        }
        return previous;
    }
}
