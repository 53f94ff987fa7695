package dev.racelint.cli.testrules;

import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.RuleMetadata;

@RuleMetadata(id = "test-racy-method", name = "TestRacyMethod", shape = "test",
        title = "Methods named racy*", description = "Test rule.", level = Level.ERROR,
        precision = Precision.VERY_HIGH, fix = "rename it")
public final class RacyMethodRule extends NamePrefixRule {
    public RacyMethodRule() {
        super("racy", Level.ERROR);
    }
}
