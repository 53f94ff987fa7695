package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.report.SarifAssertions;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every scan says what it understood (one text line, {@code --coverage} for the detail, JSON and
 * SARIF), a cache hit says the same, and a tree whose data access racelint cannot read is told so.
 */
class CoverageScanTest {

    @TempDir
    Path dir;

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String WARNING = "data-access-unrecognised";

    /**
     * A payment service on a generic mapper racelint does not model (tk.mybatis's): every read and
     * write goes through the mapper's inherited selectOne/updateByConditionSelective.
     */
    private void unmodelledMapperService() {
        Sources.write(dir, "src/main/java/demo/Payment.java", """
                package demo;

                import tk.mybatis.mapper.annotation.NameStyle;

                @NameStyle
                public class Payment {
                    private Long id;
                    private String state;

                    public void setId(Long id) { this.id = id; }
                    public void setState(String state) { this.state = state; }
                }
                """);
        Sources.write(dir, "src/main/java/demo/PaymentMapper.java", """
                package demo;

                import org.apache.ibatis.annotations.Mapper;

                @Mapper
                public interface PaymentMapper extends tk.mybatis.mapper.common.Mapper<Payment> {}
                """);
        Sources.write(dir, "src/main/java/demo/PaymentService.java", """
                package demo;

                import org.springframework.transaction.annotation.Transactional;
                import org.springframework.web.bind.annotation.PathVariable;
                import org.springframework.web.bind.annotation.PostMapping;
                import org.springframework.web.bind.annotation.RestController;

                @RestController
                public class PaymentService {
                    private final PaymentMapper payments;

                    public PaymentService(PaymentMapper payments) { this.payments = payments; }

                    @PostMapping("/payments/{id}/capture")
                    @Transactional
                    public void capture(@PathVariable long id) {
                        Payment probe = new Payment();
                        probe.setId(id);
                        Payment payment = payments.selectByRowBounds(probe, new org.apache.ibatis.session.RowBounds(0, 1)).get(0);
                        payment.setState("CAPTURED");
                        payments.updateByConditionSelective(payment, probe);
                    }
                }
                """);
        Sources.write(dir, "src/main/resources/mapper/PaymentMapper.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">
                <mapper namespace="demo.PaymentMapper">
                  <resultMap id="payment" type="demo.Payment"/>
                </mapper>
                """);
    }

    @Test
    void anUnmodelledDataApiIsWarnedAboutWithItsEvidenceAndShowsAsABlindSpot() {
        unmodelledMapperService();

        Cli.Run run = run("scan", dir.toString(), "--no-cache", "--fail-on", "none");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("racelint: warning [" + WARNING + "] 1 MyBatis mapper XML file, 2 files importing"
                + " data-access packages (org.apache.ibatis 1, tk.mybatis 1) and 1 type declared as data access"
                + " (a repository or mapper supertype, @Mapper or @Repository) (1 type named *Mapper, *Repository or *Dao),"
                + " but no database operation was recognised: findings about database races cannot appear; see --coverage\n");
        assertThat(run.out()).contains("Understood: 1 HTTP entry point (POST 1), 0 message consumers, 0 scheduled jobs;"
                + " 1 transaction; 0 database operations; SQL 0 parsed, 0 by fallback; 0 effects; blind spots: 1 type"
                + " (top: tk.mybatis.mapper.common.Mapper 2); 3 files, ");
    }

    @Test
    void theWarningIsInJsonAndSarifToo() throws Exception {
        unmodelledMapperService();

        JsonNode json = JSON.readTree(run("scan", dir.toString(), "--no-cache", "--format", "json", "--fail-on", "none").out());
        assertThat(json.path("diagnostics").findValuesAsText("code")).contains(WARNING);
        assertThat(json.path("coverage").path("databaseOperations").path("total").asInt()).isZero();
        assertThat(json.path("coverage").path("dataAccess").path("mapperXmlFiles").asInt()).isEqualTo(1);

        String sarif = run("scan", dir.toString(), "--no-cache", "--format", "sarif", "--fail-on", "none").out();
        SarifAssertions.assertValidForGitHub(sarif);
        assertThat(JSON.readTree(sarif).path("runs").get(0).path("invocations").get(0)
                .path("toolExecutionNotifications").findValuesAsText("id")).contains(WARNING);
    }

    @Test
    void recognisedDataAccessIsNotWarnedAbout() {
        Sources.write(dir, "src/main/java/demo/PaymentDao.java", """
                package demo;

                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.stereotype.Repository;

                @Repository
                public class PaymentDao {
                    private final JdbcTemplate jdbc;

                    public PaymentDao(JdbcTemplate jdbc) { this.jdbc = jdbc; }

                    public int capture(long id) {
                        return jdbc.update("UPDATE payment SET state = 'CAPTURED' WHERE id = ? AND state = 'AUTHORISED'", id);
                    }
                }
                """);

        Cli.Run run = run("scan", dir.toString(), "--no-cache", "--fail-on", "none");

        assertThat(run.out()).doesNotContain(WARNING)
                .contains("; 1 database operation (JdbcTemplate 1); SQL 1 parsed, 0 by fallback;");
    }

    @Test
    void aNameAloneIsNoEvidence() {
        Sources.write(dir, "src/main/java/demo/PaymentDao.java", """
                package demo;

                public class PaymentDao {
                    private final java.util.Map<Long, String> states = new java.util.HashMap<>();

                    public void capture(long id) { states.put(id, "CAPTURED"); }
                }
                """);

        Cli.Run run = run("scan", dir.toString(), "--no-cache", "--fail-on", "none");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).doesNotContain(WARNING);
    }

    @Test
    void aScanWithoutFindingsHasTheLineAndCoverageAddsTheDetail() {
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);

        Cli.Run plain = run("scan", dir.toString(), "--no-cache");
        assertThat(plain.exitCode()).as(plain.toString()).isZero();
        assertThat(plain.out()).isEqualTo("Understood: 0 HTTP entry points, 0 message consumers, 0 scheduled jobs;"
                + " 0 transactions; 0 database operations; SQL 0 parsed, 0 by fallback; 0 effects; blind spots: 0 types;"
                + " 1 file, 7 lines.\nNo findings in 1 file.\n");

        Cli.Run detail = run("scan", dir.toString(), "--no-cache", "--coverage");
        assertThat(detail.out()).startsWith("Coverage (what this scan understood):\n  files analysed       1 (7 non-blank lines)\n")
                .endsWith(plain.out());
    }

    @Test
    void withAnotherFormatTheDetailGoesToStderr() throws Exception {
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);

        Cli.Run json = run("scan", dir.toString(), "--no-cache", "--format", "json", "--coverage");

        assertThat(JSON.readTree(json.out()).path("coverage").path("files").asInt()).isEqualTo(1);
        assertThat(json.err()).contains("Coverage (what this scan understood):\n");
        Path report = dir.resolve("report.sarif");
        Cli.Run sarif = run("scan", dir.toString(), "--no-cache", "--format", "sarif", "--output", report.toString());
        assertThat(sarif.err()).doesNotContain("Coverage (");
        SarifAssertions.assertValidForGitHub(Files.readString(report));
        assertThat(JSON.readTree(Files.readString(report)).path("runs").get(0).path("properties")
                .path("racelint/coverage").path("sourceLines").asInt()).isEqualTo(7);
    }

    @Test
    void racelintYmlAddsInertTypes() {
        unmodelledMapperService();
        Sources.write(dir, "racelint.yml", """
                coverage:
                  inert:
                    - tk.mybatis.mapper.**
                """);

        Cli.Run run = run("scan", dir.toString(), "--no-cache", "--fail-on", "none");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("; blind spots: 0 types; ");
        Sources.write(dir, "racelint.yml", "coverage:\n  inert: [\"not a type\"]\n");
        Cli.Run wrong = run("scan", dir.toString(), "--no-cache", "--fail-on", "none");
        assertThat(wrong.exitCode()).isEqualTo(2);
        assertThat(wrong.err()).contains("racelint.yml:2: 'coverage.inert' entries must be qualified type names or globs");
    }

    @Test
    void aCacheHitShowsTheCoverageOfTheColdScan() throws Exception {
        unmodelledMapperService();
        Path cache = dir.resolve("cache");

        Cli.Run cold = run("scan", dir.toString(), "--cache-dir", cache.toString(), "--fail-on", "none", "--coverage");
        Cli.Run hit = run("scan", dir.toString(), "--cache-dir", cache.toString(), "--fail-on", "none", "--coverage");

        assertThat(cold.err()).doesNotContain("results from");
        assertThat(hit.err()).as(hit.toString()).contains("results from");
        assertThat(hit.out()).isEqualTo(cold.out()).contains("Understood: 1 HTTP entry point").contains(WARNING);
        JsonNode coldJson = JSON.readTree(run("scan", dir.toString(), "--no-cache", "--format", "json", "--fail-on", "none")
                .out()).path("coverage");
        JsonNode hitJson = JSON.readTree(run("scan", dir.toString(), "--cache-dir", cache.toString(), "--format", "json",
                "--fail-on", "none").out()).path("coverage");
        assertThat(hitJson).isEqualTo(coldJson);
        assertThat(hitJson.path("blindSpots").path("top").get(0).path("type").asText())
                .isEqualTo("tk.mybatis.mapper.common.Mapper");
    }
}
