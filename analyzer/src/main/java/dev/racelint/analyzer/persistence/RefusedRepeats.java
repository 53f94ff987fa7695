package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.stmt.IfStmt;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A state guard that refuses the sequential repeat of a request: on the way to an effect, a method
 * reads a row, tests one of its properties against a constant and leaves (throws or returns) when
 * the test refuses - and the same request, on the same way, sets that property of the same row to a
 * constant the test refuses and writes the row back by its key ({@code if (order.getStatus() > 0)
 * throw ..; .. order.setStatus(1); updateById(order)}). A retry of the request that succeeded reads
 * the state the first one wrote and stops before the effect.
 *
 * <p>Everything is data flow: the guarded value is a local the read's rows reach, the written record
 * is that same local (or the parameter it is passed into along the call path), the update is of the
 * read's table with that record as its only argument, the property is the one the getter and the
 * setter name, and the written constant is evaluated against the compared constant (numbers by
 * value, strings and enum constants by equality, booleans). The write must run whenever the effect
 * does: every condition deciding it in its method also decides the way to the effect there. Two
 * requests at the same moment both pass the guard: that race stays {@code check-then-act}'s.
 *
 * @param in      the method holding the guard
 * @param guard   the condition that refuses
 * @param getter  the getter of the tested property in the guard
 * @param setter  the setter writing the refused value
 * @param write   the update writing the row back
 */
