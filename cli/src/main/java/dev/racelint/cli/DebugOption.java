package dev.racelint.cli;

import picocli.CommandLine.Option;

/** The hidden {@code --debug} option: print stack traces of internal errors. */
final class DebugOption {
    @Option(names = "--debug", hidden = true, description = "Print the stack trace of internal errors.")
    boolean debug;
}
