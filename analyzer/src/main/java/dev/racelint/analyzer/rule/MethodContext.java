package dev.racelint.analyzer.rule;

import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.handlers.Handler;
import dev.racelint.analyzer.handlers.HandlerModel;
import dev.racelint.analyzer.handlers.JobFacts;
import dev.racelint.analyzer.handlers.Reachability;
import dev.racelint.analyzer.locks.LockModel;
import dev.racelint.analyzer.locks.LockOrderGraph;
import dev.racelint.analyzer.retry.RetryFacts;
import dev.racelint.analyzer.locks.LockScope;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.MethodFlow;
import dev.racelint.analyzer.persistence.PersistenceModel;
import dev.racelint.analyzer.tx.TransactionAttribute;
import java.util.Optional;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.tx.ReachedEffect;
import dev.racelint.analyzer.tx.TransactionModel;
import dev.racelint.analyzer.tx.TransactionScope;
import java.util.List;
import java.util.Set;

/** What a rule may ask about one method of the program. */
public final class MethodContext {
    private final MethodInfo method;
    private final TransactionModel transactions;
    private final PersistenceModel persistence;
    private final HandlerModel handlers;
    private final Reachability reachability;
    private final LockModel locks;
    private final LockOrderGraph lockOrder;
    private final RetryFacts retries;
    private final JobFacts jobs;

    public MethodContext(MethodInfo method, TransactionModel transactions, PersistenceModel persistence,
            HandlerModel handlers, Reachability reachability, LockModel locks, LockOrderGraph lockOrder,
            RetryFacts retries, JobFacts jobs) {
        this.method = method;
        this.transactions = transactions;
        this.persistence = persistence;
        this.handlers = handlers;
        this.reachability = reachability;
        this.locks = locks;
        this.lockOrder = lockOrder;
        this.retries = retries;
        this.jobs = jobs;
    }

    /** How a scheduled job makes sure it alone does the work (leadership, partition ownership, local state). */
    public JobFacts jobs() {
        return jobs;
    }

    /** Retry shapes in this method whose waits have no jitter or no bound. */
    public RetryFacts retries() {
        return retries;
    }

    /** Lock scopes in this method: synchronized, Lock.lock()..unlock(), FOR UPDATE row locks to commit. */
    public List<LockScope> lockScopes() {
        return locks.scopesIn(method);
    }

    /** Lock scopes in another method (a caller that reads a row and passes it here). */
    public List<LockScope> lockScopesOf(MethodInfo other) {
        return locks.scopesIn(other);
    }

    /** The {@code @Around} advice lock of another method, like {@link #adviceLock()}. */
    public Optional<LockScope> adviceLockOf(MethodInfo other) {
        return locks.adviceLock(other);
    }

    /** A lock an {@code @Around} advice takes before this method runs and releases after (bound to its annotation). */
    public Optional<LockScope> adviceLock() {
        return locks.adviceLock(method);
    }

    /**
     * Lock-order cycles reported in this method: those whose first edge's outer lock is held here.
     * Each cycle is reported once in the whole program.
     */
    public List<LockOrderGraph.Cycle> lockOrderCycles() {
        return lockOrder.cyclesReportedIn(method);
    }

    /** Network I/O and sleeps reached while a lock scope's lock is held. */
    public List<ReachedEffect> ioWhileHeld(LockScope scope) {
        return locks.ioWhileHeld(scope);
    }

    /** This method as an entry point (HTTP endpoint, message listener, webhook), if it is one. */
    public Optional<Handler> handler() {
        return handlers.handler(method);
    }

    /**
     * The authority every entry point reaching this method requires, when each one is an HTTP handler that
     * requires one ({@link dev.racelint.analyzer.handlers.PrivilegedEntryPoints}); empty otherwise.
     */
    public Optional<dev.racelint.analyzer.handlers.PrivilegedEntryPoints.Privilege> onlyPrivilegedCallers() {
        return handlers.privileged().onlyPrivilegedCallers(method);
    }

    /** The HTTP handlers of the scanned tree, to match a client call's URL to the controller serving it. */
    public dev.racelint.analyzer.handlers.InTreeRoutes routes() {
        return handlers.routes();
    }

    /** For a {@code @Cacheable} method: whether it loads with {@code sync = true}; empty when not cacheable. */
    public Optional<Boolean> cacheableSync() {
        return handlers.cacheableSync(method);
    }

