package dev.racelint.analyzer.retry;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.ThrowStmt;
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

    /** {@code Thread.sleep(..)} with no randomness, inside a loop that catches a failure and goes round again. */
    public List<MethodCallExpr> unjitteredSleepsInRetryLoops(MethodInfo method) {
        List<MethodCallExpr> out = new ArrayList<>();
        Node body = method.body();
        if (body == null) {
            return out;
        }
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
            if (loop != null && !isInfinite(loop) && catchesFailure(loop) && index.isOwnCode(call, method)) {
                out.add(call);
            }
        }
        return out;
    }

    /** {@code while (true)} / {@code for (;;)} loops that catch a failure and keep going with no way out. */
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
            if (!exits) {
                out.add(loop);
            }
        }
        return out;
    }

    /** The loop catches a failure of its work (an interrupted sleep is not one): it is a retry loop. */
    private static boolean catchesFailure(Statement loop) {
        return !loop.findAll(CatchClause.class, c -> !isInterruption(c)).isEmpty();
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
