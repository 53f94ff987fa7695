package dev.racelint.analyzer.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.sql.SqlStatement.Aggregate;
import dev.racelint.analyzer.sql.SqlStatement.Kind;
import dev.racelint.analyzer.sql.SqlStatement.Lock;
import dev.racelint.analyzer.sql.SqlStatement.SetItem;
import dev.racelint.analyzer.sql.SqlStatement.SetKind;
import dev.racelint.analyzer.sql.SqlStatement.ValueKind;
import dev.racelint.analyzer.sql.SqlStatement.WhereColumn;
import org.junit.jupiter.api.Test;

/** SQL statements JSqlParser reads: what the rules need from each. */
class SqlModelTest {

    private final SqlModel model = new SqlModel();

    @Test
    void selfRelativeUpdateWithConditionalWhere() {
        SqlStatement s = model.parse("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?");

        assertThat(s.parsed()).isTrue();
        assertThat(s.kind()).isEqualTo(Kind.UPDATE);
        assertThat(s.isWrite()).isTrue();
        assertThat(s.targetTable()).isEqualTo("accounts");
        assertThat(s.tables()).containsExactly("accounts");
        assertThat(s.setItems()).containsExactly(new SetItem("balance", SetKind.SELF_RELATIVE, -1, null));
        assertThat(s.whereColumnNames()).containsExactly("id", "balance");
        assertThat(s.whereColumns()).containsExactly(
                new WhereColumn("id", "=", ValueKind.PARAMETER, 1, null),
                new WhereColumn("balance", ">=", ValueKind.PARAMETER, 2, null));
        assertThat(s.where()).isTrue();
        assertThat(s.parameterCount()).isEqualTo(3);
    }

    @Test
    void setKindsAndParameterPositions() {
        SqlStatement s = model.parse("UPDATE orders o SET status = 'PAID', total = ?, note = :note, "
                + "version = version + 1, paid_at = now(), o.count = o.count * 2 WHERE o.id = ? AND version = ?");

        assertThat(s.setItems()).containsExactly(
                new SetItem("status", SetKind.ABSOLUTE_LITERAL, -1, null),
                new SetItem("total", SetKind.ABSOLUTE_PARAMETER, 0, null),
                new SetItem("note", SetKind.ABSOLUTE_PARAMETER, -1, "note"),
                new SetItem("version", SetKind.SELF_RELATIVE, -1, null),
                new SetItem("paid_at", SetKind.OTHER_EXPRESSION, -1, null),
                new SetItem("count", SetKind.SELF_RELATIVE, -1, null));
        // positions count every parameter in text order, named ones included
        assertThat(s.whereColumns()).extracting(WhereColumn::parameterIndex).containsExactly(2, 3);
        assertThat(s.parameters()).extracting(SqlStatement.Parameter::name).containsExactly(null, "note", null, null);
        assertThat(s.setItem("VERSION")).map(SetItem::kind).contains(SetKind.SELF_RELATIVE);
    }

    @Test
    void selfRelativeThroughFunctionsButNotNullFallbacks() {
        SqlStatement s = model.parse("UPDATE t SET x = COALESCE(?, x), y = GREATEST(y - ?, 0), "
                + "tags = array_append(tags, ?), z = COALESCE(z, 0) + 1, w = other WHERE id = ?");

        assertThat(s.setItems()).extracting(SetItem::column, SetItem::kind).containsExactly(
                org.assertj.core.groups.Tuple.tuple("x", SetKind.OTHER_EXPRESSION),
                org.assertj.core.groups.Tuple.tuple("y", SetKind.SELF_RELATIVE),
                org.assertj.core.groups.Tuple.tuple("tags", SetKind.SELF_RELATIVE),
                org.assertj.core.groups.Tuple.tuple("z", SetKind.SELF_RELATIVE),
                org.assertj.core.groups.Tuple.tuple("w", SetKind.OTHER_EXPRESSION));
    }

    @Test
    void absoluteUpdateWithCastParameter() {
        SqlStatement s = model.parse("UPDATE wallets SET balance = ?::numeric WHERE id = ?");

        assertThat(s.setItems()).containsExactly(new SetItem("balance", SetKind.ABSOLUTE_PARAMETER, 0, null));
        assertThat(s.whereColumns()).containsExactly(new WhereColumn("id", "=", ValueKind.PARAMETER, 1, null));
    }

