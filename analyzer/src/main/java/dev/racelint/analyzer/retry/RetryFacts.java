package dev.racelint.analyzer.retry;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Retry shapes whose waits have no randomness or no bound: Spring Retry {@code @Backoff} without
 * {@code random = true}, {@code ExponentialBackOffPolicy} / {@code FixedBackOffPolicy}, hand-written
 * loops that sleep a fixed or growing delay after a failure, and {@code while (true)} retry loops.
 */
public final class RetryFacts {
    private static final Set<String> RETRYABLE = Set.of("org.springframework.retry.annotation.Retryable");
    private static final Set<String> FIXED_POLICIES = Set.of("org.springframework.retry.backoff.ExponentialBackOffPolicy",
            "org.springframework.retry.backoff.FixedBackOffPolicy");

    private final ProgramIndex index;
    private final Annotations annotations;

    public RetryFacts(ProgramIndex index) {
        this.index = index;
        this.annotations = new Annotations(index);
    }

    /** {@code @Retryable(backoff = @Backoff(delay/multiplier...))} without {@code random = true}. */
    public boolean unjitteredBackoffAnnotation(MethodInfo method) {
        if (!(method.declaration() instanceof MethodDeclaration decl)) {
            return false;
        }
        AnnotationExpr retryable = annotations.find(decl, RETRYABLE).orElse(null);
        if (retryable == null) {
            return false;
        }
        for (NormalAnnotationExpr backoff : retryable.findAll(NormalAnnotationExpr.class)) {
            if (!backoff.getNameAsString().endsWith("Backoff")) {
                continue;
            }
            boolean random = backoff.getPairs().stream().anyMatch(p -> p.getNameAsString().equals("random")
                    && p.getValue() instanceof BooleanLiteralExpr b && b.getValue());
            boolean timed = backoff.getPairs().stream().anyMatch(p -> p.getNameAsString().equals("delay")
                    || p.getNameAsString().equals("multiplier") || p.getNameAsString().equals("value"));
            return timed && !random;
        }
        return false;
    }

    /** {@code new ExponentialBackOffPolicy()} / {@code new FixedBackOffPolicy()} in the method. */
    public List<ObjectCreationExpr> fixedBackOffPolicies(MethodInfo method) {
        List<ObjectCreationExpr> out = new ArrayList<>();
        Node body = method.body();
        if (body == null) {
            return out;
        }
        for (ObjectCreationExpr creation : body.findAll(ObjectCreationExpr.class)) {
            TypeRef type = index.resolveType(creation.getType(), creation);
            if (type.candidates().stream().anyMatch(FIXED_POLICIES::contains) && index.isOwnCode(creation, method)) {
                out.add(creation);
            }
        }
        return out;
    }

