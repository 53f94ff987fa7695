package dev.racelint.analyzer.resolve;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.PatternExpr;
import com.github.javaparser.ast.expr.TypePatternExpr;
import com.github.javaparser.ast.expr.VariableDeclarationExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.type.Type;
import java.util.ArrayList;
import java.util.List;

/** Finds the declaration of a local variable or parameter visible at a point in a method body. */
public final class LocalVariables {

    /** A local's declared type (may be {@code var} or unknown) and its initializer, if any. */
    record Local(Type type, Expression initializer, Node declaration) {}

    private LocalVariables() {}

    /** The declaration (variable declarator, parameter, pattern) a local name refers to at {@code use}, or null. */
    public static Node declarationOf(String name, Node use) {
        Local local = find(name, use);
        return local == null ? null : local.declaration();
    }

    static Local find(String name, Node use) {
        return find(name, use, true);
    }

    /**
     * @param patternVariables false when the file declares no pattern variable ({@code x instanceof Foo f}):
     *                         then the enclosing conditions need not be searched for one, which is most of
     *                         the cost of a look-up
     */
    static Local find(String name, Node use, boolean patternVariables) {
        Node child = use;
        Node parent = use.getParentNode().orElse(null);
        while (parent != null) {
            Local found = inScope(name, parent, child, patternVariables);
            if (found != null) {
                return found;
            }
            if (parent instanceof TypeDeclaration<?> t && t.isTopLevelType()) {
                return null;
            }
            child = parent;
            parent = parent.getParentNode().orElse(null);
        }
        return null;
    }

    private static Local inScope(String name, Node scope, Node child, boolean patternVariables) {
        if (scope instanceof BlockStmt block) {
            return declaredBefore(name, block.getStatements(), child);
        }
        if (scope instanceof SwitchEntry entry) {
            return declaredBefore(name, entry.getStatements(), child);
        }
        if (scope instanceof ForStmt loop) {
            for (Expression init : loop.getInitialization()) {
                Local l = fromDeclarationExpr(name, init);
                if (l != null) {
                    return l;
                }
            }
        }
        if (scope instanceof ForEachStmt loop) {
            Local l = fromDeclarationExpr(name, loop.getVariable());
            if (l != null) {
                return l;
            }
        }
        if (scope instanceof TryStmt tryStmt) {
            for (Expression resource : tryStmt.getResources()) {
                Local l = fromDeclarationExpr(name, resource);
                if (l != null) {
                    return l;
                }
            }
        }
        if (scope instanceof CatchClause c && c.getParameter().getNameAsString().equals(name)) {
            return new Local(c.getParameter().getType(), null, c.getParameter());
        }
        if (scope instanceof LambdaExpr lambda) {
            for (Parameter p : lambda.getParameters()) {
                if (p.getNameAsString().equals(name)) {
                    return new Local(p.getType(), null, p);
                }
            }
        }
        if (scope instanceof CallableDeclaration<?> callable) {
            for (Parameter p : callable.getParameters()) {
                if (p.getNameAsString().equals(name)) {
                    return new Local(p.getType(), null, p);
                }
            }
        }
        if (!patternVariables) {
            return null;
        }
        // Pattern variables ("x instanceof Foo f") in an enclosing condition.
        for (Node sibling : expressionChildren(scope)) {
            if (sibling == child || !(sibling instanceof Expression)) {
                continue;
            }
            for (TypePatternExpr pattern : sibling.findAll(TypePatternExpr.class)) {
                if (pattern.getNameAsString().equals(name)) {
                    return new Local(pattern.getType(), null, pattern);
                }
            }
        }
        return null;
    }

