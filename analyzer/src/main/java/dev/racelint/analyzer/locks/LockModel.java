package dev.racelint.analyzer.locks;

import dev.racelint.analyzer.index.MethodMemo;
import com.github.javaparser.Position;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.stmt.SynchronizedStmt;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.effects.EffectSummaries;
import dev.racelint.analyzer.effects.Witness;
import dev.racelint.analyzer.index.BodyNodes;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.PersistenceModel;
import dev.racelint.analyzer.resolve.ExpressionTyper;
import dev.racelint.analyzer.tx.ReachedEffect;
import dev.racelint.analyzer.tx.TransactionModel;
import dev.racelint.analyzer.tx.TransactionScope;
import com.github.javaparser.Range;
import com.github.javaparser.ast.Modifier;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.ClassExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.nio.file.Path;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.NullLiteralExpr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where locks are held inside a method: {@code synchronized} methods and blocks, explicit
 * {@code Lock.lock()} .. {@code unlock()}, and row locks from {@code SELECT ... FOR UPDATE} (or
 * pessimistic JPA reads) and advisory locks held to the end of the enclosing transaction. Each
 * scope names its lock (a {@link LockName}) when two methods can agree on it. Also what each lock
 * scope reaches on its own thread, through calls.
 */
public final class LockModel {
    /** The acquiring methods of {@code java.util.concurrent.locks.Lock}, matched only on a receiver typed as a lock. */
    static final Set<String> LOCK_METHODS = Set.of("lock", "lockInterruptibly", "tryLock");

    private final CallGraph graph;
    private final ExpressionTyper typer;
    private final PersistenceModel persistence;
    private final TransactionModel transactions;
    private volatile EffectSummaries summaries;
    private final MethodMemo<List<LockScope>> scopes;
    private final AdviceLocks advice;

    public LockModel(CallGraph graph, ExpressionTyper typer, PersistenceModel persistence, TransactionModel transactions) {
        this.graph = graph;
        this.typer = typer;
        this.persistence = persistence;
        this.transactions = transactions;
        this.scopes = new MethodMemo<>(graph.index());
        this.advice = new AdviceLocks(graph.index(), this::scopesIn);
    }

    /** A lock an {@code @Around} advice holds over the whole of {@code method} (bound to one of its annotations). */
    public java.util.Optional<LockScope> adviceLock(MethodInfo method) {
        return advice.around(method);
    }

    /** The lock scopes of a method, computed once. */
    public List<LockScope> scopesIn(MethodInfo method) {
        return scopes.get(method, m -> List.copyOf(computeScopes(m)));
    }

