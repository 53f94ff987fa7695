package dev.racelint.rules;

import com.github.javaparser.ast.Node;
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
import java.util.List;

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
        if (retries.unjitteredBackoffAnnotation(context.method())) {
            report(rule, context, SourceLocations.of(file, context.method().nameNode(), "@Retryable backoff"),
                    context.method().displayName() + " is @Retryable with a @Backoff that has no random = true: every "
                            + "caller retries on the same schedule.", "backoff", reporter);
        }
        for (Node creation : retries.fixedBackOffPolicies(context.method())) {
            report(rule, context, SourceLocations.of(file, creation, "back-off policy without jitter"),
                    "This RetryTemplate waits with " + creation + ", which has no randomness: use "
                            + "ExponentialRandomBackOffPolicy or UniformRandomBackOffPolicy.", creation.toString(), reporter);
        }
        for (Node loop : retries.unboundedRetryLoops(context.method())) {
            CodeLocation at = SourceLocations.of(file, loop, "retry loop with no bound");
            at = new CodeLocation(file, new dev.racelint.analyzer.finding.SourceRegion(at.region().startLine(),
                    at.region().startColumn(), at.region().startLine(), at.region().startColumn() + 5), at.label());
            report(rule, context, at, "This loop catches the failure and tries again with no attempt limit: during an "
                    + "outage it retries forever.", "unbounded:" + loop, reporter);
        }
        reportLibraries(rule, context, file, reporter);
        for (Node sleep : retries.unjitteredSleepsInRetryLoops(context.method())) {
            report(rule, context, SourceLocations.of(file, sleep, "sleep without jitter"),
                    "This retry loop waits " + sleep + " with no randomness: clients that failed together retry together.",
                    sleep.toString(), reporter);
        }
    }

    private static void reportLibraries(RuleDescriptor rule, MethodContext context, java.nio.file.Path file,
            Reporter reporter) {
        for (var wait : context.retries().unjitteredLibraryWaits(context.method())) {
            CodeLocation at = wait.at() instanceof com.github.javaparser.ast.expr.MethodCallExpr call
                    ? SourceLocations.of(file, call.getName(), wait.library() + " wait without jitter")
                    : SourceLocations.of(file, wait.at(), wait.library() + " wait without jitter");
            report(rule, context, at,
                    "This " + wait.library() + " retry waits without randomness (" + wait.detail()
                            + "): clients that failed together retry together.", wait.at().toString(), reporter);
        }
        for (var retry : context.retries().nonRetryableRetries(context.method())) {
            report(rule, context, SourceLocations.of(file, retry.at(), "retries " + retry.exception()),
                    retry.exception() + " is retried (" + retry.how() + "), but a client error other than 429 or a "
                            + "payload that does not parse fails the same way every time: the retries only add load "
                            + "and delay the error.", "non-retryable:" + retry.exception() + ":" + retry.at(), reporter);
        }
    }

    private static void report(RuleDescriptor rule, MethodContext context, CodeLocation at, String text, String key,
            Reporter reporter) {
        reporter.report(new Finding(rule.id(), rule.level(), Message.of(text), at, List.of(), List.of(), rule.fix(),
                Fingerprints.of(rule.id(), context.method().signature(), key, ""), context.method().signature()));
    }
}
