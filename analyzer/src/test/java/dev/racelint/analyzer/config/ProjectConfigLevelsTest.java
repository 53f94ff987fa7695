package dev.racelint.analyzer.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.AnalysisResult;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.RuleDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rule's level in racelint.yml is that rule's severity; a finding the rule made a note from a fact stays one. */
class ProjectConfigLevelsTest {

    @TempDir
    Path tree;

    @Test
    void aRuleLevelRaisesTheRulesFindingsButNotTheNotesItDemotedFromAFact() throws IOException {
        AnalysisResult levelled = config("rules:\n  check-then-act: error\n").applyLevels(result(Level.WARNING,
                finding(Level.WARNING, "Two requests can both pass the check."),
                finding(Level.NOTE, "Two requests can both pass the check. Reported as a note: only callers holding "
                        + "ROLE_ADMIN reach it.")));

        assertThat(levelled.findings()).extracting(Finding::level).containsExactly(Level.ERROR, Level.NOTE);
        assertThat(levelled.rules()).extracting(RuleDescriptor::level).containsExactly(Level.ERROR);
    }

    @Test
    void aNoteRuleTurnedOnAtWarningReportsItsFindingsAsWarnings() throws IOException {
        AnalysisResult levelled = config("rules:\n  check-then-act: warning\n").applyLevels(result(Level.NOTE,
                finding(Level.NOTE, "A note rule's finding.")));

        assertThat(levelled.findings()).extracting(Finding::level).containsExactly(Level.WARNING);
    }

    @Test
    void aRuleSetToNoteLowersEverything() throws IOException {
        AnalysisResult levelled = config("rules:\n  check-then-act: note\n").applyLevels(result(Level.WARNING,
                finding(Level.WARNING, "Two requests can both pass the check.")));

        assertThat(levelled.findings()).extracting(Finding::level).containsExactly(Level.NOTE);
    }

    private ProjectConfig config(String yaml) throws IOException {
        Path file = Files.writeString(tree.resolve("racelint.yml"), yaml);
        return ProjectConfig.read(file, Path.of("racelint.yml"), List.of(tree));
    }

    private AnalysisResult result(Level ruleLevel, Finding... findings) {
        RuleDescriptor rule = new RuleDescriptor("check-then-act", "CheckThenAct", "check then act", "Check then act",
                "A read decides a write.", ruleLevel, Precision.HIGH, "362", List.of("concurrency"), "Make it atomic.",
                "# Check then act\n");
        return new AnalysisResult(List.of(rule), List.of(findings), List.of(), tree, 1, 1, new java.util.LinkedHashMap<>(),
                List.of());
    }

    private Finding finding(Level level, String text) {
        return new Finding("check-then-act", level, Message.of(text),
                new CodeLocation(tree.resolve("A.java"), new SourceRegion(3, 5, 3, 20), null), List.of(), List.of(),
                "Make it atomic.", "f" + text.length(), "demo.A.run()");
    }
}
