package dev.racelint.rules;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.stmt.IfStmt;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.handlers.Reachability.Reached;
import dev.racelint.analyzer.index.ExclusiveBranches;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.ExclusiveByResult;
import dev.racelint.analyzer.persistence.MethodFlow;
import dev.racelint.analyzer.persistence.RowSweepers;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import dev.racelint.analyzer.tx.TransactionModel;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A database write and a broker publish in one flow, without an outbox. */
@RuleMetadata(
        id = "dual-write",
        name = "DualWrite",
        shape = "transaction boundaries",
        title = "Database write and broker publish without an outbox",
        description = "The same flow writes to the database and publishes to a broker. The two cannot be atomic: "
                + "publish inside the transaction and consumers may see an event about state that then rolls back; "
                + "commit first and a crash before the publish loses the event for good.",
        level = Level.WARNING,
        precision = Precision.MEDIUM,
        tags = {"messaging", "transactions"},
        fix = "Insert the event into an outbox table in the same transaction as the state change; a relay "
                + "publishes it after commit (at least once) and consumers deduplicate.")
public final class DualWriteRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        // How many calls from the writing method a publish may sit (publish-calls). Publishes further down
        // (a rate-limit notification deep inside shared infrastructure) are rarely the event about this write.
        int publishCalls = context.limits().get(dev.racelint.analyzer.AnalysisLimits.Limit.PUBLISH_CALLS);
        List<DbOp> ops = context.databaseOperations();
        if (relaysRows(context, context.method())) {
            return; // an outbox relay: what it publishes is rows it read, and it writes only their table
        }
        if (!context.reachability().mayReach(context.method(), "publish", DualWriteRule::isPublish, publishCalls)) {
            return; // no publish within reach: nothing below can report
        }
        if (rowIsSwept(context, ops)) {
            return; // the row is written in a state a scheduled job selects and redoes: the row is the outbox
        }
        var facts = context.transactions().graph().facts(context.method());
        RuleDescriptor rule = descriptor();
        Set<String> reported = new HashSet<>();
        for (EffectSite site : facts.effects()) {
            if (!isPublish(site) || reported.contains(site.effect().apiKey())) {
                continue;
            }
            // a write in the other arm of an if/else or switch than the publish never runs with it
            DbOp directWrite = ops.stream().filter(op -> op.isWrite() && !ExclusiveBranches.exclusive(op.call(), site.call()))
                    .findFirst().orElse(null);
            if (directWrite != null && reported.add(site.effect().apiKey())) {
                report(rule, context, directWrite.location().withLabel("writes: " + directWrite.describe()),
                        site.location(), site, null, site.call(), reporter);
            }
        }
        // One call that reaches several implementations (an ActiveMQ and a RabbitMQ sender behind one
        // interface, chosen by configuration) gives one finding per implementation here, all at that
        // call; SameDefectMerger makes them one.
        for (CallEdge edge : facts.calls()) {
            if (context.transactions().boundary(edge) == TransactionModel.CallBoundary.OUTSIDE) {
                continue;
            }
            for (Reached<EffectSite> site : context.reachability().effects(edge.callee(), true, publishCalls - 1)) {
                if (!isPublish(site.item())) {
                    continue;
                }
                if (reported.contains(site.item().effect().apiKey()) || !runsForArguments(context, edge, site)) {
                    continue;
                }
                CodeLocation write = writeElsewhere(context, ops, edge);
                if (write != null && !writesOutbox(context, edge) && !writesNearer(context, site)) {
                    reported.add(site.item().effect().apiKey());
                    report(rule, context, write, edge.location(), site.item(), site, edge.site(), reporter);
                }
            }
        }
    }

    /**
     * The publish can run for the boolean literals {@code edge} passes: {@code reject(true)} into a callee
     * that dead-letters only when its flag is false does not publish. The publish runs when the callee
     * makes it, or calls toward its method, somewhere those constants do not rule out.
     */
    private static boolean runsForArguments(MethodContext context, CallEdge edge, Reached<EffectSite> site) {
        if (dev.racelint.analyzer.callgraph.ConstantArguments.bound(edge).isEmpty()) {
            return true;
        }
        if (site.in() == edge.callee()) {
            return !dev.racelint.analyzer.callgraph.ConstantArguments.excludes(edge, site.item().call());
        }
        for (CallEdge next : context.transactions().graph().facts(edge.callee()).calls()) {
            if (dev.racelint.analyzer.callgraph.ConstantArguments.excludes(edge, next.site())) {
                continue;
            }
            if (next.callee() == site.in() || context.reachability().effects(next.callee(), true).stream()
                    .anyMatch(r -> r.item() == site.item())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Does a method on the way down to the publish write beside it itself (a notifier that inserts its
     * record and then sends)? That method reports the write and the publish, and the fix (an outbox
     * there) is the same for every caller: one defect, reported once, where the two meet.
     */
    private static boolean writesNearer(MethodContext context, Reached<EffectSite> site) {
        for (CallEdge step : site.path()) {
            if (writesBeside(context, step.caller(), step.site())) {
                return true;
            }
        }
        return writesBeside(context, site.in(), site.item().call());
    }

    private static boolean writesBeside(MethodContext context, MethodInfo method, Node toward) {
        for (DbOp op : context.persistence().ops(method)) {
            if (op.isWrite() && op.call() != toward && !ExclusiveBranches.exclusive(op.call(), toward)) {
                return true;
            }
        }
        // a write through another call of that method (a status-update helper) counts the same: that
        // method's own check reports the write and the publish, through writeElsewhere
        for (CallEdge edge : context.transactions().graph().facts(method).calls()) {
            if (edge.site() == toward || ExclusiveBranches.exclusive(edge.site(), toward)) {
                continue;
            }
            for (Reached<DbOp> op : context.reachability().databaseOperations(edge.callee(), true)) {
                if (op.item().isWrite() && !createsMissingRow(context, op)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Does the flow write a row in a state that a scheduled job selects (a sweeper that redoes the
     * work of every row left in that state)? Then a lost publish is redone from the committed row.
     */
    private static boolean rowIsSwept(MethodContext context, List<DbOp> ops) {
        RowSweepers sweepers = RowSweepers.of(context.persistence(), context.handlers());
        var index = context.persistence().index();
        for (DbOp op : ops) {
            if (sweepers.sweepsStateWrittenBy(index, op)) {
                return true;
            }
        }
        for (CallEdge edge : context.transactions().graph().facts(context.method()).calls()) {
            for (Reached<DbOp> op : context.reachability().databaseOperations(edge.callee(), true)) {
                if (sweepers.sweepsStateWrittenBy(index, op.item())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isPublish(EffectSite site) {
        return site.effect().kind() == EffectKind.NETWORK && site.effect().detail().equals("publish");
    }

    private static boolean writesOutbox(MethodContext context, CallEdge edge) {
        int depth = context.limits().get(dev.racelint.analyzer.AnalysisLimits.Limit.PUBLISH_CALLS) - 1;
        for (Reached<MethodInfo> m : context.reachability().methods(edge.callee(), true, depth)) {
            if (relaysRows(context, m.item())) {
                return true;
            }
        }
        return false;
    }

    /**
     * An outbox relay, told by its data flow and not by a table's name: what {@code method}
     * publishes comes from rows it read from one table, and that table is the only one it writes
     * (marking the rows sent). The events were committed with the state change that made them;
     * the relay only delivers them, at least once.
     */
    private static boolean relaysRows(MethodContext context, MethodInfo method) {
        MethodFlow flow = context.persistence().flow(method).orElse(null);
        if (flow == null) {
            return false;
        }
        Set<String> written = new HashSet<>();
        for (DbOp op : flow.ops()) {
            if (op.isWrite()) {
                written.add(op.table());
            }
        }
        if (written.size() != 1 || written.contains("")) {
            return false;
        }
        for (EffectSite site : context.transactions().graph().facts(method).effects()) {
            if (!isPublish(site)) {
                continue;
            }
            for (Expression argument : site.call().getArguments()) {
                for (DbOp read : flow.reaching(argument)) {
                    if (read.kind() == DbOp.Kind.READ && written.contains(read.table())) {
                        return true;
                    }
                }
            }
        }
        return resendsStoredRow(context, method, flow, written);
    }

    /**
     * A resend of a stored message: the only write of the flow (through its calls too) is a counter
     * increment ({@code SET attempts = attempts + 1}) on one table, and what goes to the publish, one or
     * more calls down, is a row of that table - read here, or read by every caller that passes it in.
     * The message was committed before; a rollback only skews the count, and a lost resend can be redone
     * from the row. A state change ({@code SET state = 'SENT'}) with its event is not this.
     */
    private static boolean resendsStoredRow(MethodContext context, MethodInfo method, MethodFlow flow, Set<String> written) {
        for (DbOp op : flow.ops()) {
            if (op.isWrite() && !(op.kind() == DbOp.Kind.UPDATE && op.selfRelative())) {
                return false;
            }
        }
        int publishCalls = context.limits().get(dev.racelint.analyzer.AnalysisLimits.Limit.PUBLISH_CALLS);
        List<CallEdge> calls = context.transactions().graph().facts(method).calls();
        for (CallEdge edge : calls) {
            for (Reached<DbOp> op : context.reachability().databaseOperations(edge.callee(), true)) {
                if (op.item().isWrite()) {
                    return false;
                }
            }
        }
        for (CallEdge edge : calls) {
            if (!(edge.site() instanceof MethodCallExpr call)
                    || !context.reachability().mayReach(edge.callee(), "publish", DualWriteRule::isPublish, publishCalls - 1)) {
                continue;
            }
            for (Expression argument : call.getArguments()) {
                if (readsWritten(context, method, argument, written) || passedReadRow(context, method, argument, written)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The published value is taken from a parameter of {@code method}, and every call of it in the tree
     * passes there a row its caller read from the written table: the relay's read sits one call up (a
     * "resend this stored message" helper that its callers feed with the row they loaded).
     */
    private static boolean passedReadRow(MethodContext context, MethodInfo method, Expression argument, Set<String> written) {
        var parameters = method.declaration().getParameters();
        for (com.github.javaparser.ast.expr.NameExpr name : argument.findAll(com.github.javaparser.ast.expr.NameExpr.class)) {
            int position = -1;
            for (int i = 0; i < parameters.size(); i++) {
                if (parameters.get(i).getNameAsString().equals(name.getNameAsString())) {
                    position = i;
                }
            }
            if (position < 0 || isShadowed(method, name.getNameAsString())) {
                continue;
            }
            List<CallEdge> callers = context.reachability().callers(method);
            boolean all = !callers.isEmpty();
            for (CallEdge caller : callers) {
                all &= caller.site() instanceof MethodCallExpr call && call.getArguments().size() == parameters.size()
                        && readsWritten(context, caller.caller(), call.getArgument(position), written);
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    private static boolean isShadowed(MethodInfo method, String name) {
        return method.body() != null && !method.body().findAll(com.github.javaparser.ast.body.VariableDeclarator.class,
                v -> v.getNameAsString().equals(name)).isEmpty();
    }

    private static boolean readsWritten(MethodContext context, MethodInfo caller, Expression value, Set<String> written) {
        MethodFlow flow = context.persistence().flow(caller).orElse(null);
        return flow != null && flow.reaching(value).stream()
                .anyMatch(read -> read.kind() == DbOp.Kind.READ && written.contains(read.table()));
    }

    /** A database write of this method not made through {@code publishing} (direct, or through another call). */
    private static CodeLocation writeElsewhere(MethodContext context, List<DbOp> ops, CallEdge publishing) {
        for (DbOp op : ops) {
            if (op.isWrite() && op.call() != publishing.site() && !ExclusiveBranches.exclusive(op.call(), publishing.site())) {
                return op.location().withLabel("writes: " + op.describe());
            }
        }
        for (CallEdge edge : context.transactions().graph().facts(context.method()).calls()) {
            if (edge.site() == publishing.site() || ExclusiveBranches.exclusive(edge.site(), publishing.site())) {
                continue;
            }
            for (Reached<DbOp> op : context.reachability().databaseOperations(edge.callee(), true)) {
                if (op.item().isWrite() && !createsMissingRow(context, op) && !keptApartByResult(context, edge, op, publishing)) {
                    return edge.location().withLabel("writes through " + edge.callee().displayName() + ": "
                            + op.item().describe());
                }
            }
        }
        return null;
    }

    /**
     * The callee writes only in the branch where the object it returns holds one constant, and the
     * publish runs only when that object (or its value) is null or holds another: the two never run
     * in one execution ({@link ExclusiveByResult}).
     */
    private static boolean keptApartByResult(MethodContext context, CallEdge writing, Reached<DbOp> op, CallEdge publishing) {
        if (!(writing.site() instanceof MethodCallExpr call) || writing.callee().declaration() == null) {
            return false;
        }
        MethodInfo first = op.path().isEmpty() ? op.in() : op.path().get(0).caller();
        if (first != writing.callee()) {
            return false;
        }
        Node calleeSite = op.path().isEmpty() ? op.item().call() : op.path().get(0).site();
        return ExclusiveByResult.exclusive(context.persistence().classifier(), writing.callee().declaration(), calleeSite,
                call, publishing.site());
    }

    /**
     * A get-or-create below the writing method: a method on the way to the insert reads, creates the
     * missing data (the row and the rows set up with it) only in the branch where that read found
     * nothing, and returns a value. The flow reads that data (reference data created on first use),
     * and its publish is not an event about it.
     */
    private static boolean createsMissingRow(MethodContext context, Reached<DbOp> op) {
        if (op.item().kind() != DbOp.Kind.INSERT && op.item().kind() != DbOp.Kind.SAVE) {
            return false;
        }
        for (CallEdge call : op.path()) {
            if (createdWhenMissing(context, call.caller(), call.site())) {
                return true;
            }
        }
        return createdWhenMissing(context, op.in(), op.item().call());
    }

    private static boolean createdWhenMissing(MethodContext context, MethodInfo method, Node site) {
        if (!(method.declaration() instanceof MethodDeclaration declaration) || declaration.getType().isVoidType()) {
            return false;
        }
        MethodFlow flow = context.persistence().flow(method).orElse(null);
        if (flow == null) {
            return false;
        }
        Node child = site;
        for (Node n = site.getParentNode().orElse(null); n != null && !(n instanceof CallableDeclaration<?>);
                n = n.getParentNode().orElse(null)) {
            if (n instanceof IfStmt test && child == test.getThenStmt() && testsAbsence(test.getCondition())
                    && flow.reaching(test.getCondition()).stream().anyMatch(read -> read.kind() == DbOp.Kind.READ)) {
                return true;
            }
            child = n;
        }
        return false;
    }

    /** {@code x == null}, {@code x.isEmpty()}, {@code !x.isPresent()}: the read found nothing. */
    private static boolean testsAbsence(Expression condition) {
        if (condition instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.EQUALS) {
            return b.getLeft().isNullLiteralExpr() || b.getRight().isNullLiteralExpr();
        }
        if (condition instanceof MethodCallExpr call) {
            return call.getNameAsString().equals("isEmpty") && call.getArguments().isEmpty();
        }
        return condition instanceof UnaryExpr u && u.getOperator() == UnaryExpr.Operator.LOGICAL_COMPLEMENT
                && u.getExpression() instanceof MethodCallExpr call && call.getNameAsString().equals("isPresent");
    }

    /**
     * Why a lost or premature message does little harm, from a fact, or empty: the publish is linked to
     * in-tree consumers (it passes a destination constant they subscribe to, a message object whose
     * type declares it, or a project envelope whose body the consumer takes out by its type), and none of them writes to the database or makes a remote call - they only
     * refresh in-memory state or a cache, so a lost message leaves that stale, not data wrong.
     */
    private static java.util.Optional<String> consumersOnlyRefresh(MethodContext context, Node publishing) {
        if (!(publishing instanceof MethodCallExpr call)) {
            return java.util.Optional.empty();
        }
        var typer = context.persistence().resolver().typer();
        var consumers = new java.util.LinkedHashSet<>(context.handlers().consumers().receiving(call.getArguments(),
                context.method().declaringType(), typer));
        consumers.addAll(context.handlers().consumers().unwrapping(call.getArguments(), context.method(), typer));
        if (consumers.isEmpty()) {
            return java.util.Optional.empty();
        }
        for (MethodInfo consumer : consumers) {
            if (context.reachability().databaseOperations(consumer, false).stream().anyMatch(op -> op.item().isWrite())
                    || context.reachability().effects(consumer, false).stream()
                            .anyMatch(e -> HandlerRules.irreversible(e.item()))) {
                return java.util.Optional.empty();
            }
        }
        MethodInfo first = consumers.iterator().next();
        CodeLocation at = dev.racelint.analyzer.index.SourceLocations.of(first.declaringType().file().path(),
                first.nameNode(), "consumer");
        return java.util.Optional.of(" Reported as a note: its in-tree consumer" + (consumers.size() == 1 ? " " : "s ")
                + first.displayName() + " (" + at.file().getFileName() + ":" + at.region().startLine() + ")"
                + (consumers.size() == 1 ? " writes no row and calls no remote service: it only refreshes"
                        : " and " + (consumers.size() - 1) + " more write no row and call no remote service: they only refresh")
                + " in-memory state or a cache, so a lost message leaves it stale until the next update, not data wrong.");
    }

    private static void report(RuleDescriptor rule, MethodContext context, CodeLocation write, CodeLocation at,
            EffectSite publish, Reached<EffectSite> reached, Node publishing, Reporter reporter) {
        CodeLocation publishAt = publish.location();
        java.util.Optional<String> small = consumersOnlyRefresh(context, publishing);
        Message message = Message.builder()
                .text(context.method().displayName() + " writes to the database (")
                .link("here", 0)
                .text(") and publishes with ")
                .link(publish.effect().api(), 1)
                .text((reached == null ? "" : HandlerRules.via(reached))
                        + " without an outbox: the event and the row cannot commit together, so a rollback leaves an "
                        + "event about nothing, or a crash between them loses the event." + small.orElse(""))
                .build();
        List<CodeLocation> flow = reached == null ? List.of(write, publishAt) : HandlerRules.flow(write, reached, publishAt);
        reporter.report(new Finding(rule.id(), small.isPresent() ? Level.NOTE : rule.level(), message, at.withLabel("publishes"), List.of(write, publishAt),
                flow, rule.fix(), Fingerprints.of(rule.id(), context.method().signature(), at.label(),
                        publish.effect().apiKey()), context.method().signature()));
    }
}
