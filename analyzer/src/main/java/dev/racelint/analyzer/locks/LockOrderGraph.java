package dev.racelint.analyzer.locks;

import dev.racelint.analyzer.AnalysisLimits;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.callgraph.CallerClosure;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The whole program's lock-order graph: an edge A -> B whenever B is acquired (waiting for it)
 * while A is held, on one thread, directly or any number of calls deeper, each with its shortest
 * witness. A cycle means two threads can each hold one lock of it and wait for the next: a
 * deadlock (for database locks, one transaction is killed as the deadlock victim).
 *
 * <p>Built in two linear passes: per-method summaries of the locks a call may acquire (closed over
 * the call graph with a work list, like effect summaries), then one pass over every lock scope's
 * direct acquisitions and covered calls. Cycles come from the strongly connected components of
 * the (small) lock graph.
 */
public final class LockOrderGraph {

    /** How a method reaches an acquisition: directly ({@code via == null}) or below a call. */
    private record Reach(LockScope acquisition, CallEdge via, int depth) {}

    /**
     * {@code acquired} is taken, waiting, while {@code held} is held.
     *
     * @param outer the scope holding the first lock
     * @param calls the calls from the outer scope's method down to the inner acquisition (empty when in the same method)
     * @param inner the acquisition of the second lock
     */
    public record Edge(LockName held, LockName acquired, LockScope outer, List<CallEdge> calls, LockScope inner) {
        int length() {
            return calls.size();
        }
    }

    /** A cycle of edges, in order; the first edge is the one reported. */
    public record Cycle(List<Edge> edges) {
        public MethodInfo reportedIn() {
            return edges.get(0).outer().method();
        }
    }

    private final Map<LockName, Map<LockName, Edge>> edges;
    private final List<Cycle> cycles;
    private final Map<Integer, List<Cycle>> cyclesByMethod = new HashMap<>();
    private final long buildNanos;

    private LockOrderGraph(Map<LockName, Map<LockName, Edge>> edges, List<Cycle> cycles, long buildNanos) {
        this.edges = edges;
        this.cycles = List.copyOf(cycles);
        this.buildNanos = buildNanos;
        for (Cycle c : cycles) {
            cyclesByMethod.computeIfAbsent(c.reportedIn().id(), k -> new ArrayList<>()).add(c);
        }
    }

    public static LockOrderGraph build(CallGraph graph, LockModel locks) {
        return build(graph, locks, AnalysisLimits.DEFAULT);
    }

    /** With the given bounds: witness-calls for the summaries, lock-cycles-per-component for the cycles. */
    public static LockOrderGraph build(CallGraph graph, LockModel locks, AnalysisLimits limits) {
        long start = System.nanoTime();
        List<MethodInfo> methods = graph.index().methods();
        List<Map<LockName, Reach>> summaries = summarise(graph, locks, limits.summaryCalls());
        List<Set<LockName>> heldOnEntry = heldOnEntry(graph, locks, methods);
        Map<LockName, Map<LockName, Edge>> edges = new TreeMap<>();
        for (MethodInfo method : methods) {
            List<LockScope> scopes = locks.scopesIn(method);
            Set<LockName> alreadyHeld = heldOnEntry.get(method.id());
            for (LockScope outer : scopes) {
                if (outer.name() == null) {
                    continue;
                }
                for (LockScope inner : scopes) {
                    if (inner != outer && inner.name() != null && inner.waits() && outer.covers().test(inner.site())
                            && !alreadyHeld.contains(inner.name())) {
                        add(edges, new Edge(outer.name(), inner.name(), outer, List.of(), inner));
                    }
                }
                for (CallEdge call : graph.facts(method).calls()) {
                    if (!outer.covers().test(call.site())) {
                        continue;
                    }
                    for (Reach reach : summaries.get(call.callee().id()).values()) {
                        if (alreadyHeld.contains(reach.acquisition().name())) {
                            continue;
                        }
                        List<CallEdge> path = path(call, reach, summaries);
                        if (sameObjectMonitor(graph.index(), outer, path, reach.acquisition())) {
                            continue;
                        }
                        add(edges, new Edge(outer.name(), reach.acquisition().name(), outer, path, reach.acquisition()));
                    }
                }
            }
        }
        List<Cycle> cycles = cycles(edges, limits.get(AnalysisLimits.Limit.LOCK_CYCLES_PER_COMPONENT)).stream().filter(c -> !gated(c, heldOnEntry)).toList();
        return new LockOrderGraph(edges, cycles, System.nanoTime() - start);
    }

