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
 * @param keyColumns          columns compared for equality in the WHERE clause, except those the statement also writes
 * @param conditional         the WHERE guards the write ({@link #guardedWhere})
 * @param selfRelative        an UPDATE whose SET items all compute from the stored value
 * @param setParameterIndexes 0-based statement parameters that are absolute SET values ({@code col = ?})
 * @param setParameterNames   named parameters that are absolute SET values ({@code col = :name})
 * @param summary             a short form for messages, e.g. {@code INSERT INTO invites}
 * @param lockDetail          advisory locks, unordered multi-row locks ({@code IN}, {@code = ANY} with no
 *                            ORDER BY), locks that never wait (NOWAIT, SKIP LOCKED, try-locks)
 * @param endState            a conditional UPDATE whose guards only exclude the state it writes
 *                            ({@link dev.racelint.analyzer.sql.EndStateWrites}): 0 rows means already there
 * @param whereParameterIndexes 0-based positional parameters the WHERE compares a column with
 * @param whereParameterNames   named parameters the WHERE compares a column with ({@code record.id} as written)
 * @param parametersPlaced      every parameter of the text is a plain SET value or compared in the WHERE (none
 *                              sits in an expression: {@code SET a = CASE id WHEN #{x} THEN #{y} END})
 */
public record SqlFacts(Kind kind, String table, Set<String> keyColumns, boolean conditional, boolean selfRelative,
        List<Integer> setParameterIndexes, List<String> setParameterNames, boolean locked, boolean upsert, ReadShape shape, boolean jpql,
        String summary, LockDetail lockDetail, boolean endState, Set<Integer> whereParameterIndexes,
        Set<String> whereParameterNames, boolean parametersPlaced) {

    public SqlFacts(Kind kind, String table, Set<String> keyColumns, boolean conditional, boolean selfRelative,
            List<Integer> setParameterIndexes, List<String> setParameterNames, boolean locked, boolean upsert,
            ReadShape shape, boolean jpql, String summary, LockDetail lockDetail, boolean endState) {
        this(kind, table, keyColumns, conditional, selfRelative, setParameterIndexes, setParameterNames, locked, upsert,
                shape, jpql, summary, lockDetail, endState, Set.of(), Set.of(), false);
    }

    public SqlFacts(Kind kind, String table, Set<String> keyColumns, boolean conditional, boolean selfRelative,
            List<Integer> setParameterIndexes, List<String> setParameterNames, boolean locked, boolean upsert,
            ReadShape shape, boolean jpql, String summary, LockDetail lockDetail) {
        this(kind, table, keyColumns, conditional, selfRelative, setParameterIndexes, setParameterNames, locked, upsert,
                shape, jpql, summary, lockDetail, false);
    }

    public enum Kind { SELECT, INSERT, UPDATE, DELETE, MERGE, OTHER }

    /** Where SQL facts come from: the SQL model over the text of a Java expression. */
    public interface Source {
        Optional<SqlFacts> of(Expression expression, boolean jpql);

        Optional<SqlFacts> ofText(String text, boolean jpql);

        /** The parsed statement behind {@link #of}: for facts these summaries leave out (the columns set and compared). */
        default Optional<dev.racelint.analyzer.sql.SqlStatement> statementOf(Expression expression, boolean jpql) {
            return Optional.empty();
        }

        /** The parsed statement behind {@link #ofText}. */
        default Optional<dev.racelint.analyzer.sql.SqlStatement> statementOfText(String text, boolean jpql) {
            return Optional.empty();
        }
    }

    /**
     * One comparison of a WHERE clause: its column, whether it compares that column with a bind
     * parameter for equality ({@code col = ?}, {@code col IN (?)}), and whether it is a range
     * ({@code col < ?}, {@code col >= now() - interval '1 hour'}, {@code BETWEEN}).
     */
    public record Comparison(String column, boolean equalityWithParameter, boolean range) {}

    /**
     * Whether a WHERE clause guards its write, decided from the statement's shape, never from
     * column names. Rows are picked by equalities with parameters on columns the statement does
     * not write; the write is guarded when it also depends on the picked row's current state:
     * <ul>
     *   <li>a comparison on a column the statement itself writes (compare-and-set:
     *       {@code SET version = version + 1 ... WHERE version = ?},
     *       {@code SET balance = balance - ? ... WHERE balance >= ?});</li>
     *   <li>a comparison that is neither an equality with a parameter nor a range: with a literal,
     *       NULL, another column ({@code state = 'OPEN'}, {@code booked_by IS NULL});</li>
     * </ul>
     * Two equalities with parameters ({@code WHERE order_id = ? AND sku = ?}) pick a row by a
     * composite key as often as they narrow a key by an owner ({@code WHERE id = ? AND
     * customer_id = ?}); which one it is only the table's schema can say, so they are no guard.
     * A range on a column left as it is ({@code DELETE ... WHERE tenant_id = ? AND ts < ?}) narrows
     * a bulk operation and guards nothing, and a guard with no selector
     * ({@code WHERE expires_at < now()}) is a bulk filter.
     *
     * @param written the columns the statement assigns (lower case)
     */
    public static boolean guardedWhere(List<Comparison> where, Set<String> written) {
        boolean guard = false;
        int selectors = 0;
        for (Comparison c : where) {
            boolean writes = written.contains(c.column().toLowerCase(java.util.Locale.ROOT));
            if (writes || (!c.equalityWithParameter() && !c.range())) {
                guard = true;
            } else if (c.equalityWithParameter()) {
                selectors++;
            }
        }
        return guard && selectors > 0;
    }
}
