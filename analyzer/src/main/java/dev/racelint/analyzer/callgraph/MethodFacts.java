package dev.racelint.analyzer.callgraph;

import dev.racelint.analyzer.index.MethodInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * What one method does, from one walk of its body: the scanned methods it calls on its own
 * thread, and the catalogued API calls it makes (network, sleep, transaction callbacks...).
 * Code handed to other threads (executors, @Async, future callbacks) is not part of it.
 */
public final class MethodFacts {
    private final MethodInfo method;
    final List<CallEdge> calls = new ArrayList<>();
    final List<EffectSite> effects = new ArrayList<>();
    /** {@code @Async} (on the method or its class): a call through the bean's proxy only queues it on an executor. */
    boolean asyncWhenProxied;

    MethodFacts(MethodInfo method) {
        this.method = method;
    }

    public MethodInfo method() {
        return method;
    }

    public List<CallEdge> calls() {
        return calls;
    }

    public List<EffectSite> effects() {
        return effects;
    }

    /**
     * Whether a caller going through the bean's proxy (a listener container, another bean) gets control
     * back at once while this method runs later on an executor ({@code @Async} and its EJB equivalents).
     */
    public boolean asyncWhenProxied() {
        return asyncWhenProxied;
    }
}