    /** Per method: each lock it may wait for, directly or through calls, with the shortest witness. */
    private static List<Map<LockName, Reach>> summarise(CallGraph graph, LockModel locks, int maxCalls) {
        return CallerClosure.close(graph, m -> {
            Map<LockName, Reach> own = new LinkedHashMap<>();
            for (LockScope scope : locks.scopesIn(m)) {
                if (scope.name() != null && scope.waits()) {
                    own.putIfAbsent(scope.name(), new Reach(scope, null, 0));
                }
            }
            return own;
        }, edge -> true, Reach::depth, (r, edge) -> new Reach(r.acquisition(), edge, r.depth() + 1), maxCalls);
    }

    /**
     * The locks held on every call path into each method (a must-analysis over the callers, from
     * the greatest set down). Re-acquiring one of them is reentrant, not a wait, and a lock held on
     * entry to every edge of a cycle is a gate that keeps the cycle's paths from running together:
     * the common callback shape (A's synchronized method calls B's, which calls back into A) is not
     * a deadlock when B is only ever entered from A.
     */
    private static List<Set<LockName>> heldOnEntry(CallGraph graph, LockModel locks, List<MethodInfo> methods) {
        List<Set<LockName>> held = new ArrayList<>(methods.size());
        Deque<MethodInfo> work = new ArrayDeque<>();
        BitSet queued = new BitSet(methods.size());
        for (MethodInfo m : methods) {
            boolean entry = graph.callers(m).isEmpty();
            held.add(entry ? Set.of() : null); // null: not yet known (the top of the lattice)
            if (!entry) {
                work.add(m);
                queued.set(m.id());
            }
        }
        Map<CallEdge, Set<LockName>> heldAtCall = new java.util.IdentityHashMap<>();
        while (!work.isEmpty()) {
            MethodInfo m = work.poll();
            queued.clear(m.id());
            Set<LockName> meet = null;
            for (CallEdge e : graph.callers(m)) {
                Set<LockName> callerHeld = held.get(e.caller().id());
                if (callerHeld == null) {
                    continue;
                }
                Set<LockName> atCall = heldAtCall.computeIfAbsent(e, edge -> namesHeldAt(locks, edge));
                if (callerHeld.isEmpty() && atCall.isEmpty()) {
                    // a path that holds nothing: the meet is empty whatever the other callers hold
                    meet = new java.util.TreeSet<>();
                    break;
                }
                Set<LockName> here = new java.util.TreeSet<>(callerHeld);
                here.addAll(atCall);
                if (meet == null) {
                    meet = here;
                } else {
                    meet.retainAll(here);
                }
            }
            if (meet == null || meet.equals(held.get(m.id()))) {
                continue;
            }
            held.set(m.id(), Set.copyOf(meet));
            for (CallEdge out : graph.facts(m).calls()) {
                if (!queued.get(out.callee().id())) {
                    work.add(out.callee());
                    queued.set(out.callee().id());
                }
            }
        }
        held.replaceAll(s -> s == null ? Set.of() : s);
        return held;
    }

    private static Set<LockName> namesHeldAt(LockModel locks, CallEdge call) {
        List<LockScope> scopes = locks.scopesIn(call.caller());
        if (scopes.isEmpty()) {
            return Set.of();
        }
        Set<LockName> names = new HashSet<>();
        for (LockScope scope : scopes) {
            if (scope.name() != null && scope.covers().test(call.site())) {
                names.add(scope.name());
            }
        }
        return names;
    }

    /** A lock outside the cycle held on entry to every edge's method serialises the paths. */
    private static boolean gated(Cycle cycle, List<Set<LockName>> heldOnEntry) {
        Set<LockName> common = null;
        for (Edge e : cycle.edges()) {
            Set<LockName> held = heldOnEntry.get(e.outer().method().id());
            if (common == null) {
                common = new HashSet<>(held);
            } else {
                common.retainAll(held);
            }
        }
        if (common == null) {
            return false;
        }
        for (Edge e : cycle.edges()) {
            common.remove(e.held());
        }
        return !common.isEmpty();
    }

    private static List<CallEdge> path(CallEdge first, Reach reach, List<Map<LockName, Reach>> summaries) {
        List<CallEdge> path = new ArrayList<>();
        path.add(first);
        Set<Integer> seen = new HashSet<>();
        Reach r = reach;
        while (r != null && r.via() != null && seen.add(r.via().callee().id())) {
            path.add(r.via());
            r = summaries.get(r.via().callee().id()).get(reach.acquisition().name());
        }
        return List.copyOf(path);
    }

