package dev.racelint.rules;

import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.MethodFlow;
import dev.racelint.analyzer.persistence.PersistenceModel;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import com.github.javaparser.ast.Node;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.handlers.Reachability.Reached;
import dev.racelint.analyzer.handlers.UploadEntryPoints;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.schema.SchemaModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A read decides whether an insert on the same table happens, and nothing in the database stops a second insert. */
@RuleMetadata(
        id = "check-then-act",
        name = "CheckThenAct",
        shape = "1",
        title = "Existence or limit check decides an insert (time-of-check to time-of-use)",
        description = "A read (exists, count, find) decides whether an insert into the same table or entity "
                + "happens, and nothing in the database makes a second writer fail. Two requests can both pass "
                + "the check and both insert: duplicate rows, or a limit exceeded. A transaction around the "
                + "check and the insert does not help: both transactions read before either writes.",
        level = Level.ERROR,
        precision = Precision.HIGH,
        cwe = "367",
        tags = {"database", "race-condition"},
        fix = "Let the database decide: a unique (or partial unique) constraint and an insert that expects to "
                + "fail (ON CONFLICT / catch the duplicate-key exception), or a conditional update for limits.")
public final class CheckThenActRule implements Rule {

    /**
     * How many calls below the checking method an insert is looked for when the call that leads to it
     * does more than the insert (a service method that inserts a user, then its roles): a controller's
     * check, then a service's insert.
     */
    private static final int CALLS_TO_INSERT = 2;

    private static final String CACHE_KEY_FIX = "Claim the key in one command: setIfAbsent(key, value, ttl) (SET NX EX), "
            + "and go on only when it returns true; delete the key when the work fails if a retry must be let through.";

    @Override
    public void check(MethodContext context, Reporter reporter) {
        MethodFlow flow = context.dataFlow().orElse(null);
        // a method that only runs under a caller's lock (a per-tenant lock around the scheduler's run)
        // cannot race itself: asked only when there is something to report
        boolean[] asked = new boolean[2];
        Reporter unlessLocked = finding -> {
            if (!asked[0]) {
                asked[0] = true;
                asked[1] = dev.racelint.analyzer.locks.LockedCallers.heldAroundEveryCall(context.transactions().graph(),
                        context::lockScopesOf, context.method(),
                        context.limits().get(dev.racelint.analyzer.AnalysisLimits.Limit.REACH_DEPTH)).isPresent();
            }
            if (!asked[1]) {
                reporter.report(finding);
            }
        };
        if (flow != null) {
            checkOwnInserts(context, flow, unlessLocked);
            stateTransitions(context, flow, unlessLocked);
        }
        insertsBelow(context, flow, unlessLocked);
        cacheKeyChecks(context, unlessLocked);
    }

    private static final String TRANSITION_FIX = "Make the transition one conditional statement: UPDATE .. SET state = "
            + "<new> WHERE id = ? AND state = <expected> (MyBatis-Plus: update(entity, wrapper.eq(id).eq(state)); JPA: "
            + "@Version or a @Modifying query with the old state in its WHERE), and go on only when it reports one row.";

