package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A schema migration is no production entry point: its findings are left out, and the scan says so. */
class MigrationContextScanTest {

    /** A Flyway Java migration that looks each row's country up over HTTP inside its JDBC transaction. */
    static final String MIGRATION = """
            package demo.db.migration;

            import java.net.URI;
            import java.net.http.HttpClient;
            import java.net.http.HttpRequest;
            import java.net.http.HttpResponse;
            import java.sql.Connection;
            import java.sql.PreparedStatement;
            import org.flywaydb.core.api.migration.BaseJavaMigration;
            import org.flywaydb.core.api.migration.Context;

            public class V7__Backfill_country_codes extends BaseJavaMigration {
                private final HttpClient http = HttpClient.newHttpClient();

                @Override
                public void migrate(Context context) throws Exception {
                    Connection connection = context.getConnection();
                    connection.setAutoCommit(false);
                    try (PreparedStatement update = connection.prepareStatement(
                            "UPDATE customers SET country_code = ? WHERE id = ?")) {
                        String code = http.send(HttpRequest.newBuilder(URI.create("https://geo.example.com/lookup")).build(),
                                HttpResponse.BodyHandlers.ofString()).body();
                        update.setString(1, code);
                        update.setLong(2, 1L);
                        update.executeUpdate();
                    }
                    connection.commit();
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void aFlywayJavaMigrationIsLeftOutWithTheReasonSaid() throws IOException {
        Sources.write(dir, "src/main/java/demo/db/migration/V7__Backfill_country_codes.java", MIGRATION);

        JsonNode report = json(run("scan", dir.toString(), "--format", "json", "--fail-on", "none"));

        assertThat(report.path("findings")).isEmpty();
        assertThat(report.path("diagnostics").findValuesAsText("code")).contains("not-an-entry-point");
        assertThat(report.path("diagnostics").toString()).contains("1 finding in Flyway / Liquibase Java migrations left out");
    }

    @Test
    void theSameCodeOutsideAMigrationIsReported() throws IOException {
        Sources.write(dir, "src/main/java/demo/db/migration/V7__Backfill_country_codes.java", MIGRATION
                .replace(" extends BaseJavaMigration", "").replace("    @Override\n", ""));

        JsonNode report = json(run("scan", dir.toString(), "--format", "json", "--fail-on", "none"));

        assertThat(report.path("findings").findValuesAsText("ruleId")).containsExactly("io-in-transaction");
        assertThat(report.path("diagnostics").findValuesAsText("code")).doesNotContain("not-an-entry-point");
    }

    private static JsonNode json(Cli.Run run) throws IOException {
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return new ObjectMapper().readTree(run.out());
    }
}
