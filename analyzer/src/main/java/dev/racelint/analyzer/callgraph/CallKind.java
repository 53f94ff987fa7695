package dev.racelint.analyzer.callgraph;

/** How a caller reaches a callee. */
public enum CallKind {
    /** An ordinary method call or constructor call. */
    CALL,
    /** A method reference passed to an API that runs it inline (streams, Optional, templates). */
    METHOD_REFERENCE,
    /** An anonymous class callback passed to an API that runs it inline (TransactionTemplate). */
    CALLBACK,
    /** An application event published and delivered synchronously to a listener method. */
    EVENT
}
