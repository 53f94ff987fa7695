package dev.racelint.cli;

import dev.racelint.analyzer.config.ProjectConfig;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.rule.RuleIds;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code racelint explain ID}: a rule's documentation (markdown). */
@Command(
        name = "explain",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        usageHelpAutoWidth = true,
        headerHeading = "%n",
        header = "Show a rule's documentation.",
        synopsisHeading = "%nUsage: ",
        descriptionHeading = "%n",
        description = {
            "Prints the rule's help as markdown: what it flags, why it is a race, how to fix it, "
                    + "and examples. It is the same text GitHub code scanning shows for an alert.",
        },
        parameterListHeading = "%nArguments:%n",
        optionListHeading = "%nOptions:%n",
        footerHeading = "%nExamples:%n",
        footer = {
            "  racelint explain io-in-transaction",
            "  racelint explain io-in-transaction | glow -    render the markdown",
        })
final class ExplainCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @ParentCommand
    RacelintCommand parent;

    @Mixin
    DebugOption debugOption;

    @Parameters(paramLabel = "ID", description = "A rule id, as listed by 'racelint rules'.")
    String id;

    @picocli.CommandLine.Option(names = "--finding", paramLabel = "FINGERPRINT",
            description = "Explain one of your findings: its fingerprint (from the JSON 'fingerprint' or SARIF "
                    + "partialFingerprints; a unique prefix of 8 or more characters will do). Prints the fixes that "
                    + "fit the frameworks in that finding's code first.")
    String fingerprint;

    @picocli.CommandLine.Option(names = "--path", paramLabel = "PATH", defaultValue = ".",
            description = "Where the finding is: the folder to scan for it (with --finding), with the racelint.yml "
                    + "that scan reads for it.")
    java.nio.file.Path path;

    @picocli.CommandLine.Option(names = "--min-level", paramLabel = "LEVEL",
            description = "With --finding: the --min-level the finding was reported at (${COMPLETION-CANDIDATES}); a "
                    + "finding below it is one a scan at that level does not show, and is refused. Default: warning.")
    AnalysisInput.MinLevel minLevel = AnalysisInput.MinLevel.warning;

    private Finding findFinding(RuleRegistry registry, Rule rule) {
        String wanted = fingerprint.strip();
        if (wanted.length() < 8) {
            throw new ParameterException(spec.commandLine(), "--finding needs at least 8 characters of the fingerprint");
        }
        if (!java.nio.file.Files.exists(path)) {
            throw new ParameterException(spec.commandLine(), "path does not exist: " + path);
        }
        // the scan's own settings (racelint.yml found as scan finds it), so that every finding scan reports is found here
        ProjectConfig config = config(registry);
        dev.racelint.analyzer.AnalysisOptions options = dev.racelint.analyzer.ScanSession.withConfig(
                new dev.racelint.analyzer.AnalysisOptions(java.util.List.of(path), false, java.util.List.of(),
                        java.util.List.of(), Runtime.getRuntime().availableProcessors(),
                        java.util.Set.of(rule.descriptor().id()), dev.racelint.analyzer.AnalysisOptions.DEFAULT_MAX_FILE_BYTES,
                        null), config);
        dev.racelint.analyzer.AnalysisResult result = dev.racelint.analyzer.ScanSession.analyse(registry.rules(), config,
                options, dev.racelint.analyzer.ProgressListener.NONE);
        java.util.List<Finding> matches = new java.util.ArrayList<>();
        for (Finding f : result.findings()) {
            if (f.fingerprint().startsWith(wanted)) {
                matches.add(f);
            }
        }
        result.suppressed().forEach(sf -> {
            if (sf.finding().fingerprint().startsWith(wanted)) {
                matches.add(sf.finding());
            }
        });
        if (matches.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "no " + rule.descriptor().id() + " finding with fingerprint "
                    + wanted + " under " + path + " (scan it with --format json to see fingerprints)");
        }
        if (matches.size() > 1) {
            throw new ParameterException(spec.commandLine(), "fingerprint prefix " + wanted + " matches "
                    + matches.size() + " findings: give more characters");
        }
        Finding found = matches.get(0);
        if (!found.level().isAtLeast(minLevel.level)) {
            throw new ParameterException(spec.commandLine(), "the " + rule.descriptor().id() + " finding " + wanted
                    + " is a " + found.level().sarifName() + ", below --min-level " + minLevel.level.sarifName()
                    + ": a scan at that level does not report it (pass --min-level " + found.level().sarifName()
                    + " to explain it)");
        }
        return found;
    }

    /** racelint.yml for --path, found and checked as {@code scan} does it (a problem is a usage error), or null. */
    private ProjectConfig config(RuleRegistry registry) {
        try {
            return dev.racelint.analyzer.ScanSession.config(path, dev.racelint.analyzer.SourceRoots.forScannedPath(path),
                    null, registry.rules());
        } catch (java.io.IOException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    @Override
    public Integer call() {
        RuleRegistry registry = parent.registry();
        Rule rule = registry.find(id.strip());
        if (rule == null) {
            throw new ParameterException(spec.commandLine(),
                    "unknown rule id '" + id + "'" + RuleIds.didYouMean(id, registry.descriptors().stream()
                            .map(d -> d.id()).toList()) + "; valid ids: " + AnalysisInput.validIds(registry));
        }
        String help = rule.descriptor().helpMarkdown();
        PrintWriter out = spec.commandLine().getOut();
        if (fingerprint != null) {
            Finding finding = findFinding(registry, rule);
            out.print(FrameworkFixes.forFinding(finding, help, path));
            out.flush();
            return ExitCodes.OK;
        }
        out.print(help);
        if (!help.endsWith("\n")) {
            out.print('\n');
        }
        out.flush();
        return ExitCodes.OK;
    }
}
