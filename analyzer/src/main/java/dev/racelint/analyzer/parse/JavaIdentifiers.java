package dev.racelint.analyzer.parse;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.Name;
import com.github.javaparser.ast.expr.SimpleName;

/**
 * Identifiers as javac compares them. Java lets an identifier hold "identifier-ignorable"
 * characters (controls such as U+0001 and every format character such as U+00AD, U+200B, U+FEFF;
 * {@link Character#isIdentifierIgnorable}), raw or escaped, and javac drops them (JLS 3.8: two
 * identifiers are the same when equal after ignoring them), so {@code rest.post\u200bForObject}
 * calls {@code postForObject}. JavaParser keeps them, which would let a file hide a call, a
 * receiver or an annotation from every rule; they are removed from the tree's identifiers once,
 * right after the parse, before anything reads or caches the tree. Literals and comments keep them.
 */
final class JavaIdentifiers {

    private JavaIdentifiers() {}

    /**
     * Whether {@code text} may give a tree with an ignorable character in an identifier: it holds
     * one, or a unicode escape that may become one. Spares the walk for nearly every file.
     */
    static boolean mayHoldIgnorable(String text) {
        if (text.indexOf("\\u") >= 0) {
            return true;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            // tab, line ends and form feed (9-13) are the only controls below DEL that are not ignorable
            if (c < 0x20 ? c < 0x09 || c > 0x0D : c >= 0x7F && (Character.isSurrogate(c) || Character.isIdentifierIgnorable(c))) {
                return true;
            }
        }
        return false;
    }

    /**
     * JLS 3.9's keywords and the literals {@code true}, {@code false}, {@code null}: javac drops
     * ignorable characters before it looks a word up, so {@code th\u200bis} is {@code this}, which
     * JavaParser has already read as a name; such a tree is not what javac compiles.
     */
    private static final java.util.Set<String> RESERVED = java.util.Set.of("abstract", "assert", "boolean", "break",
            "byte", "case", "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum",
            "extends", "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
            "interface", "long", "native", "new", "package", "private", "protected", "public", "return", "short",
            "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try",
            "void", "volatile", "while", "true", "false", "null");

    /**
     * Removes the ignorable characters from every identifier in {@code root}'s tree (names, method
     * references). Returns the first identifier that only became a keyword that way (its node, for
     * the position), or null: the parse read that keyword as a name, so the tree is not javac's.
     */
    static Node normalise(Node root) {
        Node[] keyword = new Node[1];
        root.walk(node -> {
            String identifier = null;
            if (node instanceof SimpleName name) {
                identifier = withoutIgnorable(name.getIdentifier());
                if (identifier != null) {
                    name.setIdentifier(identifier);
                }
            } else if (node instanceof Name name) {
                identifier = withoutIgnorable(name.getIdentifier());
                if (identifier != null) {
                    name.setIdentifier(identifier);
                }
            } else if (node instanceof MethodReferenceExpr reference) {
                identifier = withoutIgnorable(reference.getIdentifier());
                if (identifier != null) {
                    reference.setIdentifier(identifier);
                }
            }
            if (identifier != null && keyword[0] == null && RESERVED.contains(identifier)) {
                keyword[0] = node;
            }
        });
        return keyword[0];
    }

    /**
     * {@code identifier} without its ignorable characters, or null when it has none (or nothing
     * else: javac would not accept it, so it is left as parsed rather than made empty).
     */
    static String withoutIgnorable(String identifier) {
        StringBuilder out = null;
        for (int i = 0; i < identifier.length(); ) {
            int c = identifier.codePointAt(i);
            int next = i + Character.charCount(c);
            if (Character.isIdentifierIgnorable(c)) {
                if (out == null) {
                    out = new StringBuilder(identifier.length()).append(identifier, 0, i);
                }
            } else if (out != null) {
                out.appendCodePoint(c);
            }
            i = next;
        }
        return out == null || out.isEmpty() ? null : out.toString();
    }
}