    @Test
    void insertOnConflictDoNothingIsAnUpsert() {
        SqlStatement s = model.parse("INSERT INTO invites (org_id, email) VALUES (?, ?) ON CONFLICT (org_id, email) DO NOTHING");

        assertThat(s.kind()).isEqualTo(Kind.INSERT);
        assertThat(s.upsert()).isTrue();
        assertThat(s.conflictDoNothing()).isTrue();
        assertThat(s.targetTable()).isEqualTo("invites");
        assertThat(s.parameterCount()).isEqualTo(2);
    }

    @Test
    void onConflictDoUpdateMapsExcludedToTheInsertedParameter() {
        SqlStatement s = model.parse("INSERT INTO counters (k, v, n) VALUES (?, ?, 1) ON CONFLICT (k) "
                + "DO UPDATE SET v = EXCLUDED.v, n = counters.n + EXCLUDED.n RETURNING id");

        assertThat(s.upsert()).isTrue();
        assertThat(s.conflictDoNothing()).isFalse();
        assertThat(s.returning()).isTrue();
        assertThat(s.setItems()).containsExactly(
                new SetItem("v", SetKind.ABSOLUTE_PARAMETER, 1, null),
                new SetItem("n", SetKind.SELF_RELATIVE, -1, null));
    }

    @Test
    void mysqlUpsertsAndIgnore() {
        SqlStatement dup = model.parse("INSERT INTO stock (sku, qty) VALUES (?, ?) ON DUPLICATE KEY UPDATE qty = qty + VALUES(qty)");
        assertThat(dup.upsert()).isTrue();
        assertThat(dup.setItems()).containsExactly(new SetItem("qty", SetKind.SELF_RELATIVE, -1, null));

        SqlStatement ignore = model.parse("INSERT IGNORE INTO t (a) VALUES (?)");
        assertThat(ignore.upsert()).isTrue();
        assertThat(ignore.conflictDoNothing()).isTrue();

        SqlStatement replace = model.parse("REPLACE INTO t (a) VALUES (?)");
        assertThat(replace.kind()).isEqualTo(Kind.INSERT);
        assertThat(replace.upsert()).isTrue();

        SqlStatement plain = model.parse("INSERT INTO t (a) VALUES (?)");
        assertThat(plain.upsert()).isFalse();
    }

    @Test
    void conditionalInsertIsAnUpsert() {
        SqlStatement s = model.parse("INSERT INTO seats (event_id, user_id) SELECT ?, ? "
                + "WHERE NOT EXISTS (SELECT 1 FROM seats WHERE event_id = ? AND user_id = ?)");

        assertThat(s.upsert()).isTrue();
        assertThat(s.conditionalInsert()).isTrue();
        assertThat(s.tables()).containsExactly("seats");
    }

    @Test
    void mergeIsAnUpsertWithItsUpdateSet() {
        SqlStatement s = model.parse("MERGE INTO stock t USING incoming s ON (t.sku = s.sku) "
                + "WHEN MATCHED THEN UPDATE SET t.qty = t.qty + s.qty, t.name = s.name "
                + "WHEN NOT MATCHED THEN INSERT (sku, qty) VALUES (s.sku, s.qty)");

        assertThat(s.kind()).isEqualTo(Kind.MERGE);
        assertThat(s.upsert()).isTrue();
        assertThat(s.tables()).containsExactly("stock", "incoming");
        assertThat(s.setItems()).containsExactly(
                new SetItem("qty", SetKind.SELF_RELATIVE, -1, null),
                new SetItem("name", SetKind.OTHER_EXPRESSION, -1, null));
    }

    @Test
    void forUpdateSkipLocked() {
        SqlStatement s = model.parse("SELECT id, payload FROM jobs WHERE state = 'NEW' ORDER BY id LIMIT 10 FOR UPDATE SKIP LOCKED");

        assertThat(s.kind()).isEqualTo(Kind.SELECT);
        assertThat(s.lock()).isEqualTo(Lock.FOR_UPDATE);
        assertThat(s.isLocking()).isTrue();
        assertThat(s.skipLocked()).isTrue();
        assertThat(s.nowait()).isFalse();
        assertThat(s.orderBy()).isTrue();
        assertThat(s.limit()).isTrue();
        assertThat(s.selectedColumns()).containsExactly("id", "payload");
        assertThat(s.whereColumns()).containsExactly(new WhereColumn("state", "=", ValueKind.LITERAL, -1, null));
    }