    /**
     * A row's state read and tested, then moved on by an update that selects the row by its key only
     * ({@link dev.racelint.analyzer.persistence.StateTransitions}): two requests both pass the test and both
     * apply the transition. A row lock taken by the read (or before it), an {@code @Version} entity, a lock
     * held around both the read and the update, or an advice lock around the method leave it out.
     */
    private void stateTransitions(MethodContext context, MethodFlow flow, Reporter reporter) {
        if (context.adviceLock().isPresent()) {
            return;
        }
        var file = context.method().declaringType().file().path();
        var typer = context.persistence().resolver().typer();
        var annotations = context.persistence().resolver().annotations();
        java.util.function.Function<com.github.javaparser.ast.expr.NameExpr, java.util.Set<String>> ids = record -> {
            var type = typer.typeOf(record).type();
            return type.isProject() ? dev.racelint.analyzer.persistence.EntityModel.idProperties(type.project(), annotations)
                    : java.util.Set.of();
        };
        // a JDK collection by the static type (java.util, not a Map): its contains(x) is a membership test
        java.util.function.Predicate<com.github.javaparser.ast.expr.Expression> jdkCollection = e -> typer.typeOf(e).type()
                .candidates().stream().anyMatch(n -> n.startsWith("java.util.") && !n.endsWith("Map")
                        && n.indexOf('.', "java.util.".length()) < 0);
        var persistence = context.persistence();
        java.util.function.Function<DbOp, java.util.Optional<dev.racelint.analyzer.sql.SqlStatement>> declared = op -> {
            var targets = persistence.resolver().resolve(op.call()).targets();
            return targets.size() == 1 ? persistence.classifier().declaredSqlStatement(targets.get(0))
                    : java.util.Optional.empty();
        };
        for (var t : dev.racelint.analyzer.persistence.StateTransitions.in(flow, ids, jdkCollection, declared)) {
            DbOp read = t.read();
            DbOp write = t.write();
            if (PersistenceRules.lockedReadBefore(context, flow.ops(), write)
                    || context.lockScopes().stream().anyMatch(s -> s.waits()
                            && s.kind() != dev.racelint.analyzer.locks.LockScope.Kind.ROW_LOCK
                            && s.covers().test(read.call()) && s.covers().test(write.call()))) {
                continue;
            }
            CodeLocation readAt = read.location().withLabel("reads the row: " + read.describe());
            String guard = t.guard().toString() + storedTest(t.guard(), t.getter());
            CodeLocation testAt = SourceLocations.of(file, t.getter(), "tests " + t.getter() + " in: " + guard);
            CodeLocation writeAt = write.location().withLabel("writes " + t.setter() + " by the row's key only: "
                    + write.describe());
            Message message = Message.builder()
                    .link(PersistenceRules.name(read), 0)
                    .text(" reads a row of " + write.table() + " and the test ")
                    .link(guard, 1)
                    .text(" on its " + t.getter().getNameAsString() + "() decides whether ")
                    .link(PersistenceRules.name(write), 2)
                    .text(" runs, which writes that same property (" + t.setter() + ") selecting the row by its key"
                            + " only. Two requests (or a request and a job) can both read the old state, both pass the"
                            + " test and both apply the transition. Put the expected state in the update's WHERE"
                            + " (AND the tested column = the state tested) and go on only when it changed one row."
                            + PrivilegedCallers.sentence(context))
                    .build();
            String fingerprint = Fingerprints.of(descriptor().id(), context.method().signature(), write.call().toString(),
                    t.getter().toString());
            reporter.report(new Finding(descriptor().id(), PrivilegedCallers.level(descriptor(), context), message,
                    write.location().withLabel(write.describe()), List.of(readAt, testAt, writeAt),
                    List.of(readAt, testAt, writeAt), TRANSITION_FIX, fingerprint, context.method().signature()));
        }
    }

    /**
     * For a condition that is a boolean local holding the test ({@code ok} after {@code ok = WAITING ==
     * run.getState()}): " (= <the test>)", so the message shows what was tested; empty otherwise.
     */
    private static String storedTest(com.github.javaparser.ast.expr.Expression guard,
            com.github.javaparser.ast.expr.MethodCallExpr getter) {
        if (guard.isAncestorOf(getter)) {
            return "";
        }
        for (var at = getter.getParentNode().orElse(null); at != null; at = at.getParentNode().orElse(null)) {
            if (at instanceof com.github.javaparser.ast.body.VariableDeclarator v && v.getInitializer().isPresent()) {
                return " (= " + v.getInitializer().get() + ")";
            }
            if (at instanceof com.github.javaparser.ast.expr.AssignExpr a) {
                return " (= " + a.getValue() + ")";
            }
        }
        return "";
    }

    /**
     * A guard kept in a cache key, read and then set in two commands ({@code get(key)}, then
     * {@code set(key, ..)} when no value was there): two requests both read no key and both pass.
     */
    private void cacheKeyChecks(MethodContext context, Reporter reporter) {
        var file = context.method().declaringType().file().path();
        for (var check : dev.racelint.analyzer.handlers.CacheKeyChecks.in(context.method(), context.persistence().resolver())) {
            String read = check.readVia() != null ? check.readVia() : check.read().getNameAsString() + "()";
            String set = check.setVia() != null ? check.setVia() : check.set().getNameAsString() + "()";
            CodeLocation readAt = SourceLocations.of(file, check.read(), "checks: " + read + " of key " + check.key());
            CodeLocation setAt = SourceLocations.of(file, check.set(), "writes: " + set + " of key " + check.key());
            Message message = Message.builder()
                    .link(read, 0)
                    .text(" (a read of the cache key " + check.key() + ") decides whether ")
                    .link(set, 1)
                    .text(" (a plain SET of the same key) runs, but nothing stops two requests both reading no key"
                            + " and both passing the check: set the key in one command that fails when it exists"
                            + " (setIfAbsent / SET NX) and go on only when it returns true.")
                    .build();
            String fingerprint = Fingerprints.of(descriptor().id(), context.method().signature(), check.set().toString(),
                    check.read().toString());
            reporter.report(new Finding(descriptor().id(), descriptor().level(), message, setAt, List.of(readAt, setAt),
                    List.of(readAt, setAt), CACHE_KEY_FIX, fingerprint, context.method().signature()));
        }
    }

