package dev.racelint.rules;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
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
import dev.racelint.analyzer.tx.TransactionModel;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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
            if (!edge.viaProxy() || !context.transactions().isRetryable(edge.callee())
                    || context.transactions().boundary(edge) == TransactionModel.CallBoundary.OUTSIDE) {
                continue;
            }
            Optional<Enclosing> tx = enclosingTransaction(context, edge.site());
            if (tx.isEmpty()) {
                continue;
            }
            Message message = Message.builder()
                    .text(context.method().displayName() + " calls @Retryable ")
                    .link(edge.callee().displayName(), 0)
                    .text(" inside " + tx.get().describe() + ": its retries run in the same "
                            + "transaction, which a serialization or deadlock failure has already aborted.")
                    .build();
            CodeLocation callee = SourceLocations.of(edge.callee().declaringType().file().path(),
                    edge.callee().nameNode(), "@Retryable " + edge.callee().displayName());
            report(context, rule, message, edge.location(), callee, tx.get(),
                    Fingerprints.of(rule.id(), context.method().signature(), edge.site().toString(), "retryable"), reporter);
        }
        for (MethodCallExpr execute : context.retries().retryTemplateExecutions(context.method())) {
            Optional<Enclosing> tx = enclosingTransaction(context, execute);
            if (tx.isEmpty()) {
                continue;
            }
            CodeLocation at = SourceLocations.ofCall(file, execute, "RetryTemplate.execute inside a transaction");
            Message message = Message.of(context.method().displayName() + " retries with " + execute.getScope().get()
                    + ".execute(..) inside " + tx.get().describe() + ": after a serialization, deadlock "
                    + "or optimistic-lock failure that transaction is aborted or marked rollback-only, so the retried "
                    + "work cannot commit.");
            report(context, rule, message, at, null, tx.get(),
                    Fingerprints.of(rule.id(), context.method().signature(), execute.toString(), "template"), reporter);
        }
    }

    private static void report(MethodContext context, RuleDescriptor rule, Message message, CodeLocation at,
            CodeLocation callee, Enclosing tx, String fingerprint, Reporter reporter) {
        List<CodeLocation> related = new ArrayList<>();
        List<CodeLocation> flow = new ArrayList<>();
        if (!tx.path().isEmpty()) {
            for (MethodInfo transaction : tx.transactions()) {
                related.add(SourceLocations.of(transaction.declaringType().file().path(), transaction.nameNode(),
                        "transaction of " + transaction.displayName()));
            }
            flow.add(related.get(0));
            tx.path().forEach(edge -> flow.add(edge.location()));
        }
        flow.add(at);
        if (callee != null) {
            related.add(callee);
            flow.add(callee);
        }
        reporter.report(new Finding(rule.id(), rule.level(), message, at, related, flow.size() > 1 ? flow : List.of(),
                rule.fix(), fingerprint, context.method().signature()));
    }

    /** The transaction a retry site runs in, and the calls from the method that holds it down to the site's method. */
    private record Enclosing(MethodInfo transaction, List<CallEdge> path, List<MethodInfo> others) {
        Enclosing(MethodInfo transaction, List<CallEdge> path) {
            this(transaction, path, List.of());
        }

        Enclosing alsoIn(List<MethodInfo> more) {
            return new Enclosing(transaction, path, more);
        }

        List<MethodInfo> transactions() {
            List<MethodInfo> all = new ArrayList<>();
            all.add(transaction);
            all.addAll(others);
            return all;
        }

        String describe() {
            if (path.isEmpty()) {
                return "a transaction";
            }
            List<String> names = transactions().stream().map(MethodInfo::displayName).toList();
            return names.size() == 1 ? "the transaction of " + names.get(0)
                    : "the transactions of " + String.join(", ", names.subList(0, names.size() - 1)) + " and "
                            + names.get(names.size() - 1);
        }
    }

    /**
     * The nearest transaction {@code site} runs in: one of this method's own, or that of a caller
     * reached upwards through calls on the same transaction (no proxy boundary that starts or
     * suspends one), at most {@code reach-depth} calls away. Of the callers at the same distance a
     * writing transaction comes before a {@code readOnly} one, then the first in source order is
     * named, so that the answer does not depend on the scan order.
     */
    private static Optional<Enclosing> enclosingTransaction(MethodContext context, Node site) {
        // A transaction that is itself retried whole from outside (its method is @Retryable) recovers
        // from the failure the inner retry cannot fix: the inner one is redundant, not a defect.
        return nearestTransaction(context, site).filter(tx -> tx.transactions().stream()
                .noneMatch(context.transactions()::isRetryable));
    }

    private static Optional<Enclosing> nearestTransaction(MethodContext context, Node site) {
        TransactionModel transactions = context.transactions();
        if (covers(transactions, context.method(), site)) {
            return Optional.of(new Enclosing(context.method(), List.of()));
        }
        List<Enclosing> frontier = List.of(new Enclosing(context.method(), List.of()));
        Set<Integer> seen = new HashSet<>(Set.of(context.method().id()));
        for (int depth = 0; depth < context.limits().reachDepth() && !frontier.isEmpty(); depth++) {
            List<Enclosing> found = new ArrayList<>();
            List<Enclosing> next = new ArrayList<>();
            for (Enclosing at : frontier) {
                for (CallEdge edge : transactions.graph().callers(at.transaction())) {
                    TransactionModel.CallBoundary boundary = transactions.boundary(edge);
                    if (boundary == TransactionModel.CallBoundary.OUTSIDE) {
                        continue;
                    }
                    List<CallEdge> path = new ArrayList<>();
                    path.add(edge);
                    path.addAll(at.path());
                    if (covers(transactions, edge.caller(), edge.site())) {
                        found.add(new Enclosing(edge.caller(), path));
                    } else if (boundary == TransactionModel.CallBoundary.SAME && seen.add(edge.caller().id())) {
                        next.add(new Enclosing(edge.caller(), path));
                    }
                }
            }
            if (!found.isEmpty()) {
                // a writing transaction first: there the conflict the retry waits for arises and aborts it
                found.sort(Comparator.comparing((Enclosing e) -> readOnly(transactions, e.transaction()))
                        .thenComparing(e -> e.path().get(0).location().file().toString())
                        .thenComparingInt(e -> e.path().get(0).location().region().startLine()));
                return Optional.of(found.get(0).alsoIn(found.subList(1, found.size()).stream()
                        .map(Enclosing::transaction).distinct().filter(t -> t != found.get(0).transaction()).toList()));
            }
            frontier = next;
        }
        return Optional.empty();
    }

    private static boolean readOnly(TransactionModel transactions, MethodInfo method) {
        return transactions.attribute(method).map(dev.racelint.analyzer.tx.TransactionAttribute::readOnly).orElse(false);
    }

    private static boolean covers(TransactionModel transactions, MethodInfo method, Node node) {
        return transactions.attribute(method).map(a -> a.propagation().runsInTransaction()).orElse(false)
                || transactions.scopesIn(method).stream().anyMatch(scope -> scope.covers().test(node));
    }
}
