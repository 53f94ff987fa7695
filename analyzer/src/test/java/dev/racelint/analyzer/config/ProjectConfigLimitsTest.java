package dev.racelint.analyzer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.racelint.analyzer.AnalysisLimits;
import dev.racelint.analyzer.AnalysisLimits.Limit;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code limits:} in racelint.yml: each a known name with a whole number in its range, every mistake at its line. */
class ProjectConfigLimitsTest {

    private static final Path FILE = Path.of("racelint.yml");

    private static ProjectConfig read(String text) throws IOException {
        return ProjectConfig.read(FILE, FILE, text);
    }

    @Test
    void limitsSetInTheFileReplaceTheDefaults() throws IOException {
        ProjectConfig config = read("rules:\n  cache-stampede: off\nlimits:\n  reach-depth: 10\n  WITNESS-CALLS: 3\n");

        AnalysisLimits limits = config.limits(AnalysisLimits.DEFAULT);
        assertThat(limits.get(Limit.REACH_DEPTH)).isEqualTo(10);
        assertThat(limits.get(Limit.WITNESS_CALLS)).isEqualTo(3);
        assertThat(limits.get(Limit.FLOW_PASSES)).isEqualTo(Limit.FLOW_PASSES.defaultValue());
        assertThat(config.limitSettings()).extracting(ProjectConfig.LimitSetting::line).containsExactly(4, 5);
        assertThat(config.describe(Path.of("."))).isEqualTo(
                "config racelint.yml (1 rule setting, 0 excludes, 0 declared APIs, 2 limits)");
    }

    @Test
    void noLimitsOrAnEmptyMappingKeepsTheDefaults() throws IOException {
        assertThat(read("rules:\n  cache-stampede: off\n").limits(AnalysisLimits.DEFAULT)).isEqualTo(AnalysisLimits.DEFAULT);
        assertThat(read("limits:\n").limits(AnalysisLimits.DEFAULT)).isEqualTo(AnalysisLimits.DEFAULT);
        assertThat(read("limits:\n  # reach-depth: 3\n").describe(Path.of("."))).doesNotContain("limit");
    }

    @Test
    void anUnknownNameIsAnErrorAtItsLineListingTheKnownOnes() {
        assertThatThrownBy(() -> read("limits:\n  reach-depth: 3\n  reach-dept: 3\n"))
                .hasMessageStartingWith("racelint.yml:3: unknown limit 'reach-dept' (expected one of witness-calls, "
                        + "reach-depth, ")
                .hasMessageEndingWith(", nesting-depth)");
    }

    @Test
    void aValueOutsideItsRangeIsAnErrorAtItsLine() {
        assertThatThrownBy(() -> read("limits:\n  reach-depth: 65\n"))
                .hasMessage("racelint.yml:2: limit 'reach-depth' must be between 0 and 64 (default 8), not 65");
        assertThatThrownBy(() -> read("limits:\n\n  flow-passes: 0\n"))
                .hasMessage("racelint.yml:3: limit 'flow-passes' must be between 1 and 16 (default 3), not 0");
        assertThatThrownBy(() -> read("limits:\n  witness-calls: -1\n"))
                .hasMessage("racelint.yml:2: limit 'witness-calls' must be between 1 and 64 (default 5), not -1");
        assertThatThrownBy(() -> read("limits:\n  nesting-depth: 99999999999999999999999\n"))
                .hasMessage("racelint.yml:2: limit 'nesting-depth' must be between 16 and 1000 (default 1000), "
                        + "not 99999999999999999999999");
    }

    @Test
    void aValueThatIsNotAWholeNumberIsAnErrorAtItsLine() {
        assertThatThrownBy(() -> read("limits:\n  reach-depth: deep\n"))
                .hasMessage("racelint.yml:2: limit 'reach-depth' must be a whole number between 0 and 64 (default 8), "
                        + "not 'deep'");
        assertThatThrownBy(() -> read("limits:\n  reach-depth: 2.5\n"))
                .hasMessage("racelint.yml:2: limit 'reach-depth' must be a whole number between 0 and 64 (default 8), "
                        + "not '2.5'");
        assertThatThrownBy(() -> read("limits:\n  reach-depth:\n    - 3\n"))
                .hasMessageStartingWith("racelint.yml:3: limit 'reach-depth' must be a whole number");
    }

    @Test
    void aLimitSetTwiceOrLimitsThatAreNotAMappingAreErrors() {
        assertThatThrownBy(() -> read("limits:\n  reach-depth: 3\n  reach-depth: 4\n"))
                .hasMessageStartingWith("racelint.yml:3: ");
        assertThatThrownBy(() -> read("limits: 5\n"))
                .hasMessage("racelint.yml:1: 'limits' must be a mapping of limit name to a whole number ("
                        + String.join(", ", java.util.Arrays.stream(Limit.values()).map(Limit::key).toList()) + ")");
    }
}
