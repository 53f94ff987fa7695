package dev.racelint.analyzer.suppress;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.JavaParser;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.parse.JavaSourceParser;
import dev.racelint.analyzer.parse.ParsedFile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which findings a suppression in the source covers, read from the syntax tree and its comments. */
class SuppressionsTest {

    private static final Path FILE = Path.of("/src/demo/Ledger.java").toAbsolutePath();

    // Line numbers matter: the findings below are placed on them (line 1 is the package).
    private static final String SOURCE = """
            package demo;

            class Ledger {
                // the gate is held for microseconds
                @SuppressWarnings("racelint:lock-across-io")
                private final Runnable flusher = new Runnable() {
                    public void run() {
                        flush();
                    }
                };

                @SuppressWarnings(value = {"unchecked", "racelint"})
                void legacy() {
                    flush();
                }

                void current() {
                    // racelint:ignore lock-order consistent order enforced by LockOrder
                    flush();
                    flush(); // racelint:ignore dual-write
                    flush();
                }

                void flush() {}
            }
            """;

    @Test
    void eachFormCoversWhatItShould() {
        ParsedFile file = new ParsedFile(FILE, new JavaParser(JavaSourceParser.configuration()).parse(SOURCE).getResult().orElseThrow());
        List<Finding> findings = List.of(
                finding("lock-across-io", 8),  // inside the annotated field: suppressed
                finding("io-in-transaction", 8),  // another rule in that field: kept
                finding("write-skew", 14),     // "racelint" in an array: every rule, suppressed
                finding("lock-order", 19),     // the comment on the line above: suppressed
                finding("lock-order", 21),     // two lines below the comment: kept
                finding("dual-write", 20),     // a trailing comment on the same line: suppressed
                finding("check-then-act", 19)); // the comment names another rule: kept

        Suppressions.Result result = Suppressions.apply(findings, List.of(file));

        assertThat(result.kept()).extracting(f -> f.ruleId() + "@" + f.primary().region().startLine())
                .containsExactly("io-in-transaction@8", "lock-order@21", "check-then-act@19");
        assertThat(result.suppressed()).extracting(s -> s.finding().ruleId() + ":" + s.suppression().justification())
                .containsExactly("lock-across-io:the gate is held for microseconds", "write-skew:",
                        "lock-order:consistent order enforced by LockOrder", "dual-write:");
        // the array form and the trailing comment give no reason: each is reported once, as a note
        assertThat(result.notes()).extracting(Diagnostic::line).containsExactly(12, 20);
        assertThat(result.notes()).allSatisfy(d -> {
            assertThat(d.level()).isEqualTo(Level.NOTE);
            assertThat(d.code()).isEqualTo(Diagnostic.SUPPRESSION_WITHOUT_REASON);
        });
    }

    private static Finding finding(String rule, int line) {
        CodeLocation at = new CodeLocation(FILE, new SourceRegion(line, 9, line, 14), "here");
        return new Finding(rule, Level.ERROR, Message.of(rule), at, List.of(), List.of(), "fix", rule + line, "demo.Ledger#m()");
    }
}
