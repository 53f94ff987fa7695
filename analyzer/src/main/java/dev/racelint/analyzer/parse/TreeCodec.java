package dev.racelint.analyzer.parse;

import com.github.javaparser.Position;
import com.github.javaparser.Range;
import com.github.javaparser.ast.AllFieldsConstructor;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.metamodel.BaseNodeMetaModel;
import com.github.javaparser.metamodel.JavaParserMetaModel;
import com.github.javaparser.metamodel.PropertyMetaModel;
import com.github.javaparser.utils.LineSeparator;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a parsed file as bytes and reads it back as the very tree the parser made: the same node
 * classes and properties, the same ranges, children in the same order, the same parents (JavaParser
 * shares a node between two properties in a few places, such as the type of {@code instanceof} with
 * a pattern). Reading is several times faster than parsing, so a re-scan reads unchanged files from
 * the cache instead of parsing them again.
 *
 * <p>Every node is written generically from JavaParser's metamodel: its constructor's properties in
 * order. A tree holding something the format does not carry (a comment, annotations on a type that
 * has no constructor for them, data other than the line separator) is refused with
 * {@link UnsupportedTree}, and that file is simply parsed again next time.
 */
public final class TreeCodec {

    /** Bumped whenever the byte layout changes; part of the cache's identity. */
    public static final int FORMAT = 1;

    private static final NodeType[] TYPES;
    private static final Map<Class<?>, NodeType> BY_CLASS = new HashMap<>();
    private static final Field CHILD_NODES = declaredField(Node.class, "childNodes");
    private static final Field PARENT_NODE = declaredField(Node.class, "parentNode");
    private static final LineSeparator[] SEPARATORS = LineSeparator.values();
    /** JavaParser's memo of whether a node is a phantom. */
    private static final Object PHANTOM_KEY = staticValue(Node.class, "PHANTOM_KEY");

    static {
        List<BaseNodeMetaModel> models = new ArrayList<>(JavaParserMetaModel.getNodeMetaModels());
        models.sort(Comparator.comparing(BaseNodeMetaModel::getQualifiedClassName));
        List<NodeType> types = new ArrayList<>();
        for (BaseNodeMetaModel model : models) {
            if (!model.isAbstract()) {
                NodeType type = NodeType.of(types.size(), model);
                if (type != null) {
                    types.add(type);
                    BY_CLASS.put(model.getType(), type);
                }
            }
        }
        TYPES = types.toArray(new NodeType[0]);
    }

    private TreeCodec() {}

    /** Whether trees can be written and read with this JavaParser (its private fields are reachable). */
    public static boolean available() {
        return CHILD_NODES != null && PARENT_NODE != null && TYPES.length > 0;
    }

    /** The tree can not be written exactly; the file is parsed instead. */
    public static final class UnsupportedTree extends Exception {
        private static final long serialVersionUID = 1L;

        UnsupportedTree(String what) {
            super(what, null, false, false);
        }
    }

    /** The bytes of {@code file}'s tree, its line comments and whether it mentions racelint. */
    public static byte[] encode(ParsedFile file) throws UnsupportedTree {
        if (!available()) {
            throw new UnsupportedTree("JavaParser's fields are not reachable");
        }
        Writer out = new Writer();
        out.bool(file.mentionsRacelint());
        TreeMap<Integer, String> comments = new TreeMap<>(file.lineComments());
        out.uint(comments.size());
        for (Map.Entry<Integer, String> c : comments.entrySet()) {
            out.uint(c.getKey());
            out.string(c.getValue());
        }
        CompilationUnit unit = file.unit();
        out.uint(unit.containsData(Node.LINE_SEPARATOR_KEY) ? unit.getData(Node.LINE_SEPARATOR_KEY).ordinal() + 1 : 0);
        out.node(unit);
        return out.bytes();
    }

    /** The file {@code bytes} were made from, at {@code path}; compacted like a freshly parsed tree, node by node. */
    public static ParsedFile decode(byte[] bytes, int offset, int length, Path path) {
        Reader in = new Reader(bytes, offset, length);
        boolean mentionsRacelint = in.bool();
        int commentCount = in.uint();
        Map<Integer, String> comments = new HashMap<>();
        for (int i = 0; i < commentCount; i++) {
            comments.put(in.uint(), in.string());
        }
        int separator = in.uint();
        Node root = in.node();
        if (!(root instanceof CompilationUnit unit) || in.position != offset + length) {
            throw new IllegalArgumentException("not a syntax tree of this format");
        }
        if (separator > 0) {
            unit.setData(Node.LINE_SEPARATOR_KEY, SEPARATORS[separator - 1]);
        }
        return new ParsedFile(path, unit, comments, mentionsRacelint);
    }

    /** How one concrete node class is written: its constructor's properties, read from fields. */
    private record NodeType(int id, Class<?> type, Constructor<?> constructor, Property[] properties, Field[] unwritten) {

