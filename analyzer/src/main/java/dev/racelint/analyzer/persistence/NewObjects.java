package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.stmt.ReturnStmt;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.CallResolver;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.List;
import java.util.Set;

/**
 * Whether a value is an object made here rather than one read from storage: a {@code new}
 * expression, a call to a project factory that only ever returns objects it constructed (a static
 * {@code Order.draftFor(..)}, a hand-written builder's {@code build()}) and is handed no object of
 * the project's own types (which may carry a stored row's identity into the result), or a Lombok
 * builder chain started on the type ({@code Order.builder()...build()}). Decided from the factory's body, never from
 * its name: a method called {@code createOrUpdate} that returns a row it loaded is not a factory.
 */
final class NewObjects {

    /** Lombok's builder annotations: the generated static {@code builder()} starts a new instance. */
    private static final Set<String> LOMBOK_BUILDERS = Set.of("lombok.Builder", "lombok.experimental.SuperBuilder");

    /** How many factories deep a factory may delegate (a builder's build() calling a constructor-only helper). */
    private static final int FACTORY_DEPTH = 3;

    private final CallResolver resolver;

    NewObjects(CallResolver resolver) {
        this.resolver = resolver;
    }

    /** Is {@code value} an object constructed by the code, with no stored row in it? */
    boolean constructed(Expression value) {
        return constructed(value, FACTORY_DEPTH);
    }

    private boolean constructed(Expression value, int depth) {
        Expression e = value;
        while (e.isEnclosedExpr() || e.isCastExpr()) {
            e = e.isEnclosedExpr() ? e.asEnclosedExpr().getInner() : e.asCastExpr().getExpression();
        }
        if (e instanceof ObjectCreationExpr) {
            return true;
        }
        if (!(e instanceof MethodCallExpr call) || depth == 0) {
            return false;
        }
        if (lombokBuilderChain(call)) {
            return true;
        }
        if (depth == FACTORY_DEPTH && call.getArguments().stream().anyMatch(this::projectObject)) {
            // handed one of the project's own objects (a view, a DTO, an entity), a factory may copy a stored
            // row's identity into what it returns: only a factory fed plain values is known to make a new row
            return false;
        }
        List<MethodInfo> targets;
        try {
            targets = resolver.resolve(call).targets();
        } catch (RuntimeException unresolved) {
            return false;
        }
        return !targets.isEmpty() && targets.stream().allMatch(m -> onlyReturnsConstructed(m, depth - 1));
    }

    private boolean projectObject(Expression argument) {
        try {
            return resolver.typer().typeOf(argument).type().isProject();
        } catch (RuntimeException unknown) {
            return true;
        }
    }

    /** Every return of the method hands back an object it (or a factory it calls) constructed. */
    private boolean onlyReturnsConstructed(MethodInfo method, int depth) {
        Node body = method.body();
        if (body == null) {
            return false;
        }
        List<ReturnStmt> returns = body.findAll(ReturnStmt.class).stream()
                .filter(r -> enclosingCallable(r) == enclosingCallable(body)).toList();
        if (returns.isEmpty()) {
            return false;
        }
        for (ReturnStmt r : returns) {
            Expression returned = r.getExpression().orElse(null);
            if (returned == null || !(constructed(returned, depth) || constructedLocal(returned, depth))) {
                return false;
            }
        }
        return true;
    }

    /** A local whose only value is a constructed object: declared with one and never assigned again. */
    private boolean constructedLocal(Expression returned, int depth) {
        if (!(returned instanceof NameExpr n)
                || !(LocalVariables.declarationOf(n.getNameAsString(), n) instanceof VariableDeclarator v)
                || v.getInitializer().isEmpty()) {
            return false;
        }
        Node scope = enclosingCallable(v);
        boolean reassigned = scope != null && scope.findAll(com.github.javaparser.ast.expr.AssignExpr.class).stream()
                .anyMatch(a -> a.getTarget() instanceof NameExpr t && t.getNameAsString().equals(n.getNameAsString()));
        return !reassigned && constructed(v.getInitializer().get(), depth);
    }

    /** {@code Type.builder()...build()}: the chain starts with the static builder Lombok generates for a project type. */
    private boolean lombokBuilderChain(MethodCallExpr call) {
        MethodCallExpr root = call;
        while (root.getScope().isPresent() && root.getScope().get() instanceof MethodCallExpr inner) {
            root = inner;
        }
        if (root == call || root.getScope().isEmpty() || !root.getArguments().isEmpty()) {
            return false;
        }
        var typed = resolver.typer().typeOf(root.getScope().get());
        if (!typed.isTypeName() || !typed.type().isProject()) {
            return false;
        }
        var declaration = typed.type().project().declaration();
        return resolver.annotations().has(declaration, LOMBOK_BUILDERS)
                && resolver.annotations().find(declaration, LOMBOK_BUILDERS)
                        .flatMap(a -> dev.racelint.analyzer.index.Annotations.attribute(a, "builderMethodName"))
                        .map(v -> v.isStringLiteralExpr() ? v.asStringLiteralExpr().asString() : "")
                        .orElse("builder").equals(root.getNameAsString());
    }

    private static Node enclosingCallable(Node node) {
        for (Node n = node; n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof com.github.javaparser.ast.body.CallableDeclaration<?>
                    || n instanceof com.github.javaparser.ast.expr.LambdaExpr) {
                return n;
            }
        }
        return null;
    }
}
