package dev.racelint.analyzer.parse;

import com.github.javaparser.Range;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.expr.Name;
import com.github.javaparser.ast.expr.SimpleName;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Shrinks a parsed tree that is only read from then on. JavaParser gives every node three lists (its
 * children, orphan comments, observers) and every node list two, most of them empty: on a large code
 * base those lists are a third of the heap. Empty ones are replaced by one shared list that refuses
 * additions, the others trimmed; the token chain is dropped (each node keeps its plain range) and
 * identifiers are interned.
 *
 * <p>The fields are JavaParser's private ones, reached by reflection; if a JavaParser version renames
 * them, compaction turns itself off and the trees stay as parsed (larger, same results).
 */
public final class TreeCompactor {

    /** Shared by every compacted tree; anything that tries to add to it fails loudly instead of sharing. */
    @SuppressWarnings("rawtypes")
    private static final ArrayList FROZEN_EMPTY = new FrozenEmptyList<>();

    private static final Field NODE_CHILDREN = field(Node.class, "childNodes");
    private static final Field NODE_ORPHANS = field(Node.class, "orphanComments");
    private static final Field NODE_OBSERVERS = field(Node.class, "observers");
    private static final Field LIST_INNER = field(NodeList.class, "innerList");
    private static final Field LIST_OBSERVERS = field(NodeList.class, "observers");
    private static final Field SIMPLE_NAME_IDENTIFIER = field(SimpleName.class, "identifier");
    private static final Field NAME_IDENTIFIER = field(Name.class, "identifier");
    private static final boolean AVAILABLE = SIMPLE_NAME_IDENTIFIER != null && NAME_IDENTIFIER != null && NODE_CHILDREN != null && NODE_ORPHANS != null && NODE_OBSERVERS != null
            && LIST_INNER != null && LIST_OBSERVERS != null;

    /** Per node class: its fields that hold node lists. */
    private static final ClassValue<List<Field>> NODE_LIST_FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> out = new ArrayList<>();
            for (Class<?> c = type; c != null && Node.class.isAssignableFrom(c); c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && NodeList.class.isAssignableFrom(f.getType())) {
                        try {
                            f.setAccessible(true);
                            out.add(f);
                        } catch (RuntimeException e) {
                            // not reachable: that list stays as it is
                        }
                    }
                }
            }
            return List.copyOf(out);
        }
    };

    private TreeCompactor() {}

    /** Compacts {@code root}'s tree in place; the tree must not be changed afterwards. */
    public static void compact(Node root) {
        root.walk(node -> {
            Range range = node.getRange().orElse(null);
            node.setTokenRange(null);
            node.setRange(range);
            if (AVAILABLE) {
                compactNode(node);
            }
        });
    }

    /**
     * Compacts one node whose subtree is complete (a reader building a tree bottom-up), without the
     * walk; the node must not be added to afterwards, only given a parent.
     */
    static void compactBuilt(Node node) {
        if (AVAILABLE) {
            compactNode(node);
        }
    }

    private static void compactNode(Node node) {
        try {
            // setIdentifier keeps an equal string, so the field is set directly
            if (node instanceof SimpleName) {
                intern(node, SIMPLE_NAME_IDENTIFIER);
            } else if (node instanceof Name) {
                intern(node, NAME_IDENTIFIER);
            }
            shrink(node, NODE_CHILDREN);
            shrink(node, NODE_ORPHANS);
            shrink(node, NODE_OBSERVERS);
            for (Field f : NODE_LIST_FIELDS.get(node.getClass())) {
                Object list = f.get(node);
                if (list != null) {
                    shrink(list, LIST_OBSERVERS);
                    Object inner = LIST_INNER.get(list);
                    if (inner instanceof ArrayList<?> a) {
                        a.trimToSize();
                    }
                }
            }
        } catch (IllegalAccessException | RuntimeException e) {
            // a node left as parsed is only larger
        }
    }

    private static void intern(Node node, Field identifier) throws IllegalAccessException {
        Object value = identifier.get(node);
        if (value instanceof String text) {
            identifier.set(node, text.intern());
        }
    }

    private static void shrink(Object owner, Field field) throws IllegalAccessException {
        Object value = field.get(owner);
        if (value == FROZEN_EMPTY || !(value instanceof ArrayList<?> list)) {
            return;
        }
        if (list.isEmpty()) {
            field.set(owner, FROZEN_EMPTY);
        } else {
            list.trimToSize();
        }
    }

    private static Field field(Class<?> owner, String name) {
        try {
            Field f = owner.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Empty for good: a tree that is only read never adds to it. */
    private static final class FrozenEmptyList<E> extends ArrayList<E> {
        private static final long serialVersionUID = 1L;

        FrozenEmptyList() {
            super(0);
        }

        @Override
        public boolean add(E e) {
            throw new UnsupportedOperationException("compacted syntax tree");
        }

        @Override
        public void add(int index, E element) {
            throw new UnsupportedOperationException("compacted syntax tree");
        }

        @Override
        public boolean addAll(Collection<? extends E> c) {
            throw new UnsupportedOperationException("compacted syntax tree");
        }

        @Override
        public boolean addAll(int index, Collection<? extends E> c) {
            throw new UnsupportedOperationException("compacted syntax tree");
        }
    }
}