    @Test
    void multiRowLockWithAnyAndOrderBy() {
        SqlStatement s = model.parse("SELECT id FROM accounts WHERE id = ANY(?) ORDER BY id FOR UPDATE");

        assertThat(s.lock()).isEqualTo(Lock.FOR_UPDATE);
        assertThat(s.orderBy()).isTrue();
        assertThat(s.whereColumns()).containsExactly(new WhereColumn("id", "ANY", ValueKind.PARAMETER, 0, null));
        assertThat(s.targetTable()).isEqualTo("accounts");
    }

    @Test
    void otherLockModes() {
        assertThat(model.parse("SELECT * FROM t WHERE id = ? FOR NO KEY UPDATE NOWAIT"))
                .satisfies(s -> assertThat(s.lock()).isEqualTo(Lock.FOR_NO_KEY_UPDATE))
                .satisfies(s -> assertThat(s.nowait()).isTrue());
        assertThat(model.parse("SELECT * FROM t WHERE id = ? FOR SHARE").lock()).isEqualTo(Lock.FOR_SHARE);
        assertThat(model.parse("SELECT * FROM t WHERE id = ? FOR KEY SHARE").lock()).isEqualTo(Lock.FOR_KEY_SHARE);
        SqlStatement mysql = model.parse("SELECT * FROM t WHERE id = ? LOCK IN SHARE MODE");
        assertThat(mysql.lock()).isEqualTo(Lock.FOR_SHARE);
        assertThat(mysql.parsed()).isTrue();
        assertThat(model.parse("SELECT * FROM t WHERE id = ?").lock()).isEqualTo(Lock.NONE);
    }

