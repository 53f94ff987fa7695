package dev.racelint.analyzer.handlers;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.PersistenceModel;
import dev.racelint.analyzer.tx.TransactionModel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * What a method reaches through the call graph (same thread), breadth first so that each item
 * keeps its shortest call path: database operations and catalogued effects.
 */
public final class Reachability {

    /** Something reached, and the calls from the start method down to the method that does it. */
    public record Reached<T>(T item, MethodInfo in, List<CallEdge> path) {}

    private final CallGraph graph;
    private final PersistenceModel persistence;
    private final TransactionModel transactions;
    private final Map<String, BitSet> reaching = new ConcurrentHashMap<>();
    /** How far handlers are followed ({@code reach-depth}); deeper paths are rare and hard to read. */
    private final int maxDepth;

    public Reachability(CallGraph graph, PersistenceModel persistence, TransactionModel transactions) {
        this.graph = graph;
        this.persistence = persistence;
        this.transactions = transactions;
        this.maxDepth = transactions.limits().reachDepth();
    }

    /** The analysis's numeric bounds. */
    public dev.racelint.analyzer.AnalysisLimits limits() {
        return transactions.limits();
    }

    /**
     * Whether an effect that {@code effect} accepts is at most {@code maxCalls} calls from {@code from}
     * (0: in its own code), through any call, whatever the transaction boundaries: a superset of what
     * {@link #effects} finds, computed once per {@code key} over the whole graph, so that a rule can skip
     * the methods that cannot reach the effect before it searches paths from each of their calls.
     */
    public boolean mayReach(MethodInfo from, String key, Predicate<EffectSite> effect, int maxCalls) {
        return reaching.computeIfAbsent(key + "/" + maxCalls, k -> reachingWithin(effect, maxCalls)).get(from.id());
    }

    private BitSet reachingWithin(Predicate<EffectSite> effect, int maxCalls) {
        BitSet reached = new BitSet();
        List<MethodInfo> frontier = new ArrayList<>();
        for (MethodInfo m : graph.index().methods()) {
            if (graph.facts(m).effects().stream().anyMatch(effect)) {
                reached.set(m.id());
                frontier.add(m);
            }
        }
        for (int depth = 0; depth < maxCalls && !frontier.isEmpty(); depth++) {
            List<MethodInfo> next = new ArrayList<>();
            for (MethodInfo callee : frontier) {
                for (CallEdge edge : graph.callers(callee)) {
                    if (!reached.get(edge.caller().id())) {
                        reached.set(edge.caller().id());
                        next.add(edge.caller());
                    }
                }
            }
            frontier = next;
        }
        return reached;
    }

    /** The scanned calls into {@code method}, from anywhere in the program. */
    /**
     * The scanned methods a call in {@code caller} runs: for a call on an HTTP client interface, the
     * implementations in the tree (a server controller that implements the client's interface, a
     * fallback); abstract declarations are not counted. Empty when the call runs nothing scanned.
     */
    public List<MethodInfo> targetsOf(MethodInfo caller, com.github.javaparser.ast.Node site) {
        List<MethodInfo> targets = new ArrayList<>();
        for (CallEdge edge : graph.facts(caller).calls()) {
            if (edge.site() == site && !edge.callee().isAbstract()) {
                targets.add(edge.callee());
            }
        }
        return targets;
    }

    public List<CallEdge> callers(MethodInfo method) {
        return graph.callers(method);
    }

    /** Methods reachable from {@code start} (itself first), each with its shortest path. */
    public List<Reached<MethodInfo>> methods(MethodInfo start, boolean stopAfterCommit) {
        return methods(start, stopAfterCommit, maxDepth);
    }

    /** As {@link #methods(MethodInfo, boolean)}, following at most {@code maxDepth} calls. */
    public List<Reached<MethodInfo>> methods(MethodInfo start, boolean stopAfterCommit, int maxDepth) {
        List<Reached<MethodInfo>> out = new ArrayList<>();
        Map<Integer, List<CallEdge>> paths = new HashMap<>();
        Deque<MethodInfo> work = new ArrayDeque<>();
        paths.put(start.id(), List.of());
        work.add(start);
        while (!work.isEmpty()) {
            MethodInfo m = work.poll();
            List<CallEdge> path = paths.get(m.id());
            out.add(new Reached<>(m, m, path));
            if (path.size() >= maxDepth) {
                continue;
            }
            for (CallEdge edge : graph.facts(m).calls()) {
                if (stopAfterCommit && transactions.boundary(edge) == TransactionModel.CallBoundary.OUTSIDE) {
                    continue;
                }
                if (!paths.containsKey(edge.callee().id())) {
                    List<CallEdge> next = new ArrayList<>(path);
                    next.add(edge);
                    paths.put(edge.callee().id(), next);
                    work.add(edge.callee());
                }
            }
        }
        return out;
    }

    /** Database operations reachable from {@code start} (its own first). */
    public List<Reached<DbOp>> databaseOperations(MethodInfo start, boolean stopAfterCommit) {
        List<Reached<DbOp>> out = new ArrayList<>();
        for (Reached<MethodInfo> m : methods(start, stopAfterCommit)) {
            for (DbOp op : persistence.directOps(m.item())) {
                out.add(new Reached<>(op, m.item(), m.path()));
            }
        }
        return out;
    }

    /** Catalogued effects reachable from {@code start} (its own first). */
    public List<Reached<EffectSite>> effects(MethodInfo start, boolean stopAfterCommit) {
        return effects(start, stopAfterCommit, maxDepth);
    }

    /** Catalogued effects reachable from {@code start} within {@code maxDepth} calls. */
    public List<Reached<EffectSite>> effects(MethodInfo start, boolean stopAfterCommit, int maxDepth) {
        List<Reached<EffectSite>> out = new ArrayList<>();
        for (Reached<MethodInfo> m : methods(start, stopAfterCommit, maxDepth)) {
            for (EffectSite site : graph.facts(m.item()).effects()) {
                out.add(new Reached<>(site, m.item(), m.path()));
            }
        }
        return out;
    }
}
