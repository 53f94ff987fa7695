package dev.racelint.analyzer.tx;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.PersistenceModel;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import dev.racelint.analyzer.resolve.CallResolver;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What a transaction holds on the database: the first write or locking read that runs on its
 * transaction - in the scope's own code, in calls that join it (unproxied calls, and proxied ones
 * whose propagation joins: REQUIRED, SUPPORTS, MANDATORY, NESTED), at most {@code reach-depth}
 * calls deep - or, for a method whose transaction a caller's may already be, a caller that runs it
 * inside another transaction. A transaction with none of these only reads: a rollback has nothing
 * to undo and no row lock is held, so a remote call inside it holds a pooled connection and no more.
 * JDBC on a connection taken from a pool the code built itself ({@link OwnPoolConnections}) is not on it.
 */
public final class TransactionWork {

    /** What makes a transaction hold state: the operation, or the caller whose transaction it may join. */
    public record Held(Optional<DbOp> operation, Optional<CallEdge> joinedFrom) {}

    private final TransactionModel transactions;
    private final PersistenceModel persistence;
    private final OwnPoolConnections ownPool;
    /** The transaction is declared {@code readOnly}: the database refuses its writes, so only its locks hold. */
    private final boolean readOnly;

    public TransactionWork(TransactionModel transactions, PersistenceModel persistence) {
        this(transactions, persistence, new OwnPoolConnections(persistence.index()), false);
    }

    private TransactionWork(TransactionModel transactions, PersistenceModel persistence, OwnPoolConnections ownPool,
            boolean readOnly) {
        this.transactions = transactions;
        this.persistence = persistence;
        this.ownPool = ownPool;
        this.readOnly = readOnly;
    }

    /**
     * For a JDBC scope the connection the code took itself is the transaction's: no pool is apart from it.
     * For an annotated method whose attribute (as Spring resolves it: the method's own annotation before its
     * class's) is {@code readOnly = true}, the transaction it starts is a read-only one: Spring marks the
     * connection read-only (PostgreSQL and MySQL then reject INSERT, UPDATE, DELETE) and JPA does not flush,
     * so its writes hold nothing; a locking read or an advisory lock still does. When it joins a caller's
     * transaction instead, the caller's attributes apply: {@link #joinedFrom} reports that.
     */
    private TransactionWork forScope(TransactionScope scope) {
        if (scope.kind() == TransactionScope.Kind.JDBC) {
            return new TransactionWork(transactions, persistence, OwnPoolConnections.NONE, false);
        }
        boolean declaredReadOnly = scope.kind() == TransactionScope.Kind.ANNOTATED_METHOD
                && transactions.attribute(scope.method()).map(TransactionAttribute::readOnly).orElse(false);
        return declaredReadOnly ? new TransactionWork(transactions, persistence, ownPool, true) : this;
    }

    /** The first write or locking read on {@code scope}'s transaction, or the joining caller; empty when it only reads. */
    public Optional<Held> held(TransactionScope scope) {
        return forScope(scope).heldOn(scope);
    }

    private Optional<Held> heldOn(TransactionScope scope) {
        for (DbOp op : persistence.directOps(scope.method())) {
            if (scope.covers().test(op.call()) && holds(op, scope.method())) {
                return Optional.of(new Held(Optional.of(op), Optional.empty()));
            }
        }
        Optional<MethodCallExpr> unknown = unrecognisedDataAccess(scope.method(), scope.covers());
        if (unknown.isPresent()) {
            return Optional.of(new Held(Optional.empty(), Optional.empty()));
        }
        Set<Integer> seen = new HashSet<>();
        seen.add(scope.method().id());
        Optional<Held> below = heldBelow(scope.method(), scope.covers(), seen);
        if (below.isPresent()) {
            return below;
        }
        return joinedFrom(scope).map(edge -> new Held(Optional.empty(), Optional.of(edge)));
    }

