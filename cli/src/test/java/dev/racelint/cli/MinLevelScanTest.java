package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --min-level} and {@code minLevel:}: what a default report leaves out (notes), in every format,
 * counted in the summary; a rule's level in racelint.yml still decides its findings' level.
 */
class MinLevelScanTest {

    @TempDir
    Path dir;

    /** test-shaky-method's findings made notes by racelint.yml: the shape of a rule that shows a small harm. */
    private Path shakyAsNote() {
        Sources.write(dir, "src/demo/Named.java", Sources.NAMED);
        Sources.write(dir, "racelint.yml", "rules:\n  test-shaky-method: note\n");
        return dir;
    }

    @Test
    void aDefaultScanLeavesNotesOutAndSaysHowToSeeThem() {
        Path root = shakyAsNote();

        Cli.Run run = run(Cli.testRules(), "scan", root.toString(), "--no-cache", "--fail-on", "note");

        assertThat(run.report()).as(run.toString()).contains("[test-racy-method]").doesNotContain("[test-shaky-method]")
                .contains("1 finding (1 error, 0 warnings, 0 notes) in 1 file; 1 note not shown (below the minimum level "
                        + "warning; --min-level note shows them).");
        assertThat(run.exitCode()).as("a note left out does not count for --fail-on").isEqualTo(ExitCodes.FINDINGS);
    }

    @Test
    void minLevelNoteShowsThem() {
        Path root = shakyAsNote();

        Cli.Run run = run(Cli.testRules(), "scan", root.toString(), "--no-cache", "--min-level", "note");

        assertThat(run.report()).as(run.toString()).contains("[test-shaky-method]")
                .contains("2 findings (1 error, 0 warnings, 1 note) in 1 file.").doesNotContain("not shown");
    }

