package dev.racelint.analyzer.persistence;

import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.CallResolver;
import dev.racelint.analyzer.sql.SqlStatement;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which columns of a table the program can change in a row that already exists, over the whole
 * program: the SET columns of every UPDATE its mappers and repositories declare (annotation, XML,
 * {@code @Query}), and - for writes whose columns the text does not list (an entity saved or merged,
 * a MyBatis-Plus update or logical delete, an upsert, JDBC SQL built in code) - every column of the
 * table. Inserts make new rows and plain DELETEs remove them; neither changes a stored value.
 * A write whose table cannot be told is left out: this answers for the tables the program names.
 */
public final class ColumnWriters {
    private final Map<String, Set<String>> written = new HashMap<>();
    private final Set<String> everyColumn = new HashSet<>();

    private ColumnWriters() {}

    static ColumnWriters of(PersistenceModel persistence) {
        ColumnWriters out = new ColumnWriters();
        DbOpClassifier classifier = persistence.classifier();
        for (MethodInfo method : persistence.index().methods()) {
            classifier.declaredSqlStatement(method).ifPresent(out::declared);
        }
        for (MethodInfo method : persistence.index().methods()) {
            for (DbOp op : persistence.directOps(method)) {
                boolean changesRows = op.kind() == DbOp.Kind.UPDATE || op.kind() == DbOp.Kind.SAVE
                        || op.kind() == DbOp.Kind.DELETE || op.upsert();
                if (changesRows && !declaredStatement(persistence.resolver(), classifier, op)) {
                    out.everyColumn.add(table(op.table()));
                }
            }
        }
        out.everyColumn.remove("");
        return out;
    }

    /** Is the op a call of a method declaring its SQL? Its columns were read from that text. */
    private static boolean declaredStatement(CallResolver resolver, DbOpClassifier classifier, DbOp op) {
        CallResolver.Resolution r = resolver.resolve(op.call());
        return !r.targets().isEmpty() && r.targets().stream().allMatch(t -> classifier.declaredStatement(t).isPresent());
    }

    private void declared(SqlStatement st) {
        String table = table(st.targetTable());
        if (table.isEmpty()) {
            return;
        }
        switch (st.kind()) {
            case UPDATE -> {
                if (st.setItems().isEmpty()) {
                    everyColumn.add(table); // an UPDATE whose SET could not be read
                }
                st.setItems().forEach(i -> written.computeIfAbsent(table, k -> new HashSet<>()).add(column(i.column())));
            }
            case MERGE -> everyColumn.add(table);
            case INSERT -> {
                if (st.upsert()) {
                    everyColumn.add(table); // ON DUPLICATE KEY / ON CONFLICT DO UPDATE changes the stored row
                }
            }
            default -> { }
        }
    }

    /** Whether no write of the program can change any of {@code columns} in an existing row of {@code table}. */
    public boolean noneWritten(String table, Collection<String> columns) {
        String t = table(table);
        if (t.isEmpty() || everyColumn.contains(t)) {
            return false;
        }
        Set<String> set = written.getOrDefault(t, Set.of());
        return columns.stream().noneMatch(c -> set.contains(column(c)));
    }

    private static String table(String name) {
        if (name == null) {
            return "";
        }
        String n = name.replace("`", "").replace("\"", "").toLowerCase(Locale.ROOT).trim();
        return n.substring(n.lastIndexOf('.') + 1);
    }

    private static String column(String name) {
        String n = name.replace("`", "").replace("\"", "").toLowerCase(Locale.ROOT).trim();
        return n.substring(n.lastIndexOf('.') + 1);
    }
}
