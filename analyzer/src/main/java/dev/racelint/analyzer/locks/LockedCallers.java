package dev.racelint.analyzer.locks;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Whether a method only ever runs while a caller holds a lock: every chain of callers up from it
 * reaches a call made inside a lock scope ({@code lock.tryLock()} ... {@code unlock()},
 * {@code synchronized}, an advisory lock) before it reaches a method nobody calls (an entry point).
 * Row locks do not count (they guard rows, not the code). Chains longer than {@code depth} calls
 * are not followed and count as unlocked.
 */
public final class LockedCallers {

    private LockedCallers() {}

    /** The lock held at one of the calls that every chain passes through, when every chain has one. */
    public static Optional<LockScope> heldAroundEveryCall(CallGraph graph, Function<MethodInfo, List<LockScope>> scopes,
            MethodInfo method, int depth) {
        LockScope witness = null;
        Deque<MethodInfo> work = new ArrayDeque<>();
        Deque<Integer> levels = new ArrayDeque<>();
        Set<MethodInfo> seen = new HashSet<>();
        work.add(method);
        levels.add(0);
        seen.add(method);
        while (!work.isEmpty()) {
            MethodInfo m = work.poll();
            int level = levels.poll();
            List<CallEdge> callers = graph.callers(m);
            if (callers.isEmpty()) {
                return Optional.empty(); // an entry point reached with no lock held
            }
            for (CallEdge edge : callers) {
                Optional<LockScope> held = scopes.apply(edge.caller()).stream()
                        .filter(s -> s.kind() != LockScope.Kind.ROW_LOCK && s.covers().test(edge.site())).findFirst();
                if (held.isPresent()) {
                    witness = witness == null ? held.get() : witness;
                    continue;
                }
                if (level + 1 >= depth) {
                    return Optional.empty();
                }
                if (seen.add(edge.caller())) {
                    work.add(edge.caller());
                    levels.add(level + 1);
                }
            }
        }
        return Optional.ofNullable(witness);
    }
}
