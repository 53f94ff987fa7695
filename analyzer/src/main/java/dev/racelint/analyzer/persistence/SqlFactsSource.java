package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.expr.Expression;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.persistence.DbOp.ReadShape;
import dev.racelint.analyzer.sql.EndStateWrites;
import dev.racelint.analyzer.sql.SqlModel;
import dev.racelint.analyzer.sql.SqlStatement;
import dev.racelint.analyzer.sql.SqlStrings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** SQL facts from the SQL model over the text a Java expression holds ({@link SqlStrings}). */
public final class SqlFactsSource implements SqlFacts.Source {
    /** Operators that compare a column with a range of values. */
    private static final Set<String> RANGES = Set.of("<", "<=", ">", ">=", "BETWEEN");

    private final ProgramIndex index;
    private final SqlModel model;
    private final SqlStrings strings;

    public SqlFactsSource(ProgramIndex index) {
        this(index, dev.racelint.analyzer.AnalysisLimits.DEFAULT);
    }

    public SqlFactsSource(ProgramIndex index, dev.racelint.analyzer.AnalysisLimits limits) {
        this.index = index;
        this.model = new SqlModel(SqlModel.DEFAULT_TIMEOUT_MILLIS, limits);
        this.strings = new SqlStrings(limits);
    }

    @Override
    public Optional<SqlFacts> of(Expression expression, boolean jpql) {
        return strings.valueOf(expression, index).flatMap(text -> ofText(text, jpql));
    }

    @Override
    public Optional<SqlStatement> statementOf(Expression expression, boolean jpql) {
        return strings.valueOf(expression, index).flatMap(text -> statementOfText(text, jpql));
    }

    @Override
    public Optional<SqlStatement> statementOfText(String text, boolean jpql) {
        String sql = withoutTags(text);
        return sql.isBlank() ? Optional.empty() : Optional.of(jpql ? model.parseJpql(sql) : model.parse(sql));
    }

    private static String withoutTags(String text) {
        return text.contains("</") || text.contains("<if") || text.contains("<where") || text.contains("<set")
                ? SqlModel.stripMyBatisTags(text) : text;
    }

    @Override
    public Optional<SqlFacts> ofText(String text, boolean jpql) {
        String sql = withoutTags(text);
        if (sql.isBlank()) {
            return Optional.empty();
        }
        SqlStatement st = jpql ? model.parseJpql(sql) : model.parse(sql);
        SqlFacts.Kind kind = switch (st.kind()) {
            case SELECT -> SqlFacts.Kind.SELECT;
            case INSERT -> SqlFacts.Kind.INSERT;
            case UPDATE -> SqlFacts.Kind.UPDATE;
            case DELETE -> SqlFacts.Kind.DELETE;
            case MERGE -> SqlFacts.Kind.MERGE;
            default -> SqlFacts.Kind.OTHER;
        };
        String table = st.targetTable() == null ? "" : st.targetTable().toLowerCase(Locale.ROOT);
        Set<String> keys = new LinkedHashSet<>();
        Set<String> written = new LinkedHashSet<>();
        st.setItems().forEach(i -> written.add(i.column().toLowerCase(Locale.ROOT)));
        List<SqlFacts.Comparison> where = new ArrayList<>();
        Set<Integer> whereIndexes = new LinkedHashSet<>();
        Set<String> whereNames = new LinkedHashSet<>();
        for (SqlStatement.WhereColumn w : st.whereColumns()) {
            if (w.parameterName() != null) {
                whereNames.add(w.parameterName());
            } else if (w.parameterIndex() >= 0) {
                whereIndexes.add(w.parameterIndex());
            }
            boolean parameter = w.valueKind() == SqlStatement.ValueKind.PARAMETER;
            // a column the statement also writes is compared to guard the write, not to pick the row; and
            // `id IN (SELECT ..)` picks rows by the database's own query, not by values the caller holds
            if (w.isEquality() && w.valueKind() != SqlStatement.ValueKind.SUBQUERY
                    && !written.contains(w.column().toLowerCase(Locale.ROOT))) {
                keys.add(w.column());
            }
            where.add(new SqlFacts.Comparison(w.column(), w.isEquality() && parameter,
                    RANGES.contains(w.operator())));
        }
        boolean conditional = (kind == SqlFacts.Kind.UPDATE || kind == SqlFacts.Kind.DELETE)
                && SqlFacts.guardedWhere(where, written);
        // computed from the stored value; items beside that carry no value from the caller (now(), a literal)
        boolean selfRelative = st.setItems().stream().anyMatch(i -> i.kind() == SqlStatement.SetKind.SELF_RELATIVE)
                && st.setItems().stream().allMatch(i -> i.kind() == SqlStatement.SetKind.SELF_RELATIVE
                        || i.kind() == SqlStatement.SetKind.OTHER_EXPRESSION);
        List<Integer> setParameters = new ArrayList<>();
        List<String> setNames = new ArrayList<>();
        for (SqlStatement.SetItem item : st.setItems()) {
            if (item.kind() == SqlStatement.SetKind.ABSOLUTE_PARAMETER && item.parameterIndex() >= 0
                    && item.parameterName() == null) {
                setParameters.add(item.parameterIndex());
            }
            if (item.kind() == SqlStatement.SetKind.ABSOLUTE_PARAMETER && item.parameterName() != null) {
                setNames.add(item.parameterName());
            }
        }
        ReadShape shape = ReadShape.NONE;
        if (kind == SqlFacts.Kind.SELECT) {
            shape = switch (st.aggregate()) {
                case COUNT -> ReadShape.COUNT;
                case EXISTS -> ReadShape.EXISTS;
                case SUM, OTHER_AGGREGATE -> ReadShape.AGGREGATE;
                default -> st.selectedColumns().size() == 1 && !st.selectedColumns().get(0).endsWith("*")
                        ? ReadShape.VALUE : ReadShape.ROWS;
            };
        }
        boolean upsert = st.upsert() || st.conditionalInsert() || kind == SqlFacts.Kind.MERGE;
        String summary = summary(kind, table, shape);
        return Optional.of(new SqlFacts(kind, table, keys, conditional, selfRelative, List.copyOf(setParameters),
                List.copyOf(setNames), st.isLocking(), upsert, shape, jpql, summary, new LockDetail(st.advisoryLock(),
                st.isLocking() && !st.orderBy() && st.whereColumns().stream()
                        .anyMatch(w -> w.operator().equals("IN") || w.operator().equals("ANY")),
                st.nowait() || st.skipLocked() || st.advisoryLock().contains("try")),
                kind == SqlFacts.Kind.UPDATE && conditional && EndStateWrites.endState(sql, jpql),
                Set.copyOf(whereIndexes), Set.copyOf(whereNames),
                parametersPlaced(sql, setParameters, setNames, whereIndexes, whereNames)));
    }

