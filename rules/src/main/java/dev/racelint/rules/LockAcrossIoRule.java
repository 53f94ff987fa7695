package dev.racelint.rules;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.effects.ApiEffect;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.locks.LockKeys;
import dev.racelint.analyzer.locks.LockScope;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import dev.racelint.analyzer.tx.ReachedEffect;
import java.util.ArrayList;
import java.util.List;

/** Network I/O or a sleep while a lock is held: the critical section lasts as long as the remote call. */
@RuleMetadata(
        id = "lock-across-io",
        name = "LockAcrossIo",
        shape = "locks",
        title = "Network I/O or sleep while a lock is held",
        description = "A lock (a Java monitor, a java.util.concurrent lock, or a database row lock taken with FOR "
                + "UPDATE and held to commit) stays held across a remote call or a sleep. Everything else that needs "
                + "the lock waits for the remote side's tail latency: throughput on that lock collapses to one call "
                + "at a time, and a slow dependency turns into a queue of blocked threads or transactions.",
        level = Level.ERROR,
        precision = Precision.HIGH,
        tags = {"locks", "latency"},
        fix = "Do not hold the lock across the call: read without the lock, make the call, then write "
                + "conditionally (a version compare) and retry on conflict.")
public final class LockAcrossIoRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        RuleDescriptor rule = descriptor();
        // How deep below the locked code the I/O may sit (lock-io-calls). Deeper paths run through shared
        // infrastructure chosen by configuration, where the call graph over-approximates which implementation runs.
        int maxCalls = context.limits().get(dev.racelint.analyzer.AnalysisLimits.Limit.LOCK_IO_CALLS);
        for (LockScope scope : context.lockScopes()) {
            List<ReachedEffect> io = context.ioWhileHeld(scope).stream()
                    .filter(r -> r.calls().size() <= maxCalls).toList();
            if (io.isEmpty()) {
                continue;
            }
            ReachedEffect first = io.get(0);
            ApiEffect effect = first.site().effect();
            List<CodeLocation> flow = new ArrayList<>();
            flow.add(scope.anchor());
            for (CallEdge edge : first.calls()) {
                flow.add(edge.location());
            }
            flow.add(first.site().location());
            String via = first.calls().isEmpty() ? "" : " via " + first.calls().get(0).callee().displayName();
            // A lock keyed by a value of the call is one lock per key: only calls for the same key (the same
            // order, the same account) queue behind the remote call - the serialisation such a lock is taken for.
            java.util.Optional<LockKeys.CallKey> perKey = LockKeys.fromCall(scope, context.transactions().graph());
            String waiting = perKey.isPresent() ? "every call for the same key waits for the "
                    : "everything waiting for that lock waits for the ";
            Message message = Message.builder()
                    .text(context.method().displayName() + " holds " + scope.lock() + " while it calls ")
                    .link(effect.api(), 0)
                    .text(" (" + effect.label() + ")" + via + ": " + waiting
                            + (effect.label().equals("sleep") ? "sleep" : "remote call's full latency") + ".")
                    .text(perKey.map(k -> " Reported as a note: the lock's key " + k.key() + " (at "
                            + scope.anchor().file().getFileName() + ":" + k.key().getBegin().map(b -> b.line)
                                    .orElse(scope.anchor().region().startLine())
                            + ") is built from the parameter " + k.parameter().getNameAsString() + " of "
                            + context.method().displayName() + ", which every caller passes a value of its own, so "
                            + "calls for other keys do not wait.").orElse(""))
                    .build();
            reporter.report(new Finding(rule.id(), perKey.isPresent() ? Level.NOTE : rule.level(), message,
                    scope.anchor().withLabel(scope.lock()),
                    List.of(first.site().location()), flow, rule.fix(),
                    Fingerprints.of(rule.id(), context.method().signature(), scope.anchorText(), effect.apiKey()),
                    context.method().signature()));
        }
    }
}
