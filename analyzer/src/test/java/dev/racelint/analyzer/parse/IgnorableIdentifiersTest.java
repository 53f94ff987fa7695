package dev.racelint.analyzer.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.Name;
import com.github.javaparser.ast.expr.SimpleName;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.source.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Identifiers in the tree are those javac compares (JLS 3.8: identifier-ignorable characters do not
 * count), whether the tree was just parsed or read back from the tree cache; positions stay those of
 * the file as written, and literals keep every character.
 */
class IgnorableIdentifiersTest {

    /** A backslash, built at run time: the escapes below must reach the parser, not javac compiling this test. */
    private static final String BS = "\\";

    /** Every kind of place JavaParser keeps an identifier, each with an ignorable character, raw or escaped. */
    private static final String HIDDEN = "package de\u00admo.or" + BS + "u200bders;\n"
            + "import org.spring" + BS + "u2060framework.transaction.annotation.Transacti\u200bonal;\n"
            + "@Transacti" + BS + "u200bonal class Or\ufeffders<T\u0001> {\n"
            + "    Rest\u200dTemplate re\u00adst;\n"
            + "    void pl\u007face(java.util.Li" + BS + "u0000st<T> it\u0085ems) {\n"
            + "        rest.post" + BS + "u200bForObject(\"a\u200bb\", it\u2060ems);\n"
            + "        Runnable r = this::pl\u200bace;\n"
            + "        out" + BS + "u00ader: for (;;) { break o\u200but\u200ber; }\n"
            + "    }\n"
            + "}\n";

    /** The same file as javac reads it. */
    private static final String PLAIN = "package demo.orders;\n"
            + "import org.springframework.transaction.annotation.Transactional;\n"
            + "@Transactional class Orders<T> {\n"
            + "    RestTemplate rest;\n"
            + "    void place(java.util.List<T> items) {\n"
            + "        rest.postForObject(\"a\u200bb\", items);\n"
            + "        Runnable r = this::place;\n"
            + "        outer: for (;;) { break outer; }\n"
            + "    }\n"
            + "}\n";

    @TempDir
    Path dir;

    @Test
    void identifiersHoldNoIgnorableCharacterAndPositionsAreAsWritten() throws IOException {
        CompilationUnit unit = parseAll(List.of(write("Orders.java", HIDDEN)), TreeStore.NONE).get(0).unit();

        assertThat(identifiers(unit)).allSatisfy(id -> assertThat(id.codePoints().noneMatch(Character::isIdentifierIgnorable))
                .as(id).isTrue());
        // JavaParser's equality is structural (ranges aside): the tree is the plain file's
        assertThat(unit).isEqualTo(new JavaParser(JavaSourceParser.configuration()).parse(PLAIN).getResult().orElseThrow());
        MethodCallExpr call = unit.findFirst(MethodCallExpr.class).orElseThrow();
        assertThat(call.getNameAsString()).isEqualTo("postForObject");
        String line6 = HIDDEN.split("\n")[5];
        assertThat(call.getName().getBegin().orElseThrow().column).isEqualTo(line6.indexOf("post") + 1);
        assertThat(call.getName().getEnd().orElseThrow().column).as("end as written, escape included")
                .isEqualTo(line6.indexOf("Object") + "Object".length());
        // a literal keeps what was written
        assertThat(unit.findFirst(StringLiteralExpr.class).orElseThrow().getValue()).isEqualTo("a\u200bb");
    }

    @Test
    void theTreeReadBackFromTheCacheIsTheNormalisedOne() throws IOException {
        List<SourceFile> sources = List.of(write("Orders.java", HIDDEN));
        Map<Path, byte[]> cached = new ConcurrentHashMap<>();
        TreeStore store = new TreeStore() {
            @Override
            public ParsedFile load(SourceFile source) {
                byte[] bytes = cached.get(source.path());
                return bytes == null ? null : TreeCodec.decode(bytes, 0, bytes.length, source.path());
            }

            @Override
            public void save(SourceFile source, ParsedFile file) {
                try {
                    cached.put(source.path(), TreeCodec.encode(file));
                } catch (TreeCodec.UnsupportedTree e) {
                    throw new AssertionError(e);
                }
            }
        };

        CompilationUnit fresh = parseAll(sources, store).get(0).unit();
        assertThat(cached).hasSize(1);
        CompilationUnit back = parseAll(sources, store).get(0).unit();

        assertThat(back).isNotSameAs(fresh).isEqualTo(fresh);
        assertThat(identifiers(back)).isEqualTo(identifiers(fresh)).contains("postForObject", "Transactional", "rest");
        List<Node> freshNodes = fresh.findAll(Node.class);
        List<Node> backNodes = back.findAll(Node.class);
        assertThat(backNodes).hasSameSizeAs(freshNodes);
        for (int i = 0; i < freshNodes.size(); i++) {
            assertThat(backNodes.get(i).getRange()).as("range of %s", freshNodes.get(i)).isEqualTo(freshNodes.get(i).getRange());
        }
    }

    @Test
    void aKeywordWrittenWithAnIgnorableCharacterIsAParseErrorNotAName() throws IOException {
        // javac reads th\u200bis as this: the receiver is the field, which the name "this" would hide
        String line3 = "        th" + BS + "u200bis.rest.postForObject(\"x\");";
        List<SourceFile> sources = List.of(write("Orders.java", "class Orders {\n    void place() {\n" + line3 + "\n    }\n}\n"),
                write("Plain.java", "class Plain { void th\u200bing() {} }\n"));

        JavaSourceParser.Result result = new JavaSourceParser(1).parseAll(sources, TreeStore.NONE, n -> {});

        assertThat(result.files()).extracting(f -> f.path().getFileName().toString()).containsExactly("Plain.java");
        assertThat(result.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("parse-error");
            assertThat(d.line()).isEqualTo(3);
            assertThat(d.column()).isEqualTo(line3.indexOf("th") + 1);
            assertThat(d.message()).contains("'this'").contains("javac");
        });
    }

    private static List<String> identifiers(Node root) {
        List<String> out = new ArrayList<>();
        root.walk(node -> {
            if (node instanceof SimpleName name) {
                out.add(name.getIdentifier());
            } else if (node instanceof Name name) {
                out.add(name.getIdentifier());
            } else if (node instanceof MethodReferenceExpr reference) {
                out.add(reference.getIdentifier());
            }
        });
        return out;
    }

    private SourceFile write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Files.write(file, bytes);
        return new SourceFile(file, bytes.length);
    }

    private static List<ParsedFile> parseAll(List<SourceFile> sources, TreeStore store) {
        JavaSourceParser.Result result = new JavaSourceParser(1).parseAll(sources, store, n -> {});
        assertThat(result.diagnostics()).isEmpty();
        assertThat(result.files()).hasSameSizeAs(sources);
        return result.files();
    }
}