    /**
     * The first write or locking read on {@code scope}'s transaction that may run before the call that
     * {@code reached} ends in: at each step of the path, code of that method that ends before the step's
     * call starts (or sits in a loop around it, so an earlier iteration runs it first) and the callees
     * it joins; or a caller whose transaction the scope may join. Empty when everything before the call
     * on every path only reads: up to the call the transaction holds a pooled connection and no more.
     * Code in the other arm of a branch than the step (with no loop around it) does not run with it.
     */
    public Optional<Held> heldBefore(TransactionScope scope, ReachedEffect reached) {
        return forScope(scope).heldOnBefore(scope, reached);
    }

    /** The methods on {@code reached}'s path: the scope's method, then each callee down to the call. */
    private static List<MethodInfo> frames(TransactionScope scope, ReachedEffect reached) {
        List<MethodInfo> frames = new java.util.ArrayList<>();
        frames.add(scope.method());
        reached.calls().forEach(edge -> frames.add(edge.callee()));
        return frames;
    }

    /** The call each frame of {@link #frames} takes on the path: the call sites, then the effect's own call. */
    private static List<Node> steps(ReachedEffect reached) {
        List<Node> steps = new java.util.ArrayList<>();
        reached.calls().forEach(edge -> steps.add(edge.site()));
        steps.add(reached.site().call());
        return steps;
    }

    private Optional<Held> heldOnBefore(TransactionScope scope, ReachedEffect reached) {
        List<MethodInfo> frames = frames(scope, reached);
        List<Node> steps = steps(reached);
        Set<Integer> seen = new HashSet<>();
        frames.forEach(m -> seen.add(m.id()));
        for (int i = 0; i < frames.size(); i++) {
            MethodInfo method = frames.get(i);
            Node step = steps.get(i);
            Predicate<Node> covers = i == 0 ? scope.covers() : node -> true;
            // the other arm of an if/else or switch than the step never runs with it
            Predicate<Node> before = node -> covers.test(node) && mayRunBefore(node, step)
                    && !dev.racelint.analyzer.index.ExclusiveBranches.exclusive(node, step);
            for (DbOp op : persistence.directOps(method)) {
                if (before.test(op.call()) && holds(op, method)) {
                    return Optional.of(new Held(Optional.of(op), Optional.empty()));
                }
            }
            if (unrecognisedDataAccess(method, before).isPresent()) {
                return Optional.of(new Held(Optional.empty(), Optional.empty()));
            }
            Optional<Held> below = heldBelow(method, before, seen);
            if (below.isPresent()) {
                return below;
            }
            if (i + 1 < frames.size() && inLoop(step)) {
                // an earlier iteration ran the rest of the path whole, its writes after the call included
                for (MethodInfo later : frames.subList(i + 1, frames.size())) {
                    Optional<Held> whole = heldAnywhere(later, seen);
                    if (whole.isPresent()) {
                        return whole;
                    }
                }
                break;
            }
        }
        return joinedFrom(scope).map(edge -> new Held(Optional.empty(), Optional.of(edge)));
    }

    /**
     * Whether, after the call that {@code reached} ends in, code on the same path writes or locks on the
     * transaction and then reaches an effect of {@code kinds} again: at each step of the path, code of that
     * method that may run after the step (not in the other arm of a branch) which holds - a holding operation,
     * or a joined callee that holds - before an effect site or a call that reaches one, or a call that both
     * holds and reaches one. The reached path is the shortest one to its API, so a later call of the same API
     * (a notification after the writes) is only seen here: a small-harm verdict drawn from the reached path
     * alone would miss it.
     */
    public boolean holdsThenReachesAfter(TransactionScope scope, ReachedEffect reached,
            Set<dev.racelint.analyzer.effects.EffectKind> kinds) {
        return forScope(scope).holdsThenReachesAfterOn(scope, reached, kinds);
    }

