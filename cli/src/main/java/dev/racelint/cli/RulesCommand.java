package dev.racelint.cli;

import dev.racelint.analyzer.rule.RuleDescriptor;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code racelint rules}: the installed rules as a table. */
@Command(
        name = "rules",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        usageHelpAutoWidth = true,
        headerHeading = "%n",
        header = "List the rules.",
        synopsisHeading = "%nUsage: ",
        descriptionHeading = "%n",
        description = {
            "Prints one line per rule: its id (for --rules, suppressions and SARIF), the race shape "
                    + "it belongs to, its level (error, warning or note: what --fail-on compares "
                    + "against, and what --min-level leaves out: notes by default), how often its findings are right "
                    + "(precision), and what it flags.",
        },
        optionListHeading = "%nOptions:%n",
        footerHeading = "%nExamples:%n",
        footer = {
            "  racelint rules",
            "  racelint explain io-in-transaction    the documentation of one rule",
        })
final class RulesCommand implements Callable<Integer> {

    private static final String[] HEADER = {"ID", "SHAPE", "LEVEL", "PRECISION", "TITLE"};

    @Spec
    CommandSpec spec;

    @ParentCommand
    RacelintCommand parent;

    @Mixin
    DebugOption debugOption;

    @picocli.CommandLine.Option(names = "--shape", paramLabel = "SHAPE",
            description = "Only the rules of this race shape: 1-7 (the seven-shape review: 1 check-then-act "
                    + "... 7 write skew) or a family (transaction boundaries, locks, retries, scheduling, caching).")
    String shape;

    @Override
    public Integer call() {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        java.util.Set<String> shapes = new java.util.TreeSet<>();
        parent.registry().descriptors().forEach(d -> shapes.add(d.shape()));
        if (shape != null && shapes.stream().noneMatch(s -> s.equalsIgnoreCase(shape.strip()))) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "no rule has shape '" + shape + "'; shapes: " + String.join(", ", shapes));
        }
        for (RuleDescriptor rule : parent.registry().descriptors()) {
            if (shape != null && !rule.shape().equalsIgnoreCase(shape.strip())) {
                continue;
            }
            rows.add(new String[] {
                rule.id(), rule.shape(), rule.level().sarifName(), rule.precision().sarifName(), rule.title(),
            });
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(table(rows));
        List<String> notes = new ArrayList<>();
        for (int i = 1; i < rows.size(); i++) {
            if (rows.get(i)[2].equals(dev.racelint.analyzer.finding.Level.NOTE.sarifName())) {
                notes.add(rows.get(i)[0]);
            }
        }
        if (!notes.isEmpty()) {
            out.print("\nOff by default: the rules at level note (" + String.join(", ", notes) + ") are reported only with "
                    + "--min-level note (or minLevel: note in racelint.yml, or a level for the rule under rules:).\n");
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** Left-aligned columns two spaces apart; the last column is not padded. */
    static String table(List<String[]> rows) {
        int columns = rows.get(0).length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], row[c] == null ? 0 : row[c].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                String cell = row[c] == null ? "" : row[c];
                text.append(cell);
                if (c < columns - 1) {
                    text.append(" ".repeat(widths[c] - cell.length() + 2));
                }
            }
            text.append('\n');
        }
        return text.toString();
    }
}
