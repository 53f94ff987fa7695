package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQL that JSqlParser cannot parse is read by the token model, counted in the summary, and never fatal. */
class SqlFallbackScanTest {

    @TempDir
    Path dir;

    private static final String SERVICE = """
            package demo;

            import org.springframework.jdbc.core.JdbcTemplate;

            public class QuotaService {
                private final JdbcTemplate jdbc;

                public QuotaService(JdbcTemplate jdbc) {
                    this.jdbc = jdbc;
                }

                public void consume(long id) {
                    // Vendor syntax JSqlParser does not know: the token model still sees a guarded UPDATE.
                    jdbc.update("UPDATE quotas SET used = used + 1 WHERE id = ? AND used < quota_limit !!! VENDOR HINT ((", id);
                }
            }
            """;

    @Test
    void unparsedSqlIsCountedInTheSummaryAndTheScanGoesOn() {
        Sources.write(dir, "src/main/java/demo/QuotaService.java", SERVICE);

        Cli.Run run = run("scan", dir.toString(), "--fail-on", "none");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("[unchecked-row-count]")
                .contains("1 SQL statement read by the fallback parser");
    }

    @Test
    void jsonSummaryCountsIt() throws Exception {
        Sources.write(dir, "src/main/java/demo/QuotaService.java", SERVICE);

        Cli.Run run = run("scan", dir.toString(), "--format", "json", "--fail-on", "none");

        JsonNode doc = new ObjectMapper().readTree(run.out());
        assertThat(doc.path("summary").path("sqlFallback").asInt()).isEqualTo(1);
        assertThat(doc.path("diagnostics").findValuesAsText("code")).contains("sql-fallback");
    }
}
