package dev.racelint.rules;

import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.index.SourceLocations;
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
            Message message = Message.builder()
                    .link(PersistenceRules.name(op), 0)
                    .text(" is a conditional " + op.kind().name() + " on " + op.table()
                            + " but its affected-row count is never tested: when another writer got there first, "
                            + "0 rows change and the code carries on as if it had succeeded.")
                    .build();
            CodeLocation at = op.location().withLabel(op.describe());
            reporter.report(new Finding(rule.id(), rule.level(), message, at, List.of(at), List.of(), rule.fix(),
                    Fingerprints.of(rule.id(), context.method().signature(), op.call().toString(), ""),
                    context.method().signature()));
        }
    }

    /**
     * Whether the WHERE's equalities ({@code IN} lists too: each value one row) may pick a single row: they
     * cover the primary key or a unique key of a table the tree declares (DDL or JPA mapping). A table the
     * tree does not declare (or declares with no key) may be keyed either way, so the statement stays reported.
     */
    private static boolean mayPinOneRow(MethodContext context, String table, java.util.Set<String> equalityColumns) {
        return context.persistence().schema().table(table)
                .or(() -> context.persistence().entities().byName(table)
                        .flatMap(e -> context.persistence().schema().table(e.table())))
                .filter(SchemaModel.Table::keyed)
                .map(t -> t.pinsOneRow(equalityColumns)).orElse(true);
    }

    /** A repository/mapper method declared {@code void} for a conditional UPDATE/DELETE: the count is lost there. */
    private static void checkDeclaration(MethodContext context, RuleDescriptor rule, Reporter reporter) {
        if (!context.method().returnsVoid() || context.method().isConstructor() || context.method().body() != null) {
            return;
        }
        Optional<SqlFacts> facts = context.persistence().classifier().declaredStatement(context.method());
        if (facts.isEmpty() || !facts.get().conditional()
                || (facts.get().kind() != SqlFacts.Kind.UPDATE && facts.get().kind() != SqlFacts.Kind.DELETE)
                || !mayPinOneRow(context, facts.get().table(), facts.get().keyColumns())) {
            return;
        }
        CodeLocation at = SourceLocations.of(context.method().declaringType().file().path(), context.method().nameNode(),
                context.method().displayName());
        Message message = Message.of(context.method().displayName() + " runs a conditional " + facts.get().kind().name()
                + " on " + facts.get().table() + " (" + facts.get().summary() + ") but is declared void, so no caller "
                + "can tell whether a row changed: return the count (int) and test it.");
        reporter.report(new Finding(rule.id(), rule.level(), message, at, List.of(), List.of(), rule.fix(),
                Fingerprints.of(rule.id(), context.method().signature(), facts.get().summary(), "declaration"),
                context.method().signature()));
    }
}
