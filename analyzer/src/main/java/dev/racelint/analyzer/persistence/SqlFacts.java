package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.expr.Expression;
import dev.racelint.analyzer.persistence.DbOp.ReadShape;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the persistence rules need to know about one SQL (or JPQL) statement.
 *
 * @param table               the written table, else the first read table (lower case)
 * @param keyColumns          columns compared in the WHERE clause
 * @param conditional         the WHERE compares something besides key columns (id, *_id)
 * @param selfRelative        an UPDATE whose SET items all compute from the stored value
 * @param setParameterIndexes 0-based statement parameters that are absolute SET values ({@code col = ?})
 * @param setParameterNames   named parameters that are absolute SET values ({@code col = :name})
 * @param summary             a short form for messages, e.g. {@code INSERT INTO invites}
 * @param lockDetail          advisory locks, unordered multi-row locks ({@code IN}, {@code = ANY} with no
 *                            ORDER BY), locks that never wait (NOWAIT, SKIP LOCKED, try-locks)
 */
public record SqlFacts(Kind kind, String table, Set<String> keyColumns, boolean conditional, boolean selfRelative,
        List<Integer> setParameterIndexes, List<String> setParameterNames, boolean locked, boolean upsert, ReadShape shape, boolean jpql,
        String summary, LockDetail lockDetail) {

    public enum Kind { SELECT, INSERT, UPDATE, DELETE, MERGE, OTHER }

    /** Where SQL facts come from: the SQL model over the text of a Java expression. */
    public interface Source {
        Optional<SqlFacts> of(Expression expression, boolean jpql);

        Optional<SqlFacts> ofText(String text, boolean jpql);
    }

    /**
     * Does a WHERE comparison guard the write (rather than pick the row)? An equality with a bind
     * parameter picks rows (ids, natural keys such as sku or email) unless the column is a
     * version, state or quantity; any other comparison (a literal, a range, another column, a
     * subquery) is a condition the write depends on.
     */
    public static boolean isGuard(String column, boolean equalityWithParameter) {
        return !equalityWithParameter || isGuardColumn(column);
    }

    /**
     * Whether a WHERE clause guards its write: a comparison on a version, state or quantity-like
     * column of rows picked by an equality, or an equality on the row's {@code id} narrowed by any other comparison
     * ({@code WHERE id = ? AND owner_id = ?}). Range filters on other columns without an id
     * ({@code DELETE ... WHERE tenant_id = ? AND ts < ?}) are bulk operations, not guards.
     */
    public static boolean guardedWhere(List<String> columns, List<Boolean> equalityWithParameter) {
        boolean byId = false;
        boolean guard = false;
        boolean selector = false;
        for (int i = 0; i < columns.size(); i++) {
            String column = columns.get(i);
            if (isGuardColumn(column)) {
                guard = true;
            } else if (equalityWithParameter.get(i)) {
                selector = true;
            }
            if (column.equalsIgnoreCase("id") && equalityWithParameter.get(i)) {
                byId = true;
            }
        }
        // A guard only guards a row some selector picked; alone (WHERE expires_at < now()) it is a bulk filter.
        return (guard && selector) || (byId && columns.size() > 1);
    }

    /** Columns whose comparison is a condition even when compared to a parameter. */
    public static boolean isGuardColumn(String column) {
        String c = column.toLowerCase(java.util.Locale.ROOT);
        return c.equals("version") || c.endsWith("_version") || c.equals("state") || c.endsWith("_state")
                || c.equals("status") || c.endsWith("_status") || c.contains("balance") || c.contains("quantity")
                || c.equals("qty") || c.contains("stock") || c.startsWith("available") || c.startsWith("remaining")
                || c.startsWith("used") || c.endsWith("_count") || c.equals("count") || c.startsWith("locked")
                || c.equals("lock_owner") || c.startsWith("claimed") || c.equals("expires_at") || c.equals("lease_until")
                || c.equals("etag") || c.equals("revision") || c.equals("seq") || c.equals("sequence")
                || c.equals("updated_at") || c.equals("modified_at") || c.equals("last_modified")
                || c.startsWith("holder") || c.equals("lock_holder") || c.endsWith("_by") || c.equals("assigned_to");
    }

    /** Key-like column names: {@code id}, {@code *_id}, {@code *Id}, {@code uuid}. */
    public static boolean isKeyColumn(String column) {
        String c = column.toLowerCase(java.util.Locale.ROOT);
        return c.equals("id") || c.endsWith("_id") || c.equals("uuid") || c.endsWith("_uuid") || c.equals("pk")
                || c.endsWith("_key") || c.equals("key") || c.equals("code") || c.endsWith("_code")
                || column.endsWith("Id");
    }
}