    private static final java.util.regex.Pattern NAMED = java.util.regex.Pattern.compile(
            "#\\{\\s*([A-Za-z_][\\w.]*)|(?<![:\\w]):([A-Za-z_][\\w.]*)");
    private static final java.util.regex.Pattern POSITIONAL = java.util.regex.Pattern.compile("\\?(\\d*)");

    /**
     * Does every parameter of {@code sql} appear as a plain SET value or in a WHERE comparison? Counted
     * on the text: the distinct named ones ({@code #{a.b}}, {@code :a}) and the positional ones
     * ({@code ?}, {@code ?1}); a {@code ${..}} splice or a SpEL expression is no parameter here.
     */
    private static boolean parametersPlaced(String sql, List<Integer> setIndexes, List<String> setNames,
            Set<Integer> whereIndexes, Set<String> whereNames) {
        Set<String> named = new LinkedHashSet<>();
        java.util.regex.Matcher m = NAMED.matcher(sql);
        while (m.find()) {
            named.add(m.group(1) != null ? m.group(1) : m.group(2));
        }
        Set<String> placedNames = new LinkedHashSet<>(setNames);
        placedNames.addAll(whereNames);
        if (!placedNames.containsAll(named) || sql.contains(":#{") || sql.contains("?#{")) {
            return false;
        }
        Set<Integer> positional = new LinkedHashSet<>();
        java.util.regex.Matcher p = POSITIONAL.matcher(sql);
        int bare = 0;
        while (p.find()) {
            if (p.group(1).isEmpty()) {
                positional.add(bare++);
            } else if (p.group(1).length() <= 3) {
                positional.add(Integer.parseInt(p.group(1)) - 1);
            } else {
                return false;
            }
        }
        Set<Integer> placedIndexes = new LinkedHashSet<>(setIndexes);
        placedIndexes.addAll(whereIndexes);
        return placedIndexes.containsAll(positional);
    }

    private static String summary(SqlFacts.Kind kind, String table, ReadShape shape) {
        return switch (kind) {
            case SELECT -> (shape == ReadShape.COUNT ? "SELECT COUNT(*) FROM " : shape == ReadShape.EXISTS
                    ? "SELECT EXISTS ... FROM " : "SELECT ... FROM ") + table;
            case INSERT -> "INSERT INTO " + table;
            case UPDATE -> "UPDATE " + table;
            case DELETE -> "DELETE FROM " + table;
            case MERGE -> "MERGE INTO " + table;
            default -> "SQL";
        };
    }

    public SqlModel.Stats stats() {
        return model.stats();
    }
}
