package dev.racelint.rules;

import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.locks.LockScope;
import dev.racelint.analyzer.index.ExclusiveBranches;
import dev.racelint.analyzer.index.RepeatedConditions;
import dev.racelint.analyzer.persistence.CallerReads;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.MethodFlow;
import dev.racelint.analyzer.persistence.ReadRows;
import dev.racelint.analyzer.persistence.WrittenValues;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A value read from a row, changed in Java and written back to the same row without a version, lock or atomic SQL. */
@RuleMetadata(
        id = "lost-update",
        name = "LostUpdate",
        shape = "2",
        title = "Read-modify-write of a row in application code (lost update)",
        description = "A value is read from the database, changed in Java (arithmetic or replacement) and written "
                + "back to the same row, with no version compare, no row lock and no atomic SQL. Two concurrent "
                + "runs read the same value and the second write silently erases the first.",
        level = Level.ERROR,
        precision = Precision.HIGH,
        cwe = "362",
        tags = {"database", "race-condition"},
        fix = "Do the arithmetic in the statement (SET col = col - ?); else add a version column compared in the "
                + "WHERE with the row count checked (@Version in JPA); else lock the row briefly (FOR UPDATE).")
public final class LostUpdateRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        MethodFlow flow = context.dataFlow().orElse(null);
        if (flow == null) {
            return;
        }
        if (context.adviceLock().isPresent()) {
            return; // an @Around advice serialises every run of this method on its lock
        }
        RuleDescriptor rule = descriptor();
        List<DbOp> ops = flow.ops();
        for (DbOp write : ops) {
            if (write.kind() != DbOp.Kind.UPDATE || write.selfRelative() || write.conditional()
                    || PersistenceRules.lockedReadBefore(context, ops, write)) {
                continue;
            }
            DbOp read = readFeeding(context, flow, write, WrittenValues.of(write));
            if (read != null && !underOneLock(context, read.call(), write.call())) {
                reporter.report(finding(rule, context, read, write.location().withLabel("writes: " + write.describe()),
                        write.call().toString(), PersistenceRules.name(write), statementFix(write)));
            }
        }
        entitySetters(context, flow, rule, reporter);
    }

    private static DbOp readFeeding(MethodContext context, MethodFlow flow, DbOp write, List<Expression> values) {
        for (Expression value : values) {
            for (DbOp read : flow.valuesReaching(value)) {
                if (read.kind() == DbOp.Kind.READ && read.sameTable(write) && !PersistenceRules.lockHeld(context, read)
                        && PersistenceRules.readsRowValues(read) && carriesStoredValue(flow, value, read)
                        && (!ReadRows.rowsOf(flow, value, read, false) || changedFromItself(context, flow, read, write))) {
                    return read;
                }
            }
        }
        return null;
    }

    /**
     * Does a stored value of {@code read}'s row flow into {@code value}? A getter of a column the read
     * selected the row by ({@code findByUsername(name)} then {@code user.getUsername()}) gives back the
     * caller's own selector, which no concurrent writer of that row changes.
     */
    private static boolean carriesStoredValue(MethodFlow flow, Expression value, DbOp read) {
        return carriesStoredValue(flow, value, read, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
    }

    private static boolean carriesStoredValue(MethodFlow flow, Expression value, DbOp read,
            Set<com.github.javaparser.ast.Node> seen) {
        if (!flow.valuesReaching(value).contains(read)) {
            return false;
        }
        if (value == read.end() || value == read.call() || value.isAncestorOf(read.end()) || value.isAncestorOf(read.call())) {
            return true; // the read itself, inside the written expression
        }
        for (NameExpr name : value.findAll(NameExpr.class)) {
            boolean selectsOnly = flow.ops().stream().anyMatch(op -> (value.isAncestorOf(op.end()) || value.isAncestorOf(op.call()))
                    && (op.end().isAncestorOf(name) || op.call().isAncestorOf(name)));
            if (!selectsOnly && flow.valuesReaching(name).contains(read) && !selectorGetter(name, read)
                    && !selectorLocal(flow, name, read, seen)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every value the local {@code name} is given in its method: its initializer and each assignment to
     * it. Null when {@code name} is no local variable, or when {@code plainOnly} and it is also changed
     * by a compound assignment ({@code +=}), whose value is not one of these.
     */
    private static List<Expression> valuesAssigned(NameExpr name, boolean plainOnly) {
        com.github.javaparser.ast.Node declaration = dev.racelint.analyzer.resolve.LocalVariables
                .declarationOf(name.getNameAsString(), name);
        if (!(declaration instanceof com.github.javaparser.ast.body.VariableDeclarator variable)) {
            return null;
        }
        List<Expression> assigned = new java.util.ArrayList<>();
        variable.getInitializer().ifPresent(assigned::add);
        com.github.javaparser.ast.Node method = variable;
        while (method != null && !(method instanceof com.github.javaparser.ast.body.CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        if (method == null) {
            return plainOnly ? null : assigned;
        }
        for (com.github.javaparser.ast.expr.AssignExpr a : method.findAll(com.github.javaparser.ast.expr.AssignExpr.class)) {
            if (a.getTarget() instanceof NameExpr target && target.getNameAsString().equals(name.getNameAsString())
                    && dev.racelint.analyzer.resolve.LocalVariables.declarationOf(target.getNameAsString(), target) == declaration) {
                if (plainOnly && a.getOperator() != com.github.javaparser.ast.expr.AssignExpr.Operator.ASSIGN) {
                    return null;
                }
                assigned.add(a.getValue());
            }
        }
        return assigned;
    }

    /**
     * A setter on the read's rows themselves (or on an element of them, {@link ReadRows}), called before the
     * write, gets a value computed from their stored values. A setter on an object built from the rows, or
     * one after the write, changes nothing the write stores.
     */
    private static boolean changedFromItself(MethodContext context, MethodFlow flow, DbOp read, DbOp write) {
        var body = context.method().body();
        if (body == null) {
            return false;
        }
        int writeAt = PersistenceRules.position(write);
        for (MethodCallExpr setter : body.findAll(MethodCallExpr.class)) {
            if (setter.getNameAsString().startsWith("set") && setter.getArguments().size() == 1
                    && setter.getScope().orElse(null) instanceof NameExpr target
                    && setter.getBegin().map(p -> p.line * 10_000 + p.column).orElse(0) < writeAt
                    && ReadRows.rowsOf(flow, target, read, false)
                    && carriesStoredValue(flow, setter.getArgument(0), read)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A local whose every value that carries the read is the read's own selector ({@code id = row.getId()}),
     * or is computed from nothing of the row but that selector ({@code answer = gateway.query(build(row.getNo()))}):
     * it holds the key the caller chose, or what was computed from it, not a stored value.
     */
    private static boolean selectorLocal(MethodFlow flow, NameExpr name, DbOp read, Set<com.github.javaparser.ast.Node> seen) {
        List<Expression> assigned = valuesAssigned(name, true);
        com.github.javaparser.ast.Node declaration = dev.racelint.analyzer.resolve.LocalVariables
                .declarationOf(name.getNameAsString(), name);
        if (assigned == null || !seen.add(declaration)) {
            return false;
        }
        try {
            boolean any = false;
            for (Expression value : assigned) {
                if (!flow.valuesReaching(value).contains(read)) {
                    continue;
                }
                any = true;
                if (!(value instanceof MethodCallExpr getter && getter.getScope().orElse(null) instanceof NameExpr scope
                        && selectorGetter(scope, read)) && carriesStoredValue(flow, value, read, seen)) {
                    return false;
                }
            }
            return any;
        } finally {
            seen.remove(declaration); // a path through the locals, not every local visited: a cycle stops here
        }
    }

    /** {@code entity.getK()} where column k is one the read selected its row by. */
    private static boolean selectorGetter(NameExpr name, DbOp read) {
        if (!(name.getParentNode().orElse(null) instanceof MethodCallExpr getter) || getter.getScope().orElse(null) != name
                || !getter.getArguments().isEmpty() || !getter.getNameAsString().startsWith("get")
                || getter.getNameAsString().length() <= 3) {
            return false;
        }
        String property = getter.getNameAsString().substring(3);
        String column = dev.racelint.analyzer.persistence.EntityModel.snake(
                Character.toLowerCase(property.charAt(0)) + property.substring(1));
        return read.keyColumns().stream().anyMatch(k -> k.equalsIgnoreCase(column));
    }

    /** A lock held in this method (synchronized, Lock.lock(), a distributed lock) covers both the read and the write. */
    private static boolean underOneLock(MethodContext context, com.github.javaparser.ast.Node read,
            com.github.javaparser.ast.Node write) {
        for (LockScope scope : context.lockScopes()) {
            if (scope.waits() && scope.kind() != LockScope.Kind.ROW_LOCK && scope.covers().test(read)
                    && scope.covers().test(write)) {
                return true;
            }
        }
        return false;
    }

    /** JPA: {@code a = repo.findById(..); a.setX(a.getX() + n); repo.save(a)} (or dirty checking in a transaction). */
    private static void entitySetters(MethodContext context, MethodFlow flow, RuleDescriptor rule, Reporter reporter) {
        var body = context.method().body();
        if (body == null) {
            return;
        }
        Set<String> reported = new HashSet<>();
        Set<com.github.javaparser.ast.Node> projectCalls = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        context.transactions().graph().facts(context.method()).calls().forEach(e -> projectCalls.add(e.site()));
        List<CallerReads.Arrival> arrivals = CallerReads.of(context.transactions().graph(), context.persistence(),
                context.method()).stream().filter(a -> callerUnlocked(context, a)).toList();
        MethodFlow own = flow;
        if (!arrivals.isEmpty()) {
            flow = flow.withArriving(CallerReads.byParameter(arrivals));
        }
        java.util.Map<com.github.javaparser.ast.Node, Set<DbOp>> copies = copiedIntoFresh(body, flow, projectCalls);
        if (!copies.isEmpty()) {
            flow = flow.withArriving(copies);
        }
        for (MethodCallExpr setter : body.findAll(MethodCallExpr.class)) {
            if (!setter.getNameAsString().startsWith("set") || setter.getArguments().size() != 1
                    || !(setter.getScope().orElse(null) instanceof NameExpr entityVar)
                    || reported.contains(entityVar.getNameAsString())) {
                continue;
            }
            DbOp read = null;
            for (DbOp r : flow.reaching(entityVar)) {
                if (r.kind() == DbOp.Kind.READ && r.entity() != null && !PersistenceRules.lockHeld(context, r)
                        && !r.entity().versioned()
                        && carriesStoredValue(flow, setter.getArgument(0), r)
                        && !overwrittenBefore(setter, entityVar, flow, r, projectCalls)) {
                    read = r;
                    break;
                }
            }
            if (read != null && copies.containsKey(dev.racelint.analyzer.resolve.LocalVariables.declarationOf(entityVar.getNameAsString(), entityVar))
                    && setsKey(body, entityVar, read)) {
                continue; // a copy given a key of its own (or none) is saved as a new row, not over the one read
            }
            // a row read here, or one a caller read and passed in (then only an explicit save writes it:
            // whether the caller's row is still managed here is not known)
            boolean passedIn = read != null && !own.ops().contains(read);
            if (passedIn && (!flow.valuesReaching(entityVar).contains(read) || setsKey(body, entityVar, read)
                    || !passedAsRead(context, arrivals, read))) {
                // the caller's row only chose what this method loads itself, or is saved under a key set here,
                // or what arrives is another type built from the row (a DTO the save converts to a new entity)
                continue;
            }
            if (read == null || (passedIn ? read.locked() || flow.ops().stream().anyMatch(DbOp::locked)
                    : PersistenceRules.lockedReadBefore(context, flow.ops(), read))
                    || changedOnlyInStateItLeaves(setter, entityVar, flow, read)) {
                continue;
            }
            DbOp save = null;
            int changedAt = setter.getBegin().map(p -> p.line * 10_000 + p.column).orElse(0);
            for (DbOp op : flow.ops()) {
                // the save that writes the change comes after it (a save before it stored the row unchanged),
                // on a path that can also have taken the read's branch
                if (op.kind() == DbOp.Kind.SAVE && (passedIn || PersistenceRules.position(op) > PersistenceRules.position(read))
                        && PersistenceRules.position(op) > changedAt
                        && !op.call().getArguments().isEmpty()
                        && op.call().getArgument(0) instanceof NameExpr n && n.getNameAsString().equals(entityVar.getNameAsString())
                        && op.sameTable(read) && (passedIn || !branchExclusive(read.call(), op.call()))) {
                    save = op;
                    break;
                }
            }
            boolean inTransaction = context.transactionAttribute().map(a -> a.propagation().runsInTransaction()).orElse(false)
                    && !passedIn && declaredAs(entityVar, read.entity().type().simpleName());
            if ((save == null && !inTransaction)
                    || (!passedIn && underOneLock(context, read.call(), save != null ? save.call() : setter))) {
                continue;
            }
            if (passedIn) {
                DbOp arrived = read;
                CallerReads.Arrival from = arrivals.stream().filter(a -> a.read() == arrived).findFirst().orElseThrow();
                // one defect, one finding: every other caller that reads the row and hands it in the same way
                // reaches this save too, and is shown as a further path to it
                MethodFlow arriving = flow;
                List<CallerReads.Arrival> others = arrivals.stream()
                        .filter(a -> a != from && a.parameter() == from.parameter() && a.edge().caller() != from.edge().caller()
                                && a.read().entity() != null && !a.read().entity().versioned() && a.read().sameTable(arrived)
                                && !PersistenceRules.lockHeld(context, a.read())
                                && carriesStoredValue(arriving, setter.getArgument(0), a.read()))
                        .collect(java.util.stream.Collectors.toMap(a -> a.edge().caller(), a -> a, (a, b) -> a,
                                java.util.LinkedHashMap::new))
                        .values().stream().toList();
                reported.add(entityVar.getNameAsString());
                reporter.report(passedInFinding(rule, context, from, others, save,
                        entityFix(read.entity().type().simpleName(), false)));
                continue;
            }
            reported.add(entityVar.getNameAsString());
            CodeLocation at = save != null ? save.location().withLabel("writes: " + save.describe())
                    : SourceLocations.ofCall(context.method().declaringType().file().path(), setter,
                            "changes the managed entity; the transaction flushes it on commit");
            String statement = save != null ? save.call().toString() : setter.toString();
            String writeName = save != null ? PersistenceRules.name(save) : setter.getNameAsString() + "() on the managed "
                    + read.entity().type().simpleName();
            reporter.report(finding(rule, context, read, at, statement, writeName, entityFix(read.entity().type().simpleName(),
                    save == null)));
        }
    }

    /**
     * {@code if (e.getState() == WAITING) { e.setRuns(e.getRuns() + 1); } e.setState(next); save(e)}: the
     * change is made only while the row is in a state that the same write then moves it out of. Every
     * concurrent run that saw that state computes the same new value from the same old one, so the
     * second write repeats the first instead of erasing it: the change counts the transition, once.
     */
    private static boolean changedOnlyInStateItLeaves(MethodCallExpr setter, NameExpr entityVar, MethodFlow flow,
            DbOp read) {
        String entity = entityVar.getNameAsString();
        com.github.javaparser.ast.Node child = setter;
        com.github.javaparser.ast.Node parent = setter.getParentNode().orElse(null);
        while (parent != null && !(parent instanceof com.github.javaparser.ast.body.CallableDeclaration<?>)) {
            if (parent instanceof com.github.javaparser.ast.stmt.IfStmt guard && child != guard.getCondition()) {
                for (MethodCallExpr getter : guard.getCondition().findAll(MethodCallExpr.class)) {
                    if (getter.getArguments().isEmpty() && getter.getNameAsString().startsWith("get")
                            && getter.getScope().orElse(null) instanceof NameExpr scope
                            && scope.getNameAsString().equals(entity) && flow.reaching(scope).contains(read)
                            && setAfter(guard, entity, "set" + getter.getNameAsString().substring(3))) {
                        return true;
                    }
                }
            }
            child = parent;
            parent = parent.getParentNode().orElse(null);
        }
        return false;
    }

    /** A call {@code entity.setX(..)} in the same block as {@code statement}, after it (so it runs whenever the change does). */
    private static boolean setAfter(com.github.javaparser.ast.stmt.Statement statement, String entity, String setterName) {
        if (!(statement.getParentNode().orElse(null) instanceof com.github.javaparser.ast.stmt.BlockStmt block)) {
            return false;
        }
        boolean after = false;
        for (com.github.javaparser.ast.stmt.Statement s : block.getStatements()) {
            if (s == statement) {
                after = true;
                continue;
            }
            if (after && s instanceof com.github.javaparser.ast.stmt.ExpressionStmt e
                    && e.getExpression() instanceof MethodCallExpr call && call.getNameAsString().equals(setterName)
                    && call.getScope().orElse(null) instanceof NameExpr n && n.getNameAsString().equals(entity)) {
                return true;
            }
        }
        return false;
    }

    /** Two places one call never both runs: the arms of one branch, or opposite arms of one condition tested twice. */
    private static boolean branchExclusive(com.github.javaparser.ast.Node a, com.github.javaparser.ast.Node b) {
        return ExclusiveBranches.exclusive(a, b) || RepeatedConditions.exclusive(a, b);
    }

    /**
     * Does a caller pass the row object it read itself ({@link ReadRows}), not an object built from its
     * fields ({@code toDto(row)}, {@code new Event(row.getA(), ..)}) that the callee saves as something new?
     */
    private static boolean passedAsRead(MethodContext context, List<CallerReads.Arrival> arrivals, DbOp read) {
        for (CallerReads.Arrival a : arrivals) {
            if (a.read() != read || !(a.edge().site() instanceof MethodCallExpr call)) {
                continue;
            }
            int index = context.method().declaration().getParameters().indexOf(a.parameter());
            MethodFlow caller = context.persistence().flow(a.edge().caller()).orElse(null);
            if (caller != null && index >= 0 && index < call.getArguments().size()
                    && ReadRows.rowsOf(caller, call.getArgument(index), read, false)) {
                return true;
            }
        }
        return false;
    }

    /** The caller holds no lock around its read and the call (an advice lock, or a lock scope covering the call). */
    private static boolean callerUnlocked(MethodContext context, CallerReads.Arrival arrival) {
        return !arrival.read().locked() && context.adviceLockOf(arrival.edge().caller()).isEmpty()
                && context.lockScopesOf(arrival.edge().caller()).stream().noneMatch(scope -> scope.waits()
                        && scope.covers().test(arrival.edge().site()));
    }

    /**
     * {@code copy = new Row(); BeanUtils.copyProperties(loaded, copy)}: a library call (not a project
     * method) given a fresh, empty object and one carrying read rows fills the fresh one from them, so
     * it carries those rows' stored values. Keyed by the fresh local's declaration.
     */
    private static java.util.Map<com.github.javaparser.ast.Node, Set<DbOp>> copiedIntoFresh(
            com.github.javaparser.ast.Node body, MethodFlow flow, Set<com.github.javaparser.ast.Node> projectCalls) {
        java.util.Map<com.github.javaparser.ast.Node, Set<DbOp>> out = new java.util.IdentityHashMap<>();
        for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
            if (projectCalls.contains(call) || call.getArguments().size() != 2
                    || !(call.getParentNode().orElse(null) instanceof com.github.javaparser.ast.stmt.ExpressionStmt)
                    || flow.ops().stream().anyMatch(op -> op.call() == call || op.end() == call)) {
                continue;
            }
            for (int i = 0; i < 2; i++) {
                com.github.javaparser.ast.Node fresh = freshLocal(call.getArgument(i));
                Set<DbOp> from = new java.util.LinkedHashSet<>();
                flow.valuesReaching(call.getArgument(1 - i)).stream().filter(op -> op.kind() == DbOp.Kind.READ).forEach(from::add);
                if (fresh != null && !from.isEmpty() && freshLocal(call.getArgument(1 - i)) == null) {
                    out.computeIfAbsent(fresh, k -> new java.util.LinkedHashSet<>()).addAll(from);
                }
            }
        }
        return out;
    }

    /**
     * Is the local declared with the entity's type (or with {@code var}, or a lambda parameter, whose type is
     * not written)? An object computed from a row (a parsed JSON field, a DTO) is not the managed entity
     * that dirty checking flushes.
     */
    private static boolean declaredAs(NameExpr local, String entityType) {
        var declaration = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(local.getNameAsString(), local);
        com.github.javaparser.ast.type.Type type = declaration instanceof com.github.javaparser.ast.body.VariableDeclarator v
                ? v.getType() : declaration instanceof com.github.javaparser.ast.body.Parameter p ? p.getType() : null;
        if (type == null || type.isVarType() || type.isUnknownType()) {
            return true;
        }
        return type.isClassOrInterfaceType() && type.asClassOrInterfaceType().getNameAsString().equals(entityType);
    }

    /** A setter of an id property of the read's entity called on {@code entityVar}: the object is given its own key. */
    private static boolean setsKey(com.github.javaparser.ast.Node body, NameExpr entityVar, DbOp read) {
        var declaration = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(entityVar.getNameAsString(), entityVar);
        for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
            String n = call.getNameAsString();
            if (n.startsWith("set") && n.length() > 3 && call.getArguments().size() == 1
                    && call.getScope().orElse(null) instanceof NameExpr scope
                    && dev.racelint.analyzer.resolve.LocalVariables.declarationOf(scope.getNameAsString(), scope) == declaration
                    && read.entity().idColumns().contains(dev.racelint.analyzer.persistence.EntityModel.snake(
                            Character.toLowerCase(n.charAt(3)) + n.substring(4)))) {
                return true;
            }
        }
        return false;
    }

    /** The declaration of a local initialised with a no-argument {@code new}, when {@code e} names one. */
    private static com.github.javaparser.ast.Node freshLocal(Expression e) {
        if (!(e instanceof NameExpr name)) {
            return null;
        }
        var declaration = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(name.getNameAsString(), name);
        return declaration instanceof com.github.javaparser.ast.body.VariableDeclarator v
                && v.getInitializer().orElse(null) instanceof com.github.javaparser.ast.expr.ObjectCreationExpr created
                && created.getArguments().isEmpty() && created.getAnonymousClassBody().isEmpty() ? declaration : null;
    }

    /**
     * {@code row = find(id); BeanUtils.copyProperties(form, row); row.setNext(calc(row.getSpec()))}: a
     * library call that always runs before the setter, given the loaded row and a value no read
     * produced, replaces the row's properties with the client's; a getter of the row after it returns
     * what the caller sent, not what was stored. Only when every stored value in the setter's argument
     * comes from such getters of the row itself.
     */
    private static boolean overwrittenBefore(MethodCallExpr setter, NameExpr entityVar, MethodFlow flow, DbOp read,
            Set<com.github.javaparser.ast.Node> projectCalls) {
        var declaration = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(entityVar.getNameAsString(), entityVar);
        if (declaration == null) {
            return false;
        }
        com.github.javaparser.ast.Node method = setter;
        while (method != null && !(method instanceof com.github.javaparser.ast.body.CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        if (method == null) {
            return false;
        }
        int copiedAt = -1;
        int setAt = setter.getBegin().map(p -> p.line * 10_000 + p.column).orElse(0);
        for (MethodCallExpr call : method.findAll(MethodCallExpr.class)) {
            if (projectCalls.contains(call) || call.getArguments().size() != 2
                    || !(call.getParentNode().orElse(null) instanceof com.github.javaparser.ast.stmt.ExpressionStmt statement)
                    || !(statement.getParentNode().orElse(null) instanceof com.github.javaparser.ast.stmt.BlockStmt block)
                    || !block.isAncestorOf(setter) || call.getBegin().map(p -> p.line * 10_000 + p.column).orElse(0) >= setAt) {
                continue;
            }
            for (int i = 0; i < 2; i++) {
                if (call.getArgument(i) instanceof NameExpr target
                        && dev.racelint.analyzer.resolve.LocalVariables.declarationOf(target.getNameAsString(), target) == declaration
                        && flow.reaching(call.getArgument(1 - i)).isEmpty() && freshLocal(call.getArgument(1 - i)) == null) {
                    copiedAt = Math.max(copiedAt, call.getBegin().map(p -> p.line * 10_000 + p.column).orElse(0));
                }
            }
        }
        return copiedAt >= 0 && onlyFromOverwritten(setter.getArgument(0), declaration, copiedAt, flow, read, 3);
    }

    /**
     * Every stored value of {@code read} in {@code value} comes from getters of the overwritten row
     * called after the copy, directly or through locals computed from them.
     */
    private static boolean onlyFromOverwritten(Expression value, com.github.javaparser.ast.Node row, int copiedAt,
            MethodFlow flow, DbOp read, int depth) {
        for (NameExpr name : value.findAll(NameExpr.class)) {
            if (!flow.valuesReaching(name).contains(read)) {
                continue;
            }
            com.github.javaparser.ast.Node declaration = dev.racelint.analyzer.resolve.LocalVariables
                    .declarationOf(name.getNameAsString(), name);
            if (declaration == row) {
                if (name.getBegin().map(p -> p.line * 10_000 + p.column).orElse(0) <= copiedAt) {
                    return false;
                }
                continue;
            }
            if (depth == 0 || !(declaration instanceof com.github.javaparser.ast.body.VariableDeclarator local)
                    || local.getInitializer().isEmpty() || !assignedOnce(local)
                    || !onlyFromOverwritten(local.getInitializer().get(), row, copiedAt, flow, read, depth - 1)) {
                return false;
            }
        }
        return true;
    }

    /** A local given its value only where it is declared. */
    private static boolean assignedOnce(com.github.javaparser.ast.body.VariableDeclarator local) {
        com.github.javaparser.ast.Node method = local;
        while (method != null && !(method instanceof com.github.javaparser.ast.body.CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        return method != null && method.findAll(com.github.javaparser.ast.expr.AssignExpr.class).stream()
                .noneMatch(a -> a.getTarget() instanceof NameExpr t && dev.racelint.analyzer.resolve.LocalVariables
                        .declarationOf(t.getNameAsString(), t) == local);
    }

    /** The fix for a JPA entity changed and saved (or flushed by dirty checking). */
    private static String entityFix(String entity, boolean dirtyChecked) {
        return "Add a @Version attribute to " + entity + ": the stale " + (dirtyChecked ? "flush" : "save")
                + " then fails with an optimistic-lock error instead of overwriting, and the whole read-modify-write "
                + "can be retried; or load it with a pessimistic lock (@Lock(PESSIMISTIC_WRITE) on the finder, "
                + "LockModeType.PESSIMISTIC_WRITE) inside the transaction. For a counter or balance, an @Modifying "
                + "UPDATE ... SET col = col + :delta does it in one statement.";
    }

    /** The fix for an UPDATE statement (SQL, a mapper method, jOOQ) that writes back a value computed from the read. */
    private static String statementFix(DbOp write) {
        return "Do the change in the statement itself (" + write.describe() + ": SET col = col + ? instead of the "
                + "computed value), so the database applies it to the current row; else compare a version column "
                + "in its WHERE and test the affected-row count; else read with SELECT ... FOR UPDATE in the same "
                + "transaction.";
    }

    /** A row a caller read and passed in, changed here from its stored value and saved whole. */
    private static Finding passedInFinding(RuleDescriptor rule, MethodContext context, CallerReads.Arrival from,
            List<CallerReads.Arrival> others, DbOp save, String fix) {
        DbOp read = from.read();
        CodeLocation readAt = read.location().withLabel("reads: " + read.describe());
        CodeLocation passAt = passedAt(context, from);
        CodeLocation writeAt = save.location().withLabel("writes: " + save.describe());
        String table = read.entity().type().simpleName() + " (" + read.table() + ")";
        List<CodeLocation> related = new java.util.ArrayList<>(List.of(readAt, passAt, writeAt));
        Message.Builder text = Message.builder()
                .text("The row read by ").link(PersistenceRules.name(read), 0)
                .text(" in " + from.edge().caller().displayName() + " is ").link("passed in", 1)
                .text(" as `" + from.parameter().getNameAsString() + "`, changed here from its stored values and saved "
                        + "whole to the same " + table + " row by ")
                .link(PersistenceRules.name(save), 2)
                .text(" with no version check or row lock: a change another writer commits between that read and this "
                        + "save is silently overwritten.");
        if (!others.isEmpty()) {
            text.text(" " + (others.size() == 1 ? "Another caller reads" : "Other callers read") + " the row and hands it in the same way:");
            for (int i = 0; i < others.size(); i++) {
                CallerReads.Arrival other = others.get(i);
                related.add(other.read().location().withLabel("reads: " + other.read().describe()));
                related.add(passedAt(context, other));
                text.text(i == 0 ? " " : ", ").link(other.edge().caller().displayName(), related.size() - 1);
            }
            text.text(".");
        }
        Message message = text.build();
        return new Finding(rule.id(), rule.level(), message, writeAt, related,
                List.of(readAt, passAt, writeAt), fix,
                Fingerprints.of(rule.id(), context.method().signature(), save.call().toString(), read.describe()),
                context.method().signature());
    }

    private static CodeLocation passedAt(MethodContext context, CallerReads.Arrival from) {
        return from.edge().location().withLabel("passes the row read to " + context.method().displayName() + " as `"
                + from.parameter().getNameAsString() + "`");
    }

    private static Finding finding(RuleDescriptor rule, MethodContext context, DbOp read, CodeLocation writeAt,
            String statement, String writeName, String fix) {
        CodeLocation readAt = read.location().withLabel("reads: " + read.describe());
        String table = read.entity() != null ? read.entity().type().simpleName() + " (" + read.table() + ")" : read.table();
        Message message = Message.builder()
                .text("The value read by ").link(PersistenceRules.name(read), 0)
                .text(" is changed in Java and written back to the same " + table + " row by ")
                .link(writeName, 1)
                .text(" with no version check, row lock or atomic SQL: two concurrent runs read the same value and "
                        + "one update is silently lost." + PrivilegedCallers.sentence(context))
                .build();
        // both runs are of this path: when only holders of an authority reach it, two of them must race
        return new Finding(rule.id(), PrivilegedCallers.level(rule, context), message, writeAt, List.of(readAt, writeAt),
                List.of(readAt, writeAt),
                fix, Fingerprints.of(rule.id(), context.method().signature(), statement, read.describe()),
                context.method().signature());
    }
}
