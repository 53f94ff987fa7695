package dev.racelint.cli;

import dev.racelint.analyzer.rule.Rule;
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

    @Override
    public Integer call() {
        RuleRegistry registry = parent.registry();
        Rule rule = registry.find(id.strip());
        if (rule == null) {
            throw new ParameterException(spec.commandLine(),
                    "unknown rule id '" + id + "'; valid ids: " + AnalysisInput.validIds(registry));
        }
        String help = rule.descriptor().helpMarkdown();
        PrintWriter out = spec.commandLine().getOut();
        out.print(help);
        if (!help.endsWith("\n")) {
            out.print('\n');
        }
        out.flush();
        return ExitCodes.OK;
    }
}
