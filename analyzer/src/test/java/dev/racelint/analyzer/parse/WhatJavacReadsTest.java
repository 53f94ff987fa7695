package dev.racelint.analyzer.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.source.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parser reads a file as javac does: unicode escapes are translated before lexing (with
 * positions still those of the file as written), and control characters javac accepts do not make
 * a file "binary".
 */
class WhatJavacReadsTest {

    /** A backslash, built at run time: the escapes below must reach the parser, not javac compiling this test. */
    private static final String BS = "\\";

    @TempDir
    Path dir;

    @Test
    void anEscapedLineEndEndsALineCommentAndPositionsAreThoseOfTheFileAsWritten() throws IOException {
        String line2 = "    void m() { // audit " + BS + "u000a b(); " + BS + "uuuu0063(); }";
        String text = "class A {\n" + line2 + "\n    void b() {} void c() {}\n}\n";

        ParsedFile file = parseOne("A.java", text.getBytes(StandardCharsets.UTF_8));

        List<MethodCallExpr> calls = file.unit().findAll(MethodCallExpr.class);
        assertThat(calls).extracting(MethodCallExpr::getNameAsString).containsExactly("b", "c");
        assertThat(calls.get(0).getBegin().get().line).isEqualTo(2);
        assertThat(calls.get(0).getBegin().get().column).isEqualTo(line2.indexOf("b();") + 1);
        assertThat(calls.get(1).getBegin().get().line).isEqualTo(2);
        assertThat(calls.get(1).getBegin().get().column).isEqualTo(line2.indexOf(BS + "uuuu0063") + 1);
        assertThat(file.unit().findFirst(com.github.javaparser.ast.body.MethodDeclaration.class,
                m -> m.getNameAsString().equals("b")).get().getBegin().get().line).isEqualTo(3);
    }

    @Test
    void lineCommentsAreKeyedByTheirLineAsWrittenAfterAnEscapedLineEnd() throws IOException {
        String text = "class A {\n    int x; // one " + BS + "u000a int y; " + BS + "u000d" + BS + "u000a int z;\n"
                + "    int w; // racelint:ignore io-in-transaction reason\n}\n";

        ParsedFile file = parseOne("A.java", text.getBytes(StandardCharsets.UTF_8));

        assertThat(file.lineComments()).containsEntry(3, "// racelint:ignore io-in-transaction reason")
                .containsEntry(2, "// one ").hasSize(2);
    }

    @Test
    void escapesInLiteralsParseAsJavacReadsThem() throws IOException {
        String text = "class A {\n    String a = \"x" + BS + BS + "u0022y\";\n"
                + "    String b = \"" + BS + "u00e9" + BS + "u005c" + BS + "u0022\";\n"
                + "    String c = " + BS + "u0022q" + BS + "u0022;\n}\n";

        ParsedFile file = parseOne("A.java", text.getBytes(StandardCharsets.UTF_8));

        assertThat(file.unit().findAll(StringLiteralExpr.class)).extracting(StringLiteralExpr::getValue)
                .containsExactly("x" + BS + BS + "u0022y", "\u00e9" + BS + "\"", "q");
    }

    @Test
    void halfACharacterWrittenAsAnEscapeStaysAnEscapeSoTheTreeCanBeCached() throws Exception {
        String text = "class A {\n    String s = \"" + BS + "uD800x" + BS + "uD83D" + BS + "uDE00\"; // racelint " + BS
                + "uDC00\n}\n";

        ParsedFile file = parseOne("A.java", text.getBytes(StandardCharsets.UTF_8));
        byte[] encoded = TreeCodec.encode(file);
        ParsedFile back = TreeCodec.decode(encoded, 0, encoded.length, file.path());

        StringLiteralExpr literal = file.unit().findFirst(StringLiteralExpr.class).orElseThrow();
        assertThat(literal.getValue()).isEqualTo(BS + "uD800x\uD83D\uDE00");
        assertThat(literal.asString()).isEqualTo("\uD800x\uD83D\uDE00");
        assertThat(back.unit()).isEqualTo(file.unit());
        assertThat(file.lineComments()).containsEntry(2, "// racelint " + BS + "uDC00");
        assertThat(back.lineComments()).isEqualTo(file.lineComments());
    }

    @Test
    void aSyntaxErrorAfterAnEscapedLineEndIsReportedAtItsLineAsWritten() throws IOException {
        String text = "class A {\n    // " + BS + "u000a" + BS + "u000a\n    void m( {}\n}\n";

        JavaSourceParser.Result result = parse("A.java", text.getBytes(StandardCharsets.UTF_8));

        assertThat(result.files()).isEmpty();
        assertThat(result.diagnostics()).extracting(Diagnostic::code, Diagnostic::line)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("parse-error", 3));
    }

    @Test
    void nulAndOtherControlCharactersJavacAcceptsDoNotKeepAFileFromBeingAnalysed() throws IOException {
        byte[] bytes = ("class A {\n    // a \u0000 in a comment\n    String s = \"a\u0000b\u0001\";\n"
                + "    /* \u0002\u007f */ int f\u0000oo = 1;\n}\n\u001a").getBytes(StandardCharsets.UTF_8);

        JavaSourceParser.Result result = parse("A.java", bytes);

        assertThat(result.diagnostics()).isEmpty();
        assertThat(result.files()).hasSize(1);
    }

    @Test
    void aFileThatIsNotTextAtAllIsAParseError() throws IOException {
        JavaSourceParser.Result result = parse("Binary.java", new byte[] {0, 1, 2, (byte) 0xff, 0, 0x7f});

        assertThat(result.files()).isEmpty();
        assertThat(result.diagnostics()).extracting(Diagnostic::code).containsExactly("encoding", "parse-error");
    }

    private ParsedFile parseOne(String name, byte[] bytes) throws IOException {
        JavaSourceParser.Result result = parse(name, bytes);
        assertThat(result.diagnostics()).isEmpty();
        assertThat(result.files()).hasSize(1);
        return result.files().get(0);
    }

    private JavaSourceParser.Result parse(String name, byte[] bytes) throws IOException {
        Path file = Files.write(dir.resolve(name), bytes);
        return new JavaSourceParser(1).parseAll(List.of(new SourceFile(file, bytes.length)), done -> { });
    }
}