    private boolean holdsThenReachesAfterOn(TransactionScope scope, ReachedEffect reached,
            Set<dev.racelint.analyzer.effects.EffectKind> kinds) {
        var sums = transactions.sameTransactionEffects(kinds);
        List<MethodInfo> frames = frames(scope, reached);
        List<Node> steps = steps(reached);
        for (int i = 0; i < frames.size(); i++) {
            MethodInfo method = frames.get(i);
            Node step = steps.get(i);
            Predicate<Node> covers = i == 0 ? scope.covers() : node -> true;
            Predicate<Node> after = node -> covers.test(node) && node != step
                    && !dev.racelint.analyzer.index.ExclusiveBranches.exclusive(node, step)
                    && (!mayRunBefore(node, step) || sharedLoop(node, step));
            List<Node> laterReaches = new java.util.ArrayList<>();
            for (var site : transactions.graph().facts(method).effects()) {
                if (kinds.contains(site.effect().kind()) && after.test(site.call())) {
                    laterReaches.add(site.call());
                }
            }
            for (CallEdge edge : transactions.graph().facts(method).calls()) {
                if (after.test(edge.site()) && joins(edge) && !sums.of(edge.callee()).isEmpty()) {
                    Set<Integer> seen = new HashSet<>(frames.stream().map(MethodInfo::id).toList());
                    if (seen.add(edge.callee().id()) && heldAnywhere(edge.callee(), seen).isPresent()) {
                        return true; // the callee itself writes and calls out: its order is not weighed
                    }
                    laterReaches.add(edge.site());
                }
            }
            for (Node later : laterReaches) {
                Predicate<Node> between = node -> after.test(node) && mayRunBefore(node, later)
                        && !dev.racelint.analyzer.index.ExclusiveBranches.exclusive(node, later);
                for (DbOp op : persistence.directOps(method)) {
                    if (between.test(op.call()) && holds(op, method)) {
                        return true;
                    }
                }
                Set<Integer> seen = new HashSet<>(frames.stream().map(MethodInfo::id).toList());
                if (unrecognisedDataAccess(method, between).isPresent() || heldBelow(method, between, seen).isPresent()) {
                    return true;
                }
            }
        }
        return false;
    }

    private Optional<Held> heldAnywhere(MethodInfo method, Set<Integer> seen) {
        for (DbOp op : persistence.directOps(method)) {
            if (holds(op, method)) {
                return Optional.of(new Held(Optional.of(op), Optional.empty()));
            }
        }
        if (unrecognisedDataAccess(method, node -> true).isPresent()) {
            return Optional.of(new Held(Optional.empty(), Optional.empty()));
        }
        return heldBelow(method, node -> true, seen);
    }

    private static boolean inLoop(Node step) {
        return sharedLoop(step, step);
    }

    /**
     * Whether {@code node} may run before {@code step} in one execution of their method: it lies
     * inside {@code step} (an argument, evaluated first), ends before {@code step} starts, or shares
     * a loop with it (an earlier iteration). A call that encloses {@code step} runs after it.
     */
    private static boolean mayRunBefore(Node node, Node step) {
        if (node == step) {
            return false;
        }
        if (TransactionModel.isWithin(node, step)) {
            return true;
        }
        if (TransactionModel.isWithin(step, node)) {
            return sharedLoop(node, step);
        }
        var end = node.getEnd();
        var start = step.getBegin();
        if (end.isEmpty() || start.isEmpty()) {
            return true;
        }
        return end.get().isBefore(start.get()) || sharedLoop(node, step);
    }

