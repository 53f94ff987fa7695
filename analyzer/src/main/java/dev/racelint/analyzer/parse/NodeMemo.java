package dev.racelint.analyzer.parse;

import com.github.javaparser.ast.Node;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A memo keyed by syntax-tree node identity that many threads read and write without a shared lock.
 * JavaParser's own {@code equals}/{@code hashCode} compare whole subtrees, so nodes are keyed by
 * identity; a synchronized identity map made the parallel phases take turns.
 *
 * <p>Only {@code get} and {@code put}: a computation that consults the memo for other nodes while it
 * runs (recursive typing) cannot use {@code computeIfAbsent} on a concurrent map. Two threads may
 * compute the same entry at once; the results are equal, so either may stay.
 */
public final class NodeMemo<V> {

    /** Entries per method of the program to size the memos of call sites and expressions for (0.5-8 measured). */
    public static final int EXPECTED_PER_METHOD = 4;

    private final ConcurrentHashMap<Key, V> map;

    public NodeMemo() {
        this(16);
    }

    /** Sized for about {@code expectedEntries}, so that a large program does not pay for the map's growth. */
    public NodeMemo(int expectedEntries) {
        map = new ConcurrentHashMap<>(Math.max(16, expectedEntries));
    }

    public V get(Node node) {
        return map.get(new Key(node));
    }

    public void put(Node node, V value) {
        map.put(new Key(node), value);
    }

    private record Key(Node node) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Key k && k.node == node;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(node);
        }
    }
}
