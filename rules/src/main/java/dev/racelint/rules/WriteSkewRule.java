package dev.racelint.rules;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NullLiteralExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
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
import dev.racelint.analyzer.tx.TransactionScope;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** A transaction checks an invariant over other rows, then writes a different row, below SERIALIZABLE. */
@RuleMetadata(
        id = "write-skew",
        name = "WriteSkew",
        shape = "7",
        title = "Invariant checked over other rows, then a different row written (write skew)",
        description = "Inside a transaction, a count, sum or existence check over other rows decides whether a "
                + "different row is written. Below SERIALIZABLE two such transactions both see the invariant hold, "
                + "both write, and the invariant is broken afterwards - no row was written twice, so no lock or "
                + "version check notices.",
        level = Level.WARNING,
        precision = Precision.MEDIUM,
        cwe = "362",
        tags = {"database", "race-condition", "isolation"},
        fix = "Run it at SERIALIZABLE with a retry outside the transaction that re-runs the logic, or give the "
                + "invariant a row and lock it (SELECT ... FOR UPDATE on the parent row) before the check.")
public final class WriteSkewRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        MethodFlow flow = context.dataFlow().orElse(null);
        if (flow == null) {
            return;
        }
        RuleDescriptor rule = descriptor();
        for (TransactionScope scope : context.transactionScopes()) {
            if (scope.kind() == TransactionScope.Kind.ANNOTATED_METHOD
                    && context.transactionAttribute().map(a -> a.serializable()).orElse(false)) {
                continue;
            }
            // one finding per check: the first write it decides is reported, the others are related
            java.util.Map<DbOp, List<DbOp>> decided = new java.util.LinkedHashMap<>();
            // checks of a stored total, with the write that keeps that total
            java.util.Map<DbOp, dev.racelint.analyzer.persistence.ServerMaintainedTables.Upkeep> totals =
                    new java.util.IdentityHashMap<>();
            for (DbOp write : flow.ops()) {
                if (!write.isWrite() || !scope.covers().test(write.call())
                        || PersistenceRules.lockedReadBefore(context, flow.ops(), write)) {
                    continue;
                }
                boolean insert = creates(write, flow);
                Set<DbOp> checks = new LinkedHashSet<>(flow.controlling(write.call()));
                checks.addAll(throwingChecksBefore(flow, write.call()));
                for (DbOp check : checks) {
                    boolean aggregate = check.shape() == DbOp.ReadShape.COUNT || check.shape() == DbOp.ReadShape.EXISTS
                            || check.shape() == DbOp.ReadShape.AGGREGATE;
                    if (check.kind() != DbOp.Kind.READ || !aggregate || PersistenceRules.lockHeld(context, check)
                            || (insert && check.sameTable(write)) || check.table().isEmpty() || sameRow(check, write)
                            || rechecksInItsWhere(check, write)
                            || byPrimaryKeyOnly(context, check) || guardsAnInsertIntoItsTable(flow, check)
                            || backedByForeignKey(context, flow, check) || onlyNullTested(flow, write, check)
                            || sizesItsOwnPurge(flow, check, write) || countsTheGivenRows(flow, check)) {
                        continue;
                    }
                    decided.computeIfAbsent(check, c -> new ArrayList<>()).add(write);
                    break;
                }
                if (decided.values().stream().noneMatch(w -> w.contains(write))) {
                    DbOp total = storedTotalCheck(context, flow, scope, write, totals);
                    if (total != null) {
                        decided.computeIfAbsent(total, c -> new ArrayList<>()).add(write);
                    }
                }
            }
            decided.forEach((check, writes) -> reporter.report(finding(rule, context, flow, scope, check, writes,
                    totals.get(check))));
        }
    }

    /**
     * The check counts child rows, and under its control a parent row is deleted that those children
     * reference through a foreign key the schema declares restricting ({@code ON DELETE RESTRICT}, NO
     * ACTION or no action given): a child committed after the check makes the delete fail, so the
     * database keeps the invariant. The other writes the check chooses between (a soft delete when
     * children exist) are then the safe branch.
     */
    private static boolean backedByForeignKey(MethodContext context, MethodFlow flow, DbOp check) {
        for (DbOp op : flow.ops()) {
            if (op.kind() == DbOp.Kind.DELETE && !op.table().isEmpty() && !op.sameTable(check)
                    && context.persistence().schema().restrictsDelete(check.table(), op.table())
                    && flow.controlling(op.call()).contains(check)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A sum or single value whose only test on the way to the write is against null ({@code if (sum !=
     * null)}): the read feeds the written value, it does not decide whether an invariant allows the write.
     */
    private static boolean onlyNullTested(MethodFlow flow, DbOp write, DbOp check) {
        if (check.shape() != DbOp.ReadShape.AGGREGATE && check.shape() != DbOp.ReadShape.VALUE) {
            return false;
        }
        List<Expression> conditions = conditionsOver(write.call(), flow, check);
        return !conditions.isEmpty() && conditions.stream().allMatch(c -> c.findAll(Expression.class).stream()
                .filter(e -> uses(e, flow, check))
                .allMatch(e -> e.getParentNode().orElse(null) instanceof BinaryExpr b && isNullComparison(b)));
    }

    /**
     * A COUNT of the very table the write deletes from, tested only for zero ({@code if (total == 0)
     * return;}) or used as a loop bound (pages of a purge): deleting rows that were counted breaks no
     * invariant over other rows; a concurrent purge only makes this one match fewer. A count compared
     * with anything else ({@code <= 1}, a minimum) is an invariant a concurrent delete can break.
     */
    private static boolean sizesItsOwnPurge(MethodFlow flow, DbOp check, DbOp write) {
        if (write.kind() != DbOp.Kind.DELETE || !check.sameTable(write) || check.shape() != DbOp.ReadShape.COUNT) {
            return false;
        }
        Node method = check.call().findAncestor(CallableDeclaration.class).orElse(null);
        if (method == null) {
            return false;
        }
        for (BinaryExpr compare : method.findAll(BinaryExpr.class)) {
            if (!isComparison(compare)) {
                continue;
            }
            boolean left = flow.reaching(compare.getLeft()).contains(check);
            boolean right = flow.reaching(compare.getRight()).contains(check);
            if (!left && !right) {
                continue;
            }
            Expression other = left ? compare.getRight() : compare.getLeft();
            boolean zero = other instanceof IntegerLiteralExpr i && i.getValue().equals("0");
            if (!zero && !loopBound(compare)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A COUNT compared only with the size of a collection the count itself is given ({@code count(hasIdIn(ids))
     * != ids.size()}): it asks whether every row the caller named exists (or may be touched by this
     * caller), an access or existence test on those very rows, not an invariant over other rows that
     * a concurrent insert could break.
     */
    private static boolean countsTheGivenRows(MethodFlow flow, DbOp check) {
        if (check.shape() != DbOp.ReadShape.COUNT) {
            return false;
        }
        Node method = check.call().findAncestor(CallableDeclaration.class).orElse(null);
        if (method == null) {
            return false;
        }
        boolean compared = false;
        for (BinaryExpr compare : method.findAll(BinaryExpr.class)) {
            if (!isComparison(compare) || isNullComparison(compare)) {
                continue;
            }
            boolean left = compare.getLeft() == check.end() || compare.getLeft() == check.call()
                    || flow.reaching(compare.getLeft()).contains(check);
            boolean right = compare.getRight() == check.end() || compare.getRight() == check.call()
                    || flow.reaching(compare.getRight()).contains(check);
            if (!left && !right) {
                continue;
            }
            if (!sizeOfCountedArgument(left ? compare.getRight() : compare.getLeft(), check)) {
                return false;
            }
            compared = true;
        }
        return compared;
    }

    /** {@code ids.size()} (the JDK's {@code Collection.size()}) where {@code ids} is passed to the count itself. */
    private static boolean sizeOfCountedArgument(Expression e, DbOp check) {
        if (!(e instanceof MethodCallExpr size) || !size.getNameAsString().equals("size") || !size.getArguments().isEmpty()
                || !(size.getScope().orElse(null) instanceof NameExpr collection)) {
            return false;
        }
        Node declaration = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(collection.getNameAsString(), collection);
        return declaration != null && check.call().getArguments().stream().flatMap(a -> a.findAll(NameExpr.class).stream())
                .anyMatch(n -> n.getNameAsString().equals(collection.getNameAsString())
                        && dev.racelint.analyzer.resolve.LocalVariables.declarationOf(n.getNameAsString(), n) == declaration);
    }

    /** The conditions of branches and early exits that decide whether {@code node} runs and that {@code check} reaches. */
    private static List<Expression> conditionsOver(Node node, MethodFlow flow, DbOp check) {
        List<Expression> out = new ArrayList<>();
        Node child = node;
        Node parent = node.getParentNode().orElse(null);
        while (parent != null && !(parent instanceof CallableDeclaration<?>)) {
            if (parent instanceof IfStmt s && child != s.getCondition()) {
                out.add(s.getCondition());
            } else if (parent instanceof ConditionalExpr c && child != c.getCondition()) {
                out.add(c.getCondition());
            } else if (parent instanceof WhileStmt w && child != w.getCondition()) {
                out.add(w.getCondition());
            } else if (parent instanceof BlockStmt block) {
                for (Statement s : block.getStatements()) {
                    if (s == child) {
                        break;
                    }
                    if (s instanceof IfStmt guard) {
                        out.add(guard.getCondition());
                    }
                }
            }
            child = parent;
            parent = parent.getParentNode().orElse(null);
        }
        out.removeIf(c -> !flow.reaching(c).contains(check));
        return out;
    }

    /** A name or call that carries the check's result itself (not a larger expression holding one). */
    private static boolean uses(Expression e, MethodFlow flow, DbOp check) {
        return (e instanceof NameExpr || e == check.end() || e == check.call()) && flow.reaching(e).contains(check);
    }

    private static boolean isNullComparison(BinaryExpr b) {
        return (b.getOperator() == BinaryExpr.Operator.EQUALS || b.getOperator() == BinaryExpr.Operator.NOT_EQUALS)
                && (b.getLeft() instanceof NullLiteralExpr || b.getRight() instanceof NullLiteralExpr);
    }

    private static boolean isComparison(BinaryExpr b) {
        return switch (b.getOperator()) {
            case LESS, GREATER, LESS_EQUALS, GREATER_EQUALS, EQUALS, NOT_EQUALS -> true;
            default -> false;
        };
    }

    /** Part of a for or while loop's condition: it bounds how often the loop runs. */
    private static boolean loopBound(Node n) {
        Node child = n;
        Node parent = n.getParentNode().orElse(null);
        while (parent instanceof Expression) {
            child = parent;
            parent = parent.getParentNode().orElse(null);
        }
        Node condition = child;
        return parent instanceof ForStmt f && f.getCompare().map(c -> c == condition).orElse(false)
                || parent instanceof WhileStmt w && w.getCondition() == condition;
    }

    /**
     * Reads whose test throws from inside a statement that runs before {@code node} (a validation loop
     * over the rows about to be written: {@code for (..) { if (stock.compareTo(qty) < 0) throw ..; }}):
     * the write runs only when no such test failed. Direct early exits are {@link MethodFlow#controlling}'s.
     */
    private static Set<DbOp> throwingChecksBefore(MethodFlow flow, Node node) {
        Set<DbOp> out = new LinkedHashSet<>();
        Node child = node;
        Node parent = node.getParentNode().orElse(null);
        while (parent != null && !(parent instanceof CallableDeclaration<?>)) {
            if (parent instanceof BlockStmt block) {
                for (Statement s : block.getStatements()) {
                    if (s == child) {
                        break;
                    }
                    for (IfStmt test : s.findAll(IfStmt.class)) {
                        if (test.getThenStmt().findAll(ThrowStmt.class).stream().anyMatch(t -> sameBody(t, test))) {
                            out.addAll(flow.reaching(test.getCondition()));
                        }
                    }
                }
            }
            child = parent;
            parent = parent.getParentNode().orElse(null);
        }
        return out;
    }

    /**
     * A read of a row whose column the program keeps as a total of {@code write}'s table
     * ({@link dev.racelint.analyzer.persistence.ServerMaintainedTables}: {@code customer.setCredit(SUM(..))}),
     * tested in the transaction so that it decides whether {@code write} commits: the write runs under
     * the test, or after a test that throws, or before a test that throws and so rolls it back. The
     * stored total stands for the rows it sums; a concurrent transaction's row is not in it until that
     * one recomputes it, so both pass a balance check over the same stale total (write skew).
     */
    private static DbOp storedTotalCheck(MethodContext context, MethodFlow flow, TransactionScope scope, DbOp write,
            java.util.Map<DbOp, dev.racelint.analyzer.persistence.ServerMaintainedTables.Upkeep> totals) {
        if (write.table().isEmpty() || write.kind() == DbOp.Kind.DELETE) {
            return null;
        }
        var index = context.persistence().index();
        List<Expression> before = new ArrayList<>(conditionsBefore(write.call(), null));
        List<Expression> after = throwingTestsAfter(write.call(), index);
        for (DbOp read : flow.ops()) {
            if (read.kind() != DbOp.Kind.READ || read.table().isEmpty() || read.sameTable(write)
                    || !scope.covers().test(read.call()) || PersistenceRules.lockHeld(context, read)) {
                continue;
            }
            Set<String> keptBy = new java.util.TreeSet<>();
            dev.racelint.analyzer.persistence.ServerMaintainedTables.Upkeep kept = null;
            for (var upkeep : context.persistence().serverMaintained().upkeep(read.table())) {
                if (upkeep.kind() == dev.racelint.analyzer.persistence.ServerMaintainedTables.Upkeep.Kind.DERIVED
                        && upkeep.sourceTable().equalsIgnoreCase(write.table())) {
                    keptBy.addAll(upkeep.keptBy());
                    kept = kept == null ? upkeep : kept;
                }
            }
            if (keptBy.isEmpty()) {
                continue;
            }
            boolean decides = false;
            for (Expression test : before) {
                decides |= testsKeptTotal(test, flow, read, keptBy, scope);
            }
            for (Expression test : after) {
                decides |= PersistenceRules.position(read) < position(test) && testsKeptTotal(test, flow, read, keptBy, scope);
            }
            if (decides) {
                totals.putIfAbsent(read, kept);
                return read;
            }
        }
        return null;
    }

    /** The conditions a statement runs under: enclosing branches and earlier tests in enclosing blocks that throw. */
    private static List<Expression> conditionsBefore(Node node, dev.racelint.analyzer.index.ProgramIndex index) {
        List<Expression> out = new ArrayList<>();
        Node child = node;
        Node parent = node.getParentNode().orElse(null);
        while (parent != null && !(parent instanceof CallableDeclaration<?>)) {
            if (parent instanceof IfStmt s && child != s.getCondition()) {
                out.add(s.getCondition());
            } else if (parent instanceof BlockStmt block) {
                for (Statement s : block.getStatements()) {
                    if (s == child) {
                        break;
                    }
                    for (IfStmt test : s.findAll(IfStmt.class)) {
                        if (throwsInABranch(test, index)) {
                            out.add(test.getCondition());
                        }
                    }
                }
            }
            child = parent;
            parent = parent.getParentNode().orElse(null);
        }
        return out;
    }

    /**
     * Tests after {@code node} in its enclosing blocks with a branch that throws an unchecked exception
     * (which rolls back what the transaction wrote before it, {@code node} included).
     */
    private static List<Expression> throwingTestsAfter(Node node, dev.racelint.analyzer.index.ProgramIndex index) {
        List<Expression> out = new ArrayList<>();
        Node child = node;
        Node parent = node.getParentNode().orElse(null);
        while (parent != null && !(parent instanceof CallableDeclaration<?>)) {
            if (parent instanceof BlockStmt block) {
                boolean after = false;
                for (Statement s : block.getStatements()) {
                    if (after) {
                        for (IfStmt test : s.findAll(IfStmt.class)) {
                            if (throwsInABranch(test, index)) {
                                out.add(test.getCondition());
                            }
                        }
                    }
                    after |= s == child;
                }
            }
            child = parent;
            parent = parent.getParentNode().orElse(null);
        }
        return out;
    }

    /** One arm of the test (in the same body) throws a new unchecked exception. */
    private static boolean throwsInABranch(IfStmt test, dev.racelint.analyzer.index.ProgramIndex index) {
        List<Statement> arms = new ArrayList<>(List.of(test.getThenStmt()));
        test.getElseStmt().filter(e -> !(e instanceof IfStmt)).ifPresent(arms::add);
        for (Statement arm : arms) {
            for (ThrowStmt t : arm.findAll(ThrowStmt.class)) {
                if (sameBody(t, test) && unchecked(t, index)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * {@code throw new X(..)} with X a RuntimeException or Error: a scanned class whose supertypes reach
     * one, or a JDK class that is one (asked of the running JDK itself).
     */
    private static boolean unchecked(ThrowStmt t, dev.racelint.analyzer.index.ProgramIndex index) {
        if (index == null) {
            return true; // a throw before the write keeps it from running, whatever it throws
        }
        if (!(t.getExpression() instanceof com.github.javaparser.ast.expr.ObjectCreationExpr creation)) {
            return false;
        }
        dev.racelint.analyzer.index.TypeRef thrown = index.resolveType(creation.getType(), creation);
        List<String> names = new ArrayList<>();
        if (thrown.isProject()) {
            if (index.isSubtypeOf(thrown.project(), UNCHECKED_ROOTS)) {
                return true;
            }
            index.supertypeClosure(thrown.project()).forEach(ref -> names.addAll(ref.candidates()));
        } else {
            names.addAll(thrown.candidates());
        }
        for (String name : names) {
            if (name.startsWith("java.")) {
                try {
                    Class<?> type = Class.forName(name, false, ClassLoader.getPlatformClassLoader());
                    if (RuntimeException.class.isAssignableFrom(type) || Error.class.isAssignableFrom(type)) {
                        return true;
                    }
                } catch (ClassNotFoundException | LinkageError e) {
                    // not a JDK class: unknown, so not counted
                }
            }
        }
        return false;
    }

    private static final Set<String> UNCHECKED_ROOTS = Set.of("java.lang.RuntimeException", "java.lang.Error");

    /**
     * Does {@code test} compare a kept column of {@code read}'s row: a getter of the row whose property
     * the upkeep sets ({@code getCredit()} for {@code setCredit}), in the test or in the initialiser of a
     * local it tests?
     */
    private static boolean testsKeptTotal(Expression test, MethodFlow flow, DbOp read, Set<String> keptBy,
            TransactionScope scope) {
        if (!scope.covers().test(test) || !flow.reaching(test).contains(read)) {
            return false;
        }
        List<Expression> looked = new ArrayList<>(List.of(test));
        for (NameExpr name : test.findAll(NameExpr.class)) {
            if (dev.racelint.analyzer.resolve.LocalVariables.declarationOf(name.getNameAsString(), name)
                    instanceof com.github.javaparser.ast.body.VariableDeclarator local) {
                local.getInitializer().ifPresent(looked::add);
            }
        }
        for (Expression e : looked) {
            for (MethodCallExpr getter : e.findAll(MethodCallExpr.class)) {
                String property = getter.getNameAsString().startsWith("get") ? getter.getNameAsString().substring(3)
                        : getter.getNameAsString().startsWith("is") ? getter.getNameAsString().substring(2) : null;
                if (property != null && getter.getArguments().isEmpty() && keptBy.contains("set" + property)
                        && getter.getScope().map(scopeExpr -> flow.reaching(scopeExpr).contains(read)).orElse(false)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static int position(Node node) {
        return node.getBegin().map(p -> p.line * 10_000 + p.column).orElse(0);
    }

    /** {@code inner} runs in the same body as {@code outer}, not in a lambda or class declared between them. */
    private static boolean sameBody(Node inner, Node outer) {
        Node at = inner.getParentNode().orElse(null);
        while (at != null && at != outer) {
            if (at instanceof LambdaExpr || at instanceof com.github.javaparser.ast.body.TypeDeclaration<?>
                    || at instanceof com.github.javaparser.ast.expr.ObjectCreationExpr) {
                return false;
            }
            at = at.getParentNode().orElse(null);
        }
        return at == outer;
    }

    /**
     * A conditional UPDATE or DELETE of the counted table: its WHERE re-tests the rows' state when it
     * writes (whether its count is tested is unchecked-row-count's question), so the check is not
     * what the write relies on.
     */
    private static boolean rechecksInItsWhere(DbOp check, DbOp write) {
        return (write.kind() == DbOp.Kind.UPDATE || write.kind() == DbOp.Kind.DELETE) && write.conditional()
                && check.sameTable(write);
    }

    /**
     * {@code existsById(id)}, or a count by the mapping's id or a key the schema declares: about one row,
     * not an invariant over other rows. Which columns are a key is the API's, the mapping's or the
     * schema's word ({@link dev.racelint.analyzer.persistence.RowKeys}), not the column's name.
     */
    private static boolean byPrimaryKeyOnly(MethodContext context, DbOp check) {
        return dev.racelint.analyzer.persistence.RowKeys.picksOneRow(check, context.persistence(),
                context.method().declaringType().file().path());
    }

    /**
     * The check also decides an insert into its own table: it is a uniqueness check (reported by
     * check-then-act), and the other writes it guards do not bear on that invariant.
     */
    private static boolean guardsAnInsertIntoItsTable(MethodFlow flow, DbOp check) {
        for (DbOp op : flow.ops()) {
            if (creates(op, flow) && op.sameTable(check) && (flow.controlling(op.call()).contains(check)
                    || throwingChecksBefore(flow, op.call()).contains(check))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The write adds a row: an INSERT, or a save of a new object or of one that no read in this method
     * loaded (an entity handed in by the caller: nothing here makes it an existing row).
     */
    private static boolean creates(DbOp op, MethodFlow flow) {
        if (op.kind() == DbOp.Kind.INSERT) {
            return true;
        }
        if (op.kind() != DbOp.Kind.SAVE) {
            return false;
        }
        if (PersistenceModel.savesNewObject(op, flow)) {
            return true;
        }
        return op.call().getArguments().size() == 1 && op.call().getArgument(0).isNameExpr()
                && flow.reaching(op.call().getArgument(0)).stream().noneMatch(r -> r.kind() == DbOp.Kind.READ);
    }

    /** The check selects the very row the write changes (by the same key columns): not skew. */
    private static boolean sameRow(DbOp check, DbOp write) {
        if (!check.sameTable(write)) {
            return false;
        }
        // the write's keys leave out the columns it compares to guard itself (those it also sets)
        return !write.keyColumns().isEmpty() && check.keyColumns().containsAll(write.keyColumns());
    }

    /**
     * The check only asks whether any row of its table is left (an EXISTS, or a COUNT compared with 0
     * and nothing else) and every write it decides deletes rows of another table: the invariant is that
     * nothing refers to what is removed. A row added meanwhile is left referring to a removed row (or
     * is taken along by a cascading key): one stale reference at the moment someone removed its target,
     * not a duplicate, an exceeded limit or a lost value. A sum, or a count held against another bound
     * (at least one admin left), is an invariant over values and stays a warning.
     */
    private static boolean removesWhatNothingReferences(MethodFlow flow, DbOp check, List<DbOp> writes) {
        if (writes.stream().anyMatch(w -> w.kind() != DbOp.Kind.DELETE || w.table().isEmpty() || w.sameTable(check))) {
            return false;
        }
        if (check.shape() == DbOp.ReadShape.EXISTS) {
            return true;
        }
        if (check.shape() != DbOp.ReadShape.COUNT) {
            return false;
        }
        Node method = check.call().findAncestor(CallableDeclaration.class).orElse(null);
        if (method == null) {
            return false;
        }
        boolean compared = false;
        for (BinaryExpr compare : method.findAll(BinaryExpr.class)) {
            if (!isComparison(compare) || isNullComparison(compare)) {
                continue;
            }
            boolean left = carries(compare.getLeft(), flow, check);
            boolean right = carries(compare.getRight(), flow, check);
            if (!left && !right) {
                continue;
            }
            if (!isZero(left ? compare.getRight() : compare.getLeft())) {
                return false;
            }
            compared = true;
        }
        return compared;
    }

    /** The expression is the check's call or a value the check's result reaches. */
    private static boolean carries(Expression e, MethodFlow flow, DbOp check) {
        return e == check.end() || e == check.call() || flow.reaching(e).contains(check);
    }

    private static boolean isZero(Expression e) {
        String literal = e instanceof IntegerLiteralExpr i ? i.getValue()
                : e instanceof com.github.javaparser.ast.expr.LongLiteralExpr l ? l.getValue() : null;
        return literal != null && literal.replaceAll("[lL]$", "").equals("0");
    }

    /** " Reported as a note: ..." for {@link #removesWhatNothingReferences}, naming the check's place. */
    private static String unreferencedSentence(DbOp check, List<DbOp> writes) {
        return " Reported as a note: the check at " + check.location().file().getFileName() + ":"
                + check.location().region().startLine() + " only asks whether any " + check.table()
                + " row is left, and every write it decides is a DELETE (from " + String.join(", ", deletedTables(writes))
                + "): the race leaves a row added meanwhile referring to a removed one (or removed with it by a"
                + " cascading foreign key); nothing is duplicated or exceeded.";
    }

    /** The referring rows are the check's; which deleted table they refer to is named only when there is one. */
    private static String unreferencedFix(DbOp check, List<DbOp> writes) {
        List<String> tables = deletedTables(writes);
        String target = tables.size() == 1 ? "the " + tables.get(0) + " row" : "the removed rows";
        return "Let the database refuse the delete: declare the foreign key by which " + check.table() + " rows refer to "
                + target + " without ON DELETE CASCADE / SET NULL (RESTRICT), so the delete fails while such a row"
                + " exists; or lock " + target + " (SELECT ... FOR UPDATE) here and where " + check.table()
                + " rows referring to it are added.";
    }

    private static List<String> deletedTables(List<DbOp> writes) {
        return writes.stream().map(DbOp::table).distinct().toList();
    }

    private static Finding finding(RuleDescriptor rule, MethodContext context, MethodFlow flow, TransactionScope scope,
            DbOp check, List<DbOp> writes, dev.racelint.analyzer.persistence.ServerMaintainedTables.Upkeep total) {
        DbOp write = writes.get(0);
        CodeLocation checkAt = check.location().withLabel("checks the invariant: " + check.describe());
        CodeLocation writeAt = write.location().withLabel("writes: " + write.describe());
        List<CodeLocation> related = new ArrayList<>(List.of(checkAt, writeAt));
        writes.stream().skip(1).forEach(w -> related.add(w.location().withLabel("also writes: " + w.describe())));
        boolean privileged = context.onlyPrivilegedCallers().isPresent();
        boolean unreferenced = total == null && removesWhatNothingReferences(flow, check, writes);
        Message.Builder text = Message.builder().text("In " + scope.title() + ", ").link(PersistenceRules.name(check), 0);
        if (total != null) {
            related.add(total.write().location().withLabel("keeps the total: " + total.write().describe()));
            text.text(" reads a " + check.table() + " total that ")
                    .link(total.in().displayName(), related.size() - 1)
                    .text(" computes from " + total.sourceTable() + " rows, and a test of it decides whether ")
                    .link(PersistenceRules.name(write), 1)
                    .text(" writes " + write.table() + ": a concurrent transaction's " + write.table() + " row is not "
                            + "in the stored total until that transaction recomputes it, so below SERIALIZABLE two "
                            + "transactions can both pass the test on the same stale total and together break the "
                            + "invariant (write skew).");
        } else {
            text.text(" checks an invariant over " + check.table() + " rows and decides whether ")
                    .link(PersistenceRules.name(write), 1)
                    .text(" writes " + (check.sameTable(write) ? "another " + write.table() + " row" : write.table())
                            + ": below SERIALIZABLE two transactions can both pass the check and together break the "
                            + "invariant (write skew).");
        }
        text.text((writes.size() > 1 ? " The same check decides " + (writes.size() - 1) + " more write"
                        + (writes.size() > 2 ? "s" : "") + " (related locations)." : "")
                + (privileged ? PrivilegedCallers.sentence(context)
                        : unreferenced ? unreferencedSentence(check, writes) : ""));
        Message message = text.build();
        Level level = unreferenced && !privileged ? Level.NOTE : PrivilegedCallers.level(rule, context);
        String fix = total != null
                ? "Read the " + check.table() + " row with SELECT ... FOR UPDATE in the transaction before testing its "
                        + "total, so a concurrent transaction waits until this one has recomputed the total and "
                        + "committed; or run the transaction at SERIALIZABLE with a retry that re-runs it."
                : unreferenced ? unreferencedFix(check, writes) : rule.fix();
        return new Finding(rule.id(), level, message, write.location().withLabel(write.describe()),
                related, List.of(scope.anchor(), checkAt, writeAt), fix,
                Fingerprints.of(rule.id(), context.method().signature(), write.call().toString(), check.describe()),
                context.method().signature());
    }
}