    private List<LockScope> computeScopes(MethodInfo method) {
        List<LockScope> out = new ArrayList<>();
        Node body = method.body();
        if (body == null) {
            return out;
        }
        Path file = method.declaringType().file().path();
        if (method.declaration().hasModifier(Modifier.Keyword.SYNCHRONIZED)) {
            TypeInfo owner = method.declaringType();
            LockName name = method.isStatic() ? LockName.classLiteral(owner.qualifiedName(), owner.simpleName())
                    : LockName.monitorOf(owner.qualifiedName(), owner.simpleName());
            out.add(new LockScope(LockScope.Kind.MONITOR, method, method.declaration(),
                    SourceLocations.of(file, method.nameNode(), "synchronized method " + method.displayName()),
                    "the monitor of synchronized " + method.displayName(), method.signature(), name, true, n -> true));
        }
        BodyNodes nodes = graph.index().bodyNodes(method);
        for (SynchronizedStmt sync : nodes.synchronizedBlocks()) {
            if (graph.index().isOwnCode(sync, method)) {
                Node block = sync.getBody();
                Position begin = sync.getBegin().orElse(null);
                Position end = sync.getExpression().getEnd().orElse(null);
                var region = begin != null && end != null
                        ? SourceLocations.region(new Range(begin, end)) : SourceLocations.region(sync);
                out.add(new LockScope(LockScope.Kind.MONITOR, method, sync,
                        new CodeLocation(file, region, "synchronized (" + sync.getExpression() + ")"),
                        "synchronized (" + sync.getExpression() + ")", "synchronized(" + sync.getExpression() + ")",
                        monitorName(sync.getExpression(), method), true,
                        n -> TransactionModel.isWithin(n, block)));
            }
        }
        for (MethodCallExpr call : nodes.calls()) {
            if (!LOCK_METHODS.contains(call.getNameAsString()) || call.getScope().isEmpty() || !isLock(call.getScope().get())
                    || !graph.index().isOwnCode(call, method)) {
                continue;
            }
            String receiver = call.getScope().get().toString();
            Position start = call.getEnd().orElse(null);
            Position end = unlockAfter(nodes.calls(), receiver, start);
            out.add(new LockScope(LockScope.Kind.LOCK, method, call,
                    SourceLocations.ofCall(file, call, receiver + "." + call.getNameAsString() + "()"),
                    receiver + "." + call.getNameAsString() + "()", receiver + "." + call.getNameAsString(),
                    lockObjectName(call.getScope().get(), method), !call.getNameAsString().equals("tryLock"),
                    n -> between(n, start, end)));
        }
        // a team's own lock API declared in racelint.yml: held from the acquiring call to its release on the
        // same receiver, or to the end of the method
        for (EffectSite site : graph.facts(method).effects()) {
            if (site.effect().kind() != EffectKind.LOCK || !graph.index().isOwnCode(site.call(), method)) {
                continue;
            }
            MethodCallExpr call = site.call();
            String receiver = call.getScope().map(Object::toString).orElse("");
            Position start = call.getEnd().orElse(null);
            Position end = releaseAfter(graph.facts(method).effects(), receiver, start);
            StringBuilder key = new StringBuilder();
            if (!call.getArguments().isEmpty()) {
                appendLiteralParts(call.getArgument(0), method.declaringType(), key);
            }
            String api = site.effect().api().replace("()", "");
            String name = api + "(" + (key.isEmpty() ? "" : "\"" + key + "\"") + ")";
            out.add(new LockScope(LockScope.Kind.LOCK, method, call, site.location().withLabel("takes " + name),
                    name, name, LockName.named(name), !call.getNameAsString().startsWith("try"),
                    n -> between(n, start, end)));
        }
        // ops() includes a DAO helper's lock one call away: a row lock outlives the helper, held to commit
        for (DbOp op : persistence.ops(method)) {
            boolean advisory = op.advisoryLock();
            if (!advisory && !(op.kind() == DbOp.Kind.READ && op.locked())) {
                continue;
            }
            boolean toCommit = !advisory || op.lockDetail().heldToCommit();
            TransactionScope scope = transactions.scopesIn(method).stream().filter(s -> s.covers().test(op.call()))
                    .findFirst().orElse(null);
            boolean inTransaction = scope != null || transactions.attribute(method)
                    .map(a -> a.propagation().runsInTransaction()).orElse(false);
            // In autocommit the lock is gone when the statement returns: it is acquired (and may wait) but
            // held over nothing.
            boolean held = !toCommit || inTransaction;
            Position start = op.end().getEnd().orElse(null);
            TransactionScope s = toCommit ? scope : null;
            boolean waits = !op.lockDetail().nonBlocking();
            if (advisory) {
                String key = advisoryKey(op, method);
                out.add(new LockScope(LockScope.Kind.ADVISORY, method, op.call(),
                        op.location().withLabel("advisory lock: " + op.describe()),
                        "the advisory lock taken by " + op.describe() + (toCommit ? " (held until commit)" : ""),
                        op.call().toString(), LockName.advisory(key), waits,
                        n -> held && between(n, start, null) && (s == null || s.covers().test(n))));
            } else {
                out.add(new LockScope(LockScope.Kind.ROW_LOCK, method, op.call(),
                        op.location().withLabel("row lock: " + op.describe()),
                        "the " + op.table() + " row lock taken by " + op.describe() + " (held until commit)",
                        op.call().toString(), op.table().isEmpty() ? null : LockName.table(op.table()), waits,
                        n -> held && between(n, start, null) && (s == null || s.covers().test(n))));
            }
        }
        return out;
    }

    // ---- lock names ----------------------------------------------------------------------------