    @Test
    void aFailOnNoteScanPassesWhenOnlyNotesAreLeftOut() {
        Sources.write(dir, "src/demo/ShakyOnly.java", Sources.SHAKY_ONLY);
        Sources.write(dir, "racelint.yml", "rules:\n  test-shaky-method: note\n");

        Cli.Run run = run(Cli.testRules(), "scan", dir.toString(), "--no-cache", "--fail-on", "note");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.OK);
        assertThat(run.report()).contains("No findings in 1 file; 1 note not shown");
    }

    @Test
    void jsonCarriesTheCountAndSarifLeavesThemOut() throws Exception {
        Path root = shakyAsNote();

        Cli.Run json = run(Cli.testRules(), "scan", root.toString(), "--no-cache", "--format", "json");
        Cli.Run sarif = run(Cli.testRules(), "scan", root.toString(), "--no-cache", "--format", "sarif");

        JsonNode doc = new ObjectMapper().readTree(json.out());
        assertThat(doc.path("summary").path("minLevel").asText()).isEqualTo("warning");
        assertThat(doc.path("summary").path("belowMinLevel").asInt()).isEqualTo(1);
        assertThat(doc.path("findings")).hasSize(1);
        assertThat(doc.path("findings").get(0).path("ruleId").asText()).isEqualTo("test-racy-method");
        JsonNode results = new ObjectMapper().readTree(sarif.out()).path("runs").get(0).path("results");
        assertThat(results).hasSize(1);
        assertThat(results.get(0).path("ruleId").asText()).isEqualTo("test-racy-method");
    }

    @Test
    void coverageSaysWhatWasLeftOut() {
        Path root = shakyAsNote();

        Cli.Run run = run(Cli.testRules(), "scan", root.toString(), "--no-cache", "--coverage");
        Cli.Run json = run(Cli.testRules(), "scan", root.toString(), "--no-cache", "--coverage", "--format", "json");

        assertThat(run.out()).contains("  left out: 1 note not shown (below the minimum level warning; --min-level note "
                + "shows them)\n");
        assertThat(json.err()).contains("  left out: 1 note not shown");
    }

    @Test
    void racelintYmlSetsTheMinimumAndTheOptionWins() {
        Sources.write(dir, "src/demo/Named.java", Sources.NAMED);
        Sources.write(dir, "racelint.yml", "minLevel: error\n");

        Cli.Run byConfig = run(Cli.testRules(), "scan", dir.toString(), "--no-cache");
        Cli.Run byOption = run(Cli.testRules(), "scan", dir.toString(), "--no-cache", "--min-level", "warning");

        assertThat(byConfig.report()).as(byConfig.toString()).doesNotContain("[test-shaky-method]")
                .contains("1 finding not shown (below the minimum level error; --min-level note shows them)");
        assertThat(byOption.report()).contains("[test-shaky-method]").doesNotContain("not shown");
    }

    @Test
    void aWrongMinLevelIsAUsageErrorWithItsLine() {
        Sources.write(dir, "src/demo/Named.java", Sources.NAMED);
        Sources.write(dir, "racelint.yml", "version: 1\nminLevel: loud\n");

        Cli.Run config = run(Cli.testRules(), "scan", dir.toString(), "--no-cache");
        Cli.Run option = run(Cli.testRules(), "scan", dir.toString(), "--no-cache", "--min-level", "loud");

        assertThat(config.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(config.err()).contains("racelint.yml:2: 'minLevel' must be error, warning or note, not 'loud'");
        assertThat(option.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(option.err()).contains("--min-level").contains("loud");
    }

    /** The installed note rule (cache-stampede) is off by default; a level for it in racelint.yml turns it on. */
    @Test
    void theNoteRuleIsOffByDefaultAndARuleLevelRaisesIt() {
        Sources.write(dir, "src/demo/PriceService.java", """
                package demo;

                import org.springframework.cache.annotation.Cacheable;
                import org.springframework.stereotype.Service;
                import org.springframework.web.client.RestTemplate;

                @Service
                public class PriceService {
                    private final RestTemplate rest;

                    public PriceService(RestTemplate rest) {
                        this.rest = rest;
                    }

                    @Cacheable("prices")
                    public String price(String sku) {
                        return rest.getForObject("https://prices.example.com/" + sku, String.class);
                    }
                }
                """);

        Cli.Run all = run("scan", dir.toString(), "--no-cache", "--no-config", "--min-level", "note");
        Cli.Run byDefault = run("scan", dir.toString(), "--no-cache", "--no-config");
        Sources.write(dir, "racelint.yml", "rules:\n  cache-stampede: warning\n");
        Cli.Run raised = run("scan", dir.toString(), "--no-cache");

        assertThat(all.report()).as(all.toString()).contains("note [cache-stampede]");
        assertThat(byDefault.report()).doesNotContain("[cache-stampede]").contains("1 note not shown");
        assertThat(raised.report()).as(raised.toString()).contains("warning [cache-stampede]").doesNotContain("not shown");
    }

    @Test
    void aBaselineRecordsWhatAScanAtTheSameLevelReports() throws Exception {
        Path root = shakyAsNote();
        Path byDefault = dir.resolve("default.json");
        Path everything = dir.resolve("all.json");

        Cli.Run created = run(Cli.testRules(), "baseline", "create", root.toString(), "--no-cache", "--file",
                byDefault.toString());
        run(Cli.testRules(), "baseline", "create", root.toString(), "--no-cache", "--min-level", "note", "--file",
                everything.toString());

        assertThat(created.exitCode()).as(created.toString()).isZero();
        assertThat(Files.readString(byDefault)).contains("test-racy-method").doesNotContain("test-shaky-method");
        assertThat(Files.readString(everything)).contains("test-racy-method").contains("test-shaky-method");
    }

    @Test
    void optionsAreDocumentedInHelp() {
        assertThat(run("scan", "--help").out()).contains("--min-level=LEVEL");
        assertThat(run("baseline", "create", "--help").out()).contains("--min-level=LEVEL");
        assertThat(run("explain", "--help").out()).contains("--min-level=LEVEL");
    }
}
