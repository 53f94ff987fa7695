package dev.racelint.analyzer.locks;

import com.github.javaparser.ast.Node;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.function.Predicate;

/**
 * A stretch of a method that runs while a lock is held.
 *
 * @param kind    what kind of lock
 * @param anchor  the acquisition: the synchronized keyword or method name, the lock() call, the FOR UPDATE read
 * @param lock    how messages name the lock, e.g. {@code synchronized (this)} or {@code stockLock.lock()}
 * @param covers  which nodes of the method run while it is held
 */
public record LockScope(Kind kind, MethodInfo method, CodeLocation anchor, String lock, String anchorText,
        Predicate<Node> covers) {

    public enum Kind { MONITOR, LOCK, ROW_LOCK }
}