    /**
     * The monitor taken at the end of {@code path} is the one {@code outer} already holds: {@code outer}
     * is a method's own monitor ({@code synchronized} method or {@code synchronized (this)}), every call
     * on the way goes to the same object ({@code m()}, {@code this.m()}, {@code super.m()}) of a class
     * in one hierarchy with the caller's, and the callee locks its own {@code this}. The lock graph names
     * a monitor by the class that declares the method, so a subclass's {@code synchronized} override
     * reached from its superclass would otherwise look like a second lock; it is one object's monitor,
     * and taking it again is reentrant.
     */
    private static boolean sameObjectMonitor(dev.racelint.analyzer.index.ProgramIndex index, LockScope outer,
            List<CallEdge> path, LockScope acquired) {
        if (!ownMonitor(outer) || !ownMonitor(acquired) || acquired.method() != path.get(path.size() - 1).callee()) {
            return false;
        }
        for (CallEdge call : path) {
            if (!(call.site() instanceof com.github.javaparser.ast.expr.MethodCallExpr m) || !onSameObject(m)
                    || call.callee().isStatic() || !oneHierarchy(index, call.caller().declaringType(),
                            call.callee().declaringType())) {
                return false;
            }
        }
        return true;
    }

    /** A synchronized instance method, or {@code synchronized (this)}, in the scope's own method. */
    private static boolean ownMonitor(LockScope scope) {
        if (scope.kind() != LockScope.Kind.MONITOR || scope.method().isStatic()) {
            return false;
        }
        if (scope.site() instanceof com.github.javaparser.ast.stmt.SynchronizedStmt sync) {
            return sync.getExpression() instanceof com.github.javaparser.ast.expr.ThisExpr t && t.getTypeName().isEmpty();
        }
        return scope.site() == scope.method().declaration();
    }

    /** {@code m()}, {@code this.m()} or {@code super.m()} outside any nested class: the caller's own object. */
    private static boolean onSameObject(com.github.javaparser.ast.expr.MethodCallExpr call) {
        boolean ownReceiver = call.getScope().map(scope -> scope instanceof com.github.javaparser.ast.expr.ThisExpr t
                && t.getTypeName().isEmpty() || scope instanceof com.github.javaparser.ast.expr.SuperExpr s
                && s.getTypeName().isEmpty()).orElse(true);
        boolean inNestedClass = call.findAncestor(com.github.javaparser.ast.expr.ObjectCreationExpr.class)
                .filter(c -> c.getAnonymousClassBody().isPresent()).isPresent()
                || call.findAncestor(com.github.javaparser.ast.stmt.LocalClassDeclarationStmt.class).isPresent();
        return ownReceiver && !inNestedClass;
    }

    private static boolean oneHierarchy(dev.racelint.analyzer.index.ProgramIndex index,
            dev.racelint.analyzer.index.TypeInfo a, dev.racelint.analyzer.index.TypeInfo b) {
        return a == b || index.isSubtypeOf(a, Set.of(b.qualifiedName())) || index.isSubtypeOf(b, Set.of(a.qualifiedName()));
    }

    /** Keeps one witness per ordered pair: the shortest, ties broken by position so the result is deterministic. */
    private static void add(Map<LockName, Map<LockName, Edge>> edges, Edge edge) {
        if (edge.held().equals(edge.acquired())) {
            return; // re-acquiring the lock already held: reentrant (or the same-table case of unordered-multi-row-lock)
        }
        Map<LockName, Edge> out = edges.computeIfAbsent(edge.held(), k -> new TreeMap<>());
        Edge existing = out.get(edge.acquired());
        if (existing == null || EDGE_ORDER.compare(edge, existing) < 0) {
            out.put(edge.acquired(), edge);
        }
    }

    private static final Comparator<Edge> EDGE_ORDER = Comparator.comparingInt(Edge::length)
            .thenComparing(e -> e.outer().method().signature())
            .thenComparing(e -> e.outer().anchor().file().toString())
            .thenComparingInt(e -> e.outer().anchor().region() == null ? 0 : e.outer().anchor().region().startLine())
            .thenComparing(e -> e.inner().anchor().file().toString())
            .thenComparingInt(e -> e.inner().anchor().region() == null ? 0 : e.inner().anchor().region().startLine());

    // ---- cycles --------------------------------------------------------------------------------

    /**
     * Elementary cycles, each once: within every strongly connected component, for each edge u -> v
     * the shortest way back v ..-> u; the cycle is kept in its rotation that starts at its smallest lock.
     */
    private static List<Cycle> cycles(Map<LockName, Map<LockName, Edge>> edges, int maxPerComponent) {
        List<Cycle> out = new ArrayList<>();
        for (Set<LockName> component : components(edges)) {
            if (component.size() < 2) {
                continue;
            }
            Map<List<LockName>, Cycle> found = new TreeMap<>(LockOrderGraph::compareSequences);
            for (LockName u : component) {
                for (Edge first : edges.getOrDefault(u, Map.of()).values()) {
                    if (!component.contains(first.acquired()) || found.size() >= maxPerComponent) {
                        continue;
                    }
                    List<Edge> back = shortestPath(edges, component, first.acquired(), u);
                    if (back == null) {
                        continue;
                    }
                    List<Edge> cycle = new ArrayList<>();
                    cycle.add(first);
                    cycle.addAll(back);
                    List<Edge> rotated = rotateToSmallest(cycle);
                    List<LockName> key = rotated.stream().map(Edge::held).toList();
                    found.putIfAbsent(key, new Cycle(List.copyOf(rotated)));
                }
            }
            out.addAll(found.values());
        }
        return out;
    }

