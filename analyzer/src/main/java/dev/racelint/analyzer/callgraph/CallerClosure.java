package dev.racelint.analyzer.callgraph;

import dev.racelint.analyzer.AnalysisLimits;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * Per-method facts closed over the call graph: what each method reaches itself or through the
 * calls it makes, one witness per key, the one with the fewest calls. A work list pushes each
 * change to the callers, so the cost follows the call edges, not pairs of methods. Witnesses are
 * at most {@code maxCalls} calls long: by default {@link #MAX_WITNESS_CALLS}, so that with the scope's
 * own call into the method a path is at most {@code witness-calls} long.
 */
public final class CallerClosure {

    /**
     * The most calls a witness goes through. The graph is context-insensitive, so a longer chain is
     * mostly a path no request takes (a transaction that "reaches" an HTTP call through twenty framework
     * hops); the bound also keeps the summaries small on large code bases.
     */
    public static final int MAX_WITNESS_CALLS = AnalysisLimits.Limit.WITNESS_CALLS.defaultValue() - 1;

    private CallerClosure() {}

    /**
     * @param own        a method's own facts by key, in a mutable map (it becomes the method's summary)
     * @param propagates which calls carry a callee's facts to its caller
     * @param depth      how many calls a witness goes through
     * @param extend     the caller's witness: the callee's witness reached through the call
     * @param maxCalls   the most calls a witness goes through
     * @return summaries indexed by {@link MethodInfo#id()}
     */
    public static <K, V> List<Map<K, V>> close(CallGraph graph, Function<MethodInfo, Map<K, V>> own,
            Predicate<CallEdge> propagates, ToIntFunction<V> depth, BiFunction<V, CallEdge, V> extend, int maxCalls) {
        List<MethodInfo> methods = graph.index().methods();
        List<Map<K, V>> summaries = new ArrayList<>(methods.size());
        Deque<MethodInfo> work = new ArrayDeque<>();
        BitSet queued = new BitSet(methods.size());
        for (MethodInfo m : methods) {
            Map<K, V> facts = own.apply(m);
            summaries.add(facts);
            if (!facts.isEmpty()) {
                work.add(m);
                queued.set(m.id());
            }
        }
        while (!work.isEmpty()) {
            MethodInfo callee = work.poll();
            queued.clear(callee.id());
            Map<K, V> calleeSummary = summaries.get(callee.id());
            for (CallEdge edge : graph.callers(callee)) {
                if (!propagates.test(edge)) {
                    continue;
                }
                Map<K, V> callerSummary = summaries.get(edge.caller().id());
                boolean changed = false;
                for (Map.Entry<K, V> e : new ArrayList<>(calleeSummary.entrySet())) {
                    if (depth.applyAsInt(e.getValue()) + 1 > maxCalls) {
                        continue;
                    }
                    V existing = callerSummary.get(e.getKey());
                    if (existing == null || depth.applyAsInt(existing) > depth.applyAsInt(e.getValue()) + 1) {
                        callerSummary.put(e.getKey(), extend.apply(e.getValue(), edge));
                        changed = true;
                    }
                }
                if (changed && !queued.get(edge.caller().id())) {
                    work.add(edge.caller());
                    queued.set(edge.caller().id());
                }
            }
        }
        return summaries;
    }
}
