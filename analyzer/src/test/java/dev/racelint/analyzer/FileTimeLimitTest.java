package dev.racelint.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-file time limit over the analysis after parsing, timed by a clock that counts steps: each
 * step of a file's work (its index part, then each of its methods' call-graph walk, database
 * operations, lock scopes and rules) costs exactly one second on it, so where a file runs out
 * is exact and the same on every machine and for any number of threads.
 */
class FileTimeLimitTest {

    private static final long STEP_NANOS = 1_000_000_000L;
    /** Methods of Slow.java: {@code send} and the steps. */
    private static final int SLOW_METHODS = 20;
    /** What Slow.java needs: two index steps, then four per method (call graph, db operations, lock scopes, rules). */
    private static final int SLOW_STEPS = 2 + 4 * SLOW_METHODS;
    /** What Racy.java, with its two methods, needs. */
    private static final int RACY_STEPS = 2 + 4 * 2;

    @TempDir
    Path dir;

    private Path slow;
    private Path racy;

    @BeforeEach
    void write() throws IOException {
        // every method of Slow does network I/O, and Racy.viaSlow calls them all: it reaches I/O if any one
        // of them keeps its facts
        StringBuilder steps = new StringBuilder();
        StringBuilder calls = new StringBuilder();
        for (int i = 0; i < SLOW_METHODS - 1; i++) {
            steps.append("    public void step").append(i).append("() { rest.postForObject(\"https://svc.example.com/")
                    .append(i).append("\", null, String.class); }\n");
            calls.append(" slow.step").append(i).append("();");
        }
        slow = Files.writeString(dir.resolve("Slow.java"), """
                package demo;
                import org.springframework.web.client.RestTemplate;
                public class Slow {
                    private final RestTemplate rest = new RestTemplate();
                    public void send(String id) { rest.postForObject("https://svc.example.com/" + id, id, String.class); }
                """ + steps + "}\n");
        racy = Files.writeString(dir.resolve("Racy.java"), """
                package demo;
                import org.springframework.transaction.annotation.Transactional;
                import org.springframework.web.client.RestTemplate;
                public class Racy {
                    private final Slow slow = new Slow();
                    private final RestTemplate rest = new RestTemplate();
                    @Transactional public void viaSlow(String id) { slow.send(id);CALLS }
                    @Transactional public void direct(String id) { rest.postForObject("https://pay.example.com", id, String.class); }
                }
                """.replace("CALLS", calls));
    }

    @Test
    void aFileThatNeedsExactlyItsLimitIsAnalysedWhole() {
        AnalysisResult unlimited = scan(Duration.ofHours(1), 2);
        AnalysisResult atTheLimit = scan(Duration.ofSeconds(SLOW_STEPS), 2);

        assertThat(tooSlow(atTheLimit)).isEmpty();
        assertThat(keys(atTheLimit.findings())).isEqualTo(keys(unlimited.findings()));
        assertThat(files(unlimited.findings(), "every-method")).filteredOn(f -> f.equals("Slow.java")).hasSize(SLOW_METHODS);
        assertThat(files(unlimited.findings(), "io-in-scope")).containsExactly("Racy.java", "Racy.java");
    }

    @Test
    void aFileOneStepOverItsLimitKeepsNoFindingAndGetsOneDiagnosticNamingThePhase() {
        AnalysisResult unlimited = scan(Duration.ofHours(1), 2);
        AnalysisResult over = scan(Duration.ofSeconds(SLOW_STEPS - 1), 2);

        assertThat(tooSlow(over)).singleElement().satisfies(d -> {
            assertThat(d.file()).isEqualTo(slow);
            assertThat(d.level()).isEqualTo(Level.WARNING);
            assertThat(d.fileSkipped()).as("counted among the files that could not be analysed").isTrue();
            assertThat(d.message()).contains("rules phase", "per-file limit of 81 s",
                    "other machines may report differently");
        });
        // its last rule step ran, but a file that ran out keeps none of its findings, whichever came first
        assertThat(files(over.findings(), "every-method")).doesNotContain("Slow.java").containsExactly("Racy.java", "Racy.java");
        // the other file is untouched: the facts of Slow were complete before it ran out
        assertThat(files(over.findings(), "io-in-scope")).containsExactly("Racy.java", "Racy.java");
        assertThat(keys(over.findings())).isEqualTo(keys(unlimited.findings().stream()
                .filter(f -> !f.primary().file().equals(slow)).toList()));
    }

