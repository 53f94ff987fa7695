package dev.racelint.analyzer.locks;

import com.github.javaparser.ast.Node;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.function.Predicate;

/**
 * A stretch of a method that runs while a lock is held.
 *
 * @param kind    what kind of lock
 * @param site    the acquiring node: the method declaration, the synchronized statement, the lock() call, the query call
 * @param anchor  the acquisition: the synchronized keyword or method name, the lock() call, the FOR UPDATE read
 * @param lock    how messages name the acquisition, e.g. {@code synchronized (this)} or {@code stockLock.lock()}
 * @param name    the lock's identity across methods, or null when it cannot be told (a lock in a local variable)
 * @param waits   acquiring it blocks until the lock is free (not a try-lock, NOWAIT or SKIP LOCKED)
 * @param covers  which nodes of the method run while it is held
 */
public record LockScope(Kind kind, MethodInfo method, Node site, CodeLocation anchor, String lock, String anchorText,
        LockName name, boolean waits, Predicate<Node> covers) {

    public enum Kind { MONITOR, LOCK, ROW_LOCK, ADVISORY }
}
