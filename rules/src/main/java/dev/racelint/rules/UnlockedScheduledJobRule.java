package dev.racelint.rules;

import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.handlers.Handler;
import dev.racelint.analyzer.handlers.Reachability.Reached;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.locks.CrossInstanceLocks;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.MethodFlow;
import dev.racelint.analyzer.persistence.PersistenceModel;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import java.util.List;

/** A scheduled job that writes or sends, with nothing stopping two instances from running it at once. */
@RuleMetadata(
        id = "unlocked-scheduled-job",
        name = "UnlockedScheduledJob",
        shape = "scheduling",
        title = "Scheduled job that writes or sends without a lock",
        description = "Every instance of the service runs its @Scheduled methods (and clustered schedulers can fire "
                + "a job twice), so the job runs concurrently with itself: rows are written twice, mails and calls "
                + "go out twice. Nothing here - no ShedLock, advisory lock or lease - makes one run win.",
        level = Level.WARNING,
        precision = Precision.HIGH,
        tags = {"scheduling"},
        fix = "Take a lock before the work: ShedLock @SchedulerLock, pg_try_advisory_xact_lock in the job's "
                + "transaction, or a heartbeated lease row; better, let the job only enqueue and a consumer do the work.")
public final class UnlockedScheduledJobRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        Handler job = context.handler().orElse(null);
        if (job == null || job.kind() != Handler.Kind.SCHEDULED || job.exclusive()) {
            return;
        }
        if (context.jobs().checksOwnership(context.method()) || context.jobs().flushesLocalState(context.method())) {
            return; // a leader / partition owner does the work, or the work is this instance's own state
        }
        // work reached through a method that first checks this instance owns it (a partition, leadership) is claimed
        List<Reached<DbOp>> ops = context.reachability().databaseOperations(context.method(), false).stream()
                .filter(op -> !ownedOnTheWay(context, op)).toList();
        for (Reached<DbOp> op : ops) {
            DbOp item = op.item();
            if (item.advisoryLock() || (item.kind() == DbOp.Kind.READ && item.locked()) // rows claimed FOR UPDATE (SKIP LOCKED)
                    || (item.kind() == DbOp.Kind.UPDATE && item.conditional() && MethodFlow.resultUsed(item.end()))
                    || (creates(item) && PersistenceModel.duplicateCaught(item.call()))) {
                // an advisory lock, a claim, a guarded transition, or a lease row whose duplicate-key failure
                // tells the losing run that another instance holds it: one run wins
                return;
            }
        }
        for (Reached<EffectSite> site : context.reachability().effects(context.method(), false)) {
            if (CrossInstanceLocks.losingRunLeaves(site.item(), context.persistence().index())) {
                return; // a lock the other instances see too (ZooKeeper), and the instance that lost it leaves
            }
        }
        CodeLocation effect = null;
        String what = null;
        Reached<?> path = null;
        for (Reached<DbOp> op : ops) {
            // Only a write that differs when two runs both make it: a new row, a relative update. Deletes
            // and absolute updates (a heartbeat, a status set to a value) repeat harmlessly: the second run
            // finds nothing to delete, or writes what the first wrote.
            if (HandlerRules.nonIdempotent(op.item(), context.persistence().flow(op.in()).orElse(null))) {
                effect = op.item().location().withLabel("writes: " + op.item().describe());
                what = "writes with " + op.item().describe();
                path = op;
                break;
            }
        }
        if (effect == null) {
            for (Reached<EffectSite> site : context.reachability().effects(context.method(), false)) {
                if (HandlerRules.irreversible(site.item()) && !ownedOnTheWay(context, site)) {
                    effect = site.item().location();
                    what = "calls " + site.item().effect().api() + " (" + site.item().effect().label() + ")";
                    path = site;
                    break;
                }
            }
        }
        if (effect == null) {
            return;
        }
        RuleDescriptor rule = descriptor();
        CodeLocation at = SourceLocations.of(context.method().declaringType().file().path(), context.method().nameNode(),
                job.describe());
        Message message = Message.builder()
                .text("The " + job.describe() + " ")
                .link(what, 0)
                .text(HandlerRules.via(path) + " with no scheduler lock, advisory lock or lease: every instance runs it, "
                        + "and two runs can overlap.")
                .build();
        reporter.report(new Finding(rule.id(), rule.level(), message, at, List.of(effect),
                HandlerRules.flow(at, path, effect), rule.fix(),
                Fingerprints.of(rule.id(), context.method().signature(), "job", ""), context.method().signature()));
    }

    private static boolean creates(DbOp op) {
        return op.kind() == DbOp.Kind.INSERT || op.kind() == DbOp.Kind.SAVE;
    }

    private static boolean ownedOnTheWay(MethodContext context, Reached<?> reached) {
        return reached.path().stream().anyMatch(call -> context.jobs().checksOwnership(call.callee()));
    }
}