    /** {@code synchronized (expr)}: this, a class literal, or a field; locals and parameters have no agreed name. */
    private LockName monitorName(Expression lockExpr, MethodInfo method) {
        Expression e = unwrap(lockExpr);
        if (e instanceof ThisExpr t && t.getTypeName().isEmpty()) {
            TypeInfo owner = method.declaringType();
            return LockName.monitorOf(owner.qualifiedName(), owner.simpleName());
        }
        if (e instanceof ClassExpr c) {
            TypeRef ref = graph.index().resolveType(c.getType(), c);
            String qualified = ref.isKnown() ? ref.name() : c.getType().asString();
            return LockName.classLiteral(qualified, ref.isKnown() ? ref.simpleName() : c.getType().asString());
        }
        return fieldName(e, method);
    }

    /** {@code lock.lock()}: a lock field, {@code rw.writeLock()} of a field, or Redisson's {@code getLock("name")}. */
    private LockName lockObjectName(Expression receiver, MethodInfo method) {
        Expression e = unwrap(receiver);
        if (e instanceof MethodCallExpr m && m.getScope().isPresent()
                && (m.getNameAsString().equals("writeLock") || m.getNameAsString().equals("readLock"))) {
            return fieldName(unwrap(m.getScope().get()), method);
        }
        if (e instanceof MethodCallExpr m) {
            return lookedUpName(m, method);
        }
        if (e instanceof NameExpr n && LocalVariables.declarationOf(n.getNameAsString(), n) instanceof VariableDeclarator v) {
            Expression init = v.getInitializer().map(LockModel::unwrap).orElse(null);
            if (init instanceof MethodCallExpr m) {
                return lockObjectName(m, method);
            }
            return init instanceof NameExpr || init instanceof FieldAccessExpr ? fieldName(init, method) : null;
        }
        return fieldName(e, method);
    }

    /**
     * A lock value (the receiver of {@code lock()}, typed as a lock) returned by a call given a key: {@code registry.getLock("name")}, {@code lockRegistry.obtain(key)}. Whatever the lookup
     * method is called, two lookups with the same key get the same lock - except from a JDK container
     * ({@code locks.computeIfAbsent("a", ..)}), one lock per map instance, where the key alone names nothing.
     * A receiver of unknown type (the lock library not on the classpath) counts as a lookup: the lock-typed
     * result and its key are the evidence.
     */
    private LockName lookedUpName(MethodCallExpr call, MethodInfo method) {
        if (call.getArguments().isEmpty() || call.getScope().isEmpty()) {
            return null;
        }
        for (String c : typer.typeOf(call.getScope().get()).type().candidates()) {
            if (c.startsWith("java.")) {
                return null;
            }
        }
        StringBuilder name = new StringBuilder();
        appendLiteralParts(call.getArgument(0), method.declaringType(), name);
        return name.isEmpty() ? null : LockName.named(name.toString());
    }

    /** The literal parts of a lock key; computed parts become {@code *} (keys of one family share a name). */
    private void appendLiteralParts(Expression e, TypeInfo context, StringBuilder out) {
        Expression x = unwrap(e);
        if (x instanceof StringLiteralExpr s) {
            out.append(s.getValue());
        } else if (x instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS) {
            appendLiteralParts(b.getLeft(), context, out);
            appendLiteralParts(b.getRight(), context, out);
        } else if (x instanceof NameExpr n && literalOfLocal(n) != null) {
            // a local initialised once with a literal is that literal, whichever method declares it
            LiteralExpr literal = literalOfLocal(n);
            out.append(literal instanceof StringLiteralExpr s ? s.getValue() : literal.toString());
        } else if ((x instanceof NameExpr || x instanceof FieldAccessExpr) && isConstant(x, context)) {
            // a constant names the lock; a variable is a key of the family
            String text = x.toString();
            out.append("{").append(text.substring(text.lastIndexOf('.') + 1)).append("}");
        } else {
            out.append('*');
        }
    }

    /** The literal a local is initialised with, when it is never assigned again; else null. */
    private static LiteralExpr literalOfLocal(NameExpr name) {
        if (LocalVariables.declarationOf(name.getNameAsString(), name) instanceof VariableDeclarator local
                && local.getInitializer().map(LockModel::unwrap).orElse(null) instanceof LiteralExpr literal
                && !(literal instanceof NullLiteralExpr) && !dev.racelint.analyzer.resolve.LocalVariables.reassigned(local)) {
            return literal;
        }
        return null;
    }

