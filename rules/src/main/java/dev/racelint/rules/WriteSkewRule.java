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
import dev.racelint.analyzer.tx.TransactionScope;
import java.util.List;

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
            for (DbOp write : flow.ops()) {
                if (!write.isWrite() || !scope.covers().test(write.call())
                        || PersistenceRules.lockedReadBefore(context, flow.ops(), write)) {
                    continue;
                }
                boolean insert = creates(write, flow);
                for (DbOp check : flow.controlling(write.call())) {
                    boolean aggregate = check.shape() == DbOp.ReadShape.COUNT || check.shape() == DbOp.ReadShape.EXISTS
                            || check.shape() == DbOp.ReadShape.AGGREGATE;
                    if (check.kind() != DbOp.Kind.READ || !aggregate || PersistenceRules.lockHeld(context, check)
                            || (insert && check.sameTable(write)) || check.table().isEmpty() || sameRow(check, write)
                            || byPrimaryKeyOnly(check) || guardsAnInsertIntoItsTable(flow, check)) {
                        continue;
                    }
                    reporter.report(finding(rule, context, scope, check, write));
                    break;
                }
            }
        }
    }

    /** {@code existsById(id)}: about one row, not an invariant over other rows. */
    private static boolean byPrimaryKeyOnly(DbOp check) {
        return check.keyColumns().size() == 1 && check.keyColumns().contains("id");
    }

    /**
     * The check also decides an insert into its own table: it is a uniqueness check (reported by
     * check-then-act), and the other writes it guards do not bear on that invariant.
     */
    private static boolean guardsAnInsertIntoItsTable(MethodFlow flow, DbOp check) {
        for (DbOp op : flow.ops()) {
            if (creates(op, flow) && op.sameTable(check) && flow.controlling(op.call()).contains(check)) {
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

    private static Finding finding(RuleDescriptor rule, MethodContext context, TransactionScope scope, DbOp check,
            DbOp write) {
        CodeLocation checkAt = check.location().withLabel("checks the invariant: " + check.describe());
        CodeLocation writeAt = write.location().withLabel("writes: " + write.describe());
        Message message = Message.builder()
                .text("In " + scope.title() + ", ").link(PersistenceRules.name(check), 0)
                .text(" checks an invariant over " + check.table() + " rows and decides whether ")
                .link(PersistenceRules.name(write), 1)
                .text(" writes " + (check.sameTable(write) ? "another " + write.table() + " row" : write.table())
                        + ": below SERIALIZABLE two transactions can both pass the check and together break the "
                        + "invariant (write skew).")
                .build();
        return new Finding(rule.id(), rule.level(), message, write.location().withLabel(write.describe()),
                List.of(checkAt, writeAt), List.of(scope.anchor(), checkAt, writeAt), rule.fix(),
                Fingerprints.of(rule.id(), context.method().signature(), write.call().toString(), check.describe()),
                context.method().signature());
    }
}
