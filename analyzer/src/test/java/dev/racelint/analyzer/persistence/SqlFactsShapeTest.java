package dev.racelint.analyzer.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.index.ProgramIndex;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Whether a write is guarded, which columns pick its row and whether it is self-relative come from
 * the statement's shape: the same answers whatever the tables and columns are called (c1, c2...).
 */
class SqlFactsShapeTest {

    private static final SqlFactsSource SQL = new SqlFactsSource(ProgramIndex.build(List.of()));

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // compare-and-set on a column the statement writes
            "UPDATE t1 SET c1 = c1 - ? WHERE c2 = ? AND c1 >= ?                 | true  | [c2]",
            "UPDATE t1 SET c1 = ?, c3 = c3 + 1 WHERE c2 = ? AND c3 = ?         | true  | [c2]",
            // a comparison with a literal, NULL or an expression
            "UPDATE t1 SET c1 = 'X' WHERE c2 = ? AND c3 = 'Y'                   | true  | [c2, c3]",
            "UPDATE t1 SET c1 = now() WHERE c2 = ? AND c3 IS NULL               | true  | [c2]",
            "DELETE FROM t1 WHERE c2 = :a AND c3 = 'DRAFT'                      | true  | [c2, c3]",
            // a bulk operation narrowed by a range, a composite key, a plain keyed write
            "DELETE FROM t1 WHERE c2 = ? AND c4 < ?                             | false | [c2]",
            "UPDATE t1 SET c1 = 'X' WHERE c2 = ? AND c4 < now() - interval '1 hour' | false | [c2]",
            "UPDATE t1 SET c1 = ? WHERE c2 = ? AND c4 = ?                       | false | [c2, c4]",
            "UPDATE t1 SET c1 = ? WHERE c2 = ?                                  | false | [c2]",
            // a filter alone is a bulk write, not a guard
            "DELETE FROM t1 WHERE c4 < now()                                    | false | []",
    })
    void guardedByShape(String sql, boolean conditional, String keys) {
        SqlFacts facts = SQL.ofText(sql, false).orElseThrow();
        assertThat(facts.conditional()).as(sql).isEqualTo(conditional);
        assertThat(facts.keyColumns().toString()).as(sql).isEqualTo(keys);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "UPDATE t1 SET c1 = c1 + ?, c5 = now() WHERE c2 = ? | true",
            "UPDATE t1 SET c1 = c1 + 1, c3 = c3 + 1 WHERE c2 = ? | true",
            "UPDATE t1 SET c5 = now() WHERE c2 = ?               | false",
            "UPDATE t1 SET c1 = c1 + ?, c5 = ? WHERE c2 = ?      | false",
    })
    void selfRelativeByShape(String sql, boolean selfRelative) {
        assertThat(SQL.ofText(sql, false).orElseThrow().selfRelative()).as(sql).isEqualTo(selfRelative);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "UPDATE t1 SET c1 = #{a} WHERE c2 = #{b}                                    | true",
            "UPDATE t1 SET c1 = :a, c3 = 'X' WHERE c2 = :b AND c4 IN (:c)               | true",
            "UPDATE t1 SET c1 = ?1 WHERE c2 = ?2                                        | true",
            "UPDATE t1 SET c1 = ?::jsonb, c3 = ? WHERE c2 = ?                           | true",
            // a parameter inside an expression of the SET: the model cannot say what it writes
            "UPDATE t1 SET c1 = CONCAT(#{r.a}, c3) WHERE c2 = #{r.b}                    | false",
            "UPDATE t1 SET c1 = CASE c2 WHEN #{i.b} THEN #{i.a} END WHERE c2 IN (#{i.b}) | false",
            "UPDATE t1 SET c1 = ? * 2 WHERE c2 = ?                                      | false",
    })
    void parametersPlacedByShape(String sql, boolean placed) {
        assertThat(SQL.ofText(sql, false).orElseThrow().parametersPlaced()).as(sql).isEqualTo(placed);
    }
}
