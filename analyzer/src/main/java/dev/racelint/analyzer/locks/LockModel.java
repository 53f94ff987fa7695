package dev.racelint.analyzer.locks;

import com.github.javaparser.Position;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.stmt.SynchronizedStmt;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.effects.EffectSummaries;
import dev.racelint.analyzer.effects.Witness;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.PersistenceModel;
import dev.racelint.analyzer.resolve.ExpressionTyper;
import dev.racelint.analyzer.tx.ReachedEffect;
import dev.racelint.analyzer.tx.TransactionModel;
import dev.racelint.analyzer.tx.TransactionScope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where locks are held inside a method: {@code synchronized} methods and blocks, explicit
 * {@code Lock.lock()} .. {@code unlock()}, and row locks from {@code SELECT ... FOR UPDATE} (or
 * pessimistic JPA reads) held to the end of the enclosing transaction. Also what each lock scope
 * reaches on its own thread, through calls.
 */
public final class LockModel {
    private static final Set<String> LOCK_METHODS = Set.of("lock", "lockInterruptibly", "tryLock");

    private final CallGraph graph;
    private final ExpressionTyper typer;
    private final PersistenceModel persistence;
    private final TransactionModel transactions;
    private volatile EffectSummaries summaries;

    public LockModel(CallGraph graph, ExpressionTyper typer, PersistenceModel persistence, TransactionModel transactions) {
        this.graph = graph;
        this.typer = typer;
        this.persistence = persistence;
        this.transactions = transactions;
    }

    public List<LockScope> scopesIn(MethodInfo method) {
        List<LockScope> out = new ArrayList<>();
        Node body = method.body();
        if (body == null) {
            return out;
        }
        Path file = method.declaringType().file().path();
        if (method.declaration().hasModifier(com.github.javaparser.ast.Modifier.Keyword.SYNCHRONIZED)) {
            out.add(new LockScope(LockScope.Kind.MONITOR, method,
                    SourceLocations.of(file, method.nameNode(), "synchronized method " + method.displayName()),
                    "the monitor of synchronized " + method.displayName(), method.signature(), n -> true));
        }
        for (SynchronizedStmt sync : body.findAll(SynchronizedStmt.class)) {
            if (graph.index().isOwnCode(sync, method)) {
                Node block = sync.getBody();
                Position begin = sync.getBegin().orElse(null);
                Position end = sync.getExpression().getEnd().orElse(null);
                var region = begin != null && end != null
                        ? SourceLocations.region(new com.github.javaparser.Range(begin, end)) : SourceLocations.region(sync);
                out.add(new LockScope(LockScope.Kind.MONITOR, method,
                        new dev.racelint.analyzer.finding.CodeLocation(file, region, "synchronized (" + sync.getExpression() + ")"),
                        "synchronized (" + sync.getExpression() + ")", "synchronized(" + sync.getExpression() + ")",
                        n -> TransactionModel.isWithin(n, block)));
            }
        }
        for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
            if (!LOCK_METHODS.contains(call.getNameAsString()) || call.getScope().isEmpty() || !isLock(call.getScope().get())
                    || !graph.index().isOwnCode(call, method)) {
                continue;
            }
            String receiver = call.getScope().get().toString();
            Position start = call.getEnd().orElse(null);
            Position end = unlockAfter(body, receiver, start);
            out.add(new LockScope(LockScope.Kind.LOCK, method, SourceLocations.ofCall(file, call, receiver + "." + call.getNameAsString() + "()"),
                    receiver + "." + call.getNameAsString() + "()", receiver + "." + call.getNameAsString(),
                    n -> between(n, start, end)));
        }
        for (DbOp op : persistence.directOps(method)) {
            if (op.kind() == DbOp.Kind.READ && op.locked()) {
                TransactionScope scope = transactions.scopesIn(method).stream().filter(s -> s.covers().test(op.call()))
                        .findFirst().orElse(null);
                boolean held = scope != null || transactions.attribute(method).map(a -> a.propagation().runsInTransaction())
                        .orElse(false);
                if (!held) {
                    continue;
                }
                Position start = op.end().getEnd().orElse(null);
                TransactionScope s = scope;
                out.add(new LockScope(LockScope.Kind.ROW_LOCK, method, op.location().withLabel("row lock: " + op.describe()),
                        "the " + op.table() + " row lock taken by " + op.describe() + " (held until commit)",
                        op.call().toString(), n -> between(n, start, null) && (s == null || s.covers().test(n))));
            }
        }
        return out;
    }

    private boolean isLock(Expression receiver) {
        if (receiver instanceof MethodCallExpr m && (m.getNameAsString().equals("writeLock") || m.getNameAsString().equals("readLock"))) {
            return true;
        }
        for (String c : typer.typeOf(receiver).type().candidates()) {
            if (c.startsWith("java.util.concurrent.locks.") || c.endsWith(".RLock") || c.equals("org.redisson.api.RLock")) {
                return true;
            }
        }
        return false;
    }

    private static Position unlockAfter(Node body, String receiver, Position after) {
        Position best = null;
        for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
            if (call.getNameAsString().equals("unlock") && call.getScope().map(Object::toString).orElse("").equals(receiver)) {
                Position at = call.getBegin().orElse(null);
                if (at != null && after != null && at.isAfter(after) && (best == null || at.isBefore(best))) {
                    best = at;
                }
            }
        }
        return best;
    }

    private static boolean between(Node node, Position start, Position end) {
        Position at = node.getBegin().orElse(null);
        return at != null && start != null && at.isAfter(start) && (end == null || at.isBefore(end));
    }

    /** Network I/O and sleeps reached while the scope's lock is held, one per API, with the shortest path. */
    public List<ReachedEffect> ioWhileHeld(LockScope scope) {
        EffectSummaries sums = summaries();
        Map<String, ReachedEffect> best = new LinkedHashMap<>();
        var facts = graph.facts(scope.method());
        for (EffectSite site : facts.effects()) {
            if ((site.effect().kind() == EffectKind.NETWORK || site.effect().kind() == EffectKind.SLEEP)
                    && scope.covers().test(site.call())) {
                best.putIfAbsent(site.effect().apiKey(), new ReachedEffect(site, List.of()));
            }
        }
        for (CallEdge edge : facts.calls()) {
            if (!scope.covers().test(edge.site())) {
                continue;
            }
            for (Map.Entry<String, Witness> e : sums.of(edge.callee()).entrySet()) {
                List<CallEdge> path = new ArrayList<>();
                path.add(edge);
                path.addAll(sums.path(e.getValue()));
                ReachedEffect existing = best.get(e.getKey());
                if (existing == null || existing.calls().size() > path.size()) {
                    best.put(e.getKey(), new ReachedEffect(e.getValue().site(), List.copyOf(path)));
                }
            }
        }
        return new ArrayList<>(best.values());
    }

    private EffectSummaries summaries() {
        EffectSummaries s = summaries;
        if (s == null) {
            synchronized (this) {
                if (summaries == null) {
                    summaries = EffectSummaries.compute(graph,
                            site -> site.effect().kind() == EffectKind.NETWORK || site.effect().kind() == EffectKind.SLEEP,
                            edge -> true);
                }
                s = summaries;
            }
        }
        return s;
    }
}
