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
import java.util.List;

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

    @Override
    public void check(MethodContext context, Reporter reporter) {
        MethodFlow flow = context.dataFlow().orElse(null);
        if (flow == null) {
            return;
        }
        List<DbOp> ops = flow.ops();
        for (DbOp write : ops) {
            if (!isInsert(write, flow) || write.upsert() || write.table().isEmpty()
                    || PersistenceModel.duplicateCaught(write.call())) {
                continue;
            }
            if (PersistenceRules.lockedReadBefore(context, ops, write)) {
                continue;
            }
            for (DbOp check : flow.decidingReads(write.call(), write)) {
                if (PersistenceRules.lockHeld(context, check)
                        || uniqueInDatabase(write, check)) {
                    continue;
                }
                reporter.report(finding(descriptor(), context, check, write));
                break;
            }
        }
    }

    private static boolean isInsert(DbOp op, MethodFlow flow) {
        return op.kind() == DbOp.Kind.INSERT
                || (op.kind() == DbOp.Kind.SAVE && PersistenceModel.savesNewObject(op, flow));
    }

    /** The entity declares a unique constraint on the columns the check looked at. */
    private static boolean uniqueInDatabase(DbOp write, DbOp check) {
        var entity = write.entity() != null ? write.entity() : check.entity();
        return entity != null && entity.uniqueOn(check.keyColumns());
    }

    private static Finding finding(RuleDescriptor rule, MethodContext context, DbOp check, DbOp write) {
        CodeLocation checkAt = check.location().withLabel("checks: " + check.describe());
        CodeLocation writeAt = write.location().withLabel("writes: " + write.describe());
        String what = check.shape() == DbOp.ReadShape.COUNT || check.shape() == DbOp.ReadShape.AGGREGATE
                ? "a limit check" : "an existence check";
        Message message = Message.builder()
                .link(PersistenceRules.name(check), 0)
                .text(" (" + what + " on " + write.table() + ") decides whether ")
                .link(PersistenceRules.name(write), 1)
                .text(" runs, but nothing stops two requests both passing the check: add a unique constraint on "
                        + write.table() + PersistenceRules.columns(check) + " and treat the duplicate-key error as "
                        + "'already exists'" + (what.equals("a limit check") ? ", or enforce the limit in one conditional UPDATE" : "")
                        + ".")
                .build();
        String fingerprint = Fingerprints.of(rule.id(), context.method().signature(), write.call().toString(),
                check.describe());
        return new Finding(rule.id(), rule.level(), message, write.location().withLabel(write.describe()),
                List.of(checkAt, writeAt), List.of(checkAt, writeAt), rule.fix(), fingerprint,
                context.method().signature());
    }
}
