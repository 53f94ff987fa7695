package dev.racelint.analyzer.handlers;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Whether every HTTP entry point that reaches a method has a property, walking its callers up to
 * {@code reach-depth} calls: the facts "only privileged callers" and "only file uploads" ask it.
 * Anything else on the way up - a handler of another kind, a handler without the property, a method
 * with no caller in the tree that is no handler, callers beyond the depth - makes the answer no.
 */
final class EveryEntryPoint {

    private EveryEntryPoint() {}

    /**
     * The witness of the nearest HTTP handler when every entry point reaching {@code start} has one;
     * empty otherwise.
     *
     * @param witness what an HTTP handler shows (its privilege, its upload parameter), empty when it lacks it
     */
    static <T> Optional<T> nearestIfEvery(MethodInfo start, HandlerModel handlers, Reachability reachability,
            Function<MethodInfo, Optional<T>> witness) {
        int maxDepth = reachability.limits().reachDepth();
        T nearest = null;
        BitSet seen = new BitSet();
        Deque<MethodInfo> work = new ArrayDeque<>();
        Deque<Integer> depths = new ArrayDeque<>();
        seen.set(start.id());
        work.add(start);
        depths.add(0);
        while (!work.isEmpty()) {
            MethodInfo m = work.poll();
            int depth = depths.poll();
            Optional<Handler> handler = handlers.handler(m);
            List<CallEdge> callers = reachability.callers(m);
            if (handler.isPresent()) {
                if (handler.get().kind() != Handler.Kind.HTTP) {
                    return Optional.empty();
                }
                Optional<T> shown = witness.apply(m);
                if (shown.isEmpty()) {
                    return Optional.empty();
                }
                if (nearest == null) {
                    nearest = shown.get();
                }
            } else if (callers.isEmpty()) {
                return Optional.empty(); // called from outside the tree: who calls it is not known
            }
            if (!callers.isEmpty() && depth >= maxDepth) {
                return Optional.empty();
            }
            for (CallEdge edge : callers) {
                if (!seen.get(edge.caller().id())) {
                    seen.set(edge.caller().id());
                    work.add(edge.caller());
                    depths.add(depth + 1);
                }
            }
        }
        return Optional.ofNullable(nearest);
    }
}
