package dev.racelint.rules;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.index.ExclusiveBranches;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.persistence.CallerConstantWrites;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.MethodFlow;
import dev.racelint.analyzer.persistence.SqlFacts;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import dev.racelint.analyzer.schema.SchemaModel;
import dev.racelint.analyzer.sql.EndStateWrites;
import dev.racelint.analyzer.sql.SqlStatement;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NullLiteralExpr;
import com.github.javaparser.ast.stmt.ReturnStmt;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.List;
import java.util.Optional;

/** A conditional UPDATE/DELETE whose affected-row count nobody looks at. */
@RuleMetadata(
        id = "unchecked-row-count",
        name = "UncheckedRowCount",
        shape = "2",
        title = "Conditional update whose affected-row count is ignored",
        description = "An UPDATE or DELETE whose WHERE clause compares a version, a state, a balance or any column "
                + "besides the key only works if the code looks at how many rows it changed. When the count is "
                + "discarded, a lost race (another writer changed the row first) looks exactly like success.",
        level = Level.ERROR,
        precision = Precision.HIGH,
        cwe = "362",
        tags = {"database", "race-condition"},
        fix = "Test the affected-row count: 0 means someone else changed the row first - answer 409 "
                + "(or 404 after a follow-up existence check).")
public final class UncheckedRowCountRule implements Rule {
    /** Callers a void declaration's finding shows as the places its count is lost. */
    private static final int MAX_CALLERS_SHOWN = 5;

    @Override
    public void check(MethodContext context, Reporter reporter) {
        RuleDescriptor rule = descriptor();
        checkDeclaration(context, rule, reporter);
        MethodFlow flow = context.dataFlow().orElse(null);
        if (flow == null) {
            return;
        }
        for (DbOp op : flow.ops()) {
            if ((op.kind() != DbOp.Kind.UPDATE && op.kind() != DbOp.Kind.DELETE) || !op.conditional()) {
                continue;
            }
            if (context.persistence().classifier().targetReturnsVoid(op.call())) {
                continue; // reported once, at the void declaration
            }
            if (MethodFlow.resultUsed(op.end())) {
                continue;
            }
            if (!mayPinOneRow(context, op.table(), op.keyColumns())) {
                continue; // a bulk filter over rows the schema does not key on: 0 rows is a normal outcome
            }
            if (comparesOnlyUnwrittenColumns(context, context.method(), op)) {
                continue; // no writer changes what the WHERE compares: 0 rows means no such row, not a lost race
            }
            if (endStateWrite(context, context.method(), op) && nothingActsOnIt(context, context.method(), flow, op)) {
                continue; // 0 rows: another writer already left the row in the state this one writes
            }
            Optional<String> reread = handsOnRowReadBack(context.persistence().classifier(), flow, op);
            Message message = Message.builder()
                    .link(PersistenceRules.name(op), 0)
                    .text(" is a conditional " + op.kind().name() + " on " + op.table()
                            + " but its affected-row count is never tested: when another writer got there first, "
                            + "0 rows change and the code carries on as if it had succeeded." + reread.orElse(""))
                    .build();
            CodeLocation at = op.location().withLabel(op.describe());
            reporter.report(new Finding(rule.id(), reread.isPresent() ? Level.NOTE : rule.level(), message, at,
                    List.of(at), List.of(), rule.fix(),
                    Fingerprints.of(rule.id(), context.method().signature(), op.call().toString(), ""),
                    context.method().signature()));
        }
    }

