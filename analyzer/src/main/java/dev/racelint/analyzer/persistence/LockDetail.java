package dev.racelint.analyzer.persistence;

/**
 * How a database statement locks, beyond "it takes a row lock".
 *
 * @param advisoryFunction  the advisory-lock function called, lower case ({@code pg_advisory_xact_lock},
 *                          {@code get_lock}...), empty when none
 * @param unorderedMultiRow a locking read over several rows with no ORDER BY (the plan picks the lock order)
 * @param nonBlocking       the lock never waits: {@code NOWAIT}, {@code SKIP LOCKED}, {@code pg_try_advisory_*}
 */
public record LockDetail(String advisoryFunction, boolean unorderedMultiRow, boolean nonBlocking) {

    public static final LockDetail NONE = new LockDetail("", false, false);

    public LockDetail {
        advisoryFunction = advisoryFunction == null ? "" : advisoryFunction;
    }

    public boolean advisory() {
        return !advisoryFunction.isEmpty();
    }

    /** Transaction-scoped advisory locks are released at commit, like row locks. */
    public boolean heldToCommit() {
        return advisoryFunction.contains("xact");
    }
}
