package dev.racelint.rules;

import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.NameExpr;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.persistence.CallerReads;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.LoopRowLocks;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Several rows locked in an order nobody chose: two such transactions can deadlock each other. */
@RuleMetadata(
        id = "unordered-multi-row-lock",
        name = "UnorderedMultiRowLock",
        shape = "6",
        title = "Several rows locked without a defined order",
        description = "A FOR UPDATE over several rows (IN, = ANY) without ORDER BY locks them in whatever order the "
                + "plan produces, and locking two rows by the caller's argument order (transfer(from, to)) locks them "
                + "in opposite orders when two calls mirror each other; so does a loop locking one row per element of the "
                + "caller's list or of a hash map. Two such transactions wait for each other "
                + "until the database kills one (a deadlock: a latency spike and a random failure under load).",
        level = Level.WARNING,
        precision = Precision.MEDIUM,
        cwe = "833",
        tags = {"locks", "deadlock", "database"},
        fix = "Lock in one canonical order: ORDER BY id in multi-row locking reads, and Math.min/Math.max (or a "
                + "sort) before locking a pair; write the order down at every site that locks these rows.")
public final class UnorderedMultiRowLockRule implements Rule {

    @Override
    public void check(MethodContext context, Reporter reporter) {
        RuleDescriptor rule = descriptor();
        List<DbOp> ops = context.databaseOperations();
        for (DbOp op : ops) {
            if (op.unorderedMultiRowLock()) {
                CodeLocation at = op.location().withLabel("locks several " + op.table() + " rows: " + op.describe());
                reporter.report(new Finding(rule.id(), rule.level(), Message.of(PersistenceRules.name(op)
                        + " locks several " + op.table() + " rows with no ORDER BY, so they are locked in whatever "
                        + "order the plan picks; two transactions locking overlapping sets can deadlock."),
                        at, List.of(), List.of(), rule.fix(),
                        Fingerprints.of(rule.id(), context.method().signature(), op.call().toString(), "multi"),
                        context.method().signature()));
            }
        }
        Set<com.github.javaparser.ast.Node> fromDatabase = new HashSet<>();
        CallerReads.of(context.transactions().graph(), context.persistence(), context.method())
                .forEach(a -> fromDatabase.add(a.parameter()));
        for (LoopRowLocks.LoopLock lock : LoopRowLocks.of(context.method(), ops, context.transactions().graph().index(),
                fromDatabase)) {
            if (!context.runsInTransaction(lock.op().call())) {
                continue; // each statement commits on its own: no two of the rows are held together
            }
            DbOp op = lock.op();
            String order = lock.origin() == LoopRowLocks.Origin.CALLER
                    ? "the order of the caller's " + lock.iterable()
                    : "the hash order of " + lock.iterable();
            CodeLocation loopAt = SourceLocations.of(context.method().declaringType().file().path(), lock.iterable(),
                    "iterated in " + order);
            Message message = Message.builder()
                    .text(PersistenceRules.name(op) + " locks one " + op.table() + " row per element, in ")
                    .link(order, 0)
                    .text(", and every lock is held until the transaction of " + context.method().displayName()
                            + " ends: two calls sharing rows in a different order lock them the other way round "
                            + "and deadlock.")
                    .build();
            reporter.report(new Finding(rule.id(), rule.level(), message,
                    op.location().withLabel("locks a " + op.table() + " row per element"), List.of(loopAt),
                    List.of(loopAt, op.location().withLabel("row lock held to commit")), rule.fix(),
                    Fingerprints.of(rule.id(), context.method().signature(), op.call().toString(), "loop"),
                    context.method().signature()));
        }
        Set<String> parameters = new HashSet<>();
        context.method().declaration().getParameters().forEach(p -> parameters.add(p.getNameAsString()));
        for (int i = 0; i < ops.size(); i++) {
            DbOp first = ops.get(i);
            String firstKey = singleRowKeyParameter(first, parameters);
            if (firstKey == null) {
                continue;
            }
            for (int j = i + 1; j < ops.size(); j++) {
                DbOp second = ops.get(j);
                String secondKey = singleRowKeyParameter(second, parameters);
                if (secondKey != null && !secondKey.equals(firstKey) && second.sameTable(first)) {
                    CodeLocation firstAt = first.location().withLabel("locks the " + first.table() + " row of " + firstKey);
                    CodeLocation secondAt = second.location().withLabel("then the row of " + secondKey);
                    Message message = Message.builder()
                            .text(context.method().displayName() + " locks the " + first.table() + " row of ")
                            .link(firstKey, 0)
                            .text(" and then the row of ")
                            .link(secondKey, 1)
                            .text(" in the caller's argument order: a mirrored call (" + secondKey + ", " + firstKey
                                    + ") locks them the other way round and the two deadlock.")
                            .build();
                    reporter.report(new Finding(rule.id(), rule.level(), message,
                            second.location().withLabel("second row lock"), List.of(firstAt, secondAt),
                            List.of(firstAt, secondAt), rule.fix(),
                            Fingerprints.of(rule.id(), context.method().signature(), second.call().toString(), "pair"),
                            context.method().signature()));
                    break;
                }
            }
        }
    }

    /** For a row-locking read keyed by id: the method parameter passed as the key, if it is one. */
    private static String singleRowKeyParameter(DbOp op, Set<String> parameters) {
        if (op.kind() != DbOp.Kind.READ || !op.locked() || op.unorderedMultiRowLock()
                || op.keyColumns().size() != 1) {
            return null;
        }
        String found = null;
        for (Expression arg : op.call().getArguments()) {
            if (arg instanceof NameExpr n && parameters.contains(n.getNameAsString())) {
                if (found != null) {
                    return null;
                }
                found = n.getNameAsString();
            }
        }
        return found;
    }
}
