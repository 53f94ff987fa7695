package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The columns a MyBatis Generator {@code *ByExample} call selects its rows by: the equality and
 * membership criteria ({@code andNumberEqualTo(..)}, {@code andIdIn(..)}) the method adds to the Example object it passes
 * ({@code example.createCriteria().andNumberEqualTo(number).andDeleteFlagNotEqualTo("1")} gives
 * {@code number}). The generated XML builds its WHERE from that object at run time, so only the
 * Java code building it says which row is meant. Only the Generator's criterion API is read
 * ({@code and<Property><Operator>}, each a generated method of the Criteria class).
 */
final class ExampleCriteria {
    private static final Pattern EQUALITY = Pattern.compile("^and([A-Z]\\w*?)(EqualTo|In)$");

    private ExampleCriteria() {}

    /** The columns compared for equality (or membership) in the Example the call passes as its last argument; empty when not seen. */
    static Set<String> equalityColumns(MethodCallExpr call) {
        Set<String> out = new LinkedHashSet<>();
        Expression exampleArg = call.getArguments().isEmpty() ? null : call.getArgument(call.getArguments().size() - 1);
        if (!(exampleArg instanceof NameExpr example)) {
            return out;
        }
        Node method = call;
        while (method != null && !(method instanceof CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        if (method == null) {
            return out;
        }
        for (MethodCallExpr c : method.findAll(MethodCallExpr.class)) {
            Matcher m = EQUALITY.matcher(c.getNameAsString());
            if (m.matches() && !m.group(1).matches(".*(Not|GreaterThanOr|LessThanOr)")
                    && example.getNameAsString().equals(chainRoot(c, method))) {
                out.add(EntityModel.snake(Character.toLowerCase(m.group(1).charAt(0)) + m.group(1).substring(1)));
            }
        }
        return out;
    }

    /**
     * The variable a fluent chain starts from: {@code example.createCriteria().andX(..)} gives "example".
     * A chain on a local that holds another chain ({@code Criteria criteria = example.createCriteria();
     * criteria.andX(..)}) starts where that local's initializer starts.
     */
    private static String chainRoot(MethodCallExpr call, Node method) {
        Set<String> seen = new LinkedHashSet<>();
        Expression current = call;
        while (true) {
            while (current instanceof MethodCallExpr m && m.getScope().isPresent()) {
                current = m.getScope().get();
            }
            if (!(current instanceof NameExpr n) || !seen.add(n.getNameAsString())) {
                return current instanceof NameExpr n ? n.getNameAsString() : null;
            }
            Expression initializer = chainInitializer(n.getNameAsString(), method);
            if (initializer == null) {
                return n.getNameAsString();
            }
            current = initializer;
        }
    }

    /** The initializer of a local declared in the method as a call on another value; null for anything else. */
    private static Expression chainInitializer(String local, Node method) {
        for (VariableDeclarator v : method.findAll(VariableDeclarator.class)) {
            if (v.getNameAsString().equals(local) && v.getInitializer().orElse(null) instanceof MethodCallExpr init
                    && init.getScope().isPresent()) {
                return init;
            }
        }
        return null;
    }
}
