package dev.racelint.cli.testrules;

import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import java.nio.file.Path;
import java.util.List;

/**
 * Test-only rules with predictable findings: every method whose name starts with a prefix.
 * They are registered only through {@code dev.racelint.cli.Cli.testRules()}, never on the plain test class path.
 */
abstract class NamePrefixRule implements Rule {

    private final String prefix;
    private final Level level;

    NamePrefixRule(String prefix, Level level) {
        this.prefix = prefix;
        this.level = level;
    }

    @Override
    public void check(MethodContext context, Reporter reporter) {
        MethodInfo method = context.method();
        if (method.isConstructor() || !method.name().startsWith(prefix)) {
            return;
        }
        Path file = method.declaringType().file().path();
        String id = descriptor().id();
        reporter.report(new Finding(id, level,
                Message.of(method.displayName() + " has a suspicious name."),
                SourceLocations.of(file, method.nameNode(), null), List.of(), List.of(),
                "rename it", Fingerprints.of(id, method.signature(), method.name(), ""),
                method.signature()));
    }
}
