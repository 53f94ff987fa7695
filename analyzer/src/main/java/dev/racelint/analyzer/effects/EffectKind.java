package dev.racelint.analyzer.effects;

/**
 * What calling an external API does, as far as races are concerned. The catalogue maps methods
 * to these; later rules add database, lock and acknowledgement kinds.
 */
public enum EffectKind {
    /** A remote call: HTTP, broker publish, mail, RPC, cloud SDK. */
    NETWORK,
    /** The thread waits: Thread.sleep and friends. */
    SLEEP,
    /** Lambdas / method references passed to the call run on another thread, later. */
    HANDOFF,
    /** Lambdas passed to the call run right away inside a new or joined transaction. */
    TRANSACTION_CALLBACK,
    /** Programmatic transaction control on a JDBC connection (setAutoCommit, commit, rollback). */
    TRANSACTION_CONTROL,
    /** Publishing an in-process application event (delivered synchronously to listeners). */
    EVENT_PUBLISH,
    DB_READ,
    DB_WRITE,
    LOCK,
    UNLOCK,
    ACK,
    /** Claiming an idempotency key in a store the team declared (racelint.yml): a duplicate is detected. */
    IDEMPOTENCY_CLAIM,
    /**
     * Asking whether this instance leads or owns the work (leader election, partition ownership):
     * a scheduled job that leaves when it does not runs once per unit of work.
     */
    OWNERSHIP_CHECK,
    /**
     * Checking that a request really comes from its sender (a webhook's signature): an HTTP handler
     * that does is a webhook, which its sender redelivers.
     */
    SENDER_VERIFICATION,
    /**
     * Creating a record that cannot exist twice (a ZooKeeper node): it fails when the record is
     * already there, so the caller that leaves on that failure has lost to whoever created it.
     */
    EXCLUSIVE_CREATE,
    COMMIT,
    ROLLBACK
}
