package dev.racelint.rules;

import com.github.javaparser.ast.body.MethodDeclaration;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.handlers.Handler;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.handlers.Reachability.Reached;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import dev.racelint.analyzer.tx.TransactionScope;
import java.util.List;

/** A manual acknowledgement that runs before the work it acknowledges has committed. */
@RuleMetadata(
        id = "ack-before-commit",
        name = "AckBeforeCommit",
        shape = "5",
        title = "Message acknowledged before its work commits",
        description = "The message is acknowledged (or its offset committed, or it is deleted from the queue) "
                + "before the database work it triggers has committed - earlier in the handler, inside the "
                + "transaction doing the work, or by the container when an @Async listener's proxy returns. If the process dies or the transaction rolls back after the ack, the "
                + "broker will not redeliver: the work is lost and nothing records that it should have happened.",
        level = Level.ERROR,
        precision = Precision.HIGH,
        tags = {"messaging"},
        fix = "Acknowledge after the transaction has committed (after the @Transactional call or "
                + "TransactionTemplate.execute returns), and make the handler idempotent for the redeliveries that follow. "
                + "Do not put @Async on a listener: scale with the container's concurrency instead.")
public final class AckBeforeCommitRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        List<EffectSite> acks = context.transactions().graph().facts(context.method()).effects().stream()
                .filter(e -> e.effect().kind() == EffectKind.ACK).toList();
        RuleDescriptor rule = descriptor();
        if (acks.isEmpty()) {
            checkAsyncListener(rule, context, reporter);
            return;
        }
        for (EffectSite ack : acks) {
            for (TransactionScope scope : context.transactionScopes()) {
                if (scope.covers().test(ack.call()) && writesInScope(context, scope)) {
                    report(rule, context, ack, scope.anchor(), "inside the transaction that does the work ("
                            + scope.title() + "), which commits only after the acknowledgement", reporter);
                    break;
                }
            }
            CodeLocation work = laterWork(context, ack);
            if (work != null) {
                report(rule, context, ack, work, "before the database work at line " + work.region().startLine()
                        + " commits", reporter);
            }
        }
    }

    /**
     * A listener whose acknowledgement is the container's (it acks, commits the offset or returns
     * CONSUME_SUCCESS when the listener returns) but which is {@code @Async}: the container calls it
     * through the proxy, which only queues the body on an executor and returns, so the message is
     * acknowledged before any of the work has run. A listener returning a value is left alone: the
     * containers that accept a future as the result wait for it before acknowledging.
     */
    private static void checkAsyncListener(RuleDescriptor rule, MethodContext context, Reporter reporter) {
        if (context.handler().filter(h -> h.kind() == Handler.Kind.MESSAGE).isEmpty()
                || !context.transactions().graph().facts(context.method()).asyncWhenProxied()
                || !(context.method().declaration() instanceof MethodDeclaration decl) || !decl.getType().isVoidType()) {
            return;
        }
        for (Reached<EffectSite> site : context.reachability().effects(context.method(), false)) {
            if (site.item().effect().kind() == EffectKind.ACK) {
                return; // a manual acknowledgement: its order against the work is the other checks' business
            }
        }
        Reached<DbOp> write = null;
        for (Reached<DbOp> op : context.reachability().databaseOperations(context.method(), false)) {
            if (op.item().isWrite()) {
                write = op;
                break;
            }
        }
        if (write == null) {
            return;
        }
        String framework = context.handler().get().framework();
        CodeLocation at = SourceLocations.of(context.method().declaringType().file().path(), context.method().nameNode(),
                "@Async " + framework + " listener: the container acknowledges when the proxy returns");
        CodeLocation work = write.item().location().withLabel("the work, run later on the executor: "
                + write.item().describe());
        Message message = Message.builder()
                .text(context.method().displayName() + " is an @Async " + framework + " listener: the container "
                        + "hands the message to the proxy, which only queues the body on an executor, and "
                        + "acknowledges it when the proxy returns - before ")
                .link("the work", 0)
                .text(" has run. If the process dies, the executor rejects the task or the work fails, the message "
                        + "is not redelivered and the work is lost.")
                .build();
        reporter.report(new Finding(rule.id(), rule.level(), message, at, List.of(work), List.of(at, work),
                rule.fix(), Fingerprints.of(rule.id(), context.method().signature(), "", "async"),
                context.method().signature()));
    }

    private static boolean writesInScope(MethodContext context, TransactionScope scope) {
        for (DbOp op : context.databaseOperations()) {
            if (op.isWrite() && scope.covers().test(op.call())) {
                return true;
            }
        }
        for (CallEdge edge : context.transactions().graph().facts(context.method()).calls()) {
            if (scope.covers().test(edge.site()) && reachesWrite(context, edge)) {
                return true;
            }
        }
        return false;
    }

    /** The first database write (direct, or through a call) that comes after the ack in the handler. */
    private static CodeLocation laterWork(MethodContext context, EffectSite ack) {
        int at = position(ack.call());
        CodeLocation best = null;
        int bestAt = Integer.MAX_VALUE;
        for (DbOp op : context.databaseOperations()) {
            int p = position(op.call());
            if (op.isWrite() && p > at && p < bestAt) {
                best = op.location().withLabel("the work: " + op.describe());
                bestAt = p;
            }
        }
        for (CallEdge edge : context.transactions().graph().facts(context.method()).calls()) {
            int p = position(edge.site());
            if (p > at && p < bestAt && reachesWrite(context, edge)) {
                best = edge.location().withLabel("the work: " + edge.location().label());
                bestAt = p;
            }
        }
        for (EffectSite site : context.transactions().graph().facts(context.method()).effects()) {
            int p = position(site.call());
            if (site.effect().kind() == EffectKind.TRANSACTION_CALLBACK && p > at && p < bestAt) {
                best = site.location().withLabel("the work: " + site.effect().api());
                bestAt = p;
            }
        }
        return best;
    }

    private static boolean reachesWrite(MethodContext context, CallEdge edge) {
        for (Reached<DbOp> op : context.reachability().databaseOperations(edge.callee(), true)) {
            if (op.item().isWrite()) {
                return true;
            }
        }
        return false;
    }

    private static int position(com.github.javaparser.ast.Node node) {
        return node.getBegin().map(p -> p.line * 10_000 + p.column).orElse(0);
    }

    private static void report(RuleDescriptor rule, MethodContext context, EffectSite ack, CodeLocation work,
            String when, Reporter reporter) {
        CodeLocation ackAt = ack.location().withLabel(ack.effect().label() + ": " + ack.effect().api());
        Message message = Message.builder()
                .text("The " + ack.effect().label() + " (" + ack.effect().api() + ") in " + context.method().name()
                        + "() runs " + when + ": if the process dies or the work rolls back, the message is not "
                        + "redelivered and the work is lost (")
                .link("the work", 0)
                .text(").")
                .build();
        reporter.report(new Finding(rule.id(), rule.level(), message, ackAt, List.of(work), List.of(ackAt, work),
                rule.fix(), Fingerprints.of(rule.id(), context.method().signature(), ack.call().toString(), when.substring(0, 6)),
                context.method().signature()));
    }
}
