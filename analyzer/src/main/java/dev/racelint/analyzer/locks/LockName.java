package dev.racelint.analyzer.locks;

/**
 * The identity of a lock that two code paths can agree on, so that acquisitions in different
 * methods meet in the lock-order graph: a class's monitor, a lock field, a table's row locks, an
 * advisory lock key, a named distributed lock.
 *
 * @param id      the key that decides "same lock", e.g. {@code field:com.acme.Ledger.lock} or {@code table:accounts}
 * @param display how messages name it, e.g. {@code Ledger.lock} or {@code accounts row lock}
 */
public record LockName(String id, String display) implements Comparable<LockName> {

    static LockName monitorOf(String qualifiedType, String simpleName) {
        return new LockName("monitor:" + qualifiedType, "the monitor of " + simpleName);
    }

    static LockName classLiteral(String qualifiedType, String simpleName) {
        return new LockName("class:" + qualifiedType, simpleName + ".class");
    }

    static LockName field(String qualifiedOwner, String simpleOwner, String field) {
        return new LockName("field:" + qualifiedOwner + "." + field, simpleOwner + "." + field);
    }

    static LockName named(String name) {
        return new LockName("named:" + name, "the distributed lock \"" + name + "\"");
    }

    static LockName table(String table) {
        return new LockName("table:" + table, "the " + table + " row lock");
    }

    static LockName advisory(String key) {
        return new LockName("advisory:" + key, "the advisory lock " + key);
    }

    @Override
    public int compareTo(LockName other) {
        return id.compareTo(other.id);
    }

    @Override
    public String toString() {
        return display;
    }
}
