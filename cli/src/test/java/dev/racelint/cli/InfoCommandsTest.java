package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** rules, explain, --version and --help. */
class InfoCommandsTest {

    @Test
    void rulesPrintsATable() {
        Cli.Run run = run(Cli.testRules(), "rules");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo(""
                + "ID                 SHAPE  LEVEL    PRECISION  TITLE\n"
                + "test-racy-method   test   error    very-high  Methods named racy*\n"
                + "test-shaky-method  test   warning  low        Methods named shaky*\n");
    }

    @Test
    void rulesListsEveryInstalledRule() {
        List<RuleDescriptor> installed = RuleRegistry.load(getClass().getClassLoader()).descriptors();

        Cli.Run run = run("rules");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("ID ");
        List<String> notes = installed.stream().filter(r -> r.level() == dev.racelint.analyzer.finding.Level.NOTE)
                .map(RuleDescriptor::id).toList();
        assertThat(notes).as("the catalogue has note rules (cache-stampede)").isNotEmpty();
        // the table, then a blank line and the sentence that says the note rules are off by default
        assertThat(run.out().lines()).hasSize(installed.size() + 3);
        assertThat(run.out()).endsWith("\nOff by default: the rules at level note (" + String.join(", ", notes)
                + ") are reported only with --min-level note (or minLevel: note in racelint.yml, or a level for the rule "
                + "under rules:).\n");
        for (RuleDescriptor rule : installed) {
            assertThat(run.out()).containsPattern("(?m)^" + java.util.regex.Pattern.quote(rule.id()) + " +"
                    + java.util.regex.Pattern.quote(rule.shape()) + " +" + rule.level().sarifName() + " +"
                    + rule.precision().sarifName() + " +" + java.util.regex.Pattern.quote(rule.title()) + "$");
        }
        assertThat(run.out()).contains("io-in-transaction").contains("Network I/O inside a database transaction");
    }

    @Test
    void explainPrintsTheRuleHelp() {
        Cli.Run run = run(Cli.testRules(), "explain", "test-racy-method");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("# test-racy-method\n\nFlags methods whose name starts with `racy`. Test only.\n");
    }

    @Test
    void explainOfTheInstalledRule() {
        Cli.Run run = run("explain", "io-in-transaction");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).isEqualTo(RuleRegistry.load(getClass().getClassLoader())
                .find("io-in-transaction").descriptor().helpMarkdown());
    }

    @Test
    void explainOfAnUnknownIdIsAUsageErrorListingTheIds() {
        Cli.Run run = run(Cli.testRules(), "explain", "no-such-rule");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("racelint: unknown rule id 'no-such-rule'; valid ids: test-racy-method, "
                + "test-shaky-method\nTry 'racelint explain --help' for more information.\n");
    }

    @Test
    void explainWithoutAnIdIsAUsageError() {
        Cli.Run run = run(Cli.testRules(), "explain");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("Missing required parameter: 'ID'");
    }

    @Test
    void versionPrintsTheBuildVersion() {
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"-V"},
                new String[] {"scan", "--version"}, new String[] {"rules", "--version"})) {
            Cli.Run run = run(Cli.testRules(), args);

            assertThat(run.exitCode()).isZero();
            assertThat(run.out()).startsWith("racelint " + VersionProvider.version() + "\n")
                    .containsPattern("\ncommit: ([0-9a-f]{7,40}( \\(\\d{4}-\\d\\d-\\d\\dT[\\d:]+Z\\))?(, with uncommitted changes)?"
                            + "|unknown \\(built outside a git work tree\\))\n")
                    .contains("\nrules: " + Cli.testRules().get().descriptors().size() + " (rule set ")
                    .containsPattern("\nJavaParser \\d+\\.\\d+\\.\\d+, JSqlParser \\d+\\.\\d+")
                    .contains("\nJava " + System.getProperty("java.version"))
                    .doesNotContain("${");
        }
        assertThat(VersionProvider.version()).matches("\\d+\\.\\d+\\.\\d+\\S*");
        // This build runs in a git work tree (a clone or a worktree: .git is a folder or a file), so
        // the commit must have been filtered in.
        if (java.nio.file.Files.exists(java.nio.file.Path.of("..", ".git"))) {
            assertThat(VersionProvider.commit()).matches("[0-9a-f]{7,40}");
        }
    }

    @Test
    void theRuleSetDigestTellsRuleSetsApartAndIgnoresOrder() {
        List<RuleDescriptor> rules = Cli.testRules().get().descriptors();
        List<RuleDescriptor> reversed = new java.util.ArrayList<>(rules);
        java.util.Collections.reverse(reversed);

        assertThat(rules).hasSizeGreaterThan(1);
        assertThat(VersionProvider.ruleSetDigest(reversed)).isEqualTo(VersionProvider.ruleSetDigest(rules))
                .matches("[0-9a-f]{12}");
        assertThat(VersionProvider.ruleSetDigest(rules.subList(1, rules.size())))
                .isNotEqualTo(VersionProvider.ruleSetDigest(rules));
    }

    @Test
    void everyCommandExplainsItself() {
        Cli.Run root = run(Cli.testRules(), "--help");
        assertThat(root.exitCode()).isZero();
        assertThat(root.out()).contains("Usage: racelint").contains("scan").contains("rules").contains("explain")
                .contains("Examples:").contains("Exit codes:");

        Cli.Run scan = run(Cli.testRules(), "scan", "--help");
        assertThat(scan.exitCode()).isZero();
        assertThat(scan.out())
                .contains("Usage: racelint scan")
                .contains("--format=FORMAT").contains("text, sarif, json").contains("Default: text")
                .contains("--output=FILE").contains("--classpath=CP").contains("--include-tests")
                .contains("--exclude=GLOB").contains("--rules=ID").contains("--fail-on=LEVEL")
                .contains("Default: error").contains("--threads=N").contains("--sarif-category=CAT")
                .contains("--source-root=DIR").contains("--max-file-size=BYTES").contains("Default: 10485760")
                .contains("--timings").contains("--no-color")
                .contains("Examples:")
                .doesNotContain("--debug");
        for (String option : scan.out().split("\n(?=\\s{2,6}-)")) {
            assertThat(option.split("Default:", -1)).as("one default per option:%n%s", option).hasSizeLessThanOrEqualTo(2);
        }

        for (String command : List.of("rules", "explain")) {
            Cli.Run help = run(Cli.testRules(), command, "--help");
            assertThat(help.exitCode()).isZero();
            assertThat(help.out()).contains("Usage: racelint " + command).contains("Examples:");
        }
    }

    /** The README's option table is the user's reference: every scan option is in it. */
    @Test
    void theReadmeListsEveryScanOption() throws Exception {
        String readme = java.nio.file.Files.readString(java.nio.file.Path.of("..", "README.md"));
        picocli.CommandLine scan = new picocli.CommandLine(new RacelintCommand(Cli.testRules()))
                .getSubcommands().get("scan");
        List<String> missing = new java.util.ArrayList<>();
        for (picocli.CommandLine.Model.OptionSpec option : scan.getCommandSpec().options()) {
            if (option.usageHelp() || option.versionHelp() || option.hidden()) {
                continue;
            }
            if (!readme.contains("`" + option.longestName())) {
                missing.add(option.longestName());
            }
        }
        assertThat(missing).as("scan options missing from the README's option table").isEmpty();
    }
}