    /**
     * The note's sentence when what follows the write hands on the row as the database holds it: each
     * statement after the write in its block passes on a read of the write's table by the write's own
     * key argument, made after the write ({@code notify(orders.getById(id))} after
     * {@code updateIng2Success(id, ..)}), and no row is written after that block. When another writer
     * got there first, what is handed on is the state that writer left, not the one this write assumed.
     */
    private static Optional<String> handsOnRowReadBack(dev.racelint.analyzer.persistence.DbOpClassifier classifier,
            MethodFlow flow, DbOp op) {
        Node statement = op.end();
        while (statement != null && !(statement instanceof com.github.javaparser.ast.stmt.Statement)) {
            statement = statement.getParentNode().orElse(null);
        }
        if (statement == null || !(statement.getParentNode().orElse(null)
                instanceof com.github.javaparser.ast.stmt.BlockStmt block) || op.call().getArguments().isEmpty()
                || !(op.call().getArgument(0) instanceof NameExpr key) || block.getEnd().isEmpty()) {
            return Optional.empty();
        }
        var statements = block.getStatements();
        var after = statements.subList(statements.indexOf(statement) + 1, statements.size());
        DbOp first = null;
        for (var next : after) {
            // a read passed straight to a call: the flow records the outer call, so classify the argument
            DbOp reread = next.findAll(com.github.javaparser.ast.expr.MethodCallExpr.class).stream()
                    .filter(read -> read.getParentNode().orElse(null) instanceof com.github.javaparser.ast.expr.MethodCallExpr
                            && read.getArguments().contains(key))
                    .map(read -> flow.ops().stream().filter(o -> o.call() == read).findFirst()
                            .or(() -> classifier.classify(read)).orElse(null))
                    .filter(o -> o != null && o.kind() == DbOp.Kind.READ && o.sameTable(op))
                    .findFirst().orElse(null);
            if (reread == null) {
                return Optional.empty();
            }
            first = first == null ? reread : first;
        }
        com.github.javaparser.Position blockEnd = block.getEnd().get();
        boolean writesLater = flow.ops().stream().anyMatch(o -> o != op && o.isWrite()
                && o.call().getBegin().map(b -> b.isAfter(blockEnd)).orElse(true)
                && !dev.racelint.analyzer.index.ExclusiveBranches.exclusive(o.call(), op.call()));
        if (first == null || writesLater) {
            return Optional.empty();
        }
        int line = first.call().getBegin().map(b -> b.line).orElse(0);
        return Optional.of(" Reported as a note: the code after it hands on the " + op.table() + " row read back by "
                + key + " (" + PersistenceRules.name(first) + " at " + op.location().file().getFileName() + ":" + line
                + ") and writes no row after that: when the write lost "
                + "the race, what is handed on is the state the other writer left, not the one this write assumed.");
    }

    /**
     * Whether the WHERE's equalities ({@code IN} lists too: each value one row) may pick a single row: they
     * cover the primary key or a unique key of a table the tree declares (DDL or JPA mapping). A table the
     * tree does not declare (or declares with no key) may be keyed either way, so the statement stays reported.
     */
    private static boolean mayPinOneRow(MethodContext context, String table, java.util.Set<String> equalityColumns) {
        return context.persistence().schema().table(table)
                .or(() -> context.persistence().entities().byName(table, context.method().declaringType().file().path())
                        .flatMap(e -> context.persistence().schema().table(e.table())))
                .filter(SchemaModel.Table::keyed)
                .map(t -> t.pinsOneRow(equalityColumns)).orElse(true);
    }

    /**
     * The statement the call runs (declared on a mapper or repository method) compares only columns of
     * its own table that no write anywhere in the program changes in a stored row - not this
     * statement, no other declared UPDATE, no entity or API-level write of the table
     * ({@link dev.racelint.analyzer.persistence.ColumnWriters}). A soft-delete flag nothing ever sets
     * ({@code AND deleted = 0}) is such a column: no concurrent writer can make the row stop matching.
     */
    private static boolean comparesOnlyUnwrittenColumns(MethodContext context, MethodInfo caller, DbOp op) {
        for (CallEdge edge : context.transactions().graph().facts(caller).calls()) {
            if (edge.site() == op.call()) {
                return comparesOnlyUnwrittenColumns(context, edge.callee());
            }
        }
        return false;
    }

