package dev.racelint.analyzer.index;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

/**
 * A per-method memo indexed by {@link MethodInfo#id()}: a lock-free array read on the hot paths of
 * the rules (a method's transaction attribute is asked for at every call edge a search crosses).
 * When two threads compute the same entry at once, both get the one that was stored first, so every
 * caller sees the same instance.
 */
public final class MethodMemo<V> {

    private final AtomicReferenceArray<V> values;

    public MethodMemo(ProgramIndex index) {
        this.values = new AtomicReferenceArray<>(index.methods().size());
    }

    public V get(MethodInfo method, Function<MethodInfo, V> compute) {
        int id = method.id();
        if (id < 0 || id >= values.length()) {
            return Objects.requireNonNull(compute.apply(method));
        }
        V known = values.get(id);
        if (known != null) {
            return known;
        }
        V computed = Objects.requireNonNull(compute.apply(method));
        return values.compareAndSet(id, null, computed) ? computed : values.get(id);
    }
}
