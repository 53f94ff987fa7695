package dev.racelint.cli;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.AnalysisResult;
import dev.racelint.analyzer.ProgressListener;
import dev.racelint.analyzer.baseline.Baseline;
import dev.racelint.analyzer.ScanSession;
import dev.racelint.analyzer.config.ProjectConfig;
import dev.racelint.analyzer.finding.Level;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code racelint baseline create|update}: record today's findings so that scans report only new ones. */
@Command(
        name = "baseline",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        headerHeading = "%n",
        header = "Record the current findings, so that later scans report only new ones.",
        synopsisHeading = "%nUsage: ",
        descriptionHeading = "%n",
        description = {
            "A baseline is a JSON file listing known findings (rule, file, method, fingerprint, message), "
                    + "sorted for clean diffs; commit it and scan with 'racelint scan --baseline FILE'. "
                    + "Findings match by fingerprint (the rule, the enclosing method and the statement), so "
                    + "moving code or adding lines above it keeps the match.",
        },
        commandListHeading = "%nCommands:%n",
        footerHeading = "%nExamples:%n",
        footer = {
            "  racelint baseline create .",
            "  racelint scan . --baseline racelint-baseline.json",
            "  racelint baseline update . --file config/racelint-baseline.json",
        },
        subcommands = {BaselineCommand.Create.class, BaselineCommand.Update.class})
final class BaselineCommand implements Callable<Integer> {

    static final String DEFAULT_FILE = "racelint-baseline.json";

    @Spec
    CommandSpec spec;

    @ParentCommand
    RacelintCommand parent;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "say 'create' or 'update' (see 'racelint baseline --help')");
    }

    /** What create and update share: what to scan, and where the baseline lives. */
    abstract static class Write implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @ParentCommand
        BaselineCommand baseline;

        @Mixin
        DebugOption debugOption;

        @Mixin
        AnalysisInput input;

        @Option(names = {"-f", "--file"}, paramLabel = "FILE",
                description = "The baseline file. Default: " + DEFAULT_FILE + " in the current folder.")
        Path file = Path.of(DEFAULT_FILE);

        Baseline current() {
            ProjectConfig config = input.config(baseline.parent.registry());
            AnalysisOptions options = input.options(baseline.parent.registry(), config);
            AnalysisResult result = ScanSession.analyse(baseline.parent.registry().rules(), config, options,
                    ProgressListener.NONE);
            // an empty scan (a wrong path, an exclude of everything) would write an empty baseline, or empty one
            input.nothingAnalysed(options, config, result).ifPresent(why -> {
                if (!input.allowEmpty) {
                    throw usage(why + " No baseline written; --allow-empty writes one all the same.");
                }
                spec.commandLine().getErr().println("racelint: " + why + " Accepted (--allow-empty).");
            });
            // what a scan at the same level reports: a finding it does not show needs no baseline entry
            Level lowest = input.minLevel(config);
            return Baseline.of(result.findings().stream().filter(f -> f.level().isAtLeast(lowest)).toList(),
                    result.sourceRoot());
        }

        ParameterException usage(String message) {
            return new ParameterException(spec.commandLine(), message);
        }

        int write(Baseline next, String what) {
            PrintWriter err = spec.commandLine().getErr();
            try {
                next.write(file);
            } catch (IOException e) {
                throw new ScanCommand.OutputException("cannot write " + file + ": " + e.getMessage(), e);
            }
            err.println("racelint: " + what + " " + file + ".");
            err.flush();
            return ExitCodes.OK;
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
            description = "Scan and write a new baseline with every current finding. Refuses to replace an existing "
                    + "file (use 'update').")
    static final class Create extends Write {
        @Override
        public Integer call() {
            if (Files.exists(file)) {
                throw usage(file + " already exists: 'racelint baseline update' rewrites it");
            }
            Baseline next = current();
            return write(next, "baseline of " + next.entries().size() + " finding"
                    + (next.entries().size() == 1 ? "" : "s") + " written to");
        }
    }

    @Command(name = "update", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
            description = "Scan and rewrite an existing baseline with the current findings: fixed ones leave it, new "
                    + "ones join it. The summary says how many of each.")
    static final class Update extends Write {
        @Override
        public Integer call() {
            if (!Files.isRegularFile(file)) {
                throw usage(file + " does not exist: 'racelint baseline create' writes it");
            }
            Baseline old;
            try {
                old = Baseline.read(file);
            } catch (IOException e) {
                throw usage(e.getMessage());
            }
            Baseline next = current();
            Set<String> before = new HashSet<>();
            old.entries().forEach(e -> before.add(e.ruleId() + '\n' + e.fingerprint()));
            Set<String> after = new HashSet<>();
            next.entries().forEach(e -> after.add(e.ruleId() + '\n' + e.fingerprint()));
            long added = after.stream().filter(k -> !before.contains(k)).count();
            long removed = before.stream().filter(k -> !after.contains(k)).count();
            return write(next, "baseline updated (" + added + " added, " + removed + " fixed and removed, "
                    + next.entries().size() + " in all):");
        }
    }
}
