package dev.racelint.cli.testrules;

import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.RuleMetadata;

@RuleMetadata(id = "test-shaky-method", name = "TestShakyMethod", shape = "test",
        title = "Methods named shaky*", description = "Test rule.", level = Level.WARNING,
        precision = Precision.LOW, fix = "rename it")
public final class ShakyMethodRule extends NamePrefixRule {
    public ShakyMethodRule() {
        super("shaky", Level.WARNING);
    }
}