    @Test
    void whereOperatorsAndValueKinds() {
        SqlStatement s = model.parse("SELECT a FROM t x WHERE x.e IN (?, ?) AND f = :f AND (g LIKE ? OR h IS NULL) "
                + "AND i IS NOT NULL AND j BETWEEN ? AND ? AND k <> 'x' AND l != 3 AND ? < m AND n = x.o "
                + "AND p IN (SELECT q FROM u) AND lower(r) = ? AND s = now() AND NOT (t1 = ?) AND u1 NOT IN (1, 2)");

        assertThat(s.whereColumns()).extracting(WhereColumn::column, WhereColumn::operator, WhereColumn::valueKind)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("e", "IN", ValueKind.PARAMETER),
                        org.assertj.core.groups.Tuple.tuple("f", "=", ValueKind.PARAMETER),
                        org.assertj.core.groups.Tuple.tuple("g", "LIKE", ValueKind.PARAMETER),
                        org.assertj.core.groups.Tuple.tuple("h", "IS NULL", ValueKind.LITERAL),
                        org.assertj.core.groups.Tuple.tuple("i", "IS NOT NULL", ValueKind.LITERAL),
                        org.assertj.core.groups.Tuple.tuple("j", "BETWEEN", ValueKind.PARAMETER),
                        org.assertj.core.groups.Tuple.tuple("k", "<>", ValueKind.LITERAL),
                        org.assertj.core.groups.Tuple.tuple("l", "<>", ValueKind.LITERAL),
                        org.assertj.core.groups.Tuple.tuple("m", ">", ValueKind.PARAMETER),
                        org.assertj.core.groups.Tuple.tuple("n", "=", ValueKind.COLUMN),
                        org.assertj.core.groups.Tuple.tuple("p", "IN", ValueKind.SUBQUERY),
                        org.assertj.core.groups.Tuple.tuple("r", "=", ValueKind.PARAMETER),
                        org.assertj.core.groups.Tuple.tuple("s", "=", ValueKind.EXPRESSION),
                        org.assertj.core.groups.Tuple.tuple("t1", "=", ValueKind.PARAMETER),
                        org.assertj.core.groups.Tuple.tuple("u1", "NOT IN", ValueKind.LITERAL));
        assertThat(s.whereColumns().get(1).parameterName()).isEqualTo("f");
        assertThat(s.whereColumns().get(8).parameterIndex()).isEqualTo(6);
        // subquery tables are listed after the FROM tables
        assertThat(s.tables()).containsExactly("t", "u");
    }

    @Test
    void inFollowedByAndIsReadAsTwoConditions() {
        // JSqlParser 5.3 nests "a IN (..) AND b = ?" as "a IN ((..) AND b = ?)": the model repairs it
        SqlStatement s = model.parse("DELETE FROM carts WHERE status IN ('OPEN', 'STALE') AND user_id = ?");

        assertThat(s.whereColumns()).containsExactly(
                new WhereColumn("status", "IN", ValueKind.LITERAL, -1, null),
                new WhereColumn("user_id", "=", ValueKind.PARAMETER, 0, null));
    }

    @Test
    void aggregatesAndExistenceChecks() {
        assertThat(model.parse("SELECT count(*) FROM invites WHERE org_id = ?").aggregate()).isEqualTo(Aggregate.COUNT);
        assertThat(model.parse("SELECT COALESCE(SUM(amount), 0) FROM payments WHERE account_id = ?").aggregate())
                .isEqualTo(Aggregate.SUM);
        assertThat(model.parse("SELECT max(seq) FROM events").aggregate()).isEqualTo(Aggregate.OTHER_AGGREGATE);
        assertThat(model.parse("SELECT EXISTS(SELECT 1 FROM users WHERE email = ?)").aggregate())
                .isEqualTo(Aggregate.EXISTS);
        assertThat(model.parse("SELECT 1 FROM users WHERE email = ? LIMIT 1").aggregate()).isEqualTo(Aggregate.EXISTS);
        assertThat(model.parse("SELECT count(*) > 0 FROM users WHERE email = ?").aggregate()).isEqualTo(Aggregate.EXISTS);
        assertThat(model.parse("SELECT id, email FROM users WHERE email = ?").aggregate()).isEqualTo(Aggregate.NONE);
    }

    @Test
    void existsCheckListsTheTablesOfItsSubquery() {
        SqlStatement s = model.parse("SELECT EXISTS(SELECT 1 FROM users WHERE email = ?)");

        assertThat(s.tables()).containsExactly("users");
        assertThat(s.targetTable()).isEqualTo("users");
    }

    @Test
    void advisoryLocks() {
        assertThat(model.parse("SELECT pg_advisory_xact_lock(?)").advisoryLock()).isEqualTo("pg_advisory_xact_lock");
        assertThat(model.parse("SELECT pg_try_advisory_lock(hashtext(?))").advisoryLock())
                .isEqualTo("pg_try_advisory_lock");
        assertThat(model.parse("SELECT GET_LOCK('job', 10)").advisoryLock()).isEqualTo("get_lock");
        assertThat(model.parse("SELECT pg_advisory_lock(42)").hasAdvisoryLock()).isTrue();
        assertThat(model.parse("SELECT * FROM locks").hasAdvisoryLock()).isFalse();
    }

    @Test
    void tablesWithSchemasQuotesJoinsAndCtes() {
        SqlStatement s = model.parse("WITH recent AS (SELECT order_id FROM shop.\"OrderLines\" WHERE qty > 0) "
                + "SELECT o.id, c.name FROM \"Public\".\"Orders\" o JOIN customers c ON c.id = o.customer_id "
                + "JOIN recent r ON r.order_id = o.id WHERE o.id = ?");

        assertThat(s.tables()).containsExactly("orders", "customers", "orderlines");
        assertThat(s.targetTable()).isEqualTo("orders");
        assertThat(s.selectedColumns()).containsExactly("id", "name");
        assertThat(s.whereColumns()).containsExactly(new WhereColumn("id", "=", ValueKind.PARAMETER, 0, null));
    }

    @Test
    void deleteAndUpdateListTargetFirst() {
        SqlStatement del = model.parse("DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE banned)");
        assertThat(del.kind()).isEqualTo(Kind.DELETE);
        assertThat(del.tables()).containsExactly("sessions", "users");
        assertThat(del.targetTable()).isEqualTo("sessions");

        SqlStatement upd = model.parse("UPDATE items SET price = p.price FROM prices p WHERE items.sku = p.sku RETURNING items.id");
        assertThat(upd.tables()).containsExactly("items", "prices");
        assertThat(upd.returning()).isTrue();
        assertThat(upd.setItems()).containsExactly(new SetItem("price", SetKind.OTHER_EXPRESSION, -1, null));
    }

    @Test
    void placeholdersOfAllStyles() {
        SqlStatement jpa = model.parse("SELECT * FROM t WHERE a = ?1 AND b = ?2");
        assertThat(jpa.parsed()).isTrue();
        assertThat(jpa.whereColumns()).extracting(WhereColumn::parameterIndex).containsExactly(0, 1);

        SqlStatement pg = model.parse("UPDATE t SET a = $2 WHERE id = $1");
        assertThat(pg.setItems()).containsExactly(new SetItem("a", SetKind.ABSOLUTE_PARAMETER, 1, null));
        assertThat(pg.whereColumns().get(0).parameterIndex()).isZero();

        SqlStatement named = model.parse("UPDATE t SET a = :value WHERE id = :id AND created::date = CURRENT_DATE");
        assertThat(named.parsed()).isTrue();
        assertThat(named.parameterCount()).isEqualTo(2);
        assertThat(named.whereColumns()).extracting(WhereColumn::column).containsExactly("id", "created");

        SqlStatement literal = model.parse("SELECT * FROM t WHERE note = 'a ? b :c' AND id = ?");
        assertThat(literal.parameterCount()).isEqualTo(1);
        assertThat(literal.whereColumns().get(1).parameterIndex()).isZero();

        SqlStatement dollarQuoted = model.parse("SELECT $$ ? $$ AS q, \"?\" FROM t WHERE id = ? -- or ?");
        assertThat(dollarQuoted.parameterCount()).isEqualTo(1);
    }

    @Test
    void jdbiTemplates() {
        SqlStatement s = model.parse("SELECT * FROM <table> WHERE id IN (<ids>) AND owner = :owner");

        assertThat(s.parsed()).isTrue();
        assertThat(s.tables()).containsExactly("<table>");
        assertThat(s.whereColumns()).containsExactly(
                new WhereColumn("id", "IN", ValueKind.PARAMETER, -1, "ids"),
                new WhereColumn("owner", "=", ValueKind.PARAMETER, -1, "owner"));
    }

    @Test
    void commentsAndTrailingSemicolonAreIgnored() {
        SqlStatement s = model.parse("-- take the row\nSELECT balance /* current */ FROM accounts WHERE id = ? FOR UPDATE;");

        assertThat(s.parsed()).isTrue();
        assertThat(s.lock()).isEqualTo(Lock.FOR_UPDATE);
        assertThat(s.selectedColumns()).containsExactly("balance");
    }

    @Test
    void unionTakesTheFirstSelectList() {
        SqlStatement s = model.parse("SELECT id FROM a WHERE x = ? UNION SELECT id FROM b ORDER BY id");

        assertThat(s.kind()).isEqualTo(Kind.SELECT);
        assertThat(s.tables()).containsExactly("a", "b");
        assertThat(s.orderBy()).isTrue();
        assertThat(s.selectedColumns()).containsExactly("id");
    }

    @Test
    void otherStatementsAndBlankText() {
        assertThat(model.parse("TRUNCATE TABLE audit").kind()).isEqualTo(Kind.OTHER);
        assertThat(model.parse("").kind()).isEqualTo(Kind.OTHER);
        assertThat(model.parse(null).kind()).isEqualTo(Kind.OTHER);
        assertThat(model.parse("   ").parsed()).isFalse();
    }

    @Test
    void resultsAreCachedPerText() {
        SqlStatement first = model.parse("SELECT * FROM t WHERE id = ?");
        SqlStatement second = model.parse("SELECT * FROM t WHERE id = ?");

        assertThat(second).isSameAs(first);
        assertThat(model.stats().parsed()).isEqualTo(1);
        assertThat(model.parseJpql("SELECT * FROM t WHERE id = ?")).isNotSameAs(first);
    }
}