    private static boolean sharedLoop(Node node, Node step) {
        for (Node n = step.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof com.github.javaparser.ast.body.CallableDeclaration<?>
                    || n instanceof com.github.javaparser.ast.expr.LambdaExpr) {
                return false;
            }
            if (dev.racelint.analyzer.index.BodyNodes.isLoop(n) && TransactionModel.isWithin(node, n)) {
                return true;
            }
        }
        return false;
    }

    /** The first holding operation in the callees {@code from} reaches where {@code covers}, on its transaction. */
    private Optional<Held> heldBelow(MethodInfo from, Predicate<Node> covers, Set<Integer> seen) {
        Deque<MethodInfo> work = new ArrayDeque<>();
        Deque<Integer> depth = new ArrayDeque<>();
        for (CallEdge edge : transactions.graph().facts(from).calls()) {
            if (covers.test(edge.site()) && joins(edge) && seen.add(edge.callee().id())) {
                work.add(edge.callee());
                depth.add(1);
            }
        }
        int maxDepth = transactions.limits().reachDepth();
        while (!work.isEmpty()) {
            MethodInfo m = work.poll();
            int d = depth.poll();
            for (DbOp op : persistence.directOps(m)) {
                if (holds(op, m)) {
                    return Optional.of(new Held(Optional.of(op), Optional.empty()));
                }
            }
            if (unrecognisedDataAccess(m, node -> true).isPresent()) {
                return Optional.of(new Held(Optional.empty(), Optional.empty()));
            }
            if (d >= maxDepth) {
                continue;
            }
            for (CallEdge edge : transactions.graph().facts(m).calls()) {
                if (joins(edge) && seen.add(edge.callee().id())) {
                    work.add(edge.callee());
                    depth.add(d + 1);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A call of {@code method} (where {@code covers}) on a data-access API that the persistence model did
     * not make an operation of ({@code createNamedQuery(..).executeUpdate()} through a project helper, a
     * mapper method without a statement we read): it may write, so the transaction is not taken as
     * read-only. Calls inside a recognised operation's chain and catalogued effects are not counted.
     */
    private Optional<MethodCallExpr> unrecognisedDataAccess(MethodInfo method, Predicate<Node> covers) {
        if (readOnly) {
            return Optional.empty(); // a write it might be is refused on a read-only transaction
        }
        List<DbOp> ops = persistence.directOps(method);
        Set<Node> effects = new HashSet<>();
        transactions.graph().facts(method).effects().forEach(site -> effects.add(site.call()));
        for (MethodCallExpr call : persistence.index().ownCalls(method)) {
            if (!covers.test(call) || effects.contains(call)
                    || ops.stream().anyMatch(op -> TransactionModel.isWithin(call, op.end()) || op.call() == call)
                    || ownPool.onOwnPool(call, method)) {
                continue;
            }
            CallResolver.Resolution r = persistence.resolver().resolve(call);
            if (r.targets().stream().anyMatch(t -> t.body() != null)) {
                continue; // project code: followed as a call
            }
            if (!r.targets().isEmpty()) {
                if (r.targets().stream().allMatch(t -> dataAccessType(t.declaringType()))) {
                    return Optional.of(call);
                }
                continue;
            }
            Optional<com.github.javaparser.ast.expr.Expression> receiver = call.getScope();
            if (receiver.isPresent()) {
                TypeRef type = persistence.resolver().typer().typeOf(receiver.get()).type();
                // a java.lang type named first is that type (String in a file importing java.sql.*), no other guess
                boolean javaLang = type.name() != null && type.name().startsWith("java.lang.");
                if (!javaLang && type.candidates().stream().anyMatch(TransactionWork::inDataAccessPackage)
                        && !frameworkRepositoryRead(type.candidates(), call)) {
                    return Optional.of(call);
                }
            }
        }
        return Optional.empty();
    }

    /** Packages of database APIs (a call into one that is no recognised read may write). */
    private static final List<String> DATA_ACCESS_PACKAGES = List.of("java.sql.", "javax.sql.", "jakarta.persistence.",
            "javax.persistence.", "org.hibernate.", "org.springframework.jdbc.", "org.springframework.orm.",
            "org.springframework.data.", "org.apache.ibatis.", "org.mybatis.", "com.baomidou.mybatisplus.",
            "tk.mybatis.", "org.jooq.", "org.jdbi.", "io.ebean.", "org.sql2o.");

    /**
     * Value types that live in a database API's package but run no statement: Spring Data's paging and
     * sorting values ({@code Page}, {@code PageRequest}, {@code Sort}) and JDBC's date values.
     */
    private static final List<String> DATA_VALUE_TYPES = List.of("java.sql.Timestamp", "java.sql.Date",
            "org.springframework.data.domain.");

    private static boolean inDataAccessPackage(String qualifiedName) {
        return DATA_ACCESS_PACKAGES.stream().anyMatch(qualifiedName::startsWith)
                && DATA_VALUE_TYPES.stream().noneMatch(qualifiedName::startsWith);
    }

    /**
     * The read methods Spring Data's own repository interfaces declare ({@code CrudRepository},
     * {@code PagingAndSortingRepository} and their List variants): on a receiver typed as one of those
     * interfaces (a parameter {@code PagingAndSortingRepository<T, ID> repo}), the call only selects.
     */
    private static final Set<String> FRAMEWORK_REPOSITORY_READS = Set.of("findAll", "findAllById", "findById",
            "existsById", "count");

    private static boolean frameworkRepositoryRead(List<String> receiverTypes, MethodCallExpr call) {
        return FRAMEWORK_REPOSITORY_READS.contains(call.getNameAsString())
                && receiverTypes.stream().allMatch(dev.racelint.analyzer.persistence.DbOpClassifier.SPRING_DATA::contains);
    }

    /** A project interface (a mapper, a repository) extending a database API's type, or annotated as one. */
    private boolean dataAccessType(TypeInfo type) {
        for (TypeRef sup : persistence.index().supertypeClosure(type)) {
            if (sup.candidates().stream().anyMatch(TransactionWork::inDataAccessPackage)) {
                return true;
            }
        }
        return new Annotations(persistence.index()).has(type.declaration(), DATA_ACCESS_ANNOTATIONS);
    }

    private static final Set<String> DATA_ACCESS_ANNOTATIONS = Set.of("org.apache.ibatis.annotations.Mapper",
            "org.springframework.stereotype.Repository");

    /** A write or lock of {@code op} (in {@code method}) on the transaction: not on a connection of the code's own pool. */
    private boolean holds(DbOp op, MethodInfo method) {
        return ((op.isWrite() && !readOnly) || op.locked() || op.advisoryLock()) && !ownPool.onOwnPool(op.call(), method);
    }

    /** Does the callee run on the caller's transaction? */
    private boolean joins(CallEdge edge) {
        return switch (transactions.boundary(edge)) {
            case SAME -> true;
            case OUTSIDE -> false;
            case OWN_SCOPE -> transactions.attribute(edge.callee())
                    .map(a -> a.propagation() != Propagation.REQUIRES_NEW).orElse(false);
        };
    }

    /**
     * For an annotated method that joins an existing transaction: a proxied call into it from code that
     * runs in a transaction (the caller's own scope, or a transactional caller), whose work we do not
     * weigh here. Empty for REQUIRES_NEW, callbacks and JDBC scopes, which always start their own.
     */
    private Optional<CallEdge> joinedFrom(TransactionScope scope) {
        if (scope.kind() != TransactionScope.Kind.ANNOTATED_METHOD) {
            return Optional.empty();
        }
        boolean joining = transactions.attribute(scope.method())
                .map(a -> a.propagation() != Propagation.REQUIRES_NEW).orElse(false);
        if (!joining) {
            return Optional.empty();
        }
        for (CallEdge edge : transactions.graph().callers(scope.method())) {
            if (!edge.viaProxy()) {
                continue;
            }
            boolean callerTransactional = transactions.attribute(edge.caller())
                    .map(a -> a.propagation().runsInTransaction()).orElse(false);
            List<TransactionScope> callerScopes = transactions.scopesIn(edge.caller());
            if (callerTransactional || callerScopes.stream().anyMatch(s -> s.covers().test(edge.site()))) {
                return Optional.of(edge);
            }
        }
        return Optional.empty();
    }
}