        static NodeType of(int id, BaseNodeMetaModel model) {
            Constructor<?> constructor = Arrays.stream(model.getType().getConstructors())
                    .filter(c -> c.isAnnotationPresent(AllFieldsConstructor.class))
                    .findFirst().orElse(null);
            List<PropertyMetaModel> parameters = model.getConstructorParameters();
            if (constructor == null || constructor.getParameterCount() != parameters.size()) {
                return null;
            }
            Property[] properties = new Property[parameters.size()];
            for (int i = 0; i < properties.length; i++) {
                properties[i] = Property.of(model.getType(), parameters.get(i));
                if (properties[i] == null) {
                    return null;
                }
            }
            // properties the constructor does not take must be empty for the tree to be written exactly
            List<Field> unwritten = new ArrayList<>();
            for (PropertyMetaModel p : model.getAllPropertyMetaModels()) {
                if (!parameters.contains(p)) {
                    Field f = declaredField(model.getType(), p.getName());
                    if (f == null) {
                        return null;
                    }
                    unwritten.add(f);
                }
            }
            return new NodeType(id, model.getType(), constructor, properties, unwritten.toArray(new Field[0]));
        }
    }

    private enum Kind { NODE, LIST, STRING, BOOLEAN, ENUM }

    private record Property(Field field, Kind kind, Object[] constants) {

        static Property of(Class<?> owner, PropertyMetaModel meta) {
            Field f = declaredField(owner, meta.getName());
            if (f == null) {
                return null;
            }
            Class<?> type = meta.getType();
            if (meta.isNodeList()) {
                return new Property(f, Kind.LIST, null);
            }
            if (meta.isNode()) {
                return new Property(f, Kind.NODE, null);
            }
            if (type == String.class) {
                return new Property(f, Kind.STRING, null);
            }
            if (type == boolean.class || type == Boolean.class) {
                return new Property(f, Kind.BOOLEAN, null);
            }
            if (type.isEnum()) {
                return new Property(f, Kind.ENUM, type.getEnumConstants());
            }
            return null;
        }
    }

    private static final class Writer {
        private byte[] buffer = new byte[4096];
        private int size;
        private final Map<String, Integer> strings = new HashMap<>();
        private final IdentityHashMap<Node, Integer> written = new IdentityHashMap<>();
        private int previousLine;

        void node(Node node) throws UnsupportedTree {
            if (node == null) {
                uint(0);
                return;
            }
            Integer seen = written.get(node);
            if (seen != null) {
                uint(1);
                uint(seen);
                return;
            }
            NodeType type = BY_CLASS.get(node.getClass());
            if (type == null) {
                throw new UnsupportedTree("node " + node.getClass().getSimpleName());
            }
            if (node.getComment().isPresent()) {
                throw new UnsupportedTree("a comment in the tree");
            }
            for (var key : node.getDataKeys()) {
                // memos JavaParser makes again when asked (phantom flag, printer) need not be kept
                if (key != PHANTOM_KEY && key != Node.PRINTER_KEY
                        && !(key == Node.LINE_SEPARATOR_KEY && node instanceof CompilationUnit)) {
                    throw new UnsupportedTree("data " + key.getClass().getName() + " on " + node.getClass().getSimpleName());
                }
            }
            try {
                for (Field f : type.unwritten()) {
                    Object value = f.get(node);
                    if (value instanceof NodeList<?> list ? !list.isEmpty() : value != null) {
                        throw new UnsupportedTree(type.type().getSimpleName() + "." + f.getName());
                    }
                }
                uint(type.id() + 2);
                range(node.getRange().orElse(null));
                for (Property p : type.properties()) {
                    Object value = p.field().get(node);
                    switch (p.kind()) {
                        case NODE -> node((Node) value);
                        case LIST -> {
                            NodeList<?> list = (NodeList<?>) value;
                            if (list == null) {
                                uint(0);
                            } else {
                                uint(list.size() + 1);
                                for (Node element : list) {
                                    node(element);
                                }
                            }
                        }
                        case STRING -> string((String) value);
                        case BOOLEAN -> bool((Boolean) value);
                        case ENUM -> uint(((Enum<?>) value).ordinal());
                    }
                }
            } catch (IllegalAccessException e) {
                throw new UnsupportedTree(e.toString());
            }
            // numbered after its properties, as the reader constructs it: children first
            written.put(node, written.size());
            List<Node> children = node.getChildNodes();
            uint(children.size());
            for (Node child : children) {
                Integer number = written.get(child);
                if (number == null) {
                    throw new UnsupportedTree("a child that is no property of " + type.type().getSimpleName());
                }
                uint(number);
            }
        }

        void range(Range range) {
            if (range == null) {
                uint(0);
                return;
            }
            // lines as a difference to the previous node's first line: mostly 0 or 1, one byte
            uint(1);
            sint(range.begin.line - previousLine);
            uint(range.begin.column);
            uint(range.end.line - range.begin.line);
            uint(range.end.column);
            previousLine = range.begin.line;
        }

