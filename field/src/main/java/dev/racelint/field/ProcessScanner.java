package dev.racelint.field;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The real CLI: the ./racelint launcher (or any racelint executable) in a process of its own. */
final class ProcessScanner implements Scanner {
    private final Path racelint;

    ProcessScanner(Path racelint) {
        this.racelint = racelint;
    }

    @Override
    public Outcome scan(Path repository, Path scanned, Path report) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(racelint.toString());
        command.addAll(Scanner.arguments(repository, scanned, report));
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Outcome(process.waitFor(), stderr);
    }
}
