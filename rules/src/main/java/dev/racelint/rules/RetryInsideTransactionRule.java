package dev.racelint.rules;

import com.github.javaparser.ast.stmt.CatchClause;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import dev.racelint.analyzer.tx.RetryCatches;
import java.util.List;

/** A serialization or deadlock failure retried inside the transaction it already aborted. */
@RuleMetadata(
        id = "retry-inside-transaction",
        name = "RetryInsideTransaction",
        shape = "retries",
        title = "Serialization or deadlock failure retried inside the aborted transaction",
        description = "After a serialization failure (40001) or a deadlock (40P01) the database has aborted the "
                + "transaction: every further statement in it fails (25P02) until it rolls back. A retry loop, or a "
                + "@Retryable method, that runs inside that transaction re-runs statements in a transaction that "
                + "can no longer commit - the retry cannot succeed.",
        level = Level.ERROR,
        precision = Precision.HIGH,
        tags = {"retries", "transactions"},
        fix = "Retry from outside: the loop (or @Retryable) wraps the whole transaction and re-runs its logic, "
                + "at most 3 attempts with jittered backoff.")
public final class RetryInsideTransactionRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        RuleDescriptor rule = descriptor();
        var file = context.method().declaringType().file().path();
        for (CatchClause clause : RetryCatches.inLoops(context.bodyNodes())) {
            if (!context.runsInTransaction(clause)) {
                continue;
            }
            CodeLocation at = SourceLocations.of(file, clause.getParameter(), "catches "
                    + clause.getParameter().getType() + " and loops again");
            Message message = Message.of(context.method().displayName() + " catches "
                    + clause.getParameter().getType() + " and retries inside its transaction: after a serialization "
                    + "or deadlock failure that transaction is aborted, so the retried statements cannot succeed.");
            reporter.report(new Finding(rule.id(), rule.level(), message, at, List.of(), List.of(), rule.fix(),
                    Fingerprints.of(rule.id(), context.method().signature(), clause.getParameter().toString(), "loop"),
                    context.method().signature()));
        }
        for (CallEdge edge : context.transactions().graph().facts(context.method()).calls()) {
            if (edge.viaProxy() && context.transactions().isRetryable(edge.callee())
                    && context.runsInTransaction(edge.site())) {
                Message message = Message.builder()
                        .text(context.method().displayName() + " calls @Retryable ")
                        .link(edge.callee().displayName(), 0)
                        .text(" inside a transaction: its retries run in the same transaction, which a serialization "
                                + "or deadlock failure has already aborted.")
                        .build();
                CodeLocation callee = SourceLocations.of(edge.callee().declaringType().file().path(),
                        edge.callee().nameNode(), "@Retryable " + edge.callee().displayName());
                reporter.report(new Finding(rule.id(), rule.level(), message, edge.location(), List.of(callee),
                        List.of(edge.location(), callee), rule.fix(),
                        Fingerprints.of(rule.id(), context.method().signature(), edge.site().toString(), "retryable"),
                        context.method().signature()));
            }
        }
    }
}