        void string(String s) {
            if (s == null) {
                uint(0);
                return;
            }
            Integer index = strings.get(s);
            if (index != null) {
                uint(index + 2);
                return;
            }
            strings.put(s, strings.size());
            uint(1);
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            uint(utf8.length);
            ensure(utf8.length);
            System.arraycopy(utf8, 0, buffer, size, utf8.length);
            size += utf8.length;
        }

        void bool(boolean b) {
            uint(b ? 1 : 0);
        }

        void sint(int v) {
            uint((v << 1) ^ (v >> 31));
        }

        void uint(int v) {
            ensure(5);
            while ((v & ~0x7F) != 0) {
                buffer[size++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buffer[size++] = (byte) v;
        }

        private void ensure(int more) {
            if (size + more > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
            }
        }

        byte[] bytes() {
            return Arrays.copyOf(buffer, size);
        }
    }

    private static final class Reader {
        private final byte[] bytes;
        private int position;
        private final int end;
        private final List<String> strings = new ArrayList<>();
        private final List<Node> nodes = new ArrayList<>();
        private int previousLine;

        Reader(byte[] bytes, int offset, int length) {
            this.bytes = bytes;
            this.position = offset;
            this.end = offset + length;
        }

        Node node() {
            int tag = uint();
            if (tag == 0) {
                return null;
            }
            if (tag == 1) {
                return nodes.get(uint());
            }
            NodeType type = TYPES[tag - 2];
            Range range = range();
            Property[] properties = type.properties();
            Object[] arguments = new Object[properties.length];
            for (int i = 0; i < properties.length; i++) {
                Property p = properties[i];
                arguments[i] = switch (p.kind()) {
                    case NODE -> node();
                    case LIST -> list();
                    case STRING -> string();
                    case BOOLEAN -> bool();
                    case ENUM -> p.constants()[uint()];
                };
            }
            Node node;
            try {
                node = (Node) type.constructor().newInstance(arguments);
            } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
                throw new IllegalArgumentException("cannot build " + type.type().getSimpleName(), e);
            }
            node.setRange(range);
            nodes.add(node);
            restoreChildren(node);
            // compacted as it is finished, children first, rather than by a walk of the whole tree
            TreeCompactor.compactBuilt(node);
            return node;
        }

        private NodeList<Node> list() {
            int size = uint() - 1;
            if (size < 0) {
                return null;
            }
            if (size > end - position) {
                throw new IllegalArgumentException("malformed list size");
            }
            NodeList<Node> list = new NodeList<>();
            for (int i = 0; i < size; i++) {
                list.add(node());
            }
            return list;
        }

        /** Children and parents as the parser left them, where construction ordered them otherwise. */
        private void restoreChildren(Node node) {
            int count = uint();
            if (count < 0 || count > end - position) {
                // each child takes at least a byte: a count beyond the entry is damage, not a tree
                throw new IllegalArgumentException("malformed child count");
            }
            Node[] recorded = new Node[count];
            for (int i = 0; i < count; i++) {
                recorded[i] = nodes.get(uint());
            }
            List<Node> actual = node.getChildNodes();
            boolean same = actual.size() == count;
            for (int i = 0; same && i < count; i++) {
                same = actual.get(i) == recorded[i];
            }
            if (same) {
                return;
            }
            try {
                CHILD_NODES.set(node, new ArrayList<>(Arrays.asList(recorded)));
                for (Node child : recorded) {
                    PARENT_NODE.set(child, node);
                }
            } catch (IllegalAccessException e) {
                throw new IllegalArgumentException(e);
            }
        }

        private Range range() {
            if (uint() == 0) {
                return null;
            }
            int beginLine = previousLine + sint();
            int beginColumn = uint();
            int endLine = beginLine + uint();
            int endColumn = uint();
            previousLine = beginLine;
            return new Range(new Position(beginLine, beginColumn), new Position(endLine, endColumn));
        }

        String string() {
            int tag = uint();
            if (tag == 0) {
                return null;
            }
            if (tag > 1) {
                return strings.get(tag - 2);
            }
            int length = uint();
            if (length > end - position) {
                throw new IllegalArgumentException("truncated");
            }
            String s = new String(bytes, position, length, StandardCharsets.UTF_8);
            position += length;
            strings.add(s);
            return s;
        }

        boolean bool() {
            return uint() != 0;
        }

        int sint() {
            int v = uint();
            return (v >>> 1) ^ -(v & 1);
        }

        int uint() {
            int value = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                if (position >= end) {
                    throw new IllegalArgumentException("truncated");
                }
                byte b = bytes[position++];
                value |= (b & 0x7F) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw new IllegalArgumentException("malformed number");
        }
    }

    private static Object staticValue(Class<?> owner, String name) {
        try {
            Field f = owner.getDeclaredField(name);
            f.setAccessible(true);
            return f.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static Field declaredField(Class<?> owner, String name) {
        for (Class<?> c = owner; c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                if (Modifier.isStatic(f.getModifiers())) {
                    return null;
                }
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException e) {
                // declared further up
            } catch (RuntimeException e) {
                return null;
            }
        }
        return null;
    }
}
