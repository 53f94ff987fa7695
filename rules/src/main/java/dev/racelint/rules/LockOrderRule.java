package dev.racelint.rules;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.locks.LockName;
import dev.racelint.analyzer.locks.LockOrderGraph;
import dev.racelint.analyzer.locks.LockOrderGraph.Cycle;
import dev.racelint.analyzer.locks.LockOrderGraph.Edge;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import java.util.ArrayList;
import java.util.List;

/** Two code paths take the same locks in opposite orders: each can hold one and wait for the other forever. */
@RuleMetadata(
        id = "lock-order",
        name = "LockOrder",
        shape = "6",
        title = "Locks acquired in inconsistent order",
        description = "Somewhere in the program one path takes lock A and then, still holding it, waits for lock B "
                + "(often one call deeper), while another path takes B and then waits for A. Run together, each "
                + "holds what the other needs: Java threads hang for good, and the database kills one transaction as "
                + "the deadlock victim. Locks are Java monitors, java.util.concurrent locks, database row locks "
                + "(held to commit) and advisory locks.",
        level = Level.ERROR,
        precision = Precision.HIGH,
        cwe = "833",
        tags = {"locks", "deadlock"},
        fix = "Pick one canonical order for these locks (a fixed table order, ascending ids, one lock-ordering "
                + "helper) and follow it at every site; or take the second lock with a timed tryLock and back off.")
public final class LockOrderRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        RuleDescriptor rule = descriptor();
        for (Cycle cycle : context.lockOrderCycles()) {
            Edge first = cycle.edges().get(0);
            CodeLocation primary = first.calls().isEmpty()
                    ? first.inner().anchor().withLabel("waits for " + first.acquired() + " while holding " + first.held())
                    : first.calls().get(0).location().withLabel("waits for " + first.acquired() + " (inside "
                            + first.calls().get(0).callee().displayName() + ") while holding " + first.held());

            List<CodeLocation> related = new ArrayList<>();
            List<List<CodeLocation>> others = new ArrayList<>();
            for (Edge other : cycle.edges().subList(1, cycle.edges().size())) {
                related.add(other.outer().anchor().withLabel(other.outer().method().displayName() + " takes " + other.held()));
                related.add(other.inner().anchor().withLabel("... then waits for " + other.acquired()));
                others.add(flow(other));
            }

            Message.Builder text = Message.builder()
                    .text(context.method().displayName() + " waits for " + first.acquired() + " while it holds "
                            + first.held() + via(first) + ", but ");
            for (int i = 1; i < cycle.edges().size(); i++) {
                Edge other = cycle.edges().get(i);
                if (i > 1) {
                    text.text(i == cycle.edges().size() - 1 ? " and " : ", ");
                }
                text.link(other.outer().method().displayName(), 2 * (i - 1))
                        .text(" waits for " + other.acquired() + " while it holds " + other.held() + via(other));
            }
            text.text(": run together, each path can hold one lock and wait forever for the next (" + cycleText(cycle)
                    + ").");

            List<String> ids = cycle.edges().stream().map(e -> e.held().id()).sorted().toList();
            reporter.report(new Finding(rule.id(), rule.level(), text.build(), primary, related, flow(first), rule.fix(),
                    Fingerprints.of(rule.id(), context.method().signature(), String.join(" ", ids), "cycle"),
                    context.method().signature(), others));
        }
    }

    private static String via(Edge edge) {
        return edge.calls().isEmpty() ? "" : " (inside " + edge.calls().get(edge.calls().size() - 1).callee().displayName() + ")";
    }

    private static String cycleText(Cycle cycle) {
        StringBuilder out = new StringBuilder();
        for (Edge e : cycle.edges()) {
            out.append(e.held()).append(" -> ");
        }
        LockName back = cycle.edges().get(0).held();
        return out.append(back).toString();
    }

    /** Holding the outer lock, through the calls, to the inner acquisition. */
    private static List<CodeLocation> flow(Edge edge) {
        List<CodeLocation> steps = new ArrayList<>();
        steps.add(edge.outer().anchor().withLabel("takes " + edge.held()));
        for (CallEdge call : edge.calls()) {
            steps.add(call.location());
        }
        steps.add(edge.inner().anchor().withLabel("waits for " + edge.acquired()));
        return steps;
    }
}
