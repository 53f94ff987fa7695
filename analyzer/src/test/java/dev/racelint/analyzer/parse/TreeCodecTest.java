package dev.racelint.analyzer.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import dev.racelint.analyzer.source.SourceFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class TreeCodecTest {

    /** One file with as many kinds of syntax as fit, including the shapes JavaParser builds unusually. */
    private static final String EVERYTHING = """
            package com.acme.orders;

            import static java.util.Objects.requireNonNull;
            import java.util.*;
            import java.util.function.Function;

            @Service("orders") @SuppressWarnings({"unchecked", "rawtypes"})
            public sealed class Orders<T extends Comparable<? super T> & java.io.Serializable> permits Orders.Big {
                private static final String SQL = "update orders set state = ? " + "where id = ?";
                private final int[] counts = {1, 2, 3}, more[] = {{4}};
                private volatile long version = 0x1FL;

                static { System.out.println('x'); }
                { counts[0]++; }

                @Transactional(readOnly = true, timeout = 5)
                public <R> List<R> place(final @Valid T item, String... tags) throws java.io.IOException, IllegalStateException {
                    if (item instanceof String s && !s.isEmpty()) {
                        return List.of();
                    } else if (item instanceof Integer) {
                        throw new IllegalStateException();
                    }
                    Object o = item;
                    if (o instanceof Point(int x, var y)) { System.out.println(x + y); }
                    String text = switch (tags.length) {
                        case 0 -> "none";
                        case 1, 2 -> { yield "few"; }
                        default -> \"""
                            many \\
                            tags\""";
                    };
                    String kind = switch (o) {
                        case Point p when p.x() > 0 -> "right";
                        case null, default -> "other";
                    };
                    outer:
                    for (int i = 0, j = 10; i < j; i++, j--) {
                        for (String tag : tags) {
                            if (tag == null) continue outer;
                            else break outer;
                        }
                    }
                    int k = 0;
                    do { k += 2; k <<= 1; k >>>= 1; } while (k < 10 && !(k == 5 || k != 7));
                    while (true) { break; }
                    try (var in = new java.io.FileInputStream("f"); java.io.InputStream other = in) {
                        in.read();
                    } catch (java.io.FileNotFoundException | SecurityException e) {
                        throw e;
                    } finally {
                        k = k > 0 ? -k : ~k;
                    }
                    synchronized (this) { version++; }
                    assert k != 0 : "never";
                    Function<String, Integer> length = String::length;
                    Runnable r = () -> {};
                    java.util.function.BiFunction<Integer, Integer, Integer> add = (a, b) -> a + b;
                    Object anon = new Object() { @Override public String toString() { return "anon"; } };
                    record Local(int a) {}
                    class Inner {}
                    int[][] grid = new int[3][];
                    char c = (char) (k + 'a');
                    long big = 1_000L * 2;
                    double d = 1.5e3 + .5f;
                    Orders.<String>helper(this.<T>self(), super.hashCode(), Orders.class, int[].class);
                    requireNonNull(item, "item \\u00e9\\t");
                    return new ArrayList<>();
                }

                static <X> X helper(Object... xs) { return null; }
                T self() { return null; }
                native void raw();
                public Orders() { this(1); }
                Orders(int n) { super(); }

                static final class Big extends Orders<String> {}
                enum State { NEW { @Override boolean done() { return false; } }, PAID(1); State() {} State(int x) {} boolean done() { return true; } }
                @interface Marker { String value() default ""; int[] ids() default {}; }
                record Point(int x, int y) implements java.io.Serializable {
                    Point { if (x < 0) throw new IllegalArgumentException(); }
                }
                interface Repo<E> { default void save(E e) {} static void none() {} }
            }
            """;

    private static ParsedFile parse(String source) {
        CompilationUnit unit = new JavaParser(JavaSourceParser.configuration()).parse(source).getResult().orElseThrow();
        ParsedFile file = new ParsedFile(Path.of("/src/Orders.java"), unit);
        TreeCompactor.compact(unit);
        return file;
    }

    /** Both trees node by node: class, range, properties, children in order, each child's parent. */
    private static void assertSameTree(Node expected, Node actual) {
        assertThat(actual.getClass()).isEqualTo(expected.getClass());
        assertThat(actual.getRange()).as("range of %s", expected).isEqualTo(expected.getRange());
        List<Node> want = expected.getChildNodes();
        List<Node> got = actual.getChildNodes();
        assertThat(got).as("children of %s", expected).hasSameSizeAs(want);
        for (int i = 0; i < want.size(); i++) {
            assertThat(got.get(i).getParentNode()).as("parent").containsSame(actual);
            assertSameTree(want.get(i), got.get(i));
        }
    }

    private static ParsedFile roundTrip(ParsedFile file) throws Exception {
        byte[] bytes = TreeCodec.encode(file);
        return TreeCodec.decode(bytes, 0, bytes.length, file.path());
    }

    @Test
    void readsBackTheTreeThatWasParsed() throws Exception {
        ParsedFile original = parse(EVERYTHING);
        ParsedFile back = roundTrip(original);
        assertThat(back.unit()).isEqualTo(original.unit());
        assertSameTree(original.unit(), back.unit());
        assertThat(back.unit().toString()).isEqualTo(original.unit().toString());
        assertThat(back.path()).isEqualTo(original.path());
        assertThat(back.mentionsRacelint()).isTrue();
    }

    @Test
    void theTreeReadBackIsCompactedAndItsIdentifiersInterned() throws Exception {
        ParsedFile back = roundTrip(parse(EVERYTHING));
        com.github.javaparser.ast.expr.SimpleName leaf = back.unit().findAll(com.github.javaparser.ast.expr.SimpleName.class)
                .get(0);
        assertThat(leaf.getChildNodes()).isEmpty();
        assertThatThrownBy(() -> new com.github.javaparser.ast.expr.NameExpr("x").setParentNode(leaf))
                .as("an empty child list is the shared refusing one").isInstanceOf(UnsupportedOperationException.class);
        assertThat(leaf.getIdentifier()).isSameAs(leaf.getIdentifier().intern());
    }

    @Test
    void keepsTheSharedTypeOfAPatternWhereTheParserPutsIt() throws Exception {
        ParsedFile original = parse("class A { boolean f(Object o) { return o instanceof String s; } }");
        ParsedFile back = roundTrip(original);
        var instanceOf = back.unit().findFirst(com.github.javaparser.ast.expr.InstanceOfExpr.class).orElseThrow();
        var pattern = (com.github.javaparser.ast.expr.TypePatternExpr) instanceOf.getPattern().orElseThrow();
        assertThat(pattern.getType()).as("one node, as parsed").isSameAs(instanceOf.getType());
        assertThat(instanceOf.getType().getParentNode()).containsSame(instanceOf);
        assertSameTree(original.unit(), back.unit());
    }

    @Test
    void keepsSuppressionCommentsAndWhetherTheFileMentionsRacelint() throws Exception {
        ParsedFile original = parse("""
                class A {
                    void f() {
                        g(); // racelint:ignore io-in-transaction -- the call is idempotent
                    }
                }
                """);
        assertThat(original.lineComments()).hasSize(1);
        ParsedFile back = roundTrip(original);
        assertThat(back.lineComments()).isEqualTo(original.lineComments());

        ParsedFile quiet = new ParsedFile(original.path(), original.unit(), Map.of(), false);
        assertThat(roundTrip(quiet).mentionsRacelint()).isFalse();
        assertThat(roundTrip(quiet).lineComments()).isEmpty();
    }

    @Test
    void refusesATreeWithComments() {
        // racelint parses without attributing comments; a tree that has them cannot be written exactly
        CompilationUnit unit = new JavaParser(new ParserConfiguration()).parse("/** doc */ class A {}").getResult().orElseThrow();
        assertThatThrownBy(() -> TreeCodec.encode(new ParsedFile(Path.of("A.java"), unit, Map.of(), false)))
                .isInstanceOf(TreeCodec.UnsupportedTree.class);
    }

    @Test
    void damagedBytesFailInsteadOfMakingATree() throws Exception {
        byte[] bytes = TreeCodec.encode(parse(EVERYTHING));
        assertThatThrownBy(() -> TreeCodec.decode(bytes, 0, bytes.length / 2, Path.of("A.java")))
                .isInstanceOf(RuntimeException.class);
        byte[] tail = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> TreeCodec.decode(tail, 0, tail.length, Path.of("A.java")))
                .as("trailing bytes").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anyDamageIsAnExceptionNeverAnError() throws Exception {
        // an entry is checked against its CRC before it is read, but the reader must hold even when
        // that check is passed by bytes it did not write: no OutOfMemoryError from a size, no hang
        byte[] good = TreeCodec.encode(parse(EVERYTHING));
        java.util.Random random = new java.util.Random(8);
        for (int round = 0; round < 3000; round++) {
            byte[] bad = good.clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
            }
            try {
                TreeCodec.decode(bad, 0, bad.length, Path.of("A.java"));
            } catch (RuntimeException expected) {
                // refused: the file would be parsed instead
            }
        }
    }

    @Test
    void everySourceOfThisModuleReadsBackAsParsed() throws Exception {
        // the analyzer's own sources: thousands of lines of real code, parsed the way a scan parses
        List<SourceFile> sources;
        try (Stream<Path> files = Files.walk(Path.of("src"))) {
            sources = files.filter(p -> p.toString().endsWith(".java"))
                    .map(p -> new SourceFile(p.toAbsolutePath().normalize(), 0)).sorted(
                            java.util.Comparator.comparing(SourceFile::path)).toList();
        }
        assertThat(sources).hasSizeGreaterThan(100);
        List<ParsedFile> parsed = new JavaSourceParser(2).parseAll(sources, n -> {}).files();
        assertThat(parsed).hasSameSizeAs(sources);
        for (ParsedFile file : parsed) {
            ParsedFile back = roundTrip(file);
            assertThat(back.unit()).as(file.path().toString()).isEqualTo(file.unit());
            assertSameTree(file.unit(), back.unit());
            assertThat(back.lineComments()).isEqualTo(file.lineComments());
        }
    }
}
