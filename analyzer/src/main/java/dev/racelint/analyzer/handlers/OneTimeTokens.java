package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.ThrowStmt;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A one-time token consumed atomically before an effect: a Redis script that deletes the key only
 * when it still holds the caller's token ({@code if redis.call('get', KEYS[1]) == ARGV[1] then return
 * redis.call('del', KEYS[1]) ...}), run through Spring Data Redis's {@code execute(RedisScript, ..)},
 * whose result an assertion or an exiting {@code if} tests before the code that follows runs. A
 * second request with the same token finds it gone and stops there.
 */
public final class OneTimeTokens {

    private static final Set<String> SCRIPT_TYPES = Set.of("DefaultRedisScript", "RedisScript");
    /** Spring's and Hutool's {@code Assert}: each throws when the condition is false. */
    private static final Set<String> ASSERTIONS = Set.of("isTrue", "state");

    private OneTimeTokens() {}

    /** Whether a checked compare-and-delete of a token in {@code in} runs before {@code node} on every way to it. */
    public static boolean consumedBefore(MethodInfo in, Node node) {
        Node body = in.body();
        if (body == null || node.getBegin().isEmpty()) {
            return false;
        }
        for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
            if (!call.getNameAsString().equals("execute") || call.getArguments().isEmpty()
                    || !compareAndDelete(call.getArgument(0))) {
                continue;
            }
            Optional<Statement> check = checkOf(call);
            if (check.isPresent() && dominates(check.get(), node)) {
                return true;
            }
        }
        return false;
    }

    private static boolean compareAndDelete(Expression script) {
        if (!(script instanceof ObjectCreationExpr created) || !SCRIPT_TYPES.contains(created.getType().getNameAsString())
                || created.getArguments().isEmpty()) {
            return false;
        }
        String text = literal(created.getArgument(0));
        if (text == null) {
            return false;
        }
        String lower = text.toLowerCase(Locale.ROOT).replace('"', '\'').replace(" ", "");
        return lower.contains("if") && lower.contains("redis.call('get'") && lower.contains("redis.call('del'");
    }

    /** The text of a string constant: a literal, literals joined with +, or a local or final field holding one. */
    private static String literal(Expression e) {
        if (e instanceof StringLiteralExpr s) {
            return s.asString();
        }
        if (e instanceof com.github.javaparser.ast.expr.BinaryExpr b
                && b.getOperator() == com.github.javaparser.ast.expr.BinaryExpr.Operator.PLUS) {
            String left = literal(b.getLeft());
            String right = literal(b.getRight());
            return left == null || right == null ? null : left + right;
        }
        if (!(e instanceof NameExpr name)) {
            return null;
        }
        Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
        if (declaration instanceof VariableDeclarator v) {
            return v.getInitializer().filter(i -> !(i instanceof NameExpr)).map(OneTimeTokens::literal).orElse(null);
        }
        if (declaration != null) {
            return null;
        }
        for (Node n = name.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof com.github.javaparser.ast.body.TypeDeclaration<?> type) {
                var field = type.getFieldByName(name.getNameAsString());
                if (field.isPresent()) {
                    return field.get().isFinal() ? field.get().getVariables().stream()
                            .filter(v -> v.getNameAsString().equals(name.getNameAsString())).findFirst()
                            .flatMap(VariableDeclarator::getInitializer).filter(i -> !(i instanceof NameExpr))
                            .map(OneTimeTokens::literal).orElse(null) : null;
                }
            }
        }
        return null;
    }

    /** The statement that tests the script's result and throws or returns when the token was not there. */
    private static Optional<Statement> checkOf(MethodCallExpr call) {
        Node parent = call.getParentNode().orElse(null);
        String result = null;
        if (parent instanceof VariableDeclarator v) {
            result = v.getNameAsString();
        } else if (parent instanceof AssignExpr a && a.getTarget() instanceof NameExpr n) {
            result = n.getNameAsString();
        }
        Statement own = call.findAncestor(Statement.class).orElse(null);
        if (own == null) {
            return Optional.empty();
        }
        if (result == null) {
            // the call inside the test itself: Assert.isTrue(execute(..) == 1L) or if (execute(..) != 1L) throw
            return tests(own, call) ? Optional.of(own) : Optional.empty();
        }
        if (!(own.getParentNode().orElse(null) instanceof BlockStmt block)) {
            return Optional.empty();
        }
        int at = block.getStatements().indexOf(own);
        for (int i = at + 1; i < block.getStatements().size(); i++) {
            Statement next = block.getStatement(i);
            String name = result;
            boolean uses = next.findAll(NameExpr.class).stream().anyMatch(n -> n.getNameAsString().equals(name));
            if (uses) {
                return tests(next, null) ? Optional.of(next) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static boolean tests(Statement s, Node inside) {
        if (s instanceof ExpressionStmt e && e.getExpression() instanceof MethodCallExpr assertion
                && ASSERTIONS.contains(assertion.getNameAsString()) && !assertion.getArguments().isEmpty()
                && assertion.getScope().map(x -> x.toString().endsWith("Assert")).orElse(false)) {
            return inside == null || assertion.getArgument(0).isAncestorOf(inside);
        }
        if (s instanceof IfStmt test && (inside == null || test.getCondition().isAncestorOf(inside))) {
            Statement then = test.getThenStmt();
            Statement last = then instanceof BlockStmt b && !b.getStatements().isEmpty() ? b.getStatements().getLast().get()
                    : then;
            return last instanceof ThrowStmt || last instanceof ReturnStmt;
        }
        return false;
    }

    /** {@code check} is a statement of a block that encloses {@code node}, and comes before it. */
    private static boolean dominates(Statement check, Node node) {
        Node block = check.getParentNode().orElse(null);
        return block != null && block.isAncestorOf(node) && check.getEnd().isPresent()
                && check.getEnd().get().isBefore(node.getBegin().get());
    }
}
