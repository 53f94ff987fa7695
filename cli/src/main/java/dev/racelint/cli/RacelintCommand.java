package dev.racelint.cli;

import dev.racelint.analyzer.RootLocale;
import dev.racelint.analyzer.report.ReportText;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/** The {@code racelint} command: {@code scan}, {@code rules} and {@code explain}. */
@Command(
        name = "racelint",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        headerHeading = "%n",
        header = "Finds request-, row- and message-level races in Java services.",
        synopsisHeading = "%nUsage: ",
        descriptionHeading = "%n",
        description = {
            "racelint reads Java sources (no build needed) and reports code that races with itself "
                    + "when two requests, rows or messages are handled at once, such as network "
                    + "I/O inside a database transaction.",
        },
        optionListHeading = "%nOptions:%n",
        commandListHeading = "%nCommands:%n",
        footerHeading = "%nExamples:%n",
        footer = {
            "  racelint scan .                        scan a folder, text report",
            "  racelint scan . --format sarif -o racelint.sarif",
            "                                         SARIF for GitHub code scanning",
            "  racelint rules                         list the rules",
            "  racelint explain io-in-transaction     one rule's documentation",
            "",
            "Exit codes: 0 no findings at or above --fail-on, 1 findings, 2 usage error,",
            "3 internal error. Run 'racelint COMMAND --help' for a command's options.",
        },
        subcommands = {ScanCommand.class, BaselineCommand.class, InitCommand.class, RulesCommand.class, ExplainCommand.class})
public final class RacelintCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    private final Supplier<RuleRegistry> registrySupplier;
    private RuleRegistry registry;

    /** The rules found on this class's class loader (the {@code racelint-rules} jar). */
    public RacelintCommand() {
        this(() -> RuleRegistry.load(RacelintCommand.class.getClassLoader()));
    }

    /** With the rules from {@code registry} (tests use their own). */
    public RacelintCommand(Supplier<RuleRegistry> registry) {
        this.registrySupplier = registry;
    }

    /** The rule registry, loaded on first use. */
    synchronized RuleRegistry registry() {
        if (registry == null) {
            registry = registrySupplier.get();
        }
        return registry;
    }

    /** Without a command: the usage on stderr, and the usage-error exit code. */
    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        err.println("racelint: missing command");
        spec.commandLine().usage(err);
        return ExitCodes.USAGE;
    }

    /**
     * Freed when the heap runs out, so that the message saying so can still be written: at that moment
     * parser threads may still hold their last trees.
     */
    private static byte[] outOfMemoryReserve;

    public static void main(String[] args) {
        RootLocale.forProcess();
        outOfMemoryReserve = new byte[16 * 1024 * 1024];
        String outOfMemory = outOfMemoryMessage(Runtime.getRuntime().maxMemory());
        int code;
        try {
            CommandLine commandLine = newCommandLine(new RacelintCommand());
            if (System.console() == null) {
                // Piped or redirected: reports are UTF-8 whatever the platform charset.
                commandLine.setOut(new PrintWriter(new OutputStreamWriter(
                        new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8), true));
            }
            code = commandLine.execute(args);
        } catch (OutOfMemoryError e) {
            outOfMemoryReserve = null;
            System.err.println(outOfMemory);
            code = ExitCodes.INTERNAL_ERROR;
        } catch (Throwable e) {
            System.err.println(ReportText.terminal("racelint: internal error: " + e));
            if (debugRequested(args)) {
                e.printStackTrace();
            }
            code = ExitCodes.INTERNAL_ERROR;
        }
        System.out.flush();
        System.exit(code);
    }

    /** What to do when the heap is too small for the code being scanned. */
    static String outOfMemoryMessage(long maxHeapBytes) {
        long mb = maxHeapBytes / (1024 * 1024);
        long suggested = Math.max(2, (mb * 2 + 1023) / 1024);
        return "racelint: out of memory: the " + mb + " MB heap is too small for this code base. Give the JVM more "
                + "(e.g. RACELINT_JAVA_OPTS=\"-XX:+UseParallelGC -Xmx" + suggested + "g\" with the launcher, or java -Xmx"
                + suggested + "g -jar racelint.jar), or scan fewer folders (--exclude, or one module at a time).";
    }

    /** A command line with racelint's error handling: exit 2 for usage errors, 3 for failures. */
    public static CommandLine newCommandLine(RacelintCommand command) {
        CommandLine commandLine = new CommandLine(command);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setParameterExceptionHandler(RacelintCommand::handleUsageError);
        commandLine.setExecutionExceptionHandler(RacelintCommand::handleFailure);
        return commandLine;
    }

    private static int handleUsageError(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        // the message may echo racelint.yml's keys and values, or a path: text from the scanned tree
        err.println("racelint: " + ReportText.terminal(firstLine(ex.getMessage())));
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return ExitCodes.USAGE;
    }

    private static int handleFailure(Exception ex, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        boolean debug = debugRequested(parseResult);
        if (ex instanceof ScanCommand.OutputException) {
            // Not a bug, but not a usage error either: the report could not be written.
            err.println("racelint: " + ReportText.terminal(ex.getMessage()));
        } else {
            String message = ex.getMessage() == null ? ex.getClass().getName()
                    : ex.getClass().getSimpleName() + ": " + firstLine(ex.getMessage());
            err.println("racelint: internal error: " + ReportText.terminal(message));
            if (!debug) {
                err.println("racelint: run again with --debug for the stack trace.");
            }
        }
        if (debug) {
            ex.printStackTrace(err);
        }
        err.flush();
        return ExitCodes.INTERNAL_ERROR;
    }

    private static boolean debugRequested(ParseResult parseResult) {
        for (ParseResult p = parseResult; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--debug")) {
                return true;
            }
        }
        return false;
    }

    private static boolean debugRequested(String[] args) {
        for (String arg : args) {
            if (arg.equals("--debug")) {
                return true;
            }
        }
        return false;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return (nl < 0 ? message : message.substring(0, nl)).strip();
    }
}