public record RefusedRepeats(MethodInfo in, Expression guard, MethodCallExpr getter, MethodCallExpr setter,
        DbOp write) {

    /**
     * A refusing guard in a method on {@code path} (before the call the path takes there) or in
     * {@code effectMethod} before {@code effectCall}, whose refused value the request writes further
     * down that same path.
     */
    public static Optional<RefusedRepeats> onPath(PersistenceModel persistence, List<CallEdge> path,
            MethodInfo effectMethod, Node effectCall) {
        for (int i = 0; i <= path.size(); i++) {
            MethodInfo in = i == path.size() ? effectMethod : path.get(i).caller();
            Node site = i == path.size() ? effectCall : path.get(i).site();
            Optional<RefusedRepeats> found = in(persistence, in, site, path.subList(i, path.size()), effectCall);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<RefusedRepeats> in(PersistenceModel persistence, MethodInfo in, Node site,
            List<CallEdge> rest, Node effectCall) {
        MethodFlow flow = persistence.flow(in).orElse(null);
        if (flow == null) {
            return Optional.empty();
        }
        for (Guard guard : guards(site)) {
            Comparison test = Comparison.of(guard.condition(), persistence.index()).orElse(null);
            if (test == null || !(test.getter().getScope().orElse(null) instanceof NameExpr row)) {
                continue;
            }
            Node declaration = LocalVariables.declarationOf(row.getNameAsString(), row);
            for (DbOp read : flow.valuesReaching(row)) {
                if (read.kind() != DbOp.Kind.READ || declaration == null) {
                    continue;
                }
                Optional<RefusedRepeats> written = writtenDown(persistence, in, declaration, read, test, guard,
                        site, rest, effectCall);
                if (written.isPresent()) {
                    return written;
                }
            }
        }
        return Optional.empty();
    }

    /** Follows the row from {@code in} along {@code rest} (as the argument each call passes it in) to its write. */
    private static Optional<RefusedRepeats> writtenDown(PersistenceModel persistence, MethodInfo in, Node row,
            DbOp read, Comparison test, Guard guard, Node site, List<CallEdge> rest, Node effectCall) {
        MethodInfo at = in;
        Node atSite = site;
        Node record = row;
        for (int i = 0; ; i++) {
            Optional<RefusedRepeats> here = writeIn(persistence, in, at, record, read, test, guard, atSite);
            if (here.isPresent()) {
                return here;
            }
            if (i >= rest.size()) {
                return Optional.empty();
            }
            CallEdge edge = rest.get(i);
            record = parameterReceiving(edge, record);
            if (record == null) {
                return Optional.empty();
            }
            at = edge.callee();
            atSite = i + 1 < rest.size() ? rest.get(i + 1).site() : effectCall;
        }
    }

    /** The callee's parameter that the edge's call passes {@code record} (a local by its declaration) into. */
    private static Node parameterReceiving(CallEdge edge, Node record) {
        CallableDeclaration<?> callee = edge.callee().declaration();
        if (!(edge.site() instanceof MethodCallExpr call) || callee == null
                || callee.getParameters().size() != call.getArguments().size()) {
            return null;
        }
        for (int a = 0; a < call.getArguments().size(); a++) {
            if (call.getArgument(a) instanceof NameExpr n && LocalVariables.declarationOf(n.getNameAsString(), n) == record) {
                Parameter p = callee.getParameter(a);
                return p;
            }
        }
        return null;
    }

    /**
     * In {@code method}: a setter of the tested property on {@code record} with a constant the test refuses,
     * then an update of the read's table taking {@code record}, decided by no condition that does not also
     * decide {@code site} (the way to the effect).
     */
    private static Optional<RefusedRepeats> writeIn(PersistenceModel persistence, MethodInfo guarded, MethodInfo method,
            Node record, DbOp read, Comparison test, Guard guard, Node site) {
        MethodFlow flow = persistence.flow(method).orElse(null);
        if (flow == null) {
            return Optional.empty();
        }
        for (DbOp write : flow.ops()) {
            if ((write.kind() != DbOp.Kind.UPDATE && write.kind() != DbOp.Kind.SAVE) || !write.sameTable(read)
                    || write.call().getArguments().size() != 1
                    || !(write.call().getArgument(0) instanceof NameExpr arg)
                    || LocalVariables.declarationOf(arg.getNameAsString(), arg) != record
                    // in the guard's own method the write comes after the guard
                    || sameMethod(guard.condition(), write.call()) && !before(guard.condition(), write.call())) {
                continue;
            }
            if (!decidedWithin(write.call(), site)) {
                continue;
            }
            for (MethodCallExpr setter : method.body().findAll(MethodCallExpr.class)) {
                if (setter.getArguments().size() != 1 || !(setter.getScope().orElse(null) instanceof NameExpr scope)
                        || LocalVariables.declarationOf(scope.getNameAsString(), scope) != record
                        || !setter.getNameAsString().equalsIgnoreCase("set" + test.property())
                        || !before(setter, write.call())
                        // the refused value is written after the guard, and whenever the row is written back
                        || sameMethod(guard.condition(), setter) && !before(guard.condition(), setter)
                        || !decidedWithin(setter, write.call())) {
                    continue;
                }
                String value = RowSweepers.constant(persistence.index(), setter.getArgument(0));
                if (value != null && test.refuses(value) == guard.refuseWhen()) {
                    return Optional.of(new RefusedRepeats(guarded, guard.condition(), test.getter(), setter, write));
                }
            }
        }
        return Optional.empty();
    }

    /** Does every condition deciding {@code node} also decide {@code other} (so {@code node} runs whenever it does)? */
    private static boolean decidedWithin(Node node, Node other) {
        List<Expression> around = StateTransitions.conditionsDeciding(other);
        return StateTransitions.conditionsDeciding(node).stream().allMatch(c -> around.stream().anyMatch(a -> a == c));
    }

    /** A condition and the outcome of it that keeps {@code site} from running. */
    private record Guard(Expression condition, boolean refuseWhen) {}

    /**
     * The conditions that decide {@code site} in its method: an earlier {@code if} whose branch always
     * leaves (refuses when true), or the {@code if} around it (refuses when the branch it sits in is not taken).
     */
    private static List<Guard> guards(Node site) {
        List<Guard> out = new java.util.ArrayList<>();
        Node child = site;
        for (Node parent = site.getParentNode().orElse(null); parent != null && !(parent instanceof CallableDeclaration<?>);
                parent = parent.getParentNode().orElse(null)) {
            if (parent instanceof IfStmt s && child != s.getCondition()) {
                out.add(new Guard(s.getCondition(), child != s.getThenStmt()));
            } else if (parent instanceof com.github.javaparser.ast.stmt.BlockStmt block) {
                for (var s : block.getStatements()) {
                    if (s == child) {
                        break;
                    }
                    if (s instanceof IfStmt g && MethodFlow.alwaysExits(g.getThenStmt())) {
                        out.add(new Guard(g.getCondition(), true));
                    }
                }
            }
            child = parent;
        }
        return out;
    }

    /**
     * {@code row.getX() OP constant} (either side), {@code constant.equals(row.getX())}, {@code row.getX().equals(constant)},
     * or a boolean getter alone or negated; the constant's value as {@link RowSweepers#constant} gives it.
     */
    private record Comparison(MethodCallExpr getter, String property, BinaryExpr.Operator operator, String constant) {

        static Optional<Comparison> of(Expression condition, ProgramIndex index) {
            Expression e = unwrap(condition);
            boolean negated = false;
            if (e instanceof UnaryExpr u && u.getOperator() == UnaryExpr.Operator.LOGICAL_COMPLEMENT) {
                negated = true;
                e = unwrap(u.getExpression());
            }
            if (e instanceof MethodCallExpr call && call.getArguments().isEmpty() && property(call) != null) {
                return Optional.of(new Comparison(call, property(call), BinaryExpr.Operator.EQUALS, negated ? "false" : "true"));
            }
            if (e instanceof MethodCallExpr eq && eq.getNameAsString().equals("equals") && eq.getArguments().size() == 1
                    && eq.getScope().isPresent()) {
                return pair(unwrap(eq.getScope().get()), unwrap(eq.getArgument(0)),
                        negated ? BinaryExpr.Operator.NOT_EQUALS : BinaryExpr.Operator.EQUALS, index, false);
            }
            if (!negated && e instanceof BinaryExpr b && switch (b.getOperator()) {
                case EQUALS, NOT_EQUALS, LESS, GREATER, LESS_EQUALS, GREATER_EQUALS -> true;
                default -> false;
            }) {
                return pair(unwrap(b.getLeft()), unwrap(b.getRight()), b.getOperator(), index, true);
            }
            return Optional.empty();
        }

        private static Optional<Comparison> pair(Expression left, Expression right, BinaryExpr.Operator op,
                ProgramIndex index, boolean ordered) {
            if (left instanceof MethodCallExpr g && g.getArguments().isEmpty() && property(g) != null) {
                String c = RowSweepers.constant(index, right);
                return c == null ? Optional.empty() : Optional.of(new Comparison(g, property(g), op, c));
            }
            if (right instanceof MethodCallExpr g && g.getArguments().isEmpty() && property(g) != null) {
                String c = RowSweepers.constant(index, left);
                return c == null ? Optional.empty() : Optional.of(new Comparison(g, property(g), ordered ? mirror(op) : op, c));
            }
            return Optional.empty();
        }

        /** {@code 0 < x} is {@code x > 0}. */
        private static BinaryExpr.Operator mirror(BinaryExpr.Operator op) {
            return switch (op) {
                case LESS -> BinaryExpr.Operator.GREATER;
                case GREATER -> BinaryExpr.Operator.LESS;
                case LESS_EQUALS -> BinaryExpr.Operator.GREATER_EQUALS;
                case GREATER_EQUALS -> BinaryExpr.Operator.LESS_EQUALS;
                default -> op;
            };
        }

        private static String property(MethodCallExpr getter) {
            String name = getter.getNameAsString();
            String rest = name.startsWith("get") ? name.substring(3) : name.startsWith("is") ? name.substring(2) : "";
            return rest.isEmpty() || !Character.isUpperCase(rest.charAt(0)) ? null : rest.toLowerCase(Locale.ROOT);
        }

        /** Does the condition hold when the property holds {@code written}? Unknown values never refuse. */
        boolean refuses(String written) {
            BigDecimal a = number(written);
            BigDecimal b = number(constant);
            int order;
            if (a != null && b != null) {
                order = a.compareTo(b);
            } else if (operator == BinaryExpr.Operator.EQUALS || operator == BinaryExpr.Operator.NOT_EQUALS) {
                order = unquote(written).equals(unquote(constant)) ? 0 : 1;
            } else {
                return false;
            }
            return switch (operator) {
                case EQUALS -> order == 0;
                case NOT_EQUALS -> order != 0;
                case LESS -> order < 0;
                case GREATER -> order > 0;
                case LESS_EQUALS -> order <= 0;
                case GREATER_EQUALS -> order >= 0;
                default -> false;
            };
        }

        private static BigDecimal number(String s) {
            String t = s.replaceAll("[lLdDfF]$", "");
            try {
                return new BigDecimal(t);
            } catch (NumberFormatException e) {
                return null;
            }
        }

        private static String unquote(String s) {
            return s.length() >= 2 && (s.startsWith("\"") && s.endsWith("\"") || s.startsWith("'") && s.endsWith("'"))
                    ? s.substring(1, s.length() - 1) : s;
        }

        private static Expression unwrap(Expression e) {
            while (e instanceof EnclosedExpr en) {
                e = en.getInner();
            }
            return e;
        }
    }

    private static boolean sameMethod(Node a, Node b) {
        return a.findAncestor(CallableDeclaration.class).orElse(null) == b.findAncestor(CallableDeclaration.class).orElse(null);
    }

    private static boolean before(Node a, Node b) {
        return a.getBegin().isPresent() && b.getBegin().isPresent() && a.getBegin().get().isBefore(b.getBegin().get());
    }
}