    private static boolean comparesOnlyUnwrittenColumns(MethodContext context, MethodInfo declaring) {
        Optional<SqlStatement> declared = context.persistence().classifier().declaredSqlStatement(declaring);
        if (declared.isEmpty()) {
            return false;
        }
        SqlStatement st = declared.get();
        if (st.kind() != SqlStatement.Kind.UPDATE && st.kind() != SqlStatement.Kind.DELETE
                || st.tables().size() != 1 || st.whereColumns().isEmpty()
                || st.whereColumns().stream().anyMatch(w -> w.valueKind() == SqlStatement.ValueKind.SUBQUERY)) {
            return false; // columns of other tables, or rows picked by a query: not answered here
        }
        return context.persistence().columnWriters().noneWritten(st.targetTable(),
                st.whereColumns().stream().map(SqlStatement.WhereColumn::column).toList());
    }

    /**
     * The call runs an end-state write: a declared UPDATE whose guards only exclude the state it writes
     * ({@link SqlFacts#endState()}), or a Spring Data derived delete by argument values alone (the row is
     * gone either way).
     */
    private static boolean endStateWrite(MethodContext context, MethodInfo caller, DbOp op) {
        if (op.endState()) {
            return true; // a statement built from the call (MyBatis-Plus), or one a helper runs
        }
        if (CallerConstantWrites.endStateForEveryCall(context.persistence().classifier(),
                context.transactions().graph(), caller, op.call())) {
            return true; // the state written is a parameter, and every caller passes a constant the guard excludes
        }
        for (CallEdge edge : context.transactions().graph().facts(caller).calls()) {
            if (edge.site() != op.call()) {
                continue;
            }
            Optional<SqlFacts> declared = context.persistence().classifier().declaredStatement(edge.callee());
            if (declared.map(SqlFacts::endState).orElse(false) || declared.isEmpty() && op.kind() == DbOp.Kind.DELETE
                    && EndStateWrites.derivedDeleteByValuesOnly(edge.callee().name())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Nothing in {@code method} treats the write as having happened: the method returns no value made
     * after the write (a success value would claim the write; a value fixed before it, returned as it
     * is, cannot), no count or existence check of the write's table came
     * first (the decision the write's guard re-states, taken on a read that may be stale), and every
     * write after it is itself an end-state write (inserts, compounding updates, other writes build on it).
     */
    private static boolean nothingActsOnIt(MethodContext context, MethodInfo method, MethodFlow flow, DbOp op) {
        if (!method.returnsVoid() && !returnsOnlyValuesFixedBefore(method, op)) {
            return false;
        }
        for (DbOp other : flow.ops()) {
            if (other == op) {
                continue;
            }
            boolean before = other.call().getBegin().isPresent() && op.call().getBegin().isPresent()
                    && other.call().getBegin().get().isBefore(op.call().getBegin().get());
            if (before && other.kind() == DbOp.Kind.READ && other.sameTable(op)
                    && (other.shape() == DbOp.ReadShape.COUNT || other.shape() == DbOp.ReadShape.EXISTS)) {
                return false;
            }
            if (!before && other.isWrite() && !endStateWrite(context, method, other)
                    && !refusedWhenRepeated(context, other)) {
                return false;
            }
        }
        return true;
    }

    /**
     * An insert into a table the schema declares with a unique key besides its primary key (a notice
     * per order and kind): the record the write is followed by exists at most once per natural key, so
     * a run whose end-state write lost the race cannot add a second one on top of the winner's.
     */
    private static boolean refusedWhenRepeated(MethodContext context, DbOp write) {
        return write.kind() == DbOp.Kind.INSERT && context.persistence().schema().table(write.table())
                .map(t -> t.keys().size() > 1).orElse(false);
    }

    /**
     * Every {@code return} after the write returns {@code null} or a local that was last assigned before
     * the write and is not touched between the write and the return: the value the caller gets was
     * decided before the write, so it tells nothing of whether the write changed a row.
     */
    private static boolean returnsOnlyValuesFixedBefore(MethodInfo method, DbOp op) {
        if (method.body() == null || op.end().getEnd().isEmpty()) {
            return false;
        }
        com.github.javaparser.Position writeEnd = op.end().getEnd().get();
        for (ReturnStmt ret : method.body().findAll(ReturnStmt.class)) {
            if (ret.getBegin().isEmpty() || !ret.getBegin().get().isAfter(writeEnd) || ret.getExpression().isEmpty()) {
                continue;
            }
            Expression value = ret.getExpression().get();
            if (value instanceof NullLiteralExpr) {
                continue;
            }
            if (!(value instanceof NameExpr name)) {
                return false;
            }
            Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
            if (!(declaration instanceof VariableDeclarator) && !(declaration instanceof Parameter)) {
                return false;
            }
            for (NameExpr use : method.body().findAll(NameExpr.class)) {
                if (!use.getNameAsString().equals(name.getNameAsString())
                        || LocalVariables.declarationOf(use.getNameAsString(), use) != declaration
                        || use.getParentNode().orElse(null) instanceof ReturnStmt) {
                    continue;
                }
                if (ExclusiveBranches.exclusive(use, op.call())) {
                    continue; // in a branch the write is not in (the other arm of its if)
                }
                if (use.getBegin().map(p -> p.isAfter(writeEnd)).orElse(true) || inLoopWith(use, op.call())) {
                    return false; // assigned, mutated or passed on after the write (or on the loop's next turn)
                }
            }
        }
        return true;
    }

    /** Are both nodes in one loop's body (so the earlier one also runs after the later one)? */
    private static boolean inLoopWith(Node a, Node b) {
        for (Node p = b.getParentNode().orElse(null); p != null && !(p instanceof com.github.javaparser.ast.body.CallableDeclaration<?>);
                p = p.getParentNode().orElse(null)) {
            if ((p instanceof com.github.javaparser.ast.stmt.ForStmt || p instanceof com.github.javaparser.ast.stmt.ForEachStmt
                    || p instanceof com.github.javaparser.ast.stmt.WhileStmt || p instanceof com.github.javaparser.ast.stmt.DoStmt)
                    && a.isDescendantOf(p)) {
                return true;
            }
        }
        return false;
    }

    /** A repository/mapper method declared {@code void} for a conditional UPDATE/DELETE: the count is lost there. */
    private static void checkDeclaration(MethodContext context, RuleDescriptor rule, Reporter reporter) {
        if (!context.method().returnsVoid() || context.method().isConstructor() || context.method().body() != null) {
            return;
        }
        Optional<SqlFacts> facts = context.persistence().classifier().declaredStatement(context.method());
        if (facts.isEmpty() || !facts.get().conditional()
                || (facts.get().kind() != SqlFacts.Kind.UPDATE && facts.get().kind() != SqlFacts.Kind.DELETE)
                || !mayPinOneRow(context, facts.get().table(), facts.get().keyColumns())
                || comparesOnlyUnwrittenColumns(context, context.method())) {
            return;
        }
        List<CallEdge> callers = context.transactions().graph().callers(context.method());
        if (facts.get().endState() && !callers.isEmpty() && callers.stream().allMatch(edge -> context.persistence()
                .flow(edge.caller()).flatMap(f -> f.ops().stream().filter(o -> o.call() == edge.site()).findFirst()
                        .filter(o -> nothingActsOnIt(context, edge.caller(), f, o))).isPresent())) {
            return; // an end-state write no caller goes on from: 0 rows is the state it wanted
        }
        CodeLocation at = SourceLocations.of(context.method().declaringType().file().path(), context.method().nameNode(),
                context.method().displayName());
        // where the count is lost: each call, then the declaration that cannot return it
        List<CodeLocation> flowTo = new java.util.ArrayList<>();
        callers.stream().limit(MAX_CALLERS_SHOWN)
                .forEach(edge -> flowTo.add(edge.location().withLabel("calls " + context.method().displayName()
                        + " and cannot test its count")));
        flowTo.add(at);
        Message message = Message.of(context.method().displayName() + " runs a conditional " + facts.get().kind().name()
                + " on " + facts.get().table() + " (" + facts.get().summary() + ") but is declared void, so no caller "
                + "can tell whether a row changed: return the count (int) and test it.");
        reporter.report(new Finding(rule.id(), rule.level(), message, at, List.of(), flowTo.size() > 1 ? flowTo : List.of(),
                rule.fix(),
                Fingerprints.of(rule.id(), context.method().signature(), facts.get().summary(), "declaration"),
                context.method().signature()));
    }
}
