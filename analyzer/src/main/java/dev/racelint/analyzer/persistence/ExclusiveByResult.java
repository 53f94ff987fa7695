package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Two effects that a method's result keeps apart across a call: the callee makes its effect only in
 * the branch where the object it returns has an accessor equal to a constant
 * ({@code if (ret.getState() == CONFIRM_SUCCESS) { write(..); } return ret;}), and the caller makes
 * the other only when the returned object is null or that accessor is null or another constant
 * ({@code if (r == null || r.getState() == null || r.getState().equals(WAITING)) { send(..); }}). The
 * constants are compared by the values the source states ({@link DbOpClassifier#constantLiteral}),
 * never by their names. A return of null from a catch clause (the callee failed part-way) is not
 * taken as a result of the effect's branch.
 */
public final class ExclusiveByResult {

    private ExclusiveByResult() {}

    /** One alternative under which the caller's effect runs: the result is null, or {@code accessor()} is null or a value. */
    private record Alternative(String accessor, String value) {}

    /**
     * Do the effect at {@code calleeSite} (in the method {@code call} runs) and the caller's effect at
     * {@code callerSite} never both happen, by the value {@code call} returns?
     */
    public static boolean exclusive(DbOpClassifier classifier, CallableDeclaration<?> callee, Node calleeSite,
            MethodCallExpr call, Node callerSite) {
        Optional<List<Alternative>> allowed = callerAlternatives(classifier, call, callerSite);
        if (allowed.isEmpty()) {
            return false;
        }
        String accessor = null;
        for (Alternative a : allowed.get()) {
            if (a.accessor() != null) {
                if (accessor != null && !accessor.equals(a.accessor())) {
                    return false;
                }
                accessor = a.accessor();
            }
        }
        Node child = calleeSite;
        for (Node n = calleeSite.getParentNode().orElse(null); n != null && n != callee; n = n.getParentNode().orElse(null)) {
            if (n instanceof IfStmt test && child == test.getThenStmt()) {
                Optional<Comparison> c = comparison(classifier, test.getCondition());
                if (c.isPresent() && (accessor == null || c.get().accessor().equals(accessor))
                        && allowed.get().stream().noneMatch(a -> a.value() != null && a.value().equals(c.get().value()))
                        && returnedUnchanged(callee, c.get().subject(), test)) {
                    return true;
                }
            }
            child = n;
        }
        return false;
    }

    /** {@code subject.accessor() == constant}: the constant's literal. */
    private record Comparison(Node subject, String accessor, String value) {}

    private static Optional<Comparison> comparison(DbOpClassifier classifier, Expression condition) {
        Expression e = dev.racelint.analyzer.index.Expressions.withoutParentheses(condition);
        Expression left;
        Expression right;
        if (e instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.EQUALS) {
            left = b.getLeft();
            right = b.getRight();
        } else if (e instanceof MethodCallExpr m && m.getNameAsString().equals("equals") && m.getArguments().size() == 1
                && m.getScope().isPresent()) {
            left = m.getScope().get(); // Object.equals: the JDK's contract, not a project name
            right = m.getArgument(0);
        } else {
            return Optional.empty();
        }
        for (int turn = 0; turn < 2; turn++) {
            Expression read = turn == 0 ? left : right;
            Expression constant = turn == 0 ? right : left;
            Optional<Node> subject = accessorSubject(read);
            Optional<String> literal = classifier.constantLiteral(constant);
            if (subject.isPresent() && literal.isPresent()) {
                return Optional.of(new Comparison(subject.get(), ((MethodCallExpr) dev.racelint.analyzer.index.Expressions.withoutParentheses(read)).getNameAsString(),
                        literal.get()));
            }
        }
        return Optional.empty();
    }

    /** {@code x.m()} with no arguments on a local or parameter: the declaration of x. */
    private static Optional<Node> accessorSubject(Expression e) {
        e = dev.racelint.analyzer.index.Expressions.withoutParentheses(e);
        if (e instanceof MethodCallExpr m && m.getArguments().isEmpty() && m.getScope().isPresent()
                && dev.racelint.analyzer.index.Expressions.withoutParentheses(m.getScope().get()) instanceof NameExpr n) {
            Node d = LocalVariables.declarationOf(n.getNameAsString(), n);
            if (d instanceof VariableDeclarator || d instanceof Parameter) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    /**
     * Every return after the test (outside a catch clause) returns the tested local itself, the local
     * is never assigned, and after the test it is only read through no-argument calls or returned.
     */
    private static boolean returnedUnchanged(CallableDeclaration<?> callee, Node subject, IfStmt test) {
        String name = subject instanceof VariableDeclarator v ? v.getNameAsString() : ((Parameter) subject).getNameAsString();
        if (test.getBegin().isEmpty()) {
            return false;
        }
        boolean returned = false;
        for (ReturnStmt ret : callee.findAll(ReturnStmt.class)) {
            if (ret.getBegin().isEmpty() || !ret.getBegin().get().isAfter(test.getBegin().get())
                    || ret.findAncestor(CatchClause.class).filter(c -> c.isDescendantOf(callee)).isPresent()) {
                continue;
            }
            if (ret.getExpression().isEmpty() || !(ret.getExpression().get() instanceof NameExpr n)
                    || LocalVariables.declarationOf(n.getNameAsString(), n) != subject) {
                return false;
            }
            returned = true;
        }
        if (!returned) {
            return false;
        }
        for (NameExpr use : callee.findAll(NameExpr.class)) {
            if (!use.getNameAsString().equals(name) || LocalVariables.declarationOf(name, use) != subject) {
                continue;
            }
            Node parent = use.getParentNode().orElse(null);
            if (parent instanceof AssignExpr a && a.getTarget() == use) {
                return false;
            }
            boolean after = use.getBegin().map(p -> p.isAfter(test.getBegin().get())).orElse(true);
            if (after && !(parent instanceof ReturnStmt)
                    && !(parent instanceof MethodCallExpr m && m.getScope().orElse(null) == use && m.getArguments().isEmpty())) {
                return false;
            }
        }
        return true;
    }

    /**
     * The caller's effect sits in the then-branch of an if whose condition is a disjunction, each part
     * about the local {@code call} initialises: {@code r == null}, {@code r.m() == null},
     * {@code r.m() == K} or {@code r.m().equals(K)}.
     */
    private static Optional<List<Alternative>> callerAlternatives(DbOpClassifier classifier, MethodCallExpr call,
            Node callerSite) {
        if (!(call.getParentNode().orElse(null) instanceof VariableDeclarator result) || result.getInitializer().isEmpty()
                || result.getInitializer().get() != call) {
            return Optional.empty();
        }
        Node child = callerSite;
        for (Node n = callerSite.getParentNode().orElse(null); n != null && !(n instanceof CallableDeclaration<?>);
                n = n.getParentNode().orElse(null)) {
            if (n instanceof IfStmt test && child == test.getThenStmt()) {
                List<Alternative> out = new ArrayList<>();
                if (alternatives(classifier, test.getCondition(), result, out)) {
                    Node scope = result.findAncestor(CallableDeclaration.class).orElse(null);
                    if (scope != null && scope.findAll(AssignExpr.class).stream().noneMatch(a -> a.getTarget() instanceof NameExpr t
                            && LocalVariables.declarationOf(t.getNameAsString(), t) == result)) {
                        return Optional.of(out);
                    }
                }
            }
            child = n;
        }
        return Optional.empty();
    }

    private static boolean alternatives(DbOpClassifier classifier, Expression condition, VariableDeclarator result,
            List<Alternative> out) {
        Expression e = dev.racelint.analyzer.index.Expressions.withoutParentheses(condition);
        if (e instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.OR) {
            return alternatives(classifier, b.getLeft(), result, out) && alternatives(classifier, b.getRight(), result, out);
        }
        Expression left;
        Expression right;
        if (e instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.EQUALS) {
            left = b.getLeft();
            right = b.getRight();
        } else if (e instanceof MethodCallExpr m && m.getNameAsString().equals("equals") && m.getArguments().size() == 1
                && m.getScope().isPresent()) {
            left = m.getScope().get();
            right = m.getArgument(0);
        } else {
            return false;
        }
        for (int turn = 0; turn < 2; turn++) {
            Expression read = dev.racelint.analyzer.index.Expressions.withoutParentheses(turn == 0 ? left : right);
            Expression other = dev.racelint.analyzer.index.Expressions.withoutParentheses(turn == 0 ? right : left);
            if (read instanceof NameExpr n && LocalVariables.declarationOf(n.getNameAsString(), n) == result
                    && other.isNullLiteralExpr()) {
                out.add(new Alternative(null, null));
                return true;
            }
            if (accessorSubject(read).filter(d -> d == result).isPresent()) {
                String accessor = ((MethodCallExpr) read).getNameAsString();
                if (other.isNullLiteralExpr()) {
                    out.add(new Alternative(accessor, null));
                    return true;
                }
                Optional<String> literal = classifier.constantLiteral(other);
                if (literal.isPresent()) {
                    out.add(new Alternative(accessor, literal.get()));
                    return true;
                }
            }
        }
        return false;
    }

}