    /**
     * The children of {@code scope} that can be expressions. A type's or an anonymous class's members are
     * skipped without being looked at: a look-up that climbs through a class with thousands of methods
     * would otherwise step over all of them, making the methods of one class quadratic.
     */
    private static List<? extends Node> expressionChildren(Node scope) {
        if (scope instanceof TypeDeclaration<?> type) {
            return type.getAnnotations();
        }
        if (scope instanceof ObjectCreationExpr creation && creation.getAnonymousClassBody().isPresent()) {
            List<Node> out = new ArrayList<>();
            creation.getScope().ifPresent(out::add);
            out.addAll(creation.getArguments());
            return out;
        }
        return scope.getChildNodes();
    }

    private static Local declaredBefore(String name, NodeList<Statement> statements, Node child) {
        Local found = null;
        for (Statement s : statements) {
            if (s == child) {
                break;
            }
            if (s instanceof ExpressionStmt es) {
                Local l = fromDeclarationExpr(name, es.getExpression());
                if (l != null) {
                    found = l;
                }
            }
        }
        return found;
    }

    private static Local fromDeclarationExpr(String name, Expression expr) {
        if (expr instanceof VariableDeclarationExpr decl) {
            for (VariableDeclarator v : decl.getVariables()) {
                if (v.getNameAsString().equals(name)) {
                    return new Local(v.getType(), v.getInitializer().orElse(null), v);
                }
            }
        }
        if (expr instanceof PatternExpr) {
            return null;
        }
        return null;
    }

    /** Whether the local declared by {@code local} is assigned again anywhere in the block that declares it. */
    public static boolean reassigned(com.github.javaparser.ast.body.VariableDeclarator local) {
        Node scope = local.getParentNode().flatMap(Node::getParentNode).flatMap(Node::getParentNode).orElse(null);
        if (scope == null) {
            return true;
        }
        String name = local.getNameAsString();
        return scope.findAll(com.github.javaparser.ast.expr.AssignExpr.class).stream()
                .anyMatch(a -> a.getTarget() instanceof com.github.javaparser.ast.expr.NameExpr n
                        && n.getNameAsString().equals(name) && declarationOf(name, n) == local);
    }

    /** The value of a final String field of an enclosing type initialised with a literal. */
    public static String constantField(com.github.javaparser.ast.expr.NameExpr name) {
        if (LocalVariables.declarationOf(name.getNameAsString(), name) != null) {
            return null;
        }
        for (var n = name.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof TypeDeclaration<?> type) {
                var field = type.getFieldByName(name.getNameAsString());
                if (field.isPresent()) {
                    com.github.javaparser.ast.body.FieldDeclaration f = field.get();
                    for (VariableDeclarator v : f.getVariables()) {
                        if (v.getNameAsString().equals(name.getNameAsString()) && f.isFinal()
                                && v.getInitializer().orElse(null) instanceof com.github.javaparser.ast.expr.StringLiteralExpr s) {
                            return s.asString();
                        }
                    }
                    return null;
                }
            }
        }
        return null;
    }

    /**
     * The uses of the local or parameter {@code declaration} (a variable declarator or parameter) in
     * the method, constructor or lambda that declares it: the names that refer to it there.
     */
    public static List<com.github.javaparser.ast.expr.NameExpr> uses(Node declaration) {
        String name = declaration instanceof VariableDeclarator v ? v.getNameAsString()
                : declaration instanceof Parameter p ? p.getNameAsString() : null;
        Node body = declaration;
        while (body != null && !(body instanceof CallableDeclaration<?>) && !(body instanceof LambdaExpr)
                && !(body instanceof com.github.javaparser.ast.body.InitializerDeclaration)) {
            body = body.getParentNode().orElse(null);
        }
        if (name == null || body == null) {
            return List.of();
        }
        List<com.github.javaparser.ast.expr.NameExpr> out = new ArrayList<>();
        for (var use : body.findAll(com.github.javaparser.ast.expr.NameExpr.class)) {
            if (use.getNameAsString().equals(name) && declarationOf(name, use) == declaration) {
                out.add(use);
            }
        }
        return out;
    }
}
