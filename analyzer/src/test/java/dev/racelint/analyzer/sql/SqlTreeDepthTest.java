package dev.racelint.analyzer.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.AnalysisLimits;
import dev.racelint.analyzer.AnalysisLimits.Limit;
import java.util.function.IntPredicate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code sql-tree-depth}: each walk over JSqlParser's expression trees sees what lies exactly at the
 * bound and not one level beyond it, at the default and at another value. Every statement here parses;
 * only the depth the model reads changes.
 */
class SqlTreeDepthTest {

    private static SqlModel model(int depth) {
        return new SqlModel(10_000, AnalysisLimits.DEFAULT.with(Limit.SQL_TREE_DEPTH, depth));
    }

    private static void assertEdge(int bound, IntPredicate seen) {
        assertThat(seen.test(bound)).as("at " + bound).isTrue();
        assertThat(seen.test(bound + 1)).as("at " + (bound + 1)).isFalse();
    }

    /** {@code WHERE balance >= ? AND id = ? AND ...}: n ANDs put the first condition n levels deep. */
    @ParameterizedTest
    @ValueSource(ints = {200, 12})
    void aConditionDeepInTheWhereClause(int bound) {
        assertThat(Limit.SQL_TREE_DEPTH.defaultValue()).isEqualTo(200);
        SqlModel model = model(bound);
        assertEdge(bound, n -> {
            SqlStatement st = model.parse("UPDATE accounts SET note = ? WHERE balance >= ?" + " AND id = ?".repeat(n));
            assertThat(st.parsed()).isTrue();
            return st.whereColumnNames().contains("balance");
        });
    }

    /** {@code SET note = ?::int::int...}: n casts around the parameter. */
    @ParameterizedTest
    @ValueSource(ints = {200, 12})
    void castsAroundASetParameter(int bound) {
        SqlModel model = model(bound);
        assertEdge(bound, n -> {
            SqlStatement st = model.parse("UPDATE accounts SET note = ?" + "::int".repeat(n) + " WHERE id = ?");
            assertThat(st.parsed()).isTrue();
            return st.setItems().get(0).kind() == SqlStatement.SetKind.ABSOLUTE_PARAMETER;
        });
    }

    /** {@code SET balance = coalesce(coalesce(balance + ?, 0), 0)}: the self-relative part n calls deep. */
    @ParameterizedTest
    @ValueSource(ints = {200, 12})
    void aSelfRelativeSetItemInsideFunctions(int bound) {
        SqlModel model = model(bound);
        assertEdge(bound, n -> {
            SqlStatement st = model.parse("UPDATE accounts SET balance = " + "coalesce(".repeat(n) + "balance + ?"
                    + ", 0)".repeat(n) + " WHERE id = ?");
            assertThat(st.parsed()).isTrue();
            return st.setItems().get(0).kind() == SqlStatement.SetKind.SELF_RELATIVE;
        });
    }

    /** {@code SELECT coalesce(coalesce(count(*), 0), 0)}: the aggregate n calls deep. */
    @ParameterizedTest
    @ValueSource(ints = {200, 12})
    void anAggregateInsideFunctions(int bound) {
        SqlModel model = model(bound);
        assertEdge(bound, n -> {
            SqlStatement st = model.parse("SELECT " + "coalesce(".repeat(n) + "count(*)" + ", 0)".repeat(n)
                    + " FROM accounts WHERE id = ?");
            assertThat(st.parsed()).isTrue();
            return st.aggregate() == SqlStatement.Aggregate.COUNT;
        });
    }
}
