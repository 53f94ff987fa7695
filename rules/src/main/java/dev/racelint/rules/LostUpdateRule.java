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
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.MethodFlow;
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
        RuleDescriptor rule = descriptor();
        List<DbOp> ops = flow.ops();
        for (DbOp write : ops) {
            if (write.kind() != DbOp.Kind.UPDATE || write.selfRelative() || write.conditional()
                    || PersistenceRules.lockedReadBefore(context, ops, write)) {
                continue;
            }
            DbOp read = readFeeding(context, flow, write, WrittenValues.of(write));
            if (read != null) {
                reporter.report(finding(rule, context, read, write.location().withLabel("writes: " + write.describe()),
                        write.call().toString(), PersistenceRules.name(write)));
            }
        }
        entitySetters(context, flow, rule, reporter);
    }

    private static DbOp readFeeding(MethodContext context, MethodFlow flow, DbOp write, List<Expression> values) {
        for (Expression value : values) {
            for (DbOp read : flow.reaching(value)) {
                if (read.kind() == DbOp.Kind.READ && read.sameTable(write) && !PersistenceRules.lockHeld(context, read)
                        && PersistenceRules.readsRowValues(read)) {
                    return read;
                }
            }
        }
        return null;
    }

    /** JPA: {@code a = repo.findById(..); a.setX(a.getX() + n); repo.save(a)} (or dirty checking in a transaction). */
    private static void entitySetters(MethodContext context, MethodFlow flow, RuleDescriptor rule, Reporter reporter) {
        var body = context.method().body();
        if (body == null) {
            return;
        }
        Set<String> reported = new HashSet<>();
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
                        && flow.reaching(setter.getArgument(0)).contains(r)) {
                    read = r;
                    break;
                }
            }
            if (read == null || PersistenceRules.lockedReadBefore(context, flow.ops(), read)) {
                continue;
            }
            DbOp save = null;
            for (DbOp op : flow.ops()) {
                if (op.kind() == DbOp.Kind.SAVE && PersistenceRules.position(op) > PersistenceRules.position(read)
                        && !op.call().getArguments().isEmpty()
                        && op.call().getArgument(0) instanceof NameExpr n && n.getNameAsString().equals(entityVar.getNameAsString())) {
                    save = op;
                    break;
                }
            }
            boolean inTransaction = context.transactionAttribute().map(a -> a.propagation().runsInTransaction()).orElse(false);
            if (save == null && !inTransaction) {
                continue;
            }
            reported.add(entityVar.getNameAsString());
            CodeLocation at = save != null ? save.location().withLabel("writes: " + save.describe())
                    : SourceLocations.ofCall(context.method().declaringType().file().path(), setter,
                            "changes the managed entity; the transaction flushes it on commit");
            String statement = save != null ? save.call().toString() : setter.toString();
            String writeName = save != null ? PersistenceRules.name(save) : setter.getNameAsString() + "() on the managed "
                    + read.entity().type().simpleName();
            reporter.report(finding(rule, context, read, at, statement, writeName));
        }
    }

    private static Finding finding(RuleDescriptor rule, MethodContext context, DbOp read, CodeLocation writeAt,
            String statement, String writeName) {
        CodeLocation readAt = read.location().withLabel("reads: " + read.describe());
        String table = read.entity() != null ? read.entity().type().simpleName() + " (" + read.table() + ")" : read.table();
        Message message = Message.builder()
                .text("The value read by ").link(PersistenceRules.name(read), 0)
                .text(" is changed in Java and written back to the same " + table + " row by ")
                .link(writeName, 1)
                .text(" with no version check, row lock or atomic SQL: two concurrent runs read the same value and "
                        + "one update is silently lost.")
                .build();
        return new Finding(rule.id(), rule.level(), message, writeAt, List.of(readAt, writeAt), List.of(readAt, writeAt),
                rule.fix(), Fingerprints.of(rule.id(), context.method().signature(), statement, read.describe()),
                context.method().signature());
    }
}
