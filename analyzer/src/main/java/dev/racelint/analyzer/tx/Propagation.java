package dev.racelint.analyzer.tx;

/** Transaction propagation, Spring's names (Jakarta's TxType values map onto them). */
public enum Propagation {
    REQUIRED, SUPPORTS, MANDATORY, REQUIRES_NEW, NOT_SUPPORTED, NEVER, NESTED;

    /** Runs inside a transaction (its caller's or a new one). */
    public boolean runsInTransaction() {
        return this == REQUIRED || this == MANDATORY || this == REQUIRES_NEW || this == NESTED;
    }

    /** Runs with the caller's transaction suspended (or refuses to run in one). */
    public boolean suspends() {
        return this == NOT_SUPPORTED || this == NEVER;
    }
}
