package dev.racelint.rules;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.handlers.Reachability.Reached;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.MethodFlow;
import dev.racelint.analyzer.persistence.PersistenceModel;
import java.util.ArrayList;
import java.util.List;

/** Shared judgements of the delivery and request rules. */
final class HandlerRules {
    private HandlerRules() {}

    /**
     * A creation that repeats harmlessly: a "replace" (the flow deletes from the same table first, as
     * relation tables are rewritten: delete all, insert the new set).
     */
    static boolean harmlessCreation(DbOp insert, List<DbOp> allReached) {
        for (DbOp other : allReached) {
            if (other.kind() == DbOp.Kind.DELETE && other.sameTable(insert)) {
                return true;
            }
        }
        return false;
    }

    /** An effect that is different when it runs twice: a plain insert, an increment, or an irreversible remote call. */
    static boolean nonIdempotent(DbOp op, MethodFlow flow) {
        return switch (op.kind()) {
            case INSERT -> !op.upsert();
            case SAVE -> flow != null && PersistenceModel.savesNewObject(op, flow);
            case UPDATE -> op.selfRelative() && !op.conditional();
            default -> false;
        };
    }

    /**
     * An insert that records a message or request once, decided by its shape and not by the
     * table's name: the database refuses the second one (it resolves the conflict itself, as
     * {@code ON CONFLICT DO NOTHING} does, and the code tests how many rows it added; or the
     * duplicate-key failure is caught), so a redelivery learns that it was handled before.
     */
    static boolean claimsOnce(DbOp op) {
        return op.kind() == DbOp.Kind.INSERT
                && ((op.upsert() && MethodFlow.resultUsed(op.end())) || PersistenceModel.duplicateCaught(op.call()));
    }

    /** The handler reaches a declared idempotency-store claim (racelint.yml {@code idempotency-store}). */
    static boolean claimsIdempotencyKey(dev.racelint.analyzer.rule.MethodContext context) {
        return context.reachability().effects(context.method(), false).stream()
                .anyMatch(r -> r.item().effect().kind() == EffectKind.IDEMPOTENCY_CLAIM);
    }

    static boolean irreversible(EffectSite site) {
        return site.effect().kind() == EffectKind.NETWORK;
    }

    static boolean isWrite(DbOp op) {
        return op.kind() != DbOp.Kind.READ;
    }

    /** The code flow from a start location through the calls to the place something happens. */
    static List<CodeLocation> flow(CodeLocation start, Reached<?> reached, CodeLocation end) {
        List<CodeLocation> out = new ArrayList<>();
        out.add(start);
        for (CallEdge edge : reached.path()) {
            out.add(edge.location());
        }
        out.add(end);
        return out;
    }

    /** " via A.b() -> C.d()" or "". */
    static String via(Reached<?> reached) {
        if (reached.path().isEmpty()) {
            return "";
        }
        List<String> names = new ArrayList<>();
        for (CallEdge e : reached.path()) {
            names.add(e.callee().displayName());
        }
        return " via " + (names.size() > 3 ? names.get(0) + " -> ... -> " + names.get(names.size() - 1)
                : String.join(" -> ", names));
    }

    static String describe(DbOp op) {
        return switch (op.kind()) {
            case INSERT, SAVE -> "inserts a row with " + op.describe();
            case UPDATE -> "increments a column with " + op.describe();
            default -> op.describe();
        };
    }
}