    /** Cache writes in a loop that give every key the same fixed expiry. */
    public List<com.github.javaparser.ast.expr.MethodCallExpr> fixedTtlCacheWritesInLoops() {
        return dev.racelint.analyzer.handlers.CacheWrites.fixedTtlInLoop(transactions.graph().index(), method);
    }

    /** What this method reaches through calls on its own thread. */
    /** Entry points of every method (a rule asking about another method, e.g. the scheduled jobs). */
    public HandlerModel handlers() {
        return handlers;
    }

    public Reachability reachability() {
        return reachability;
    }

    /** The numeric bounds of this analysis (call depths, path lengths), as racelint.yml may set them. */
    public dev.racelint.analyzer.AnalysisLimits limits() {
        return transactions.limits();
    }

    /** The transaction model (scopes and call boundaries of any method). */
    public TransactionModel transactions() {
        return transactions;
    }

    /** The transaction attribute a proxy applies to this method, if any. */
    public Optional<TransactionAttribute> transactionAttribute() {
        return transactions.attribute(method);
    }

    /** Database operations in this method (one call into project helpers followed), in source order. */
    public List<DbOp> databaseOperations() {
        return persistence.ops(method);
    }

    /** Data flow between this method's database operations, conditions and writes. */
    public Optional<MethodFlow> dataFlow() {
        return persistence.flow(method);
    }

    /**
     * Does {@code node} of this method run inside a database transaction: a scope of this method
     * covers it, the method is transactional, or every caller of the method is?
     */
    public boolean runsInTransaction(com.github.javaparser.ast.Node node) {
        for (TransactionScope scope : transactionScopes()) {
            if (scope.covers().test(node)) {
                return true;
            }
        }
        if (transactions.attribute(method).map(a -> a.propagation().runsInTransaction()).orElse(false)) {
            return true;
        }
        var callers = transactions.graph().callers(method);
        return !callers.isEmpty() && callers.stream().allMatch(edge ->
                transactions.attribute(edge.caller()).map(a -> a.propagation().runsInTransaction()).orElse(false)
                        || !transactions.scopesIn(edge.caller()).stream().filter(s -> s.covers().test(edge.site())).toList().isEmpty());
    }

    /** The program's persistence model (entities, helpers). */
    public PersistenceModel persistence() {
        return persistence;
    }

    public MethodInfo method() {
        return method;
    }

    /** The calls, object creations, catch clauses, synchronized blocks and loops of this method's body. */
    public dev.racelint.analyzer.index.BodyNodes bodyNodes() {
        return transactions.graph().index().bodyNodes(method);
    }

    /** Transaction scopes that begin in this method (annotated, callback, JDBC). */
    public List<TransactionScope> transactionScopes() {
        return transactions.scopesIn(method);
    }

    /**
     * The first write or locking read on {@code scope}'s transaction (or a transactional caller it joins);
     * empty when the transaction only reads.
     */
    public Optional<dev.racelint.analyzer.tx.TransactionWork.Held> transactionHolds(TransactionScope scope) {
        return new dev.racelint.analyzer.tx.TransactionWork(transactions, persistence).held(scope);
    }

    /**
     * The first write or locking read on {@code scope}'s transaction that may run before {@code reached}'s
     * call; empty when the transaction only reads up to it.
     */
    public Optional<dev.racelint.analyzer.tx.TransactionWork.Held> transactionHoldsBefore(TransactionScope scope,
            ReachedEffect reached) {
        return new dev.racelint.analyzer.tx.TransactionWork(transactions, persistence).heldBefore(scope, reached);
    }

    /** Whether code after {@code reached}'s call on its path writes or locks and then reaches an effect of {@code kinds}. */
    public boolean transactionHoldsThenReachesAfter(TransactionScope scope, ReachedEffect reached, Set<EffectKind> kinds) {
        return new dev.racelint.analyzer.tx.TransactionWork(transactions, persistence).holdsThenReachesAfter(scope, reached, kinds);
    }

    /** Effects of the given kinds that run inside {@code scope}, on its transaction. */
    public List<ReachedEffect> effectsIn(TransactionScope scope, Set<EffectKind> kinds) {
        return transactions.effectsIn(scope, kinds);
    }
}
