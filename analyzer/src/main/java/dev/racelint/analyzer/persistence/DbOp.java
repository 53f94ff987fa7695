package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.finding.CodeLocation;
import java.util.List;
import java.util.Set;

/**
 * One database operation at a call site, whatever the API (JDBC, JdbcTemplate, jOOQ, MyBatis,
 * JDBI, EntityManager, Spring Data).
 *
 * @param call          the call expression (for a fluent chain, the call the chain starts with)
 * @param end           the outermost call of the chain: its value is the operation's result
 * @param kind          what it does
 * @param table         the table (or the entity's table), lower case; empty when unknown
 * @param entity        the entity when the API works on entities, else null
 * @param shape         for reads: what the result is (existence, count, rows, a value)
 * @param keyColumns    columns the statement selects rows by (WHERE / derived query names)
 * @param conditional   for UPDATE/DELETE: the WHERE compares something besides the key
 * @param selfRelative  for UPDATE: every SET item computes from the stored value (col = col - ?)
 * @param locked        the read takes a row lock (FOR UPDATE/SHARE, PESSIMISTIC_*, @Lock)
 * @param upsert        the insert resolves conflicts in the database (ON CONFLICT, MERGE...)
 * @param describe      how messages name it, e.g. {@code existsByEmail()} or
 *                      {@code JdbcTemplate.update(INSERT INTO invites)}
 * @param via           when found one call into a project helper (a DAO method): that method's display name
 * @param valueParameters call arguments holding absolute SET values (positional parameters)
 * @param valueNames    named parameters holding absolute SET values ({@code :likes}, {@code #{q}})
 * @param lockDetail    advisory locks, unordered multi-row locks, locks that never wait
 * @param endState      for UPDATE: a statement the framework builds from the call ({@code MyBatisPlus}) whose
 *                      guards only exclude the state it writes ({@link SqlFacts#endState()}); a declared
 *                      statement's is read from the declaration instead
 * @param byPrimaryKey  the API itself picks one row by the table's primary key ({@code findById},
 *                      {@code selectByPrimaryKey}, {@code EntityManager.find}, MyBatis-Plus {@code selectById}),
 *                      whatever the key column is called; a WHERE the project writes is asked of the schema
 *                      and the mapping instead ({@link RowKeys})
 */
public record DbOp(MethodCallExpr call, MethodCallExpr end, Kind kind, String table, EntityModel.Entity entity,
        ReadShape shape, Set<String> keyColumns, boolean conditional, boolean selfRelative, boolean locked,
        boolean upsert, String describe, CodeLocation location, String via, List<Integer> valueParameters,
        List<String> valueNames, LockDetail lockDetail, boolean endState, boolean byPrimaryKey) {

    public enum Kind {
        READ, INSERT, UPDATE, DELETE,
        /** Spring Data save / EntityManager merge: insert or update of an entity. */
        SAVE
    }

    public enum ReadShape { NONE, EXISTS, COUNT, AGGREGATE, ROWS, VALUE }

    public DbOp {
        lockDetail = lockDetail == null ? LockDetail.NONE : lockDetail;
    }

    public DbOp(MethodCallExpr call, MethodCallExpr end, Kind kind, String table, EntityModel.Entity entity,
            ReadShape shape, Set<String> keyColumns, boolean conditional, boolean selfRelative, boolean locked,
            boolean upsert, String describe, CodeLocation location, String via, List<Integer> valueParameters,
            List<String> valueNames, LockDetail lockDetail) {
        this(call, end, kind, table, entity, shape, keyColumns, conditional, selfRelative, locked, upsert, describe,
                location, via, valueParameters, valueNames, lockDetail, false, false);
    }

    public DbOp(MethodCallExpr call, MethodCallExpr end, Kind kind, String table, EntityModel.Entity entity,
            ReadShape shape, Set<String> keyColumns, boolean conditional, boolean selfRelative, boolean locked,
            boolean upsert, String describe, CodeLocation location, String via, List<Integer> valueParameters,
            List<String> valueNames, LockDetail lockDetail, boolean endState) {
        this(call, end, kind, table, entity, shape, keyColumns, conditional, selfRelative, locked, upsert, describe,
                location, via, valueParameters, valueNames, lockDetail, endState, false);
    }

    /** The same operation, marked as picking its row by the primary key through the API itself. */
    public DbOp byTheApisPrimaryKey() {
        return new DbOp(call, end, kind, table, entity, shape, keyColumns, conditional, selfRelative, locked, upsert,
                describe, location, via, valueParameters, valueNames, lockDetail, endState, true);
    }

    /** The statement takes an advisory lock. */
    public boolean advisoryLock() {
        return lockDetail.advisory();
    }

    /** A locking read over several rows with no ORDER BY (the lock order is the plan's). */
    public boolean unorderedMultiRowLock() {
        return lockDetail.unorderedMultiRow();
    }

    /** The same read, taking a row lock (a pessimistic lock mode set on the query). */
    public DbOp locking() {
        return new DbOp(call, end, kind, table, entity, shape, keyColumns, conditional, selfRelative, true, upsert,
                describe, location, via, valueParameters, valueNames, lockDetail, endState, byPrimaryKey);
    }

    public boolean isWrite() {
        return kind != Kind.READ;
    }

    public boolean sameTable(DbOp other) {
        return !table.isEmpty() && table.equalsIgnoreCase(other.table);
    }
}
