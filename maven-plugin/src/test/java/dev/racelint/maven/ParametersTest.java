package dev.racelint.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ParametersTest {

    private final RuleRegistry registry = RuleRegistry.load(ParametersTest.class.getClassLoader());

    @Test
    void allRulesRunByDefault() {
        Set<String> ids = RuleSelection.resolve(registry, null, null);
        assertThat(ids).hasSameSizeAs(registry.descriptors()).contains("io-in-transaction");
    }

    @Test
    void rulesAndDisabledRulesAcceptListsAndCommaSeparatedEntries() {
        assertThat(RuleSelection.resolve(registry, List.of("io-in-transaction, lost-update", "write-skew"), List.of()))
                .containsExactly("io-in-transaction", "lost-update", "write-skew");
        assertThat(RuleSelection.resolve(registry, List.of(), List.of("io-in-transaction,lost-update")))
                .doesNotContain("io-in-transaction", "lost-update")
                .hasSize(registry.descriptors().size() - 2);
        assertThat(RuleSelection.resolve(registry, List.of("io-in-transaction,lost-update"), List.of("lost-update")))
                .containsExactly("io-in-transaction");
    }

    @Test
    void unknownRuleIdsAreNamedWithTheValidOnes() {
        assertThatThrownBy(() -> RuleSelection.resolve(registry, List.of("io-in-transaction,nope"), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown rule id 'nope' in rules (racelint.rules); valid ids: ")
                .hasMessageContaining("io-in-transaction, ");
        assertThatThrownBy(() -> RuleSelection.resolve(registry, null, List.of("a", "b")))
                .hasMessageStartingWith("unknown rule ids 'a', 'b' in disabledRules (racelint.disabledRules); valid ids: ");
    }

    @Test
    void disablingEveryRuleIsAnError() {
        assertThatThrownBy(() -> RuleSelection.resolve(registry, List.of("lost-update"), List.of("lost-update")))
                .hasMessageStartingWith("rules and disabledRules leave no rule to run");
    }

    @Test
    void outputFormats() {
        assertThat(OutputFormat.parseList("sarif")).containsExactly(OutputFormat.SARIF);
        assertThat(OutputFormat.parseList(" JSON , sarif,json,text ")).containsExactly(OutputFormat.JSON,
                OutputFormat.SARIF, OutputFormat.TEXT);
        assertThat(OutputFormat.parseList("")).isEmpty();
        assertThat(OutputFormat.parseList("none")).isEmpty();
        assertThat(OutputFormat.parseList("html,sarif")).containsExactly(OutputFormat.HTML, OutputFormat.SARIF);
        assertThat(OutputFormat.HTML.writer()).isInstanceOf(dev.racelint.analyzer.report.HtmlReportWriter.class);
        assertThatThrownBy(() -> OutputFormat.parseList("sarif,pdf"))
                .hasMessage("unknown output format 'pdf' in outputFormats (racelint.outputFormats); valid formats: sarif, json, text, html");
    }

    @Test
    void aSharedOutputFolderGetsOneFileNamePerModule() throws Exception {
        assertThat(OutputFormat.SARIF.fileName(null)).isEqualTo("racelint.sarif");
        assertThat(OutputFormat.HTML.fileName("shop-api")).isEqualTo("racelint-shop-api.html");

        CheckMojo mojo = new CheckMojo();
        org.apache.maven.project.MavenProject project = new org.apache.maven.project.MavenProject();
        project.getBuild().setDirectory("/build/shop/api/target");
        mojo.project = project;
        mojo.outputDirectory = new java.io.File("/build/shop/api/target/reports");
        assertThat(mojo.sharedOutputDirectory()).as("inside the module's build folder").isFalse();
        mojo.outputDirectory = new java.io.File("/build/shop/target/racelint");
        assertThat(mojo.sharedOutputDirectory()).as("the reactor's folder").isTrue();
    }

    @Test
    void failOnViolationFalseNeverFailsAndTrueKeepsFailOn() throws Exception {
        CheckMojo mojo = new CheckMojo();
        set(mojo, "failOn", "warning");
        assertThat(mojo.failOn()).isEqualTo(FailOn.WARNING);
        set(mojo, "failOnViolation", Boolean.FALSE);
        assertThat(mojo.failOn()).isEqualTo(FailOn.NONE);
        set(mojo, "failOnViolation", Boolean.TRUE);
        assertThat(mojo.failOn()).isEqualTo(FailOn.WARNING);
        set(mojo, "failOn", "fatal");
        set(mojo, "failOnViolation", Boolean.FALSE);
        assertThatThrownBy(mojo::failOn).as("a wrong failOn is still reported").hasMessageContaining("'fatal'");
    }

    private static void set(Object target, String field, Object value) throws Exception {
        java.lang.reflect.Field f = target.getClass().getDeclaredField(field);
        f.setAccessible(true);
        f.set(target, value);
    }

    @Test
    void failOn() {
        assertThat(FailOn.parse("error")).isEqualTo(FailOn.ERROR);
        assertThat(FailOn.parse(" Warning ")).isEqualTo(FailOn.WARNING);
        assertThat(FailOn.parse("none")).isEqualTo(FailOn.NONE);
        assertThat(FailOn.parse("fatal")).isNull();
        assertThat(FailOn.ERROR.counts(Level.ERROR)).isTrue();
        assertThat(FailOn.ERROR.counts(Level.WARNING)).isFalse();
        assertThat(FailOn.WARNING.counts(Level.ERROR)).isTrue();
        assertThat(FailOn.NOTE.counts(Level.NOTE)).isTrue();
        assertThat(Arrays.stream(Level.values()).noneMatch(FailOn.NONE::counts)).isTrue();
    }

    @Test
    void verdict() {
        assertThat(new AbstractRacelintMojo.Verdict(FailOn.ERROR, 1, 0).fails()).isTrue();
        assertThat(new AbstractRacelintMojo.Verdict(FailOn.ERROR, 2, 2).fails()).isFalse();
        assertThat(new AbstractRacelintMojo.Verdict(FailOn.ERROR, 3, 2).fails()).isTrue();
        assertThat(new AbstractRacelintMojo.Verdict(FailOn.NONE, 3, 0).fails()).isFalse();
    }
}
