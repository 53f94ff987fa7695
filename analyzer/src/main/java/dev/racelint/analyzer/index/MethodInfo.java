package dev.racelint.analyzer.index;

import com.github.javaparser.ast.Modifier;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.SimpleName;
import java.util.stream.Collectors;

/**
 * A method or constructor declared in the scanned sources, including methods of anonymous classes
 * (whose {@code anonymous} flag is set: they run whenever their object is called, not inline).
 */
public final class MethodInfo {
    /** The name a constructor goes by, as in class files: no method can be called that. */
    public static final String CONSTRUCTOR_NAME = "<init>";

    private final int id;
    private final TypeInfo declaringType;
    private final CallableDeclaration<?> declaration;
    private final boolean anonymous;
    private final boolean constructor;
    private final String name;
    private final String signature;
    private final int parameterCount;
    private final boolean varArgs;

    MethodInfo(int id, TypeInfo declaringType, CallableDeclaration<?> declaration, boolean anonymous) {
        this.id = id;
        this.declaringType = declaringType;
        this.declaration = declaration;
        this.anonymous = anonymous;
        // asked for at every method lookup (the arity test for each candidate): read once from the tree
        this.constructor = declaration.isConstructorDeclaration();
        this.name = constructor ? CONSTRUCTOR_NAME : declaration.getNameAsString();
        this.parameterCount = declaration.getParameters().size();
        this.varArgs = declaration.getParameters().stream().anyMatch(Parameter::isVarArgs);
        String params = declaration.getParameters().stream()
                .map(p -> eraseGenerics(p.getType().asString()) + (p.isVarArgs() ? "..." : ""))
                .collect(Collectors.joining(","));
        String owner = declaringType.qualifiedName() + (anonymous ? "$anonymous" : "");
        this.signature = owner + "#" + name() + "(" + params + ")";
    }

    private static String eraseGenerics(String type) {
        StringBuilder out = new StringBuilder();
        int depth = 0;
        for (char c : type.toCharArray()) {
            if (c == '<') {
                depth++;
            } else if (c == '>') {
                depth--;
            } else if (depth == 0) {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Dense id, stable within one analysis run (assigned in file and declaration order). */
    public int id() {
        return id;
    }

    public TypeInfo declaringType() {
        return declaringType;
    }

    public CallableDeclaration<?> declaration() {
        return declaration;
    }

    public boolean isAnonymous() {
        return anonymous;
    }

    public boolean isConstructor() {
        return constructor;
    }

    public String name() {
        return name;
    }

    public SimpleName nameNode() {
        return declaration.getName();
    }

    public int parameterCount() {
        return parameterCount;
    }

    public boolean isVarArgs() {
        return varArgs;
    }

    /** Could a call with {@code arguments} arguments land here? */
    public boolean acceptsArity(int arguments) {
        int n = parameterCount();
        return arguments == n || (isVarArgs() && arguments >= n - 1);
    }

    /** Declared {@code void} (constructors count as void). */
    public boolean returnsVoid() {
        return !(declaration instanceof MethodDeclaration m) || m.getType().isVoidType();
    }

    public boolean isStatic() {
        return declaration.hasModifier(Modifier.Keyword.STATIC);
    }

    public boolean isPrivate() {
        return declaration.hasModifier(Modifier.Keyword.PRIVATE);
    }

    public boolean isFinal() {
        return declaration.hasModifier(Modifier.Keyword.FINAL);
    }

    public boolean isAbstract() {
        if (declaration instanceof MethodDeclaration m) {
            return m.isAbstract() || (declaringType.isInterface() && m.getBody().isEmpty());
        }
        return false;
    }

    /** Body statements' root, or null for abstract/native methods. */
    public Node body() {
        if (declaration instanceof MethodDeclaration m) {
            return m.getBody().orElse(null);
        }
        return declaration.asConstructorDeclaration().getBody();
    }

    /** {@code com.acme.OrderService#placeOrder(OrderRequest)}: stable across line moves. */
    public String signature() {
        return signature;
    }

    /** {@code OrderService.placeOrder()}: how messages name the method. */
    public String displayName() {
        return declaringType.simpleName() + "." + (isConstructor() ? declaringType.simpleName() : name()) + "()";
    }

    @Override
    public String toString() {
        return signature;
    }
}
