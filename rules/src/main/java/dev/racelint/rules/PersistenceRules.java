package dev.racelint.rules;

import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.rule.MethodContext;
import java.util.List;

/** Wording and small shared checks for the persistence rules. */
final class PersistenceRules {
    private PersistenceRules() {}

    /** {@code existsByEmail()}, or {@code AccountDao.exists() -> JdbcTemplate.queryForObject(SELECT ...)}. */
    static String name(DbOp op) {
        return op.via() == null ? op.describe() : op.via() + " (" + op.describe() + ")";
    }

    /** " (email, tenant_id)" from the check's key columns, or "". */
    static String columns(DbOp check) {
        List<String> keys = check.keyColumns().stream().filter(c -> !c.isEmpty()).toList();
        return keys.isEmpty() ? "" : " (" + String.join(", ", keys) + ")";
    }

    /**
     * A row-locking read before {@code op} in the method: the invariant's row is locked. A lock
     * only protects inside a transaction: under auto-commit it is released when the SELECT ends.
     */
    static boolean lockedReadBefore(MethodContext context, List<DbOp> ops, DbOp op) {
        if (!context.runsInTransaction(op.call())) {
            return false;
        }
        int at = position(op);
        for (DbOp other : ops) {
            if (other != op && other.kind() == DbOp.Kind.READ && other.locked() && position(other) < at) {
                return true;
            }
        }
        return false;
    }

    /** Does this read hold its row lock for the rest of a transaction? (Under auto-commit it is gone at once.) */
    static boolean lockHeld(MethodContext context, DbOp read) {
        return read.locked() && context.runsInTransaction(read.call());
    }

    /** The read returns row values (not a count or aggregate over other rows). */
    static boolean readsRowValues(DbOp read) {
        return read.shape() == DbOp.ReadShape.ROWS || read.shape() == DbOp.ReadShape.VALUE;
    }

    static int position(DbOp op) {
        return op.call().getBegin().map(p -> p.line * 10_000 + p.column).orElse(0);
    }
}
