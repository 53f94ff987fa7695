package dev.racelint.analyzer.handlers;

import dev.racelint.analyzer.index.MethodMemo;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.stmt.ContinueStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.persistence.DbOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a scheduled job does to decide that it alone does the work, or that the work is its own:
 * a leadership or partition-ownership check before the work, and flushing state that lives only in
 * this instance's memory.
 */
public final class JobFacts {

    /** Calls that empty an in-memory buffer after its contents were taken. */
    private static final Set<String> DRAINS = Set.of("clear", "drainTo", "sumThenReset", "getAndSet", "reset",
            "resetCounters", "clearCounters");
    /** {@link java.util.Queue} / {@link java.util.Deque} methods that remove the element they return. */
    private static final Set<String> QUEUE_TAKES = Set.of("poll", "pollFirst", "pollLast", "take", "remove",
            "removeFirst", "removeLast");

    private final ProgramIndex index;
    private final Reachability reachability;
    private final MethodMemo<Boolean> ownership;

    public JobFacts(ProgramIndex index, Reachability reachability) {
        this.index = index;
        this.reachability = reachability;
        this.ownership = new MethodMemo<>(index);
    }

    /**
     * The job leaves early ({@code return} / {@code continue}) unless this instance owns the work: a
     * leader election or partition ownership plays the part of a lock.
     */
    public boolean checksOwnership(MethodInfo job) {
        // asked for every method on every path a job reaches: read each method once
        return ownership.get(job, this::readsOwnership);
    }

    private boolean readsOwnership(MethodInfo job) {
        Node body = job.body();
        if (body == null) {
            return false;
        }
        List<Node> ownershipChecks = new ArrayList<>();
        for (Reachability.Reached<dev.racelint.analyzer.callgraph.EffectSite> site : reachability.effects(job, false, 0)) {
            if (site.item().effect().kind() == dev.racelint.analyzer.effects.EffectKind.OWNERSHIP_CHECK) {
                ownershipChecks.add(site.item().call());
            }
        }
        if (ownershipChecks.isEmpty()) {
            return false;
        }
        for (IfStmt test : body.findAll(IfStmt.class)) {
            if (!index.isOwnCode(test, job)) {
                continue;
            }
            // an ownership API by the catalogue or racelint.yml ("leadership"), never by a method's name
            boolean ownership = ownershipChecks.stream().anyMatch(call -> isWithin(call, test.getCondition()));
            boolean leaves = !test.getThenStmt().findAll(ReturnStmt.class).isEmpty()
                    || !test.getThenStmt().findAll(ContinueStmt.class).isEmpty()
                    || (test.getThenStmt() instanceof ReturnStmt) || (test.getThenStmt() instanceof ContinueStmt);
            if (ownership && leaves) {
                return true;
            }
        }
        return false;
    }

    private static boolean isWithin(Node node, Node container) {
        for (Node n = node; n != null; n = n.getParentNode().orElse(null)) {
            if (n == container) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code call} takes an element off a queue this instance holds in memory: a poll on a field
     * whose declared type is one of the JDK's queues or deques (what other instances queued is in
     * their own memory).
     */
    private boolean takesFromLocalQueue(MethodCallExpr call, MethodInfo in) {
        if (!QUEUE_TAKES.contains(call.getNameAsString()) || call.getScope().isEmpty()) {
            return false;
        }
        String field = call.getScope().get() instanceof com.github.javaparser.ast.expr.NameExpr n ? n.getNameAsString()
                : call.getScope().get() instanceof com.github.javaparser.ast.expr.FieldAccessExpr f
                        && f.getScope().isThisExpr() ? f.getNameAsString() : null;
        if (field == null) {
            return false;
        }
        ProgramIndex.FieldRef ref = index.findField(in.declaringType(), field);
        if (ref == null) {
            return false;
        }
        var owner = ref.owner().declaration();
        return index.resolveType(ref.type(), owner).candidates().stream()
                .anyMatch(t -> (t.startsWith("java.util.") && (t.endsWith("Queue") || t.endsWith("Deque"))));
    }

    /**
     * The job flushes this instance's own in-memory state: it (or a method it calls) empties a
     * buffer or counter after taking its contents, and reads nothing from the database itself, so
     * what it writes exists on this instance only and every instance must write its own.
     */
    public boolean flushesLocalState(MethodInfo job) {
        int calls = reachability.limits().get(dev.racelint.analyzer.AnalysisLimits.Limit.JOB_STATE_CALLS);
        List<Reachability.Reached<MethodInfo>> near = reachability.methods(job, false, calls);
        boolean drains = false;
        for (Reachability.Reached<MethodInfo> m : near) {
            Node body = m.item().body();
            if (body != null && body.findAll(MethodCallExpr.class).stream()
                    .anyMatch(c -> (DRAINS.contains(c.getNameAsString()) && c.getScope().isPresent())
                            || takesFromLocalQueue(c, m.item()))) {
                drains = true;
                break;
            }
        }
        if (!drains) {
            return false;
        }
        for (Reachability.Reached<DbOp> op : reachability.databaseOperations(job, false)) {
            if (op.path().size() <= calls && op.item().kind() == DbOp.Kind.READ) {
                return false;
            }
        }
        return true;
    }
}