    private static int compareSequences(List<LockName> a, List<LockName> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    private static List<Edge> rotateToSmallest(List<Edge> cycle) {
        int best = 0;
        for (int i = 1; i < cycle.size(); i++) {
            if (cycle.get(i).held().compareTo(cycle.get(best).held()) < 0) {
                best = i;
            }
        }
        List<Edge> rotated = new ArrayList<>(cycle.subList(best, cycle.size()));
        rotated.addAll(cycle.subList(0, best));
        return rotated;
    }

    /** Breadth-first, in lock-name order, inside one component. */
    private static List<Edge> shortestPath(Map<LockName, Map<LockName, Edge>> edges, Set<LockName> component,
            LockName from, LockName to) {
        if (from.equals(to)) {
            return List.of();
        }
        Map<LockName, Edge> reachedBy = new HashMap<>();
        Deque<LockName> queue = new ArrayDeque<>();
        queue.add(from);
        reachedBy.put(from, null);
        while (!queue.isEmpty()) {
            LockName at = queue.poll();
            for (Edge e : edges.getOrDefault(at, Map.of()).values()) {
                LockName next = e.acquired();
                if (!component.contains(next) || reachedBy.containsKey(next)) {
                    continue;
                }
                reachedBy.put(next, e);
                if (next.equals(to)) {
                    List<Edge> path = new ArrayList<>();
                    for (Edge step = e; step != null; step = reachedBy.get(step.held())) {
                        path.add(0, step);
                    }
                    return path;
                }
                queue.add(next);
            }
        }
        return null;
    }

    /** Tarjan's strongly connected components, iterative (lock graphs can be deep), in a stable order. */
    private static List<Set<LockName>> components(Map<LockName, Map<LockName, Edge>> edges) {
        Set<LockName> nodes = new java.util.TreeSet<>(edges.keySet());
        for (Map<LockName, Edge> out : edges.values()) {
            nodes.addAll(out.keySet());
        }
        Map<LockName, Integer> index = new HashMap<>();
        Map<LockName, Integer> low = new HashMap<>();
        Deque<LockName> stack = new ArrayDeque<>();
        Set<LockName> onStack = new HashSet<>();
        List<Set<LockName>> result = new ArrayList<>();
        int counter = 0;
        for (LockName root : nodes) {
            if (index.containsKey(root)) {
                continue;
            }
            Deque<Object[]> call = new ArrayDeque<>();
            call.push(new Object[] {root, List.copyOf(edges.getOrDefault(root, Map.of()).keySet()).iterator()});
            index.put(root, counter);
            low.put(root, counter++);
            stack.push(root);
            onStack.add(root);
            while (!call.isEmpty()) {
                Object[] frame = call.peek();
                LockName v = (LockName) frame[0];
                @SuppressWarnings("unchecked")
                java.util.Iterator<LockName> it = (java.util.Iterator<LockName>) frame[1];
                if (it.hasNext()) {
                    LockName w = it.next();
                    if (!index.containsKey(w)) {
                        index.put(w, counter);
                        low.put(w, counter++);
                        stack.push(w);
                        onStack.add(w);
                        call.push(new Object[] {w, List.copyOf(edges.getOrDefault(w, Map.of()).keySet()).iterator()});
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                call.pop();
                if (!call.isEmpty()) {
                    LockName parent = (LockName) call.peek()[0];
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    Set<LockName> component = new java.util.TreeSet<>();
                    LockName w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    result.add(component);
                }
            }
        }
        result.sort(Comparator.comparing(c -> c.iterator().next()));
        return result;
    }

    // ---- queries -------------------------------------------------------------------------------

    /** The cycles reported in {@code method} (the method holding the first lock of the cycle's first edge). */
    public List<Cycle> cyclesReportedIn(MethodInfo method) {
        return cyclesByMethod.getOrDefault(method.id(), List.of());
    }

    public List<Cycle> cycles() {
        return cycles;
    }

    public int lockCount() {
        Set<LockName> nodes = new HashSet<>(edges.keySet());
        edges.values().forEach(out -> nodes.addAll(out.keySet()));
        return nodes.size();
    }

    public int edgeCount() {
        return edges.values().stream().mapToInt(Map::size).sum();
    }

    public long buildMillis() {
        return buildNanos / 1_000_000;
    }
}