    /** Inserts among this method's own operations (or one-operation helpers) that a read or a validator decides. */
    private void checkOwnInserts(MethodContext context, MethodFlow flow, Reporter reporter) {
        List<DbOp> ops = flow.ops();
        for (DbOp write : ops) {
            if (!isInsert(write, flow) || write.upsert() || write.table().isEmpty()
                    || PersistenceModel.duplicateCaught(write.call()) || duplicateCaughtInHelper(context, write)) {
                continue;
            }
            if (PersistenceRules.lockedReadBefore(context, ops, write)) {
                continue;
            }
            boolean reported = false;
            for (DbOp check : flow.decidingReads(write.call(), write)) {
                if (PersistenceRules.lockHeld(context, check) || keyedInDatabase(context, write, check) || readsHistory(context, check)
                        || insertsFoundRows(flow, write, check)) {
                    continue;
                }
                reporter.report(finding(descriptor(), context, check, write, List.of(), undeclared(context, write, check)));
                reported = true;
                break;
            }
            // a validator's read, like an insert further down, only where the schema shows no key - or where
            // it only asks whether rows with the inserted values are there (COUNT / EXISTS by columns)
            for (DbOp check : reported ? List.<DbOp>of() : validatorChecks(context, write.call(), write)) {
                Optional<String> undeclared = undeclared(context, write, check);
                if (PersistenceRules.lockHeld(context, check) || keyedInDatabase(context, write, check) || readsHistory(context, check)
                        || (undeclared.isEmpty() && !(askedWhetherThere(check) && !check.keyColumns().isEmpty()))) {
                    continue;
                }
                reporter.report(finding(descriptor(), context, check, write, List.of(), undeclared));
                break;
            }
        }
    }

    /**
     * A check here decides a call that inserts further down, in a method that does more than the insert
     * (so the insert is not one of this method's operations). Reported only on a table the tree's schema
     * declares with no key on the checked columns, so the finding can say so. A method with no read of
     * its own (a controller calling a validator, then the service that inserts) is checked for the
     * validator's reads only.
     */
    private void insertsBelow(MethodContext context, MethodFlow flow, Reporter reporter) {
        boolean ownReads = flow != null && flow.ops().stream().anyMatch(op -> op.kind() == DbOp.Kind.READ);
        if (!ownReads && !callsAsStatement(context)) {
            return;
        }
        List<String> reported = new ArrayList<>();
        for (Reached<DbOp> reached : context.reachability().databaseOperations(context.method(), false)) {
            List<CallEdge> path = reached.path();
            DbOp write = reached.item();
            if (path.isEmpty() || path.size() > CALLS_TO_INSERT || write.upsert() || write.table().isEmpty()
                    || reported.contains(write.table())) {
                continue;
            }
            Node site = path.get(0).site();
            // a call this method's flow already counts as the operation (a one-operation helper) is checked above
            if (flow != null && flow.ops().stream().anyMatch(op -> op.call() == site)) {
                continue;
            }
            MethodFlow inner = context.persistence().flow(reached.in()).orElse(null);
            if (!isInsert(write, inner) || PersistenceModel.duplicateCaught(write.call())
                    || path.stream().anyMatch(e -> PersistenceModel.duplicateCaught(e.site()))
                    || (inner != null && lockedReadBefore(inner, write))) {
                continue;
            }
            List<DbOp> checks = new ArrayList<>(ownReads ? flow.decidingReads(site, write) : List.of());
            checks.addAll(validatorChecks(context, site, write));
            for (DbOp check : checks) {
                if (PersistenceRules.lockHeld(context, check) || keyedInDatabase(context, write, check) || readsHistory(context, check)) {
                    continue;
                }
                Optional<String> undeclared = undeclared(context, write, check);
                if (undeclared.isEmpty() && !(onlyInsert(context, reached) && askedWhetherThere(check))) {
                    continue;
                }
                reporter.report(finding(descriptor(), context, check, write, path, undeclared));
                reported.add(write.table());
                break;
            }
        }
    }

