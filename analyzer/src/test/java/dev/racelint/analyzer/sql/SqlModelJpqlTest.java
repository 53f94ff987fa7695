package dev.racelint.analyzer.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.sql.SqlStatement.Aggregate;
import dev.racelint.analyzer.sql.SqlStatement.Kind;
import dev.racelint.analyzer.sql.SqlStatement.SetItem;
import dev.racelint.analyzer.sql.SqlStatement.SetKind;
import dev.racelint.analyzer.sql.SqlStatement.ValueKind;
import dev.racelint.analyzer.sql.SqlStatement.WhereColumn;
import org.junit.jupiter.api.Test;

/** JPQL / HQL: entity names as tables, alias paths as columns. */
class SqlModelJpqlTest {

    private final SqlModel model = new SqlModel();

    @Test
    void selectEntityByField() {
        SqlStatement s = model.parseJpql("SELECT x FROM Subscription x WHERE x.customerId = :customer");

        assertThat(s.jpql()).isTrue();
        assertThat(s.parsed()).isTrue();
        assertThat(s.kind()).isEqualTo(Kind.SELECT);
        assertThat(s.tables()).containsExactly("subscription");
        assertThat(s.selectedColumns()).containsExactly("*");
        assertThat(s.whereColumns()).containsExactly(
                new WhereColumn("customerid", "=", ValueKind.PARAMETER, -1, "customer"));
    }

    @Test
    void versionedUpdate() {
        SqlStatement s = model.parseJpql("UPDATE Account e SET e.balance = e.balance - :n, e.version = e.version + 1 "
                + "WHERE e.id = :id AND e.version = :v");

        assertThat(s.kind()).isEqualTo(Kind.UPDATE);
        assertThat(s.targetTable()).isEqualTo("account");
        assertThat(s.setItems()).containsExactly(
                new SetItem("balance", SetKind.SELF_RELATIVE, -1, null),
                new SetItem("version", SetKind.SELF_RELATIVE, -1, null));
        assertThat(s.whereColumns()).containsExactly(
                new WhereColumn("id", "=", ValueKind.PARAMETER, -1, "id"),
                new WhereColumn("version", "=", ValueKind.PARAMETER, -1, "v"));
        assertThat(s.parameterCount()).isEqualTo(3);
    }

    @Test
    void absoluteUpdateByPositionalParameter() {
        SqlStatement s = model.parseJpql("update Account a set a.balance = ?1 where a.id = ?2");

        assertThat(s.setItems()).containsExactly(new SetItem("balance", SetKind.ABSOLUTE_PARAMETER, 0, null));
        assertThat(s.whereColumns()).containsExactly(new WhereColumn("id", "=", ValueKind.PARAMETER, 1, null));
    }

    @Test
    void deleteWithAndWithoutFrom() {
        SqlStatement s = model.parseJpql("DELETE FROM Session s WHERE s.expiresAt < :now");
        assertThat(s.kind()).isEqualTo(Kind.DELETE);
        assertThat(s.targetTable()).isEqualTo("session");
        assertThat(s.whereColumns()).containsExactly(new WhereColumn("expiresat", "<", ValueKind.PARAMETER, -1, "now"));

        SqlStatement hql = model.parseJpql("delete Session s where s.user.id = :user");
        assertThat(hql.kind()).isEqualTo(Kind.DELETE);
        assertThat(hql.targetTable()).isEqualTo("session");
        assertThat(hql.whereColumnNames()).containsExactly("user.id");
    }

    @Test
    void countAndExistsQueries() {
        SqlStatement count = model.parseJpql("SELECT COUNT(i) FROM Invite i WHERE i.org.id = :org");
        assertThat(count.aggregate()).isEqualTo(Aggregate.COUNT);
        assertThat(count.whereColumnNames()).containsExactly("org.id");

        SqlStatement exists = model.parseJpql(
                "SELECT CASE WHEN COUNT(u) > 0 THEN true ELSE false END FROM User u WHERE u.email = :email");
        assertThat(exists.aggregate()).isEqualTo(Aggregate.EXISTS);
        assertThat(exists.tables()).containsExactly("user");
    }

    @Test
    void joinFetchAndBareInParameter() {
        SqlStatement s = model.parseJpql("select o from Order o join fetch o.lines l where o.id in :ids and l.qty > 0");

        assertThat(s.parsed()).isTrue();
        assertThat(s.tables()).containsExactly("order");
        assertThat(s.whereColumns()).containsExactly(
                new WhereColumn("id", "IN", ValueKind.PARAMETER, -1, "ids"),
                new WhereColumn("qty", ">", ValueKind.LITERAL, -1, null));
    }

    @Test
    void hqlWithoutSelectAndEnumConstants() {
        SqlStatement s = model.parseJpql("from Order o where o.status = com.acme.Status.OPEN and o.owner = :owner");

        assertThat(s.kind()).isEqualTo(Kind.SELECT);
        assertThat(s.tables()).containsExactly("order");
        assertThat(s.whereColumns()).containsExactly(
                new WhereColumn("status", "=", ValueKind.LITERAL, -1, null),
                new WhereColumn("owner", "=", ValueKind.PARAMETER, -1, "owner"));
    }

    @Test
    void constructorExpression() {
        SqlStatement s = model.parseJpql("select new com.acme.OrderView(o.id, o.total) from Order o where o.id = ?1");

        assertThat(s.parsed()).isTrue();
        assertThat(s.selectedColumns()).containsExactly("id", "total");
    }

    @Test
    void unknownJpqlFallsBackToTokens() {
        SqlStatement s = model.parseJpql("select o from Order o where o.lines is empty and o.customer.id = :c");

        assertThat(s.parsed()).isFalse();
        assertThat(s.kind()).isEqualTo(Kind.SELECT);
        assertThat(s.tables()).containsExactly("order");
        assertThat(s.whereColumns()).contains(new WhereColumn("customer.id", "=", ValueKind.PARAMETER, -1, "c"));
        assertThat(s.selectedColumns()).containsExactly("*");
    }
}
