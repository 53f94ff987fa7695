package dev.racelint.analyzer.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.source.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file nested deeper than the parser's stack allows is refused by a count before parsing, so the
 * outcome does not depend on how much of the parser the JIT has compiled: {@link
 * NestingDepth#MAX_NESTING} deep parses, one more is {@code too-deep} at its line, on every run.
 */
class NestingDepthTest {

    @TempDir
    Path dir;

    private static String nested(int depth) {
        StringBuilder expression = new StringBuilder("1");
        for (int i = 0; i < depth; i++) {
            expression.insert(0, '(').append(" + 1)");
        }
        return "package demo;\nclass Deep {\n    int v() {\n        return " + expression + ";\n    }\n}\n";
    }

    @Test
    void theLimitParsesAndOneMoreIsTooDeepAtItsLine() throws IOException {
        // the class and method braces nest two deep before the expression's parentheses
        Path atLimit = Files.writeString(dir.resolve("AtLimit.java"), nested(NestingDepth.MAX_NESTING - 2));
        Path beyond = Files.writeString(dir.resolve("Beyond.java"), nested(NestingDepth.MAX_NESTING - 1));

        JavaSourceParser.Result result = new JavaSourceParser(1).parseAll(
                List.of(new SourceFile(atLimit, Files.size(atLimit)), new SourceFile(beyond, Files.size(beyond))), done -> { });

        assertThat(result.files()).extracting(f -> f.path().getFileName().toString()).containsExactly("AtLimit.java");
        assertThat(result.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("too-deep");
            assertThat(d.file().getFileName().toString()).isEqualTo("Beyond.java");
            assertThat(d.line()).isEqualTo(4);
        });
    }

    @Test
    void bracketsInCommentsAndLiteralsDoNotCount() {
        String many = "(".repeat(50);
        String text = "class A {\n"
                + "  // " + many + "\n"
                + "  /* " + many + "\n " + many + " */\n"
                + "  String s = \"" + many + "\\\"" + many + "\";\n"
                + "  String t = \"\"\"\n    " + many + "\n    \"\"\";\n"
                + "  char c = '(';\n  char q = '\\'';\n"
                + "  int v() { return ((1)); }\n"
                + "}\n";
        assertThat(NestingDepth.lineBeyond(text, 4)).isZero();
        assertThat(NestingDepth.lineBeyond(text, 3)).as("the code's own nesting: class, method body, two parentheses")
                .isEqualTo(11);
        assertThat(NestingDepth.lineBeyond("class A {\n  int v() { return (((1))); }\n}\n", 4)).isEqualTo(2);
    }

    @Test
    void theSameFileGivesTheSameAnswerEveryTime() throws IOException {
        Path deep = Files.writeString(dir.resolve("Deep.java"), nested(10_000));
        for (int run = 0; run < 3; run++) {
            JavaSourceParser.Result result = new JavaSourceParser(1).parseAll(List.of(new SourceFile(deep, Files.size(deep))),
                    done -> { });
            assertThat(result.files()).isEmpty();
            assertThat(result.diagnostics()).extracting(Diagnostic::code, Diagnostic::line)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("too-deep", 4));
        }
    }
}
