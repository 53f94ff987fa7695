package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.ContinueStmt;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchStmt;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Light intra-method data flow over database operations: which operations' results reach an
 * expression (through locals, getters on loaded entities, arithmetic, lambda parameters), and
 * which conditions control whether a statement runs (enclosing branches, early exits before it,
 * Optional callbacks).
 */
public final class MethodFlow {
    private final List<DbOp> ops;
    private final Map<Node, DbOp> opByValue = new IdentityHashMap<>();
    /** Operations reaching each local variable, keyed by its declaration (so shadowed names stay apart). */
    private final Map<Node, Set<DbOp>> locals = new IdentityHashMap<>();
    private final Node body;
    private final int passes;
    /** Like {@link #locals}, but a value does not flow through the selector arguments of a query; built on first use. */
    private Map<Node, Set<DbOp>> valueLocals;

    /**
     * Values that arrive in a local from outside the body (a parameter given a row its caller read),
     * keyed by the local's declaration; empty for a method's own flow.
     */
    private final Map<Node, Set<DbOp>> seeds;

    /** Whether a value is an object the code constructed (see {@link NewObjects}); without one, a {@code new} only. */
    private final java.util.function.Predicate<Expression> constructed;

    /** @param passes how often the locals are gone over ({@code flow-passes}) */
    MethodFlow(Node body, List<DbOp> ops, int passes) {
        this(body, ops, passes, Map.of(), e -> e instanceof com.github.javaparser.ast.expr.ObjectCreationExpr);
    }

    MethodFlow(Node body, List<DbOp> ops, int passes, java.util.function.Predicate<Expression> constructed) {
        this(body, ops, passes, Map.of(), constructed);
    }

    private MethodFlow(Node body, List<DbOp> ops, int passes, Map<Node, Set<DbOp>> seeds,
            java.util.function.Predicate<Expression> constructed) {
        this.ops = ops;
        this.body = body;
        this.passes = passes;
        this.seeds = seeds;
        this.constructed = constructed;
        for (DbOp op : ops) {
            opByValue.put(op.end(), op);
            opByValue.put(op.call(), op);
        }
        seeds.forEach((declaration, from) -> addLocal(locals, declaration, from));
        propagate(locals, this::reaching);
    }

    /**
     * This flow with operations of other methods flowing into some locals of this body (keyed by the
     * local's or parameter's declaration): a row a caller read and passed in reaches what is computed
     * from the parameter here. The operations are not this method's, so {@link #ops()} stays the same.
     */
    public MethodFlow withArriving(Map<Node, Set<DbOp>> arriving) {
        Map<Node, Set<DbOp>> all = new IdentityHashMap<>();
        seeds.forEach((k, v) -> all.computeIfAbsent(k, x -> new LinkedHashSet<>()).addAll(v));
        arriving.forEach((k, v) -> all.computeIfAbsent(k, x -> new LinkedHashSet<>()).addAll(v));
        return new MethodFlow(body, ops, passes, all, constructed);
    }

    /** Is {@code value} an object the code constructed: a {@code new}, or a factory that only returns new objects? */
    public boolean constructed(Expression value) {
        return constructed.test(value);
    }

    /**
     * Fills {@code into} with what flows into each local, by {@code flow}. One pass settles a chain of
     * locals assigned in source order (a = read(); b = a + 1; c = b * 2); each further pass one more
     * link of a chain assigned in the reverse order (in a loop).
     */
    private void propagate(Map<Node, Set<DbOp>> into, java.util.function.Function<Node, Set<DbOp>> flow) {
        for (int pass = 0; pass < passes; pass++) {
            for (VariableDeclarator v : body.findAll(VariableDeclarator.class)) {
                v.getInitializer().ifPresent(init -> addLocal(into, v, flow.apply(init)));
            }
            for (AssignExpr a : body.findAll(AssignExpr.class)) {
                if (a.getTarget() instanceof NameExpr n) {
                    addLocal(into, LocalVariables.declarationOf(n.getNameAsString(), n), flow.apply(a.getValue()));
                }
            }
            // the loop variable of a for-each over rows read carries those rows
            for (ForEachStmt loop : body.findAll(ForEachStmt.class)) {
                loop.getVariable().getVariables().forEach(v -> addLocal(into, v, flow.apply(loop.getIterable())));
            }
            for (LambdaExpr lambda : body.findAll(LambdaExpr.class)) {
                if (lambda.getParentNode().orElse(null) instanceof MethodCallExpr call && call.getScope().isPresent()) {
                    Set<DbOp> from = flow.apply(call.getScope().get());
                    lambda.getParameters().forEach(p -> addLocal(into, p, from));
                }
            }
        }
    }

