package dev.racelint.analyzer.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.sql.SqlStatement.Kind;
import dev.racelint.analyzer.sql.SqlStatement.SetItem;
import dev.racelint.analyzer.sql.SqlStatement.SetKind;
import dev.racelint.analyzer.sql.SqlStatement.ValueKind;
import dev.racelint.analyzer.sql.SqlStatement.WhereColumn;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** MyBatis placeholders and dynamic SQL. */
class MyBatisSqlTest {

    private final SqlModel model = new SqlModel();

    private static String squash(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    @Test
    void hashPlaceholdersBecomeNamedParameters() {
        SqlStatement s = model.parse("UPDATE account SET balance = #{balance,jdbcType=NUMERIC} "
                + "WHERE id = #{id} AND version = #{ account.version }");

        assertThat(s.parsed()).isTrue();
        assertThat(s.setItems()).containsExactly(new SetItem("balance", SetKind.ABSOLUTE_PARAMETER, -1, "balance"));
        assertThat(s.whereColumns()).containsExactly(
                new WhereColumn("id", "=", ValueKind.PARAMETER, -1, "id"),
                new WhereColumn("version", "=", ValueKind.PARAMETER, -1, "account.version"));
        assertThat(s.parameters()).extracting(SqlStatement.Parameter::name)
                .containsExactly("balance", "id", "account.version");
    }

    @Test
    void dollarInterpolationParsesAsAnIdentifier() {
        SqlStatement s = model.parse("SELECT * FROM ${table} WHERE state = ${state} AND id = #{id} ORDER BY ${sort}");

        assertThat(s.parsed()).isTrue();
        assertThat(s.tables()).containsExactly("${table}");
        assertThat(s.whereColumns()).containsExactly(
                new WhereColumn("state", "=", ValueKind.LITERAL, -1, null),
                new WhereColumn("id", "=", ValueKind.PARAMETER, -1, "id"));
        assertThat(s.orderBy()).isTrue();
        assertThat(s.parameterCount()).isEqualTo(1);
    }

    @Test
    void whereTagDropsTheLeadingAnd() {
        String body = """
                SELECT id, name FROM users
                <where>
                  <if test="name != null">AND name = #{name}</if>
                  <if test="email != null">AND email = #{email}</if>
                </where>
                """;

        assertThat(squash(SqlModel.stripMyBatisTags(body)))
                .isEqualTo("SELECT id, name FROM users WHERE name = #{name} AND email = #{email}");
    }

    @Test
    void setTagDropsTheTrailingComma() {
        String body = """
                UPDATE account
                <set>
                  <if test="balance != null">balance = #{balance},</if>
                  <if test="note != null">note = #{note},</if>
                </set>
                WHERE id = #{id} AND version = #{version}
                """;

        String flat = SqlModel.stripMyBatisTags(body);
        assertThat(squash(flat))
                .isEqualTo("UPDATE account SET balance = #{balance}, note = #{note} WHERE id = #{id} AND version = #{version}");
        SqlStatement s = model.parse(body);
        assertThat(s.parsed()).isTrue();
        assertThat(s.kind()).isEqualTo(Kind.UPDATE);
        assertThat(s.setItems()).extracting(SetItem::column).containsExactly("balance", "note");
        assertThat(s.whereColumnNames()).containsExactly("id", "version");
    }

    @Test
    void foreachTrimChooseIncludeBindAndEntities() {
        String body = """
                <bind name="pattern" value="'%' + name + '%'"/>
                SELECT <include refid="columns"/> FROM orders
                <trim prefix="WHERE" prefixOverrides="AND |OR ">
                  OR status IN
                  <foreach collection="states" item="s" open="(" separator="," close=")">#{s}</foreach>
                  <choose>
                    <when test="min != null">AND total &gt;= #{min}</when>
                    <otherwise>AND total &gt; 0</otherwise>
                  </choose>
                  <![CDATA[ AND created < #{before} ]]>
                </trim>
                <!-- trailing comment -->
                """;

        String flat = SqlModel.stripMyBatisTags(body, Map.of("columns", "id, total"));
        assertThat(squash(flat)).isEqualTo(
                "SELECT id, total FROM orders WHERE status IN (#{s}) AND total >= #{min} AND created < #{before}");
        assertThat(squash(SqlModel.stripMyBatisTags(body))).startsWith("SELECT FROM orders WHERE status IN");
    }

    @Test
    void scriptAnnotationIsFlattenedByParse() {
        SqlStatement s = model.parse("<script>SELECT count(*) FROM invites <where>"
                + "<if test='org != null'>AND org_id = #{org}</if></where></script>");

        assertThat(s.parsed()).isTrue();
        assertThat(s.aggregate()).isEqualTo(SqlStatement.Aggregate.COUNT);
        assertThat(s.whereColumns()).containsExactly(new WhereColumn("org_id", "=", ValueKind.PARAMETER, -1, "org"));
    }

    @Test
    void emptyWhereAndSetVanish() {
        assertThat(squash(SqlModel.stripMyBatisTags("SELECT * FROM t <where> </where>"))).isEqualTo("SELECT * FROM t");
        assertThat(squash(SqlModel.stripMyBatisTags("UPDATE t SET a = 1, WHERE id = 2"))).isEqualTo(
                "UPDATE t SET a = 1 WHERE id = 2");
        assertThat(SqlModel.stripMyBatisTags(null)).isEmpty();
    }
}