    /**
     * Is {@code write} a helper's insert ({@code repository.createStorage(storage)}) that the helper
     * runs inside a try whose catch handles the duplicate key ({@code catch (DuplicateKeyException e)})?
     * The author expects the key to refuse a second row, and the helper answers it.
     */
    private static boolean duplicateCaughtInHelper(MethodContext context, DbOp write) {
        if (write.via() == null) {
            return false;
        }
        for (Reached<DbOp> reached : context.reachability().databaseOperations(context.method(), false)) {
            List<CallEdge> path = reached.path();
            if (!path.isEmpty() && path.get(0).site() == write.call() && reached.item().isWrite()
                    && reached.item().sameTable(write)
                    && (PersistenceModel.duplicateCaught(reached.item().call())
                            || path.stream().skip(1).anyMatch(e -> PersistenceModel.duplicateCaught(e.site())))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Is the insert all that the one call leading to it does (a repository method behind an interface,
     * {@code userRepository.save(user)} landing on an implementation that only inserts)? Then the check
     * decides the insert itself, as when both sit in one method, and no schema needs to say more.
     */
    private static boolean onlyInsert(MethodContext context, Reached<DbOp> reached) {
        return reached.path().size() == 1 && context.persistence().ops(reached.in()).size() == 1;
    }

    /**
     * Is the check a query that only asks whether (or how many) rows are there - EXISTS or COUNT -
     * rather than rows fetched for another use (the members of a role, to refuse touching them)?
     */
    private static boolean askedWhetherThere(DbOp check) {
        return check.shape() == DbOp.ReadShape.EXISTS || check.shape() == DbOp.ReadShape.COUNT;
    }

    /** Does the method call anything as a statement of its own (a validator may be among those calls)? */
    private static boolean callsAsStatement(MethodContext context) {
        Node body = context.method().body();
        return body != null && body.findFirst(com.github.javaparser.ast.stmt.ExpressionStmt.class,
                e -> e.getExpression() instanceof com.github.javaparser.ast.expr.MethodCallExpr).isPresent();
    }

    /**
     * Reads of {@code write}'s table in a validator called as a statement before {@code node}: a method
     * whose result is not used and that throws when its read says so ({@code checkLoginName(user);}
     * then {@code addUser(user)}), so the read decides whether the rest of this method runs.
     */
    private static List<DbOp> validatorChecks(MethodContext context, Node node, DbOp write) {
        java.util.Map<Node, dev.racelint.analyzer.index.MethodInfo> callees = new java.util.IdentityHashMap<>();
        for (Reached<dev.racelint.analyzer.index.MethodInfo> m : context.reachability().methods(context.method(), false, 1)) {
            if (m.path().size() == 1) {
                callees.put(m.path().get(0).site(), m.item());
            }
        }
        List<DbOp> out = new ArrayList<>();
        Node child = node;
        for (Node parent = node.getParentNode().orElse(null);
                parent != null && !(parent instanceof com.github.javaparser.ast.body.CallableDeclaration<?>);
                parent = parent.getParentNode().orElse(null)) {
            if (parent instanceof com.github.javaparser.ast.stmt.BlockStmt block) {
                for (var statement : block.getStatements()) {
                    if (statement == child) {
                        break;
                    }
                    if (statement instanceof com.github.javaparser.ast.stmt.ExpressionStmt e
                            && e.getExpression() instanceof com.github.javaparser.ast.expr.MethodCallExpr call
                            && callees.containsKey(call)) {
                        out.addAll(throwingReads(context, callees.get(call), write));
                    }
                }
            }
            child = parent;
        }
        return out;
    }

    /** Reads of {@code write}'s table in {@code validator} that decide whether one of its {@code throw}s runs. */
    private static List<DbOp> throwingReads(MethodContext context, dev.racelint.analyzer.index.MethodInfo validator,
            DbOp write) {
        MethodFlow flow = context.persistence().flow(validator).orElse(null);
        if (flow == null || validator.body() == null) {
            return List.of();
        }
        List<DbOp> out = new ArrayList<>();
        for (var thrown : validator.body().findAll(com.github.javaparser.ast.stmt.ThrowStmt.class)) {
            for (DbOp read : flow.decidingReads(thrown, write)) {
                if (!out.contains(read)) {
                    out.add(read);
                }
            }
        }
        return out;
    }

    /**
     * Does the insert store the very rows the check found ({@code rows = find(..); rows.forEach(r -> r.setId(null));
     * if (!rows.isEmpty()) saveBatch(rows)})? Every value its argument can hold is those rows
     * ({@link dev.racelint.analyzer.persistence.ReadRows}), so it runs because rows were found: copies of
     * found rows, not an insert of a row that was looked for and missing.
     */
    private static boolean insertsFoundRows(MethodFlow flow, DbOp write, DbOp check) {
        return check.shape() == DbOp.ReadShape.ROWS && write.call().getArguments().stream()
                .anyMatch(a -> dev.racelint.analyzer.persistence.ReadRows.rowsOf(flow, a, check, true));
    }

    private static boolean lockedReadBefore(MethodFlow flow, DbOp write) {
        int at = PersistenceRules.position(write);
        return flow.ops().stream().anyMatch(o -> o.kind() == DbOp.Kind.READ && o.locked()
                && PersistenceRules.position(o) < at);
    }

    private static boolean isInsert(DbOp op, MethodFlow flow) {
        return op.kind() == DbOp.Kind.INSERT
                || (op.kind() == DbOp.Kind.SAVE && (PersistenceModel.savesNewObject(op, flow) || savesInstantiated(op, flow)));
    }

    /**
     * Does the save store an object made in this method from a class literal and no stored row
     * ({@code Item entity = BeanUtils.transform(Item.class, dto)}, {@code JSON.parseObject(json, Order.class)})?
     * A converter handed the class instantiates it, so the saved object is a new one, not a row read here.
     */
    private static boolean savesInstantiated(DbOp op, MethodFlow flow) {
        if (flow == null || op.call().getArguments().isEmpty()
                || !(op.call().getArgument(0) instanceof com.github.javaparser.ast.expr.NameExpr saved)) {
            return false;
        }
        Node declaration = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(saved.getNameAsString(), saved);
        if (!(declaration instanceof com.github.javaparser.ast.body.VariableDeclarator local)
                || !(local.getInitializer().orElse(null) instanceof com.github.javaparser.ast.expr.MethodCallExpr init)
                || flow.reaching(saved).stream().anyMatch(o -> o.kind() == DbOp.Kind.READ)) {
            return false;
        }
        String type = local.getType().asString();
        return init.getArguments().stream().anyMatch(a -> a instanceof com.github.javaparser.ast.expr.ClassExpr c
                && c.getType().asString().equals(type));
    }

    /**
     * The check reads the latest few rows of what it selects by ({@code ORDER BY id DESC LIMIT #{n}},
     * declared on the mapper or repository method it calls): a history the table keeps several rows of
     * per value by design, compared against (a password reuse policy, a rate window), not a test that
     * no row is there yet - a unique key on those columns would be wrong.
     */
    private static boolean readsHistory(MethodContext context, DbOp check) {
        return readsHistory(context, check.call(),
                context.limits().get(dev.racelint.analyzer.AnalysisLimits.Limit.HELPER_CALLS));
    }

    /** The call runs such a read: declared on the method it calls, or the one read of a helper (helper-calls deep). */
    private static boolean readsHistory(MethodContext context, com.github.javaparser.ast.expr.MethodCallExpr call,
            int helpers) {
        var persistence = context.persistence();
        var targets = persistence.resolver().resolve(call).targets().stream()
                .filter(t -> t.body() != null || persistence.classifier().declaredSqlStatement(t).isPresent()).toList();
        if (targets.isEmpty()) {
            return false;
        }
        for (var target : targets) {
            var declared = persistence.classifier().declaredSqlStatement(target);
            if (declared.isPresent()) {
                if (!declared.get().readsOrderedWindow()) {
                    return false;
                }
                continue;
            }
            List<DbOp> reads = persistence.ops(target).stream().filter(o -> o.kind() == DbOp.Kind.READ).toList();
            if (helpers <= 0 || reads.size() != 1 || !readsHistory(context, reads.get(0).call(), helpers - 1)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The database already refuses a second row with the checked values, or the check is not about the
     * inserted row at all: the columns the check selects by cover a key of the table (from the tree's DDL
     * or the mapping; a key column the check leaves out counts when every new row takes its constant
     * DEFAULT, as a soft-delete marker does), or the check reads one row by its primary key (a parent, or
     * the row being changed), which an insert either collides with on that key or does not duplicate.
     */
    private static boolean keyedInDatabase(MethodContext context, DbOp write, DbOp check) {
        var entity = write.entity() != null ? write.entity() : check.entity();
        if (entity != null && entity.uniqueOn(check.keyColumns())) {
            return true;
        }
        if (check.entity() != null && !check.entity().idColumns().isEmpty()
                && check.keyColumns().containsAll(check.entity().idColumns())) {
            return true;
        }
        if (check.byPrimaryKey()) {
            return true; // findById / existsById / selectByPrimaryKey: the API reads by the primary key
        }
        return table(context, check.table()).or(() -> table(context, write.table()))
                .flatMap(t -> t.keyCovering(check.keyColumns(), context.persistence().schema().constantDefaults(t.name())))
                .isPresent();
    }

    /**
     * " (the schema declares no unique key on (login_name))" when the tree declares the table with keys
     * and none covers the checked columns; empty when the table is not declared (or declared with no key).
     */
    private static Optional<String> undeclared(MethodContext context, DbOp write, DbOp check) {
        if (check.keyColumns().isEmpty()) {
            return Optional.empty(); // an emptiness test of the whole table: no column set to name
        }
        return table(context, write.table()).filter(SchemaModel.Table::keyed)
                .map(t -> ", and the schema declares no unique key on " + write.table() + PersistenceRules.columns(check));
    }

    /** Is the count compared with 0 or 1 where it is read ({@code selectCount(probe) > 0}): whether a row is there, not a limit? */
    private static boolean countTestsExistence(MethodContext context, DbOp check) {
        var method = context.persistence().index().enclosingMethod(check.call());
        return check.shape() == DbOp.ReadShape.COUNT && method != null
                && context.persistence().flow(method).map(f -> f.existenceTest(check)).orElse(false);
    }

    private static Optional<SchemaModel.Table> table(MethodContext context, String name) {
        SchemaModel schema = context.persistence().schema();
        return schema.table(name).or(() -> context.persistence().entities()
                .byName(name, context.method().declaringType().file().path())
                .flatMap(e -> schema.table(e.table())));
    }

    private static Finding finding(RuleDescriptor rule, MethodContext context, DbOp check, DbOp write,
            List<CallEdge> calls, Optional<String> undeclared) {
        CodeLocation checkAt = check.location().withLabel("checks: " + check.describe());
        CodeLocation writeAt = write.location().withLabel("writes: " + write.describe());
        // a bulk import (every entry point takes an uploaded file): two overlapping imports must race
        Optional<UploadEntryPoints.Upload> upload = context.onlyPrivilegedCallers().isPresent() ? Optional.empty()
                : UploadEntryPoints.only(context.method(), context.handlers(), context.reachability(),
                        context.persistence().index());
        List<CodeLocation> path = new ArrayList<>();
        path.add(checkAt);
        for (CallEdge call : calls) {
            path.add(SourceLocations.of(call.caller().declaringType().file().path(), call.site(),
                    "calls " + call.callee().displayName()));
        }
        path.add(writeAt);
        CodeLocation primary = calls.isEmpty() ? write.location().withLabel(write.describe()) : path.get(1);
        String what = (check.shape() == DbOp.ReadShape.COUNT || check.shape() == DbOp.ReadShape.AGGREGATE)
                && !countTestsExistence(context, check) ? "a limit check" : "an existence check";
        Message.Builder text = Message.builder()
                .link(PersistenceRules.name(check), 0)
                .text(" (" + what + " on " + write.table() + ") decides whether ");
        if (calls.isEmpty()) {
            text.link(PersistenceRules.name(write), 1);
        } else {
            text.link(calls.get(0).callee().displayName(), 1).text(" (which inserts with " + write.describe() + ")");
        }
        Message message = text
                .text(" runs, but nothing stops two requests both passing the check" + undeclared.orElse("")
                        + ": add a unique constraint on " + write.table() + PersistenceRules.columns(check)
                        + " and treat the duplicate-key error as 'already exists'"
                        + (what.equals("a limit check") ? ", or enforce the limit in one conditional UPDATE" : "")
                        + "." + PrivilegedCallers.sentence(context) + upload.map(u -> " Reported as a note: " + u.sentence()
                                + "; two imports of overlapping files must run at once.").orElse(""))
                .build();
        String fingerprint = Fingerprints.of(rule.id(), context.method().signature(), write.call().toString(),
                check.describe());
        return new Finding(rule.id(), upload.isPresent() ? Level.NOTE : PrivilegedCallers.level(rule, context), message,
                primary, List.of(checkAt, writeAt), List.copyOf(path), rule.fix(), fingerprint, context.method().signature());
    }
}