    private static void addLocal(Map<Node, Set<DbOp>> into, Node declaration, Set<DbOp> from) {
        if (declaration != null && !from.isEmpty()) {
            into.computeIfAbsent(declaration, k -> new LinkedHashSet<>()).addAll(from);
        }
    }

    public List<DbOp> ops() {
        return ops;
    }

    /** The operations whose results flow into {@code expr}. */
    public Set<DbOp> reaching(Node expr) {
        Set<DbOp> out = new LinkedHashSet<>();
        DbOp direct = opByValue.get(expr);
        if (direct != null) {
            out.add(direct);
        }
        for (MethodCallExpr call : expr.findAll(MethodCallExpr.class)) {
            DbOp op = opByValue.get(call);
            if (op != null) {
                out.add(op);
            }
        }
        for (NameExpr name : expr.findAll(NameExpr.class)) {
            Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
            if (declaration != null) {
                out.addAll(locals.getOrDefault(declaration, Set.of()));
            }
        }
        return out;
    }

    /**
     * The operations whose stored values flow into {@code expr}. Unlike {@link #reaching}, the
     * arguments of a database call only select what it returns: {@code repo.countByJobId(job.getId())}
     * carries the count, not the values of the row {@code job} was read from.
     */
    public synchronized Set<DbOp> valuesReaching(Node expr) {
        if (valueLocals == null) {
            valueLocals = new IdentityHashMap<>();
            seeds.forEach((declaration, from) -> addLocal(valueLocals, declaration, from));
            propagate(valueLocals, this::valuesReaching0);
        }
        return valuesReaching0(expr);
    }

    private Set<DbOp> valuesReaching0(Node expr) {
        Set<DbOp> out = new LinkedHashSet<>();
        DbOp direct = opByValue.get(expr);
        if (direct != null) {
            out.add(direct);
        }
        for (MethodCallExpr call : expr.findAll(MethodCallExpr.class)) {
            DbOp op = opByValue.get(call);
            if (op != null && !insideOperation(call, expr)) {
                out.add(op);
            }
        }
        for (NameExpr name : expr.findAll(NameExpr.class)) {
            Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
            if (declaration != null && !insideOperation(name, expr)) {
                out.addAll(valueLocals.getOrDefault(declaration, Set.of()));
            }
        }
        return out;
    }

    /** Is {@code node} part of a database call below {@code root} (its arguments or chain), not the call itself? */
    private boolean insideOperation(Node node, Node root) {
        if (node == root) {
            return false;
        }
        Node at = node.getParentNode().orElse(null);
        while (at != null) {
            if (opByValue.containsKey(at)) {
                return true;
            }
            if (at == root) {
                return false;
            }
            at = at.getParentNode().orElse(null);
        }
        return false;
    }

    /** Operations whose results decide whether {@code node} runs. */
    public Set<DbOp> controlling(Node node) {
        Set<DbOp> out = new LinkedHashSet<>();
        Node child = node;
        Node parent = node.getParentNode().orElse(null);
        while (parent != null && !(parent instanceof com.github.javaparser.ast.body.CallableDeclaration<?>)) {
            if (parent instanceof IfStmt s && child != s.getCondition()) {
                out.addAll(reaching(s.getCondition()));
            } else if (parent instanceof ConditionalExpr c && child != c.getCondition()) {
                out.addAll(reaching(c.getCondition()));
            } else if (parent instanceof WhileStmt w && child != w.getCondition()) {
                out.addAll(reaching(w.getCondition()));
            } else if (parent instanceof DoStmt d && child != d.getCondition()) {
                out.addAll(reaching(d.getCondition()));
            } else if (parent instanceof ForStmt f && f.getCompare().isPresent() && child != f.getCompare().get()) {
                out.addAll(reaching(f.getCompare().get()));
            } else if (parent instanceof SwitchStmt s && child != s.getSelector()) {
                out.addAll(reaching(s.getSelector()));
            } else if (parent instanceof LambdaExpr && parent.getParentNode().orElse(null) instanceof MethodCallExpr call
                    && isOptionalBranch(call.getNameAsString()) && call.getScope().isPresent()) {
                out.addAll(reaching(call.getScope().get()));
            } else if (parent instanceof BlockStmt block) {
                for (Statement s : block.getStatements()) {
                    if (s == child) {
                        break;
                    }
                    if (s instanceof IfStmt guard && alwaysExits(guard.getThenStmt())) {
                        out.addAll(reaching(guard.getCondition()));
                    }
                }
            }
            if (parent instanceof ForEachStmt) {
                // Iterating over rows read from the database is not a check; nothing to add.
            }
            child = parent;
            parent = parent.getParentNode().orElse(null);
        }
        return out;
    }