    /**
     * Does {@code e} read a constant: a static final field (or an interface field, or an enum constant) of a
     * project type, or a static field of a library type named through its type ({@code Keys.LOCK}), whose
     * modifiers the index cannot see and which a key only ever reads as a constant.
     */
    private boolean isConstant(Expression e, TypeInfo context) {
        ProgramIndex index = graph.index();
        if (e instanceof NameExpr n) {
            if (LocalVariables.declarationOf(n.getNameAsString(), n) != null) {
                return false;
            }
            for (TypeInfo t = context; t != null; t = t.outer()) {
                ProgramIndex.FieldRef field = index.findField(t, n.getNameAsString());
                if (field != null) {
                    return isConstantField(field.owner(), n.getNameAsString());
                }
            }
            return false;
        }
        FieldAccessExpr f = (FieldAccessExpr) e;
        ExpressionTyper.Typed scope = typer.typeOf(unwrap(f.getScope()));
        if (scope.type().isProject()) {
            ProgramIndex.FieldRef field = index.findField(scope.type().project(), f.getNameAsString());
            return field != null && isConstantField(field.owner(), f.getNameAsString());
        }
        return scope.isTypeName();
    }

    private static boolean isConstantField(TypeInfo owner, String name) {
        VariableDeclarator declarator = owner.fieldDeclarator(name);
        if (declarator == null) {
            // no declarator: an enum constant, or a record component (an instance value)
            return owner.declaration() instanceof EnumDeclaration;
        }
        return owner.isInterface() || declarator.getParentNode().orElse(null) instanceof FieldDeclaration field
                && field.isStatic() && field.isFinal();
    }

    /** A field named by {@code f}, {@code this.f}, {@code other.f} or {@code Type.F}, by its declaring type. */
    private LockName fieldName(Expression e, MethodInfo method) {
        ProgramIndex index = graph.index();
        if (e instanceof NameExpr n) {
            if (LocalVariables.declarationOf(n.getNameAsString(), n) != null) {
                return null;
            }
            for (TypeInfo t = method.declaringType(); t != null; t = t.outer()) {
                ProgramIndex.FieldRef field = index.findField(t, n.getNameAsString());
                if (field != null) {
                    return LockName.field(field.owner().qualifiedName(), field.owner().simpleName(), n.getNameAsString());
                }
            }
            return null;
        }
        if (e instanceof FieldAccessExpr f) {
            Expression scope = unwrap(f.getScope());
            TypeInfo owner = null;
            if (scope instanceof ThisExpr t && t.getTypeName().isEmpty()) {
                owner = method.declaringType();
            } else {
                TypeRef ref = typer.typeOf(scope).type();
                owner = ref.isProject() ? ref.project() : null;
            }
            if (owner != null) {
                ProgramIndex.FieldRef field = index.findField(owner, f.getNameAsString());
                if (field != null) {
                    return LockName.field(field.owner().qualifiedName(), field.owner().simpleName(), f.getNameAsString());
                }
            }
        }
        return null;
    }

    /** An advisory lock's key: the bound arguments after the SQL, else the statement itself. */
    private String advisoryKey(DbOp op, MethodInfo method) {
        TypeInfo context = op.call().findAncestor(TypeDeclaration.class).map(typer::typeOf).orElse(method.declaringType());
        List<String> keys = new ArrayList<>();
        var args = op.call().getArguments();
        for (int i = 1; i < args.size(); i++) {
            Expression a = unwrap(args.get(i));
            if ((a instanceof NameExpr || a instanceof FieldAccessExpr) && isConstant(a, context)) {
                // a constant is the same key however it is qualified (KEY, Keys.KEY, com.acme.Keys.KEY)
                String text = a.toString();
                keys.add(text.substring(text.lastIndexOf('.') + 1));
            } else if (a instanceof NameExpr n && literalOfLocal(n) != null) {
                keys.add(literalOfLocal(n).toString());
            } else if (!(a instanceof ClassExpr) && !(a instanceof LambdaExpr)) {
                keys.add(a.toString());
            }
        }
        return keys.isEmpty() ? op.lockDetail().advisoryFunction() + " in " + op.describe() : String.join(", ", keys);
    }