    /**
     * {@code Thread.sleep(..)} with no randomness that waits before trying a failed operation again:
     * it sits in a catch clause that does not leave the loop, or after a try that leaves the loop on
     * success and whose failures stay in it. A sleep on the success path (pacing, a batch linger) or
     * in a loop whose every failure leaves it is not a retry wait.
     */
    public List<MethodCallExpr> unjitteredSleepsInRetryLoops(MethodInfo method) {
        List<MethodCallExpr> out = new ArrayList<>();
        Node body = method.body();
        if (body == null) {
            return out;
        }
        List<Statement> unbounded = unboundedRetryLoops(method);
        for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
            if (!call.getNameAsString().equals("sleep") || call.getArguments().isEmpty()
                    || !call.getScope().map(s -> s.toString().equals("Thread") || s.toString().contains("TimeUnit")).orElse(false)) {
                continue;
            }
            String arg = call.getArguments().toString().toLowerCase(Locale.ROOT);
            if (arg.contains("random") || arg.contains("jitter")) {
                continue;
            }
            Statement loop = enclosingLoop(call);
            if (loop != null && !unbounded.contains(loop) && waitsAfterFailure(call, loop) && index.isOwnCode(call, method)) {
                out.add(call);
            }
        }
        return out;
    }

    private static boolean waitsAfterFailure(Node sleep, Statement loop) {
        for (Node n = sleep.getParentNode().orElse(null); n != null && n != loop; n = n.getParentNode().orElse(null)) {
            if (n instanceof CatchClause c && !isInterruption(c)) {
                return !alwaysLeaves(c.getBody());
            }
        }
        // after a try (in the same loop body) that leaves the loop on success: reached only on failure
        for (Node child = sleep, parent = sleep.getParentNode().orElse(null); parent != null && child != loop;
                child = parent, parent = parent.getParentNode().orElse(null)) {
            if (parent instanceof BlockStmt block && child instanceof Statement st) {
                int at = block.getStatements().indexOf(st);
                for (int i = 0; i < at; i++) {
                    if (block.getStatement(i) instanceof TryStmt t && !t.getCatchClauses().isEmpty()
                            && leavesOnSuccess(t.getTryBlock())
                            && !t.getCatchClauses().stream().allMatch(c -> alwaysLeaves(c.getBody()))) {
                        return true;
                    }
                }
            }
            if (parent == loop) {
                break;
            }
        }
        return false;
    }

    /** The try block breaks out of (or returns from) the loop once its work succeeded. */
    private static boolean leavesOnSuccess(BlockStmt tryBlock) {
        return tryBlock.getStatements().stream().anyMatch(st -> st instanceof BreakStmt || st instanceof ReturnStmt);
    }

    /** A block that always ends the loop: its own statements include a throw, return, break or System.exit. */
    private static boolean alwaysLeaves(BlockStmt block) {
        for (Statement st : block.getStatements()) {
            if (st instanceof ThrowStmt || st instanceof ReturnStmt || st instanceof BreakStmt) {
                return true;
            }
            if (st instanceof ExpressionStmt e && e.getExpression() instanceof MethodCallExpr m
                    && m.getNameAsString().equals("exit") && m.getScope().map(x -> x.toString().equals("System")).orElse(false)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code while (true)} / {@code for (;;)} loops that catch a failure and keep going with no way
     * out: no catch leaves the loop and no attempt counter (a variable the loop updates and a
     * condition in it checks before leaving) bounds it.
     */
    public List<Statement> unboundedRetryLoops(MethodInfo method) {
        List<Statement> out = new ArrayList<>();
        Node body = method.body();
        if (body == null) {
            return out;
        }
        for (Statement loop : body.findAll(Statement.class, RetryFacts::isInfinite)) {
            List<CatchClause> catches = loop.findAll(CatchClause.class, c -> !isInterruption(c));
            // A retry waits before trying again; a worker loop taking new work each turn does not.
            boolean waits = loop.findAll(MethodCallExpr.class).stream().anyMatch(c -> c.getNameAsString().equals("sleep"));
            if (catches.isEmpty() || !waits || !index.isOwnCode(loop, method)) {
                continue;
            }
            boolean exits = false;
            for (CatchClause c : catches) {
                if (!c.getBody().findAll(ThrowStmt.class).isEmpty() || !c.getBody().findAll(ReturnStmt.class).isEmpty()
                        || !c.getBody().findAll(BreakStmt.class).isEmpty()) {
                    exits = true;
                }
            }
            if (!exits && !countsAttempts(loop)) {
                out.add(loop);
            }
        }
        return out;
    }

    /** An if in the loop that leaves it (throw, return, break) on a condition over a variable the loop updates. */
    private static boolean countsAttempts(Statement loop) {
        Set<String> updated = new java.util.HashSet<>();
        for (UnaryExpr u : loop.findAll(UnaryExpr.class)) {
            if ((u.getOperator().name().contains("CREMENT")) && u.getExpression() instanceof NameExpr n) {
                updated.add(n.getNameAsString());
            }
        }
        for (AssignExpr a : loop.findAll(AssignExpr.class)) {
            if (a.getOperator() != AssignExpr.Operator.ASSIGN && a.getTarget() instanceof NameExpr n) {
                updated.add(n.getNameAsString());
            }
        }
        if (updated.isEmpty()) {
            return false;
        }
        for (IfStmt test : loop.findAll(IfStmt.class)) {
            boolean onCounter = test.getCondition().findAll(NameExpr.class).stream()
                    .anyMatch(n -> updated.contains(n.getNameAsString()));
            boolean leaves = !test.findAll(ThrowStmt.class).isEmpty() || !test.findAll(ReturnStmt.class).isEmpty()
                    || !test.findAll(BreakStmt.class).isEmpty();
            if (onCounter && leaves) {
                return true;
            }
        }
        return false;
    }

    private static boolean isInterruption(CatchClause c) {
        return c.getParameter().getType().asString().endsWith("InterruptedException");
    }

    private static boolean isInfinite(Node n) {
        return (n instanceof WhileStmt w && w.getCondition() instanceof BooleanLiteralExpr b && b.getValue())
                || (n instanceof ForStmt f && f.getCompare().isEmpty());
    }

    private static Statement enclosingLoop(Node node) {
        for (Node n = node.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof ForStmt || n instanceof WhileStmt || n instanceof DoStmt || n instanceof ForEachStmt) {
                return (Statement) n;
            }
            if (n instanceof com.github.javaparser.ast.body.CallableDeclaration<?>) {
                return null;
            }
        }
        return null;
    }
}
