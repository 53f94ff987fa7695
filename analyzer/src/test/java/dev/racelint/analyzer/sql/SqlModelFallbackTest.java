package dev.racelint.analyzer.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.sql.SqlStatement.Aggregate;
import dev.racelint.analyzer.sql.SqlStatement.Kind;
import dev.racelint.analyzer.sql.SqlStatement.Lock;
import dev.racelint.analyzer.sql.SqlStatement.SetItem;
import dev.racelint.analyzer.sql.SqlStatement.SetKind;
import dev.racelint.analyzer.sql.SqlStatement.ValueKind;
import dev.racelint.analyzer.sql.SqlStatement.WhereColumn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The token fallback, the time budget and the statistics. */
class SqlModelFallbackTest {

    private final SqlModel model = new SqlModel();

    /** Vendor syntax JSqlParser 5.3 rejects: the table hint. */
    private static final String HINTED = "SELECT id, qty FROM stock WITH (UPDLOCK) WHERE sku = ? AND qty >= ?";

    @Test
    void unparseableSqlFallsBackAndIsCounted() {
        SqlStatement s = model.parse(HINTED);

        assertThat(s.parsed()).isFalse();
        assertThat(s.kind()).isEqualTo(Kind.SELECT);
        assertThat(s.targetTable()).isEqualTo("stock");
        assertThat(s.lock()).isEqualTo(Lock.FOR_UPDATE);
        assertThat(s.whereColumns()).containsExactly(
                new WhereColumn("sku", "=", ValueKind.PARAMETER, 0, null),
                new WhereColumn("qty", ">=", ValueKind.PARAMETER, 1, null));
        assertThat(s.selectedColumns()).containsExactly("id", "qty");

        model.parse(HINTED);
        model.parse("SELECT 1");
        SqlModel.Stats stats = model.stats();
        assertThat(stats.fallback()).isEqualTo(1);
        assertThat(stats.parsed()).isEqualTo(1);
        assertThat(stats.fallbackExamples()).containsExactly(HINTED);
    }

    @Test
    void fallbackUpdateFindsSetItemsAndWhereColumns() {
        SqlStatement s = model.parse("UPDATE LOW_PRIORITY accounts SET balance = balance - ?, note = ?, "
                + "state = 'X' WHERE id = ? AND balance >= ? AND version = ? OPTION (MAXDOP 1)");

        assertThat(s.parsed()).isFalse();
        assertThat(s.kind()).isEqualTo(Kind.UPDATE);
        assertThat(s.targetTable()).isEqualTo("accounts");
        assertThat(s.setItems()).containsExactly(
                new SetItem("balance", SetKind.SELF_RELATIVE, -1, null),
                new SetItem("note", SetKind.ABSOLUTE_PARAMETER, 1, null),
                new SetItem("state", SetKind.ABSOLUTE_LITERAL, -1, null));
        assertThat(s.whereColumnNames()).containsExactly("id", "balance", "version");
        assertThat(s.whereColumns().get(0).parameterIndex()).isEqualTo(2);
    }

    @Test
    void fallbackUpsertsAndLocks() {
        SqlStatement conflict = model.parse("INSERT INTO t (k) VALUES (?) ON CONFLICT (k) WHERE deleted_at IS NULL "
                + "DO NOTHING RETURNING id, xmin::text::bigint AS v, CASE WHEN x THEN 1 END %%%");
        assertThat(conflict.parsed()).isFalse();
        assertThat(conflict.upsert()).isTrue();
        assertThat(conflict.conflictDoNothing()).isTrue();
        assertThat(conflict.returning()).isTrue();

        SqlStatement dup = model.parse("INSERT INTO t (k, m, n) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE "
                + "m = VALUES(m), k = m + VALUES(k), n = n + 1 %%%");
        assertThat(dup.parsed()).isFalse();
        assertThat(dup.upsert()).isTrue();
        assertThat(dup.setItems()).containsExactly(
                new SetItem("m", SetKind.ABSOLUTE_PARAMETER, -1, null),
                new SetItem("k", SetKind.OTHER_EXPRESSION, -1, null),
                new SetItem("n", SetKind.SELF_RELATIVE, -1, null));

        SqlStatement skip = model.parse("SELECT * FROM jobs WHERE state = ? ORDER BY id FETCH FIRST 5 ROWS ONLY "
                + "FOR UPDATE SKIP LOCKED %%%");
        assertThat(skip.parsed()).isFalse();
        assertThat(skip.lock()).isEqualTo(Lock.FOR_UPDATE);
        assertThat(skip.skipLocked()).isTrue();
        assertThat(skip.orderBy()).isTrue();
        assertThat(skip.limit()).isTrue();

        SqlStatement share = model.parse("SELECT * FROM t WHERE id = ? FOR SHARE NOWAIT %%%");
        assertThat(share.lock()).isEqualTo(Lock.FOR_SHARE);
        assertThat(share.nowait()).isTrue();

        SqlStatement ignore = model.parse("INSERT OR IGNORE INTO t (a) VALUES (?)");
        assertThat(ignore.parsed()).isFalse();
        assertThat(ignore.upsert()).isTrue();
        assertThat(ignore.conflictDoNothing()).isTrue();
    }

