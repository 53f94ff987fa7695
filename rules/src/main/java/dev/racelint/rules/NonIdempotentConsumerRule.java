package dev.racelint.rules;

import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.handlers.Handler;
import dev.racelint.analyzer.handlers.Reachability.Reached;
import dev.racelint.analyzer.handlers.Webhooks;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import java.util.List;

/** A message or webhook consumer whose effect differs when the same delivery arrives twice. */
@RuleMetadata(
        id = "non-idempotent-consumer",
        name = "NonIdempotentConsumer",
        shape = "5",
        title = "Message or webhook consumer that is not idempotent",
        description = "Brokers and webhook senders deliver at least once: the same message arrives again after a "
                + "timeout, a rebalance or a crash. This consumer inserts a row, increments a counter, sends mail, "
                + "calls another service or publishes, and keeps no record of the messages it has processed, so a "
                + "redelivery repeats the effect.",
        level = Level.WARNING,
        precision = Precision.MEDIUM,
        cwe = "837",
        tags = {"messaging", "idempotency"},
        fix = "Record the message id in a processed-messages table under a unique constraint, in the same "
                + "transaction as the effect, and skip when it is already there; prefer upserts and absolute updates.")
public final class NonIdempotentConsumerRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        Handler handler = context.handler().orElse(null);
        if (handler == null || !(handler.kind() == Handler.Kind.MESSAGE || webhook(context, handler))) {
            return;
        }
        List<Reached<DbOp>> ops = context.reachability().databaseOperations(context.method(), false);
        for (Reached<DbOp> op : ops) {
            if (HandlerRules.claimsOnce(op.item())) {
                return; // a processed-message record the database refuses twice: deduplicated
            }
            if (op.item().kind() == DbOp.Kind.UPDATE && op.item().conditional()
                    && dev.racelint.analyzer.persistence.MethodFlow.resultUsed(op.item().end())) {
                return; // a guarded state transition with its count tested: a redelivery finds it done
            }
        }
        if (HandlerRules.claimsIdempotencyKey(context)) {
            return; // the team's own idempotency store (declared in racelint.yml) detects the redelivery
        }
        RuleDescriptor rule = descriptor();
        CodeLocation at = SourceLocations.of(context.method().declaringType().file().path(), context.method().nameNode(),
                handler.describe());
        List<DbOp> all = ops.stream().map(Reached::item).toList();
        for (Reached<DbOp> op : ops) {
            var flow = context.persistence().flow(op.in()).orElse(null);
            if (HandlerRules.nonIdempotent(op.item(), flow)
                    && !(op.item().kind() != DbOp.Kind.UPDATE && HandlerRules.harmlessCreation(op.item(), all))) {
                CodeLocation effect = op.item().location().withLabel(HandlerRules.describe(op.item()));
                report(rule, context, handler, at, effect, op, HandlerRules.describe(op.item()), op.item().describe(), "",
                        reporter);
                return;
            }
        }
        List<Reached<EffectSite>> effects = context.reachability().effects(context.method(), false).stream()
                .filter(site -> HandlerRules.irreversible(site.item())).toList();
        if (effects.isEmpty()) {
            return;
        }
        // the first effect that is not a publish is the one worth naming; a publish only when there is no other
        Reached<EffectSite> site = effects.stream().filter(s -> !publishes(s.item())).findFirst().orElse(effects.get(0));
        String what = "calls " + site.item().effect().api() + " (" + site.item().effect().label() + ")";
        // a note only when the handler writes no row at all: an UPDATE with one counter among absolute SET
        // items (notify_count = notify_count + 1, state = ?) is repeated by a redelivery too
        boolean writesNothing = all.stream().noneMatch(DbOp::isWrite);
        report(rule, context, handler, at, site.item().location(), site, what, site.item().effect().apiKey(),
                publishes(site.item()) && writesNothing ? onlyPublishes(site.item()) : "", reporter);
    }

    private static boolean publishes(EffectSite site) {
        return site.effect().kind() == EffectKind.NETWORK && site.effect().detail().equals("publish");
    }

    /**
     * The consumer's only effect a redelivery repeats is a publish to a broker (no row inserted or
     * incremented, no other remote call): the duplicate goes to the consumers of that message, which
     * receive redeliveries from the broker anyway and must deduplicate them; where they are in the
     * tree, this rule checks them on their own.
     */
    private static String onlyPublishes(EffectSite publish) {
        return " Reported as a note: its only effect a redelivery repeats is the publish at "
                + publish.location().file().getFileName() + ":" + publish.location().region().startLine()
                + "; the consumers of that message receive broker redeliveries anyway and must deduplicate them, so "
                + "the duplicate adds no failure they do not already face.";
    }

    /**
     * An HTTP handler is a webhook, which its sender redelivers, when it checks that the request comes
     * from that sender: it (or a method it calls) verifies a signature (the JDK's {@code Signature.verify},
     * a constant-time digest comparison, a payment provider's notification check in the catalogue, or an
     * API declared {@code webhook-signature} in racelint.yml). A POST whose path or class merely says
     * "notify" or "callback" is a user's request: an operator's resend button, a test message.
     */
    private static boolean webhook(MethodContext context, Handler handler) {
        return Webhooks.isWebhook(handler, context.reachability());
    }

    private static void report(RuleDescriptor rule, MethodContext context, Handler handler, CodeLocation at,
            CodeLocation effect, Reached<?> reached, String what, String key, String note, Reporter reporter) {
        Message message = Message.builder()
                .text("The " + handler.describe() + " ")
                .link(what, 0)
                .text(HandlerRules.via(reached) + " with no record of processed messages: a redelivery of the same "
                        + (handler.kind() == Handler.Kind.MESSAGE ? "message" : "webhook") + " repeats the effect." + note)
                .build();
        reporter.report(new Finding(rule.id(), note.isEmpty() ? rule.level() : Level.NOTE, message, at, List.of(effect),
                HandlerRules.flow(at, reached, effect), rule.fix(),
                Fingerprints.of(rule.id(), context.method().signature(), "handler", key), context.method().signature()));
    }
}
