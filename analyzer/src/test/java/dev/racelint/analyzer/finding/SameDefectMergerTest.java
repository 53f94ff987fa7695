package dev.racelint.analyzer.finding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.Analyzer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SameDefectMergerTest {

    private static final Path SERVICE = Path.of("src/main/java/p/RefundService.java");

    private static CodeLocation at(String file, int line, String label) {
        return new CodeLocation(Path.of(file), new SourceRegion(line, 5, line, 20), label);
    }

    private static Finding finding(String rule, int exitLine, String effectFile, String fingerprint) {
        CodeLocation method = new CodeLocation(SERVICE, new SourceRegion(10, 17, 10, 25), "runs in a transaction");
        return new Finding(rule, Level.ERROR, Message.of("calls a broker."), method, List.of(),
                List.of(method, at(SERVICE.toString(), exitLine, "calls Sender.send()"), at(effectFile, 18, "calls Template.send() (broker publish)")),
                "fix", fingerprint, "p.RefundService#complete()");
    }

    @Test
    void tracesLeavingThroughOneCallAreOneFindingNamingTheOtherEffects() {
        List<Finding> merged = SameDefectMerger.merge(List.of(
                finding("io-in-transaction", 14, "src/main/java/p/JmsSender.java", "b"),
                finding("io-in-transaction", 14, "src/main/java/p/RabbitSender.java", "a")), Analyzer.FINDING_ORDER);
        assertThat(merged).hasSize(1);
        Finding kept = merged.get(0);
        assertThat(kept.fingerprint()).isEqualTo("a");
        assertThat(kept.related()).extracting(CodeLocation::file).containsExactly(Path.of("src/main/java/p/JmsSender.java"));
        assertThat(kept.message().plain()).endsWith("also reaches Template.send() (broker publish): one defect, reported once.");
        assertThat(kept.message().segments()).anyMatch(s -> s.relatedIndex() == 0);
    }

    @Test
    void tracesLeavingThroughDifferentCallsStaySeparate() {
        assertThat(SameDefectMerger.merge(List.of(
                finding("io-in-transaction", 14, "src/main/java/p/JmsSender.java", "a"),
                finding("io-in-transaction", 16, "src/main/java/p/RabbitSender.java", "b")), Analyzer.FINDING_ORDER)).hasSize(2);
    }

    @Test
    void differentRulesAtOnePlaceStaySeparate() {
        assertThat(SameDefectMerger.merge(List.of(
                finding("io-in-transaction", 14, "src/main/java/p/JmsSender.java", "a"),
                finding("dual-write", 14, "src/main/java/p/JmsSender.java", "b")), Analyzer.FINDING_ORDER)).hasSize(2);
    }
}
