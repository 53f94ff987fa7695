package dev.racelint.analyzer.effects;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.callgraph.CallerClosure;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.callgraph.MethodFacts;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Per-method transitive effects, closed over the call graph once: for each method and each
 * distinct API reached (by {@link ApiEffect#apiKey()}), the shortest witness. Which calls
 * propagate effects is a parameter, so that a transaction-aware view can stop at calls that
 * suspend or start a transaction of their own.
 */
public final class EffectSummaries {

    private final CallGraph graph;
    private final List<Map<String, Witness>> summaries;

    private EffectSummaries(CallGraph graph, List<Map<String, Witness>> summaries) {
        this.graph = graph;
        this.summaries = summaries;
    }

    /** With witnesses of at most {@code maxCalls} calls. */
    public static EffectSummaries compute(CallGraph graph, Predicate<EffectSite> effects, Predicate<CallEdge> propagates,
            int maxCalls) {
        List<Map<String, Witness>> summaries = CallerClosure.close(graph, m -> {
            Map<String, Witness> own = new LinkedHashMap<>();
            for (EffectSite site : graph.facts(m).effects()) {
                if (effects.test(site)) {
                    own.putIfAbsent(site.effect().apiKey(), new Witness(site, null, 0));
                }
            }
            return own;
        }, propagates, Witness::depth, (w, edge) -> new Witness(w.site(), edge, w.depth() + 1), maxCalls);
        return new EffectSummaries(graph, summaries);
    }

    /** The effects {@code method} reaches, by API key, each with its shortest witness. */
    public Map<String, Witness> of(MethodInfo method) {
        return summaries.get(method.id());
    }

    /** The calls from {@code start}'s witness down to the effect, in order (empty when direct). */
    public List<CallEdge> path(Witness start) {
        List<CallEdge> path = new ArrayList<>();
        Witness w = start;
        Map<Integer, Boolean> guard = new HashMap<>();
        while (w != null && w.via() != null) {
            path.add(w.via());
            MethodInfo next = w.via().callee();
            if (guard.put(next.id(), Boolean.TRUE) != null) {
                break;
            }
            w = summaries.get(next.id()).get(w.site().effect().apiKey());
        }
        return path;
    }

    public CallGraph graph() {
        return graph;
    }

    /** Convenience: the facts of a method. */
    public MethodFacts facts(MethodInfo method) {
        return graph.facts(method);
    }
}
