package dev.racelint.analyzer.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EndStateWritesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "UPDATE t SET deleted = 1, deleted_by = ? WHERE id IN (?) AND deleted = 0 | false | true",
        "UPDATE t SET status = 30 WHERE id = #{id} AND status IN (10, 20) | false | true",
        "UPDATE t SET sold = '1', bill = #{b} WHERE sold != '1' AND id IN (#{i}) | false | true",
        "UPDATE T x SET x.revoked = true, x.by = :op WHERE x.id IN :ids AND x.revoked = false | true | true",
        "UPDATE t SET done_at = now(), state = 'DONE' WHERE id = ? AND done_at IS NULL | false | false",
        "UPDATE t SET closed_at = NULL WHERE id = ? AND closed_at IS NOT NULL | false | true",
        // the guard excludes exactly the parameter the SET writes
        "UPDATE t SET read_flag = #{flag}, read_at = now() WHERE id = #{id} AND read_flag != #{flag} | false | true",
        "UPDATE t SET seen = ?1 WHERE id = ?2 AND seen <> ?1 | false | true",
        // another parameter, a bare ?, or an equality with the written parameter: not the end state
        "UPDATE t SET read_flag = #{flag} WHERE id = #{id} AND read_flag != #{old} | false | false",
        "UPDATE t SET seen = ? WHERE id = ? AND seen <> ? | false | false",
        "UPDATE t SET seen = #{v} WHERE id = #{id} AND seen = #{v} | false | false",
        // a guard that admits the written state, or tests a column the statement leaves alone
        "UPDATE t SET status = 20 WHERE id = ? AND status IN (10, 20) | false | false",
        "UPDATE t SET status = 6 WHERE paid = 0 AND id IN (?) | false | false",
        // compounding, compared parameters, OR, ranges: not known to be harmless
        "UPDATE t SET status = 20, tries = tries + 1 WHERE id = ? AND status = 10 | false | false",
        "UPDATE t SET v = v + 1 WHERE id = ? AND v = ? | false | false",
        "UPDATE t SET state = 'X' WHERE id = ? AND (state = 'A' OR state = 'B') | false | false",
        "UPDATE t SET state = 'X' WHERE id = ? AND state = 'A' OR id = ? | false | false",
        "UPDATE t SET state = 'X' WHERE id = ? AND state = ? | false | false",
        "UPDATE t SET state = 'X' WHERE id > ? AND state = 'A' | false | false",
        "DELETE FROM t WHERE id = ? AND state = 'A' | false | false",
    })
    void endState(String sql, boolean jpql, boolean expected) {
        assertThat(EndStateWrites.endState(sql, jpql)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "deleteByServiceNameAndUri, true",
        "removeById, true",
        "deleteAllByTenantId, true",
        "deleteByIdAndStateNot, false",
        "deleteByOwnerOrId, false",
        "deleteByOrderIdAndBrandId, true",
        "deleteByCreatedAtBefore, false",
        "deleteByArchivedTrue, false",
        "findByName, false",
    })
    void derivedDelete(String method, boolean expected) {
        assertThat(EndStateWrites.derivedDeleteByValuesOnly(method)).isEqualTo(expected);
    }
}
