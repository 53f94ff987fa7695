package dev.racelint.rules;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.callgraph.MethodFacts;
import dev.racelint.analyzer.handlers.Reachability.Reached;
import dev.racelint.analyzer.retry.RetryFacts;
import dev.racelint.analyzer.index.BodyNodes;
import dev.racelint.analyzer.index.MethodInfo;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Retries that wait with no jitter, or never give up. */
@RuleMetadata(
        id = "unjittered-retry",
        name = "UnjitteredRetry",
        shape = "retries",
        title = "Retry without jitter or without a bound",
        description = "Every client that failed during an outage retries after the same fixed or doubling delay, "
                + "so they all come back in the same instant and knock the recovering dependency over again. A "
                + "retry loop with no attempt bound keeps doing it forever.",
        level = Level.WARNING,
        precision = Precision.MEDIUM,
        tags = {"retries", "reliability"},
        fix = "Full jitter: sleep random(0, min(cap, base * 2^attempt)), with a cap and a bounded number of attempts "
                + "(@Backoff(random = true), ExponentialRandomBackOffPolicy); retry only retryable failures.")
public final class UnjitteredRetryRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        RuleDescriptor rule = descriptor();
        var file = context.method().declaringType().file().path();
        var retries = context.retries();
        // A bounded retry of chosen failures around local work (a database conflict among few writers)
        // brings no herd to a shared dependency: reported only when it retries every failure or reaches
        // a remote call.
        if (retries.unjitteredBackoffAnnotation(context.method())) {
            Scope scope = new Scope(retries.retryableCoversEveryFailure(context.method()),
                    remoteWork(context, context.method(), null));
            if (scope.reported()) {
                var few = retries.retryableFewAttempts(context.method());
                report(rule, context, SourceLocations.of(file, context.method().nameNode(), "@Retryable backoff"),
                        context.method().displayName() + " is @Retryable with a @Backoff that has no random = true"
                                + scope.why() + fewAttemptsNote(file, few), "backoff", scope, level(rule, few), reporter);
            }
        }
        List<? extends Node> policies = retries.fixedBackOffPolicies(context.method());
        if (!policies.isEmpty()) {
            Scope scope = new Scope(retries.policyCoversEveryFailure(context.method()), templateWork(context));
            var few = retries.templateFewAttempts(context.method());
            for (Node creation : scope.reported() ? policies : List.<Node>of()) {
                report(rule, context, SourceLocations.of(file, creation, "back-off policy without jitter"),
                        "This RetryTemplate waits with " + creation + ", which has no randomness" + scope.why()
                                + " Use ExponentialRandomBackOffPolicy or UniformRandomBackOffPolicy."
                                + fewAttemptsNote(file, few), creation.toString(), scope, level(rule, few), reporter);
            }
        }
        for (Node loop : retries.unboundedRetryLoops(context.method())) {
            CodeLocation at = SourceLocations.of(file, loop, "retry loop with no bound");
            at = new CodeLocation(file, new dev.racelint.analyzer.finding.SourceRegion(at.region().startLine(),
                    at.region().startColumn(), at.region().startLine(), at.region().startColumn() + 5), at.label());
            report(rule, context, at, "This loop catches the failure and tries again with no attempt limit: during an "
                    + "outage it retries forever.", "unbounded:" + loop, null, rule.level(), reporter);
        }
        for (RetryFacts.ImmediateRetry retry : retries.immediateRetryLoops(context.method())) {
            Scope scope = new Scope(retries.catchCoversEveryFailure(retry.retried()),
                    remoteWork(context, context.method(), retry.loop()));
            if (scope.reported()) {
                CodeLocation at = SourceLocations.of(file, retry.loop(), "retry with no pause");
                at = new CodeLocation(file, new dev.racelint.analyzer.finding.SourceRegion(at.region().startLine(),
                        at.region().startColumn(), at.region().startLine(), at.region().startColumn() + 5), at.label());
                report(rule, context, at, "This loop tries the work again at once after a failure, with no pause at all"
                        + scope.why() + fewAttemptsNote(file, retry.few()), "immediate:" + retry.loop().getBegin()
                        .map(p -> p.line).orElse(0), scope, level(rule, retry.few()), reporter);
            }
        }
        reportLibraries(rule, context, file, reporter);
        for (MethodCallExpr sleep : retries.unjitteredSleepsInRetryLoops(context.method())) {
            Scope scope = new Scope(retries.loopCoversEveryFailure(sleep), remoteWork(context, context.method(),
                    enclosingLoop(sleep)));
            if (scope.reported()) {
                var few = retries.loopFewAttempts(sleep, context.method(), context.reachability().callers(context.method()));
                report(rule, context, SourceLocations.of(file, sleep, "sleep without jitter"),
                        "This retry loop waits " + sleep + " with no randomness" + scope.why() + fewAttemptsNote(file, few),
                        sleep.toString(), scope, level(rule, few), reporter);
            }
        }
    }

    /**
     * Why an unjittered retry is worth reporting: it retries every failure (evidence), and/or the
     * retried work reaches a remote call that every failed instance calls again in lockstep.
     */
    private record Scope(Optional<String> everyFailure, Optional<Reached<EffectSite>> remote) {
        boolean reported() {
            return everyFailure.isPresent() || remote.isPresent();
        }

        String why() {
            StringBuilder text = new StringBuilder();
            remote.ifPresent(r -> text.append(", and it retries a remote call (").append(r.item().effect().api())
                    .append("): every instance that failed during the same outage calls it again at the same instants"));
            everyFailure.ifPresent(e -> text.append(remote.isPresent() ? "; " : ", and ").append("it retries every failure (")
                    .append(e).append("), including those that fail the same way on every attempt (a bad argument, a 4xx)"));
            return text.append('.').toString();
        }
    }

    /** The first remote call reached from {@code method}'s code inside {@code region} (its whole body when null). */
    private static Optional<Reached<EffectSite>> remoteWork(MethodContext context, MethodInfo method, Node region) {
        MethodFacts facts = context.transactions().graph().facts(method);
        for (EffectSite site : facts.effects()) {
            if (HandlerRules.irreversible(site) && within(site.call(), region)) {
                return Optional.of(new Reached<>(site, method, List.of()));
            }
        }
        for (CallEdge edge : facts.calls()) {
            if (!within(edge.site(), region)) {
                continue;
            }
            for (Reached<EffectSite> reached : context.reachability().effects(edge.callee(), false)) {
                if (HandlerRules.irreversible(reached.item())) {
                    List<CallEdge> path = new ArrayList<>();
                    path.add(edge);
                    path.addAll(reached.path());
                    return Optional.of(new Reached<>(reached.item(), reached.in(), path));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The work a RetryTemplate built here retries: the callbacks its class passes to
     * {@code execute(..)} on a RetryTemplate.
     */
    private static Optional<Reached<EffectSite>> templateWork(MethodContext context) {
        for (MethodInfo method : context.method().declaringType().methods()) {
            for (MethodCallExpr call : context.retries().retryTemplateExecutions(method)) {
                Optional<Reached<EffectSite>> remote = remoteWork(context, method, call.getArgument(0));
                if (remote.isPresent()) {
                    return remote;
                }
            }
        }
        return Optional.empty();
    }

    private static boolean within(Node node, Node region) {
        if (region == null) {
            return true;
        }
        for (Node n = node; n != null; n = n.getParentNode().orElse(null)) {
            if (n == region) {
                return true;
            }
        }
        return false;
    }

    private static Node enclosingLoop(Node node) {
        for (Node n = node.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            if (BodyNodes.isLoop(n)) {
                return n;
            }
        }
        return node;
    }

    private static void reportLibraries(RuleDescriptor rule, MethodContext context, java.nio.file.Path file,
            Reporter reporter) {
        for (var wait : context.retries().unjitteredLibraryWaits(context.method())) {
            CodeLocation at = wait.at() instanceof com.github.javaparser.ast.expr.MethodCallExpr call
                    ? SourceLocations.of(file, call.getName(), wait.library() + " wait without jitter")
                    : SourceLocations.of(file, wait.at(), wait.library() + " wait without jitter");
            report(rule, context, at,
                    "This " + wait.library() + " retry waits without randomness (" + wait.detail()
                            + "): clients that failed together retry together.", wait.at().toString(), null,
                    rule.level(), reporter);
        }
        for (var retry : context.retries().nonRetryableRetries(context.method())) {
            report(rule, context, SourceLocations.of(file, retry.at(), "retries " + retry.exception()),
                    retry.exception() + " is retried (" + retry.how() + "), but a client error other than 429 or a "
                            + "payload that does not parse fails the same way every time: the retries only add load "
                            + "and delay the error.", "non-retryable:" + retry.exception() + ":" + retry.at(), null,
                    rule.level(), reporter);
        }
    }

    /** A retry that gives up after few attempts brings each failed caller back in step at most twice: a note. */
    private static Level level(RuleDescriptor rule, Optional<RetryFacts.FewAttempts> few) {
        return few.isPresent() ? Level.NOTE : rule.level();
    }

    private static String fewAttemptsNote(java.nio.file.Path file, Optional<RetryFacts.FewAttempts> few) {
        return few.map(f -> " Reported as a note: it gives up after at most " + RetryFacts.FEW_ATTEMPTS + " attempts ("
                + f.evidence() + ", at " + file.getFileName() + ":" + f.at().getBegin().map(p -> p.line).orElse(0)
                + "), so each failed caller comes back in step at most " + (RetryFacts.FEW_ATTEMPTS - 1) + " times.")
                .orElse("");
    }

    private static void report(RuleDescriptor rule, MethodContext context, CodeLocation at, String text, String key,
            Scope scope, Level level, Reporter reporter) {
        List<CodeLocation> related = List.of();
        List<CodeLocation> flow = List.of();
        if (scope != null && scope.remote().isPresent()) {
            Reached<EffectSite> remote = scope.remote().get();
            related = List.of(remote.item().location());
            flow = HandlerRules.flow(at, remote, remote.item().location());
        }
        reporter.report(new Finding(rule.id(), level, Message.of(text), at, related, flow, rule.fix(),
                Fingerprints.of(rule.id(), context.method().signature(), key, ""), context.method().signature()));
    }
}
