package dev.racelint.analyzer.callgraph;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.ThrowStmt;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a call's boolean literal arguments rule out in its callee: {@code ack.reject(true)} into
 * {@code reject(boolean requeue) { if (requeue) { recover(); return; } deadLetter(); }} never reaches the
 * dead-letter publish. Only a parameter the callee never assigns, tested as {@code p} or {@code !p}, counts.
 */
public final class ConstantArguments {

    private ConstantArguments() {}

    /** The callee's parameters that {@code call} binds to a boolean literal, by name. */
    public static Map<String, Boolean> bound(CallEdge call) {
        Map<String, Boolean> out = new HashMap<>();
        if (!(call.site() instanceof MethodCallExpr site)) {
            return out;
        }
        CallableDeclaration<?> callee = call.callee().declaration();
        List<Parameter> parameters = callee.getParameters();
        if (parameters.size() != site.getArguments().size() || callee.getParameters().stream().anyMatch(Parameter::isVarArgs)) {
            return out;
        }
        for (int i = 0; i < parameters.size(); i++) {
            if (unwrap(site.getArgument(i)) instanceof BooleanLiteralExpr literal && !assigned(callee, parameters.get(i))) {
                out.put(parameters.get(i).getNameAsString(), literal.getValue());
            }
        }
        return out;
    }

    /** {@code place}, a node of {@code call}'s callee, cannot run for the constants {@code call} passes. */
    public static boolean excludes(CallEdge call, Node place) {
        Map<String, Boolean> constants = bound(call);
        if (constants.isEmpty()) {
            return false;
        }
        Node child = place;
        for (Node n = place.getParentNode().orElse(null); n != null && !(n instanceof CallableDeclaration<?>);
                child = n, n = n.getParentNode().orElse(null)) {
            if (n instanceof IfStmt test) {
                Optional<Boolean> value = value(test.getCondition(), constants);
                Node arm = child;
                if (value.isPresent() && (arm == test.getThenStmt() && !value.get()
                        || test.getElseStmt().map(e -> e == arm).orElse(false) && value.get())) {
                    return true;
                }
            }
            if (n instanceof BlockStmt block && leftEarlier(block, child, constants)) {
                return true;
            }
        }
        return false;
    }

    /** An {@code if} before {@code child} in {@code block} whose taken arm (for these constants) returns or throws. */
    private static boolean leftEarlier(BlockStmt block, Node child, Map<String, Boolean> constants) {
        for (Statement s : block.getStatements()) {
            if (s == child) {
                return false;
            }
            if (s instanceof IfStmt test) {
                Optional<Boolean> value = value(test.getCondition(), constants);
                Optional<Statement> taken = value.flatMap(v -> v ? Optional.of(test.getThenStmt()) : test.getElseStmt());
                if (taken.filter(ConstantArguments::leaves).isPresent()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean leaves(Statement statement) {
        if (statement instanceof BlockStmt block) {
            return !block.getStatements().isEmpty() && leaves(block.getStatements().get(block.getStatements().size() - 1));
        }
        return statement instanceof ReturnStmt || statement instanceof ThrowStmt;
    }

    /** {@code p} or {@code !p} for a bound parameter {@code p}; anything else is not known. */
    private static Optional<Boolean> value(Expression condition, Map<String, Boolean> constants) {
        Expression e = unwrap(condition);
        if (e instanceof NameExpr name && constants.containsKey(name.getNameAsString())) {
            return Optional.of(constants.get(name.getNameAsString()));
        }
        if (e instanceof UnaryExpr not && not.getOperator() == UnaryExpr.Operator.LOGICAL_COMPLEMENT) {
            return value(not.getExpression(), constants).map(v -> !v);
        }
        return Optional.empty();
    }

    private static boolean assigned(CallableDeclaration<?> callee, Parameter parameter) {
        String name = parameter.getNameAsString();
        return callee.findAll(AssignExpr.class).stream()
                .anyMatch(a -> a.getTarget() instanceof NameExpr target && target.getNameAsString().equals(name));
    }

    private static Expression unwrap(Expression e) {
        while (e instanceof EnclosedExpr enclosed) {
            e = enclosed.getInner();
        }
        return e;
    }
}
