package dev.racelint.rules;

import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.handlers.Reachability.Reached;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.ReadCost;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import java.util.List;
import java.util.Optional;

/** An expensive cache loader without single flight, or a batch of keys that all expire together. */
@RuleMetadata(
        id = "cache-stampede",
        name = "CacheStampede",
        shape = "caching",
        title = "Cache loader without single flight, or one fixed TTL for a batch of keys",
        description = "When a hot key expires every request that misses recomputes it at once, and the database or "
                + "remote service behind it gets the whole read volume in the same instant. A batch of keys written "
                + "with one fixed TTL expires together and does the same.",
        level = Level.NOTE,
        precision = Precision.MEDIUM,
        tags = {"caching"},
        fix = "Load with single flight (@Cacheable(sync = true), Caffeine get(key, loader)), serve stale while "
                + "revalidating, and add 10-20% random jitter to TTLs written in batches.")
public final class CacheStampedeRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        RuleDescriptor rule = descriptor();
        if (context.cacheableSync().map(sync -> !sync).orElse(false)) {
            checkLoader(context, rule, reporter);
        }
        for (MethodCallExpr write : context.fixedTtlCacheWritesInLoops()) {
            CodeLocation at = SourceLocations.ofCall(context.method().declaringType().file().path(), write,
                    "writes a key with a fixed TTL inside a loop");
            Message message = Message.of("Every key this loop writes gets the same fixed TTL (" + ttlText(write)
                    + "), so the whole batch expires in the same instant and the next requests all miss together: "
                    + "add random jitter to the TTL.");
            reporter.report(new Finding(rule.id(), rule.level(), message, at, List.of(), List.of(), rule.fix(),
                    Fingerprints.of(rule.id(), context.method().signature(), write.toString(), "ttl"),
                    context.method().signature()));
        }
    }

    private static void checkLoader(MethodContext context, RuleDescriptor rule, Reporter reporter) {
        CodeLocation effect = null;
        Reached<?> path = null;
        String what = null;
        // loaders are usually thin: look a few calls deep (cache-loader-calls) for the expensive part
        int loaderCalls = context.limits().get(dev.racelint.analyzer.AnalysisLimits.Limit.CACHE_LOADER_CALLS);
        // A miss is worth a ticket only when the recomputation is expensive: a remote call, or a read
        // that joins tables or reads a whole table. A lookup by key repeats a cheap query.
        for (Reached<EffectSite> site : context.reachability().effects(context.method(), false, loaderCalls)) {
            if (HandlerRules.irreversible(site.item())) {
                effect = site.item().location();
                path = site;
                what = "calls " + site.item().effect().api() + " (" + site.item().effect().label() + ")";
                break;
            }
        }
        if (effect == null) {
            ReadCost cost = new ReadCost(context.persistence(), context.transactions().graph(), context.limits());
            for (Reached<DbOp> op : context.reachability().databaseOperations(context.method(), false)) {
                if (op.path().size() > loaderCalls) {
                    continue;
                }
                Optional<String> expensive = cost.expensive(op.item(), op.in());
                if (expensive.isPresent()) {
                    effect = op.item().location().withLabel("loads: " + op.item().describe());
                    path = op;
                    what = "reads the database with " + op.item().describe() + " (" + expensive.get() + ")";
                    break;
                }
            }
        }
        if (effect == null) {
            return;
        }
        CodeLocation at = SourceLocations.of(context.method().declaringType().file().path(), context.method().nameNode(),
                "@Cacheable loader " + context.method().displayName());
        Message message = Message.builder()
                .text("The @Cacheable loader " + context.method().displayName() + " ")
                .link(what, 0)
                .text(HandlerRules.via(path) + " without sync = true: when the entry expires, every concurrent miss "
                        + "runs it at once.")
                .build();
        reporter.report(new Finding(rule.id(), rule.level(), message, at, List.of(effect),
                HandlerRules.flow(at, path, effect), rule.fix(),
                Fingerprints.of(rule.id(), context.method().signature(), "loader", ""), context.method().signature()));
    }

    private static String ttlText(MethodCallExpr write) {
        var args = write.getArguments();
        for (int i = 0; i < args.size(); i++) {
            String text = args.get(i).toString();
            if (text.contains("TimeUnit") && i > 0) {
                return args.get(i - 1) + " " + text.replace("TimeUnit.", "");
            }
            if (text.contains("Duration")) {
                return text;
            }
        }
        return write.getArguments().get(write.getArguments().size() - 1).toString();
    }
}
