package dev.racelint.analyzer.sql;

import dev.racelint.analyzer.sql.SqlStatement.Aggregate;
import dev.racelint.analyzer.sql.SqlStatement.Kind;
import dev.racelint.analyzer.sql.SqlStatement.Lock;
import dev.racelint.analyzer.sql.SqlStatement.Parameter;
import dev.racelint.analyzer.sql.SqlStatement.SetItem;
import dev.racelint.analyzer.sql.SqlStatement.WhereColumn;
import java.util.ArrayList;
import java.util.List;

/** Mutable collector behind both extractors. */
final class StatementBuilder {
    final String text;
    final boolean jpql;
    Kind kind = Kind.OTHER;
    boolean parsed;
    final List<String> tables = new ArrayList<>();
    String targetTable = "";
    boolean where;
    final List<WhereColumn> whereColumns = new ArrayList<>();
    final List<SetItem> setItems = new ArrayList<>();
    Lock lock = Lock.NONE;
    boolean nowait;
    boolean skipLocked;
    boolean orderBy;
    boolean limit;
    boolean upsert;
    boolean conflictDoNothing;
    boolean conditionalInsert;
    boolean returning;
    Aggregate aggregate = Aggregate.NONE;
    final List<String> selectedColumns = new ArrayList<>();
    String advisoryLock = "";
    List<Parameter> parameters = List.of();

    StatementBuilder(String text, boolean jpql) {
        this.text = text;
        this.jpql = jpql;
    }

    void addTable(String table) {
        if (table != null && !table.isEmpty() && !tables.contains(table)) {
            tables.add(table);
        }
    }

    void addSelected(String column) {
        if (column != null && !column.isEmpty() && !selectedColumns.contains(column)) {
            selectedColumns.add(column);
        }
    }

    SqlStatement build() {
        String target = targetTable;
        if (target.isEmpty() && !tables.isEmpty() && (kind == Kind.SELECT || kind == Kind.OTHER)) {
            target = tables.get(0);
        }
        return new SqlStatement(text, kind, parsed, jpql, tables, target, where, whereColumns, setItems, lock,
                nowait, skipLocked, orderBy, limit, upsert, conflictDoNothing, conditionalInsert, returning,
                aggregate, selectedColumns, advisoryLock, parameters.size(), parameters);
    }
}
