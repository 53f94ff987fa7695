package dev.racelint.analyzer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.racelint.analyzer.AnalysisLimits.Limit;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The limits' table in docs/configuration.md is the code's, and a limit is set only within its range. */
class AnalysisLimitsTest {

    private static final Path CONFIGURATION_DOC = Path.of("..", "docs", "configuration.md");

    /** The table's rows as docs/configuration.md must have them, from {@link Limit#values()}. */
    static List<String> tableRows() {
        List<String> rows = new ArrayList<>();
        rows.add("| Setting | Default | Range | What it bounds | Past the bound |");
        rows.add("|---|---|---|---|---|");
        for (Limit l : Limit.values()) {
            rows.add(String.format(Locale.ROOT, "| `%s` | %,d | %,d to %,d | %s | %s |", l.key(), l.defaultValue(), l.min(),
                    l.max(), l.bounds(), l.atBound()));
        }
        return rows;
    }

    @Test
    void theDocumentedTableListsEveryLimitWithItsDefaultAndRange() throws IOException {
        List<String> doc = Files.readAllLines(CONFIGURATION_DOC, StandardCharsets.UTF_8);
        List<String> rows = tableRows();
        int start = doc.indexOf(rows.get(0));
        assertThat(start).as("the limits table's header in " + CONFIGURATION_DOC).isNotNegative();
        List<String> table = new ArrayList<>();
        for (int i = start; i < doc.size() && doc.get(i).startsWith("|"); i++) {
            table.add(doc.get(i));
        }
        assertThat(table).as("docs/configuration.md's limits table; it should read:\n" + String.join("\n", rows))
                .containsExactlyElementsOf(rows);
    }

    @Test
    void keysAreUniqueAndDefaultsInTheirRanges() {
        assertThat(Limit.values()).extracting(Limit::key).doesNotHaveDuplicates();
        for (Limit l : Limit.values()) {
            assertThat(l.defaultValue()).as(l.key()).isBetween(l.min(), l.max());
            assertThat(Limit.byKey(l.key())).contains(l);
            assertThat(AnalysisLimits.DEFAULT.get(l)).isEqualTo(l.defaultValue());
        }
    }

    @Test
    void aValueOutsideTheRangeIsRefusedAndOneInsideChangesOnlyThatLimit() {
        assertThatThrownBy(() -> AnalysisLimits.DEFAULT.with(Limit.REACH_DEPTH, Limit.REACH_DEPTH.max() + 1))
                .hasMessage("reach-depth must be between 0 and 64, not 65");
        AnalysisLimits changed = AnalysisLimits.DEFAULT.with(Limit.REACH_DEPTH, 3);
        assertThat(changed.get(Limit.REACH_DEPTH)).isEqualTo(3);
        assertThat(changed.get(Limit.WITNESS_CALLS)).isEqualTo(Limit.WITNESS_CALLS.defaultValue());
        assertThat(changed).isNotEqualTo(AnalysisLimits.DEFAULT);
        assertThat(changed.describe()).contains("reach-depth=3").isNotEqualTo(AnalysisLimits.DEFAULT.describe());
        assertThat(AnalysisLimits.DEFAULT.with(Limit.REACH_DEPTH, 8)).isEqualTo(AnalysisLimits.DEFAULT);
    }

    @Test
    void optionsCarryTheLimits() {
        AnalysisOptions options = AnalysisOptions.of(Path.of("."));
        assertThat(options.limits()).isEqualTo(AnalysisLimits.DEFAULT);
        AnalysisLimits changed = AnalysisLimits.DEFAULT.with(Limit.FLOW_PASSES, 5);
        assertThat(options.withLimits(changed).limits()).isEqualTo(changed);
        assertThat(options.withLimits(changed).withCacheDirectory(Path.of("c")).withFileTimeLimit(
                java.time.Duration.ofSeconds(5)).limits()).isEqualTo(changed);
    }
}