    private static Expression unwrap(Expression e) {
        Expression x = e;
        while (x instanceof EnclosedExpr en) {
            x = en.getInner();
        }
        while (x instanceof CastExpr c) {
            x = c.getExpression();
        }
        return x;
    }

    private boolean isLock(Expression receiver) {
        if (receiver instanceof MethodCallExpr m && (m.getNameAsString().equals("writeLock") || m.getNameAsString().equals("readLock"))) {
            return true;
        }
        for (String c : typer.typeOf(receiver).type().candidates()) {
            if (c.startsWith("java.util.concurrent.locks.") || c.endsWith(".RLock") || c.equals("org.redisson.api.RLock")) {
                return true;
            }
        }
        return false;
    }

    private static Position releaseAfter(List<EffectSite> effects, String receiver, Position after) {
        Position best = null;
        for (EffectSite site : effects) {
            if (site.effect().kind() == EffectKind.UNLOCK
                    && site.call().getScope().map(Object::toString).orElse("").equals(receiver)) {
                Position at = site.call().getBegin().orElse(null);
                if (at != null && after != null && at.isAfter(after) && (best == null || at.isBefore(best))) {
                    best = at;
                }
            }
        }
        return best;
    }

    private static Position unlockAfter(List<MethodCallExpr> calls, String receiver, Position after) {
        Position best = null;
        for (MethodCallExpr call : calls) {
            if (call.getNameAsString().equals("unlock") && call.getScope().map(Object::toString).orElse("").equals(receiver)) {
                Position at = call.getBegin().orElse(null);
                if (at != null && after != null && at.isAfter(after) && (best == null || at.isBefore(best))) {
                    best = at;
                }
            }
        }
        return best;
    }

    private static boolean between(Node node, Position start, Position end) {
        Position at = node.getBegin().orElse(null);
        return at != null && start != null && at.isAfter(start) && (end == null || at.isBefore(end));
    }

    /** Network I/O and sleeps reached while the scope's lock is held, one per API, with the shortest path. */
    public List<ReachedEffect> ioWhileHeld(LockScope scope) {
        EffectSummaries sums = summaries();
        Map<String, ReachedEffect> best = new LinkedHashMap<>();
        var facts = graph.facts(scope.method());
        for (EffectSite site : facts.effects()) {
            if (heldAcross(site) && scope.covers().test(site.call())) {
                best.putIfAbsent(site.effect().apiKey(), new ReachedEffect(site, List.of()));
            }
        }
        for (CallEdge edge : facts.calls()) {
            if (!scope.covers().test(edge.site())) {
                continue;
            }
            for (Map.Entry<String, Witness> e : sums.of(edge.callee()).entrySet()) {
                List<CallEdge> path = new ArrayList<>();
                path.add(edge);
                path.addAll(sums.path(e.getValue()));
                ReachedEffect existing = best.get(e.getKey());
                if (existing == null || existing.calls().size() > path.size()) {
                    best.put(e.getKey(), new ReachedEffect(e.getValue().site(), List.copyOf(path)));
                }
            }
        }
        return new ArrayList<>(best.values());
    }

    /** Network I/O, or a sleep that is not a short pacing gap ({@link ShortSleeps}). */
    private boolean heldAcross(EffectSite site) {
        if (site.effect().kind() == EffectKind.NETWORK) {
            return true;
        }
        if (site.effect().kind() != EffectKind.SLEEP) {
            return false;
        }
        TypeInfo context = site.call().findAncestor(TypeDeclaration.class).map(typer::typeOf).orElse(null);
        return context == null || !ShortSleeps.isShort(site.call(), context, graph.index(), typer);
    }

    private EffectSummaries summaries() {
        EffectSummaries s = summaries;
        if (s == null) {
            synchronized (this) {
                if (summaries == null) {
                    summaries = EffectSummaries.compute(graph,
                            this::heldAcross,
                            edge -> true, transactions.limits().summaryCalls());
                }
                s = summaries;
            }
        }
        return s;
    }
}