    @Test
    void aFileThatRunsOutInTheCallGraphHasNoCallsAtAllAndTheOtherFilesGoOn() {
        // Racy.java needs exactly 10 s; Slow.java runs out at its ninth call-graph walk
        AnalysisResult one = scan(Duration.ofSeconds(RACY_STEPS), 1);
        AnalysisResult two = scan(Duration.ofSeconds(RACY_STEPS), 2);

        assertThat(tooSlow(two)).singleElement().satisfies(d -> {
            assertThat(d.file()).isEqualTo(slow);
            assertThat(d.message()).contains("call graph phase");
        });
        assertThat(files(two.findings(), "every-method")).containsExactly("Racy.java", "Racy.java");
        // Slow's methods have no facts, whichever walk came first: the call through it reaches nothing
        assertThat(two.findings()).filteredOn(f -> f.ruleId().equals("io-in-scope"))
                .extracting(Finding::enclosingMethod).containsExactly("demo.Racy#direct(String)");
        assertThat(keys(two.findings())).isEqualTo(keys(one.findings()));
        assertThat(two.diagnostics()).isEqualTo(one.diagnostics());
    }

    @Test
    void aResultWithAFileGivenUpForTimeIsNotCachedAndOneWithinTheLimitIs() {
        Path cache = dir.resolve("cache");
        AnalysisOptions limited = options(Duration.ofSeconds(RACY_STEPS), 2).withCacheDirectory(cache);
        Analyzer analyzer = analyzer();
        assertThat(tooSlow(analyzer.analyze(limited, ProgressListener.NONE))).hasSize(1);
        AnalysisResult again = analyzer.analyze(limited, ProgressListener.NONE);
        assertThat(again.fromCache()).isFalse();
        assertThat(tooSlow(again)).hasSize(1);

        AnalysisOptions generous = options(Duration.ofHours(1), 2).withCacheDirectory(dir.resolve("cache2"));
        analyzer.analyze(generous, ProgressListener.NONE);
        assertThat(analyzer.analyze(generous, ProgressListener.NONE).fromCache()).isTrue();
    }

    @Test
    void theLimitMustBePositive() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> options(Duration.ZERO, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private AnalysisResult scan(Duration limit, int threads) {
        return analyzer().analyze(options(limit, threads), ProgressListener.NONE);
    }

    private AnalysisOptions options(Duration limit, int threads) {
        return new AnalysisOptions(List.of(dir), false, List.of(), List.of(), threads, Set.of(),
                AnalysisOptions.DEFAULT_MAX_FILE_BYTES, dir).withFileTimeLimit(limit);
    }

    private static Analyzer analyzer() {
        return new Analyzer(List.of(new EveryMethodRule(), new IoInScopeRule()), ApiCatalogue.builtIn(), stepClock());
    }

    /**
     * One second per reading, counted per thread, so that a step costs the same whatever runs beside it.
     * A second, not less, because parsing has the same limit in real time: the limits here must stay
     * far above what parsing these two files takes.
     */
    private static LongSupplier stepClock() {
        ThreadLocal<long[]> readings = ThreadLocal.withInitial(() -> new long[1]);
        return () -> readings.get()[0] += STEP_NANOS;
    }

    private static List<Diagnostic> tooSlow(AnalysisResult result) {
        return result.diagnostics().stream().filter(d -> d.code().equals("too-slow")).toList();
    }

    /** Findings compared by what a report shows of them (a message has no equality of its own). */
    private static List<String> keys(List<Finding> findings) {
        return findings.stream().map(f -> f.ruleId() + " " + f.primary().file().getFileName() + ":"
                + f.primary().region().startLine() + " " + f.fingerprint()).toList();
    }

    private static List<String> files(List<Finding> findings, String rule) {
        return findings.stream().filter(f -> f.ruleId().equals(rule))
                .map(f -> f.primary().file().getFileName().toString()).toList();
    }

    private abstract static class TestRule implements Rule {
        abstract String id();

        @Override
        public RuleDescriptor descriptor() {
            return new RuleDescriptor(id(), id(), "test", id(), "Test rule.", Level.WARNING, Precision.HIGH, "",
                    List.of(), "none", "");
        }

        void report(MethodContext context, Reporter reporter) {
            MethodInfo method = context.method();
            Path file = method.declaringType().file().path();
            reporter.report(new Finding(id(), Level.WARNING, Message.of(method.displayName()),
                    SourceLocations.of(file, method.nameNode(), null), List.of(), List.of(), "none",
                    Fingerprints.of(id(), method.signature(), method.name(), ""), method.signature()));
        }
    }

    /** A finding on every method: shows which methods' rules were kept. */
    private static final class EveryMethodRule extends TestRule {
        @Override
        String id() {
            return "every-method";
        }

        @Override
        public void check(MethodContext context, Reporter reporter) {
            report(context, reporter);
        }
    }

    /** A finding on each method whose transaction reaches network I/O: shows what the call graph holds. */
    private static final class IoInScopeRule extends TestRule {
        @Override
        String id() {
            return "io-in-scope";
        }

        @Override
        public void check(MethodContext context, Reporter reporter) {
            if (context.transactionScopes().stream()
                    .anyMatch(s -> !context.effectsIn(s, Set.of(EffectKind.NETWORK)).isEmpty())) {
                report(context, reporter);
            }
        }
    }
}