    /**
     * Reads of {@code write}'s table whose results decide whether {@code node} runs (an existence or
     * natural-key check that returns or throws when the row is there): the check of check-then-act.
     * {@code node} is the write's call, or a call in this method that leads to it.
     */
    public List<DbOp> decidingReads(Node node, DbOp write) {
        List<DbOp> out = new ArrayList<>();
        for (DbOp check : controlling(node)) {
            if (check.kind() == DbOp.Kind.READ && check.sameTable(write)) {
                out.add(check);
            }
        }
        return out;
    }

    /**
     * Does {@code read} ask whether a row is there (EXISTS, a find, a value), rather than how many
     * there are? A count is an existence test when the code compares it with 0 or 1
     * ({@code count > 0}); compared with anything else it is a limit, which a second row passes.
     */
    public boolean existenceTest(DbOp read) {
        if (read.shape() == DbOp.ReadShape.AGGREGATE) {
            return false;
        }
        if (read.shape() != DbOp.ReadShape.COUNT) {
            return true;
        }
        Node method = read.call();
        while (method != null && !(method instanceof com.github.javaparser.ast.body.CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        if (method == null) {
            return false;
        }
        for (var compare : method.findAll(com.github.javaparser.ast.expr.BinaryExpr.class)) {
            if (comparesWithZeroOrOne(compare, compare.getLeft(), compare.getRight(), read)
                    || comparesWithZeroOrOne(compare, compare.getRight(), compare.getLeft(), read)) {
                return true;
            }
        }
        return false;
    }

    private boolean comparesWithZeroOrOne(com.github.javaparser.ast.expr.BinaryExpr compare, Expression value,
            Expression bound, DbOp read) {
        var op = compare.getOperator();
        boolean comparison = switch (op) {
            case LESS, GREATER, LESS_EQUALS, GREATER_EQUALS, EQUALS, NOT_EQUALS -> true;
            default -> false;
        };
        if (!comparison || !reaching(value).contains(read)) {
            return false;
        }
        String literal = bound instanceof com.github.javaparser.ast.expr.IntegerLiteralExpr i ? i.getValue()
                : bound instanceof com.github.javaparser.ast.expr.LongLiteralExpr l ? l.getValue() : null;
        if (literal == null) {
            return false;
        }
        String digits = literal.replace("_", "").replaceAll("[lL]$", "");
        return digits.equals("0") || digits.equals("1");
    }

    /**
     * Conditional UPDATEs/DELETEs whose affected-row count decides whether {@code node} runs: a claim
     * ({@code if (markUsed(token) == 0) return;}), so a second run stops at the claim.
     */
    public List<DbOp> claimsBefore(Node node) {
        List<DbOp> out = new ArrayList<>();
        for (DbOp op : controlling(node)) {
            if ((op.kind() == DbOp.Kind.UPDATE || op.kind() == DbOp.Kind.DELETE) && op.conditional()) {
                out.add(op);
            }
        }
        return out;
    }

    private static boolean isOptionalBranch(String name) {
        return name.equals("orElseGet") || name.equals("orElse") || name.equals("ifPresentOrElse")
                || name.equals("or") || name.equals("orElseThrow") || name.equals("ifPresent");
    }

    static boolean alwaysExits(Statement s) {
        if (s instanceof ReturnStmt || s instanceof ThrowStmt || s instanceof ContinueStmt || s instanceof BreakStmt) {
            return true;
        }
        if (s instanceof BlockStmt b && !b.getStatements().isEmpty()) {
            return alwaysExits(b.getStatements().getLast().get());
        }
        if (s instanceof ExpressionStmt) {
            return false;
        }
        return false;
    }

    /** Is the value of {@code valueExpr} (an operation's result) used: compared, returned, passed on? */
    public static boolean resultUsed(Expression valueExpr) {
        Node parent = valueExpr.getParentNode().orElse(null);
        if (parent instanceof ExpressionStmt) {
            return false;
        }
        String variable = null;
        if (parent instanceof VariableDeclarator v) {
            variable = v.getNameAsString();
        } else if (parent instanceof AssignExpr a && a.getTarget() instanceof NameExpr n) {
            variable = n.getNameAsString();
        }
        if (variable == null) {
            return true;
        }
        Node scope = parent;
        while (scope != null && !(scope instanceof com.github.javaparser.ast.body.CallableDeclaration<?>)) {
            scope = scope.getParentNode().orElse(null);
        }
        if (scope == null) {
            return true;
        }
        int after = valueExpr.getEnd().map(p -> p.line * 10_000 + p.column).orElse(0);
        for (NameExpr use : scope.findAll(NameExpr.class)) {
            int at = use.getBegin().map(p -> p.line * 10_000 + p.column).orElse(0);
            if (use.getNameAsString().equals(variable) && at > after) {
                return true;
            }
        }
        return false;
    }

    /** Statements from a method body, for callers that need them in order. */
    static List<Statement> statements(BlockStmt body) {
        return new ArrayList<>(body.getStatements());
    }
}
