package dev.racelint.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code racelint init}: write a commented starter racelint.yml. */
@Command(
        name = "init",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        headerHeading = "%n",
        header = "Write a commented starter racelint.yml.",
        synopsisHeading = "%nUsage: ",
        descriptionHeading = "%n",
        description = {
            "Writes racelint.yml in FOLDER (default: the current folder) with every setting explained and "
                    + "commented out. 'racelint scan' reads it from the scanned folder. Refuses to replace an "
                    + "existing file.",
        })
final class InitCommand implements Callable<Integer> {

    static final String STARTER = """
            # racelint project configuration. 'racelint scan' reads this file from the scanned folder
            # (or --config FILE); every setting is optional. Docs: docs/configuration.md

            # Switch rules off, or change their level: off | on | error | warning | note
            rules:
              # cache-stampede: off
              # unjittered-retry: error

            # The least severe level reported (error | warning | note); the default leaves notes out
            # (small harms, and note-level rules such as cache-stampede). --min-level wins over it.
            # minLevel: warning

            # Your own guard annotations: a handler carrying one admits only callers holding an authority
            # (check-then-act and write-skew reached only through such handlers are notes).
            authorization:
              # - com.acme.security.BackOfficeOnly

            # Files to leave out, as globs relative to this file's folder ('/'-separated).
            exclude:
              # - "**/generated/**"

            # Your own wrappers, so racelint sees through them: "qualified.Type#method" (or #* for every
            # method) mapped to what calling it does:
            #   http, publish, mail, rpc, network  - remote I/O (io-in-transaction, lock-across-io, ...)
            #   sleep                              - the thread waits
            #   async                              - lambdas passed to it run later, on another thread
            #   transaction                        - lambdas passed to it run inside a transaction
            #   lock / unlock                      - takes / releases a lock (lock-across-io, lock-order)
            #   idempotency-store                  - claims an idempotency key (consumers and endpoints
            #                                        that claim one are idempotent)
            apis:
              # "com.acme.payments.PaymentsClient#*": http
              # "com.acme.events.EventBus#publish": publish
              # "com.acme.locks.ClusterLock#acquire": lock
              # "com.acme.locks.ClusterLock#release": unlock
              # "com.acme.idempotency.KeyStore#claim": idempotency-store

            # How far the analysis looks (call depths, path lengths, pass counts); each name, its default
            # and what happens at the bound: docs/configuration.md#limits
            limits:
              # reach-depth: 8
              # witness-calls: 4
            """;

    @Spec
    CommandSpec spec;

    @Mixin
    DebugOption debugOption;

    @Parameters(paramLabel = "FOLDER", arity = "0..1", showDefaultValue = Visibility.NEVER,
            description = "Where to write racelint.yml. Default: the current folder.")
    Path folder = Path.of(".");

    @Override
    public Integer call() {
        if (!Files.isDirectory(folder)) {
            throw new ParameterException(spec.commandLine(), "not a folder: " + folder);
        }
        Path file = folder.resolve("racelint.yml");
        for (String name : dev.racelint.analyzer.config.ProjectConfig.FILE_NAMES) {
            if (Files.exists(folder.resolve(name))) {
                throw new ParameterException(spec.commandLine(), folder.resolve(name) + " already exists");
            }
        }
        ScanCommand.writeAtomically(file.toAbsolutePath(), w -> w.write(STARTER));
        spec.commandLine().getErr().println("racelint: wrote " + file + "; edit it, then run 'racelint scan'.");
        spec.commandLine().getErr().flush();
        return ExitCodes.OK;
    }
}
