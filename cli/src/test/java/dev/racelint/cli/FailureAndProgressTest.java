package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.rule.RuleRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FailureAndProgressTest {

    @TempDir
    Path dir;

    private static final Supplier<RuleRegistry> BROKEN_RULES = () -> {
        throw new IllegalStateException("two rules share the id boom");
    };

    @Test
    void anInternalFailureExitsThreeWithoutAStackTrace() {
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);

        Cli.Run run = run(BROKEN_RULES, "scan", dir.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.INTERNAL_ERROR);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("racelint: internal error: IllegalStateException: two rules share the id boom\n"
                + "racelint: run again with --debug for the stack trace.\n");
    }

    @Test
    void debugShowsTheStackTrace() {
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);

        Cli.Run run = run(BROKEN_RULES, "scan", dir.toString(), "--debug");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.INTERNAL_ERROR);
        assertThat(run.err()).startsWith("racelint: internal error: IllegalStateException: two rules share the id boom\n")
                .contains("java.lang.IllegalStateException: two rules share the id boom")
                .contains("\tat dev.racelint.cli.");
    }

    @Test
    void progressIsOneRewrittenLineThatIsClearedAtTheEnd() throws InterruptedException {
        StringWriter err = new StringWriter();
        try (ConsoleProgress progress = new ConsoleProgress(new PrintWriter(err))) {
            progress.filesParsed(1, 400); // within the first interval: not shown
            assertThat(err.toString()).isEmpty();
            Thread.sleep(120);
            progress.filesParsed(2, 400);
            progress.filesParsed(3, 400); // throttled
            assertThat(err.toString()).isEqualTo("\rracelint: parsed 2/400 files");
            Thread.sleep(120);
            progress.methodsAnalysed(9, 12);
        }
        String text = err.toString();
        String analysed = "\rracelint: analysed 9/12 methods";
        assertThat(text).isEqualTo("\rracelint: parsed 2/400 files" + analysed
                + "\r" + " ".repeat("racelint: analysed 9/12 methods".length()) + "\r");
    }
}
