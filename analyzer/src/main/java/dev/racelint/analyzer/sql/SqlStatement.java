package dev.racelint.analyzer.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the rules need to know about one SQL (or JPQL/HQL) statement. Immutable; produced by
 * {@link SqlModel#parse(String)} and {@link SqlModel#parseJpql(String)}.
 *
 * <p>All names (tables, columns) are lower case, without schema, quotes or table alias. For JPQL,
 * tables are entity names and a column is the path after the alias ({@code e.customer.id} gives
 * {@code customer.id}).
 *
 * @param text              the text as given to the model
 * @param kind              the statement kind
 * @param parsed            true when JSqlParser parsed it; false when the token fallback was used
 * @param jpql              parsed as JPQL/HQL
 * @param tables            tables in order: for writes the target first; for a SELECT the FROM
 *                          and JOIN tables, then tables of subqueries; CTE names are replaced by
 *                          the tables they read
 * @param targetTable       the written table for INSERT/UPDATE/DELETE/MERGE, else the first FROM
 *                          table; {@code ""} when unknown
 * @param where             the statement has a top-level WHERE clause
 * @param whereColumns      columns compared in the top-level WHERE (AND/OR/NOT/parentheses are
 *                          looked through; subqueries are not), in text order
 * @param setItems          SET items of an UPDATE, of ON CONFLICT DO UPDATE, ON DUPLICATE KEY
 *                          UPDATE, and of MERGE ... WHEN MATCHED THEN UPDATE
 * @param lock              the row lock clause of a SELECT
 * @param nowait            {@code NOWAIT}
 * @param skipLocked        {@code SKIP LOCKED}
 * @param orderBy           the (top-level) statement has ORDER BY
 * @param limit             the (top-level) statement has LIMIT / FETCH FIRST / TOP
 * @param upsert            INSERT ... ON CONFLICT (any action), ON DUPLICATE KEY UPDATE, INSERT
 *                          IGNORE, INSERT OR IGNORE/REPLACE, REPLACE, UPSERT, MERGE, or a
 *                          conditional {@code INSERT ... SELECT ... WHERE NOT EXISTS (...)}
 * @param conflictDoNothing ON CONFLICT DO NOTHING, INSERT IGNORE, INSERT OR IGNORE
 * @param conditionalInsert {@code INSERT ... WHERE NOT EXISTS (...)} (also counted as upsert)
 * @param returning         RETURNING (or SQL Server OUTPUT) clause
 * @param aggregate         what the select list computes (existence checks included)
 * @param selectedColumns   for a SELECT: the columns of the select list ({@code *} for
 *                          {@code SELECT *}, {@code t.*} or a selected JPQL entity alias); for an
 *                          expression item, the columns it reads
 * @param advisoryLock      the advisory-lock function called (lower case, e.g.
 *                          {@code pg_advisory_xact_lock}, {@code get_lock}); {@code ""} when none
 * @param parameterCount    number of bind parameters ({@code ?}, {@code ?1}, {@code $1},
 *                          {@code :name}, MyBatis {@code #{..}}) in the text
 * @param parameters        the bind parameters in text order
 */
public record SqlStatement(
        String text,
        Kind kind,
        boolean parsed,
        boolean jpql,
        List<String> tables,
        String targetTable,
        boolean where,
        List<WhereColumn> whereColumns,
        List<SetItem> setItems,
        Lock lock,
        boolean nowait,
        boolean skipLocked,
        boolean orderBy,
        boolean limit,
        boolean upsert,
        boolean conflictDoNothing,
        boolean conditionalInsert,
        boolean returning,
        Aggregate aggregate,
        List<String> selectedColumns,
        String advisoryLock,
        int parameterCount,
        List<Parameter> parameters) {

    public enum Kind { SELECT, INSERT, UPDATE, DELETE, MERGE, OTHER }

    /** What the other side of a WHERE comparison is. */
    public enum ValueKind {
        /** {@code ?}, {@code ?1}, {@code $1}, {@code :name} (possibly cast, or a list of them). */
        PARAMETER,
        /** a literal ({@code 'x'}, {@code 1}, {@code NULL}, {@code TRUE}, an interpolated {@code ${x}}). */
        LITERAL,
        /** another column. */
        COLUMN,
        /** anything else (function call, arithmetic, mixed list). */
        EXPRESSION,
        /** a subquery ({@code IN (SELECT ..)}, {@code = (SELECT ..)}). */
        SUBQUERY
    }

    /** How an UPDATE's SET item computes the new value. */
    public enum SetKind {
        /** from the stored value of the same column: {@code col = col - ?}, {@code version = version + 1}. */
        SELF_RELATIVE,
        /** a bind parameter: {@code col = ?}, {@code col = :name} (also {@code col = EXCLUDED.col}). */
        ABSOLUTE_PARAMETER,
        /** a literal: {@code col = 'DONE'}, {@code col = NULL}. */
        ABSOLUTE_LITERAL,
        /** anything else: {@code col = now()}, {@code col = other_col}. */
        OTHER_EXPRESSION
    }

    public enum Lock { NONE, FOR_UPDATE, FOR_NO_KEY_UPDATE, FOR_SHARE, FOR_KEY_SHARE }

    public enum Aggregate { NONE, COUNT, SUM, EXISTS, OTHER_AGGREGATE }

    /**
     * A column compared in the WHERE clause.
     *
     * @param column         lower-case column name without alias
     * @param operator       {@code =, <>, <, <=, >, >=, IN, NOT IN, LIKE, NOT LIKE, IS NULL,
     *                       IS NOT NULL, BETWEEN, ANY, ALL} or {@code OTHER}
     * @param valueKind      what the column is compared with
     * @param parameterIndex when compared with one positional parameter: its 0-based position
     *                       among all parameters in text order ({@code ?N} / {@code $N}: N-1);
     *                       else -1
     * @param parameterName  when compared with one named parameter: its name; else null
     */
    public record WhereColumn(String column, String operator, ValueKind valueKind, int parameterIndex,
            String parameterName) {

        /** {@code =}, {@code IN} or {@code = ANY(..)}: the comparison selects rows by value. */
        public boolean isEquality() {
            return operator.equals("=") || operator.equals("IN") || operator.equals("ANY");
        }
    }

    /**
     * One SET item.
     *
     * @param column         lower-case column name without alias
     * @param kind           how the value is computed
     * @param parameterIndex for {@link SetKind#ABSOLUTE_PARAMETER} with a positional parameter:
     *                       its 0-based position among all parameters in text order
     *                       ({@code ?N} / {@code $N}: N-1); else -1
     * @param parameterName  for {@link SetKind#ABSOLUTE_PARAMETER} with a named parameter: its
     *                       name; else null
     */
    public record SetItem(String column, SetKind kind, int parameterIndex, String parameterName) {}

    /**
     * A bind parameter.
     *
     * @param position 0-based position among all parameters in text order
     * @param name     the name of a named parameter ({@code :name}, MyBatis {@code #{name}}), else null
     * @param number   the number of a numbered parameter ({@code ?1}, {@code $1}), else 0
     */
    public record Parameter(int position, String name, int number) {}

    public SqlStatement {
        tables = List.copyOf(tables);
        whereColumns = List.copyOf(whereColumns);
        setItems = List.copyOf(setItems);
        selectedColumns = List.copyOf(selectedColumns);
        parameters = List.copyOf(parameters);
        targetTable = targetTable == null ? "" : targetTable;
        advisoryLock = advisoryLock == null ? "" : advisoryLock;
        text = text == null ? "" : text;
    }

    /** An OTHER statement that nothing could be read from. */
    static SqlStatement unknown(String text, boolean jpql) {
        return new SqlStatement(text, Kind.OTHER, false, jpql, List.of(), "", false, List.of(), List.of(),
                Lock.NONE, false, false, false, false, false, false, false, false, Aggregate.NONE, List.of(),
                "", 0, List.of());
    }

    /** INSERT, UPDATE, DELETE or MERGE. */
    public boolean isWrite() {
        return kind == Kind.INSERT || kind == Kind.UPDATE || kind == Kind.DELETE || kind == Kind.MERGE;
    }

    /** A cap of one row: {@code LIMIT 1}, {@code LIMIT 0, 1}, {@code FETCH FIRST [1] ROW[S] ONLY}, {@code TOP 1}. */
    private static final java.util.regex.Pattern ONE_ROW = java.util.regex.Pattern.compile(
            "(?i)\\b(?:limit\\s+(?:\\d+\\s*,\\s*)?1\\b(?!\\s*,)|fetch\\s+(?:first|next)\\s+(?:1\\s+)?rows?\\s+only|top\\s*\\(?\\s*1\\b)");

    /**
     * A SELECT that orders its rows and caps them at more than one ({@code ORDER BY id DESC LIMIT #{n}}):
     * it reads the latest few rows of what it selects by, so the table keeps several rows per value.
     */
    public boolean readsOrderedWindow() {
        return kind == Kind.SELECT && orderBy && limit && !ONE_ROW.matcher(text).find();
    }

    /** A row lock is taken by the statement's lock clause (FOR UPDATE / SHARE ...). */
    public boolean isLocking() {
        return lock != Lock.NONE;
    }

    public boolean hasAdvisoryLock() {
        return !advisoryLock.isEmpty();
    }

    /** The names of {@link #whereColumns()}, each once, in order. */
    public List<String> whereColumnNames() {
        List<String> out = new ArrayList<>();
        for (WhereColumn c : whereColumns) {
            if (!out.contains(c.column())) {
                out.add(c.column());
            }
        }
        return out;
    }

    /** Is {@code column} (any case) compared in the top-level WHERE? */
    public boolean comparesColumn(String column) {
        String c = column.toLowerCase(Locale.ROOT);
        return whereColumns.stream().anyMatch(w -> w.column().equals(c));
    }

    /** The SET item of {@code column} (any case), if any. */
    public Optional<SetItem> setItem(String column) {
        String c = column.toLowerCase(Locale.ROOT);
        return setItems.stream().filter(s -> s.column().equals(c)).findFirst();
    }

    /** Does the statement read or write {@code table} (any case)? */
    public boolean touches(String table) {
        return tables.contains(table.toLowerCase(Locale.ROOT));
    }
}
