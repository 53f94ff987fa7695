package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * unchecked-row-count asks the schema the tree declares: a soft delete by a column no key covers is a
 * bulk filter; without DDL the rule cannot tell and reports it; editing the DDL invalidates a cached scan.
 */
class SchemaScanTest {

    @TempDir
    Path dir;

    private static final String SERVICE = """
            package demo;

            import org.springframework.jdbc.core.JdbcTemplate;

            public class AppCleanup {
                private final JdbcTemplate jdbc;

                public AppCleanup(JdbcTemplate jdbc) {
                    this.jdbc = jdbc;
                }

                public void removeApp(long appId) {
                    jdbc.update("UPDATE app_token SET is_deleted = 1 WHERE app_id = ? AND is_deleted = 0", appId);
                }
            }
            """;

    private Cli.Run scan() {
        return run("scan", dir.toString(), "--cache-dir", dir.resolve("cache").toString(), "--fail-on", "none");
    }

    @Test
    void aTableDeclaredWithoutAnyKeyIsTreatedAsUnknown() {
        Sources.write(dir, "src/main/java/demo/AppCleanup.java", SERVICE);
        Sources.write(dir, "src/main/resources/schema.sql",
                "CREATE TABLE app_token (id BIGINT NOT NULL, app_id BIGINT NOT NULL, is_deleted INT);\n");
        assertThat(scan().out()).as("its key may be declared where the scan does not see it")
                .contains("[unchecked-row-count]");
    }

    @Test
    void theSchemaDecidesAndEditingItInvalidatesTheCache() {
        Sources.write(dir, "src/main/java/demo/AppCleanup.java", SERVICE);
        assertThat(scan().out()).as("no DDL: the rule cannot tell a bulk filter").contains("[unchecked-row-count]");

        Sources.write(dir, "src/main/resources/db/migration/V1__tokens.sql",
                "CREATE TABLE `app_token` (`id` bigint NOT NULL, `app_id` bigint NOT NULL, `is_deleted` tinyint(1),"
                        + " PRIMARY KEY (`id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n");
        Cli.Run keyedById = scan();
        assertThat(keyedById.exitCode()).as(keyedById.toString()).isZero();
        assertThat(keyedById.out()).doesNotContain("[unchecked-row-count]");

        Sources.write(dir, "src/main/resources/db/migration/V2__app_key.sql",
                "CREATE UNIQUE INDEX ux_app_token_app ON app_token (app_id);\n");
        assertThat(scan().out()).as("app_id now picks one row").contains("[unchecked-row-count]");
        assertThat(run("scan", dir.toString(), "--no-cache", "--coverage", "--fail-on", "none").out())
                .containsPattern("schema +1 table with 2 primary or unique keys");
    }
}