    @Test
    void fallbackAggregatesAndExistence() {
        assertThat(model.parse("SELECT COUNT(*) FROM t WHERE a = ? %%%").aggregate()).isEqualTo(Aggregate.COUNT);
        assertThat(model.parse("SELECT SUM(x) FROM t WHERE a = ? %%%").aggregate()).isEqualTo(Aggregate.SUM);
        assertThat(model.parse("SELECT EXISTS(SELECT 1 FROM t WHERE a = ?) %%%").aggregate())
                .isEqualTo(Aggregate.EXISTS);
        SqlStatement anyLock = model.parse("SELECT id FROM accounts WHERE id = ANY(?) FOR UPDATE %%%");
        assertThat(anyLock.whereColumns()).containsExactly(new WhereColumn("id", "ANY", ValueKind.PARAMETER, 0, null));
        assertThat(anyLock.orderBy()).isFalse();
    }

    @Test
    void fallbackSkipsSubqueriesAndFunctionsInWhere() {
        SqlStatement s = model.parse("DELETE FROM carts WHERE (user_id = ? OR anon = ?) "
                + "AND id NOT IN (SELECT cart_id FROM orders WHERE paid = true) AND EXTRACT(YEAR FROM created) < ? %%%");

        assertThat(s.parsed()).isFalse();
        assertThat(s.kind()).isEqualTo(Kind.DELETE);
        assertThat(s.tables()).containsExactly("carts", "orders");
        assertThat(s.whereColumns()).extracting(WhereColumn::column, WhereColumn::operator, WhereColumn::valueKind)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("user_id", "=", ValueKind.PARAMETER),
                        org.assertj.core.groups.Tuple.tuple("anon", "=", ValueKind.PARAMETER),
                        org.assertj.core.groups.Tuple.tuple("id", "NOT IN", ValueKind.SUBQUERY));
    }

    @Test
    void pathologicalInputReturnsWithinTheBudget() {
        String nested = "SELECT " + "(".repeat(60) + "1 + " + ")".repeat(60) + " FROM t WHERE id = ? FOR UPDATE";
        long start = System.nanoTime();

        SqlStatement s = model.parse(nested);

        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took).isLessThan(Duration.ofSeconds(5));
        assertThat(s.parsed()).isFalse();
        assertThat(s.kind()).isEqualTo(Kind.SELECT);
        assertThat(s.lock()).isEqualTo(Lock.FOR_UPDATE);
        assertThat(model.stats().fallback()).isEqualTo(1);
    }

    @Test
    void veryLongTextSkipsTheParser() {
        StringBuilder sql = new StringBuilder("SELECT id FROM t WHERE id IN (");
        for (int i = 0; i < 20_000; i++) {
            sql.append(i == 0 ? "" : ", ").append(i);
        }
        sql.append(") FOR UPDATE");
        long start = System.nanoTime();

        SqlStatement s = model.parse(sql.toString());

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(s.parsed()).isFalse();
        assertThat(s.whereColumns()).containsExactly(new WhereColumn("id", "IN", ValueKind.LITERAL, -1, null));
        assertThat(s.lock()).isEqualTo(Lock.FOR_UPDATE);
        assertThat(model.stats().fallbackExamples().get(0)).hasSizeLessThanOrEqualTo(503);
    }

    @Test
    void garbageNeverThrows() {
        for (String text : List.of("((((", "'unterminated", "\"", "SELECT", "UPDATE", "INSERT INTO", "WITH x AS (",
                "#{", "${", "<", "?", ":", "$$", "/* open", "-- only a comment", ")))) WHERE = = ?")) {
            SqlStatement s = model.parse(text);
            assertThat(s).isNotNull();
            assertThat(model.parseJpql(text)).isNotNull();
        }
    }

    @Test
    void concurrentCallersShareOneResult() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<SqlStatement>> futures = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                int n = i % 4;
                futures.add(pool.submit(() -> model.parse("SELECT * FROM t" + n + " WHERE id = ?")));
            }
            for (Future<SqlStatement> f : futures) {
                assertThat(f.get().parsed()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(model.stats().parsed()).isEqualTo(4);
        assertThat(model.parse("SELECT * FROM t1 WHERE id = ?")).isSameAs(model.parse("SELECT * FROM t1 WHERE id = ?"));
    }
}
