package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NullLiteralExpr;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.Statement;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A call whose result is memoised in a map: it runs only in the branch taken when a lookup of the
 * map finds nothing ({@code if (cache.get(key) == null)}, {@code if (!cache.containsKey(key))}, or a
 * local read from the map tested for null), and that branch puts into the same map. A repeat finds
 * the stored result and does not make the call again. The map is recognised by its declared JDK
 * type, never by its name.
 */
public final class MemoisedCalls {

    /** JDK map types (simple names, type arguments dropped). */
    private static final Set<String> MAP_TYPES = Set.of("Map", "HashMap", "LinkedHashMap", "TreeMap", "SortedMap",
            "NavigableMap", "ConcurrentMap", "ConcurrentHashMap", "ConcurrentSkipListMap", "Hashtable", "WeakHashMap");
    private static final Set<String> STORES = Set.of("put", "putIfAbsent");

    private MemoisedCalls() {}

    /** Is {@code site} inside a branch that runs only on a miss of a map it then puts into? */
    public static boolean memoised(Node site) {
        Node child = site;
        for (Node parent = site.getParentNode().orElse(null); parent != null && !(parent instanceof CallableDeclaration<?>);
                parent = parent.getParentNode().orElse(null)) {
            if (parent instanceof IfStmt test && child == test.getThenStmt()) {
                Set<String> maps = missedMaps(test);
                if (!maps.isEmpty() && storesInto(test.getThenStmt(), maps)) {
                    return true;
                }
            }
            child = parent;
        }
        return false;
    }

    /** The maps whose miss the condition of {@code test} tests; empty when it tests something else. */
    private static Set<String> missedMaps(IfStmt test) {
        Expression c = dev.racelint.analyzer.index.Expressions.withoutParentheses(test.getCondition());
        Set<String> maps = new HashSet<>();
        if (c instanceof com.github.javaparser.ast.expr.UnaryExpr not
                && not.getOperator() == com.github.javaparser.ast.expr.UnaryExpr.Operator.LOGICAL_COMPLEMENT
                && dev.racelint.analyzer.index.Expressions.withoutParentheses(not.getExpression()) instanceof MethodCallExpr contains
                && contains.getNameAsString().equals("containsKey")) {
            addMap(contains, maps);
            return maps;
        }
        if (!(c instanceof BinaryExpr equals) || equals.getOperator() != BinaryExpr.Operator.EQUALS) {
            return maps;
        }
        Expression tested = equals.getLeft() instanceof NullLiteralExpr ? equals.getRight()
                : equals.getRight() instanceof NullLiteralExpr ? equals.getLeft() : null;
        tested = tested == null ? null : dev.racelint.analyzer.index.Expressions.withoutParentheses(tested);
        if (tested instanceof MethodCallExpr get && get.getNameAsString().equals("get")) {
            addMap(get, maps);
        } else if (tested instanceof NameExpr local) {
            // a local every assignment of which before the test is a lookup in a map
            Node declaration = LocalVariables.declarationOf(local.getNameAsString(), local);
            Node method = local.findAncestor(CallableDeclaration.class).orElse(null);
            if (!(declaration instanceof VariableDeclarator v) || method == null) {
                return maps;
            }
            List<Expression> values = new java.util.ArrayList<>();
            v.getInitializer().filter(i -> !(dev.racelint.analyzer.index.Expressions.withoutParentheses(i) instanceof NullLiteralExpr)).ifPresent(values::add);
            for (AssignExpr assign : method.findAll(AssignExpr.class)) {
                if (assign.getTarget() instanceof NameExpr target && target.getNameAsString().equals(local.getNameAsString())
                        && LocalVariables.declarationOf(target.getNameAsString(), target) == v
                        && before(assign, test)) {
                    values.add(assign.getValue());
                }
            }
            for (Expression value : values) {
                if (!(dev.racelint.analyzer.index.Expressions.withoutParentheses(value) instanceof MethodCallExpr get) || !get.getNameAsString().equals("get")
                        || !addMap(get, maps)) {
                    return Set.of();
                }
            }
        }
        return maps;
    }

    /** Adds the receiver of {@code call} when it is declared as a JDK map; false when it is not. */
    private static boolean addMap(MethodCallExpr call, Set<String> maps) {
        if (!(call.getScope().orElse(null) instanceof NameExpr receiver) || !declaredAsMap(receiver)) {
            return false;
        }
        maps.add(receiver.getNameAsString());
        return true;
    }

    private static boolean storesInto(Statement branch, Set<String> maps) {
        return branch.findAll(MethodCallExpr.class).stream().anyMatch(call -> STORES.contains(call.getNameAsString())
                && call.getScope().orElse(null) instanceof NameExpr receiver && maps.contains(receiver.getNameAsString()));
    }

    private static boolean declaredAsMap(NameExpr name) {
        Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
        String type = null;
        if (declaration instanceof VariableDeclarator v) {
            type = v.getTypeAsString();
        } else if (declaration instanceof Parameter p) {
            type = p.getTypeAsString();
        } else {
            for (Node n = name.getParentNode().orElse(null); n != null && type == null; n = n.getParentNode().orElse(null)) {
                if (n instanceof TypeDeclaration<?> t) {
                    type = t.getFieldByName(name.getNameAsString()).map(FieldDeclaration::getElementType)
                            .map(Object::toString).orElse(null);
                }
            }
        }
        if (type == null) {
            return false;
        }
        int generic = type.indexOf('<');
        String raw = generic < 0 ? type : type.substring(0, generic);
        return MAP_TYPES.contains(raw.substring(raw.lastIndexOf('.') + 1).trim());
    }

    private static boolean before(Node a, Node b) {
        return a.getBegin().isPresent() && b.getBegin().isPresent() && a.getBegin().get().isBefore(b.getBegin().get());
    }

}
