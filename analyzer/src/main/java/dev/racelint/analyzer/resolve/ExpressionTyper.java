package dev.racelint.analyzer.resolve;

import dev.racelint.analyzer.parse.NodeMemo;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import dev.racelint.analyzer.index.FileContext;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import java.util.List;
import java.util.Map;

/**
 * Types expressions cheaply from declarations: locals and parameters, fields, {@code new},
 * casts, and the return types of project methods. Falls back to the classpath (symbol solver)
 * only when those cannot settle it. Results are memoised per node.
 */
public final class ExpressionTyper {

    /** A type plus whether the expression names the type itself (a static access like {@code Thread}). */
    /**
     * A type, whether the expression names the type itself (a static access like {@code Thread}),
     * and the type arguments as declared ({@code DataValidator<Customer>} gives [Customer]), by
     * simple name, when the expression is a variable with a declared parameterised type.
     */
    public record Typed(TypeRef type, boolean isTypeName, List<String> typeArguments) {
        static final Typed UNKNOWN = new Typed(TypeRef.UNKNOWN, false, List.of());

        Typed(TypeRef type, boolean isTypeName) {
            this(type, isTypeName, List.of());
        }
    }

    private final ProgramIndex index;
    private final ClasspathTypes classpath;
    private final NodeMemo<Typed> memo;
    private CallResolver calls;

    public ExpressionTyper(ProgramIndex index, ClasspathTypes classpath) {
        this.index = index;
        this.classpath = classpath;
        this.memo = new NodeMemo<>(NodeMemo.EXPECTED_PER_METHOD * index.methods().size());
    }

    void setCallResolver(CallResolver calls) {
        this.calls = calls;
    }

    public Typed typeOf(Expression expr) {
        Typed cached = memo.get(expr);
        if (cached != null) {
            return cached;
        }
        Typed result = compute(expr);
        if (!result.type().isKnown()) {
            String fromClasspath = classpath.qualifiedTypeOf(expr);
            if (fromClasspath != null) {
                TypeInfo project = index.type(fromClasspath);
                result = new Typed(project != null ? TypeRef.project(project)
                        : TypeRef.external(List.of(fromClasspath)), false);
            }
        }
        memo.put(expr, result);
        return result;
    }

    private Typed compute(Expression expr) {
        if (expr instanceof EnclosedExpr e) {
            return typeOf(e.getInner());
        }
        if (expr instanceof CastExpr c) {
            return value(index.resolveType(c.getType(), c));
        }
        if (expr instanceof ObjectCreationExpr o) {
            return value(index.resolveType(o.getType(), o));
        }
        if (expr instanceof ThisExpr t) {
            TypeInfo self = t.getTypeName().isPresent()
                    ? resolveTypeName(t.getTypeName().get().asString(), t).project()
                    : index.enclosingType(t);
            return self == null ? Typed.UNKNOWN : value(TypeRef.project(self));
        }
        if (expr instanceof ConditionalExpr c) {
            Typed then = typeOf(c.getThenExpr());
            return then.type().isKnown() ? then : typeOf(c.getElseExpr());
        }
        if (expr instanceof NameExpr n) {
            return typeOfName(n.getNameAsString(), n);
        }
        if (expr instanceof FieldAccessExpr f) {
            return typeOfFieldAccess(f);
        }
        if (expr instanceof MethodCallExpr call) {
            return typeOfCall(call);
        }
        return Typed.UNKNOWN;
    }

    private Typed typeOfName(String name, Node use) {
        FileContext file = index.fileOf(use);
        LocalVariables.Local local = LocalVariables.find(name, use, file == null || file.declaresPatternVariables());
        if (local != null) {
            if (local.type().isUnknownType() && local.declaration() instanceof com.github.javaparser.ast.body.Parameter p
                    && p.getParentNode().orElse(null) instanceof com.github.javaparser.ast.expr.LambdaExpr lambda) {
                return lambdaParameter(lambda);
            }
            if (local.type().isVarType() || local.type().isUnknownType()) {
                return local.initializer() == null ? Typed.UNKNOWN : typeOf(local.initializer());
            }
            return declared(local.type(), local.declaration());
        }
        for (TypeInfo t = index.enclosingType(use); t != null; t = t.outer()) {
            ProgramIndex.FieldRef field = index.findField(t, name);
            if (field != null) {
                return declared(field.type(), field.owner().declaration());
            }
        }
        if (file != null) {
            String staticOwner = file.staticMemberImport(name);
            if (staticOwner != null) {
                TypeInfo owner = index.type(staticOwner);
                if (owner != null) {
                    ProgramIndex.FieldRef field = index.findField(owner, name);
                    if (field != null) {
                        return declared(field.type(), owner.declaration());
                    }
                }
            }
            if (!name.isEmpty() && Character.isUpperCase(name.charAt(0))) {
                return new Typed(index.resolveTypeName(name, use, file), true);
            }
        }
        return Typed.UNKNOWN;
    }

    /**
     * Callback parameters of well-known APIs whose lambdas are written without types:
     * {@code jdbi.useHandle(handle -> ..)} gives a Handle.
     */
    private static final java.util.Map<String, String> CALLBACK_PARAMETERS = java.util.Map.of(
            "org.jdbi.v3.core.Jdbi#useHandle", "org.jdbi.v3.core.Handle",
            "org.jdbi.v3.core.Jdbi#withHandle", "org.jdbi.v3.core.Handle",
            "org.jdbi.v3.core.Jdbi#useTransaction", "org.jdbi.v3.core.Handle",
            "org.jdbi.v3.core.Jdbi#inTransaction", "org.jdbi.v3.core.Handle",
            "org.jdbi.v3.core.Handle#useTransaction", "org.jdbi.v3.core.Handle",
            "org.jdbi.v3.core.Handle#inTransaction", "org.jdbi.v3.core.Handle",
            "org.jooq.DSLContext#transaction", "org.jooq.Configuration",
            "org.jooq.DSLContext#transactionResult", "org.jooq.Configuration");

    /** Static factories whose result type is not their own class. */
    /**
     * Accessors of framework base classes that return one of the base's type arguments, by its position:
     * MyBatis-Plus's {@code IService.getBaseMapper()} returns the mapper {@code M} of {@code ServiceImpl<M, T>}.
     */
    private static final java.util.Map<String, Integer> INHERITED_TYPE_ARGUMENTS = java.util.Map.of(
            "com.baomidou.mybatisplus.extension.service.impl.ServiceImpl#getBaseMapper", 0);

    private static final java.util.Map<String, String> STATIC_FACTORIES = java.util.Map.of(
            "org.jooq.impl.DSL#using", "org.jooq.DSLContext",
            "org.jdbi.v3.core.Jdbi#open", "org.jdbi.v3.core.Handle");

    private Typed lambdaParameter(com.github.javaparser.ast.expr.LambdaExpr lambda) {
        if (!(lambda.getParentNode().orElse(null) instanceof MethodCallExpr call) || call.getScope().isEmpty()) {
            return Typed.UNKNOWN;
        }
        Typed receiver = typeOf(call.getScope().get());
        for (String candidate : receiver.type().candidates()) {
            String type = CALLBACK_PARAMETERS.get(candidate + "#" + call.getNameAsString());
            if (type != null) {
                return value(TypeRef.external(List.of(type)));
            }
        }
        return Typed.UNKNOWN;
    }

    private Typed typeOfFieldAccess(FieldAccessExpr f) {
        String name = f.getNameAsString();
        Expression scope = f.getScope();
        if (scope instanceof ThisExpr t) {
            Typed self = typeOf(t);
            if (self.type().isProject()) {
                ProgramIndex.FieldRef field = index.findField(self.type().project(), name);
                if (field != null) {
                    return declared(field.type(), field.owner().declaration());
                }
            }
            return Typed.UNKNOWN;
        }
        Typed owner = typeOf(scope);
        if (owner.type().isProject()) {
            TypeInfo type = owner.type().project();
            if (owner.isTypeName()) {
                TypeInfo nested = index.type(type.qualifiedName() + "." + name);
                if (nested != null) {
                    return new Typed(TypeRef.project(nested), true);
                }
            }
            ProgramIndex.FieldRef field = index.findField(type, name);
            if (field != null) {
                return declared(field.type(), field.owner().declaration());
            }
            return Typed.UNKNOWN;
        }
        if (owner.isTypeName() && owner.type().isKnown()) {
            // An upper-case member of an external type, e.g. TimeUnit.SECONDS: take it as a
            // constant of that type (enum constants and singletons), which is right far more
            // often than not and only ever used to match catalogue entries.
            if (isConstantName(name)) {
                return value(owner.type());
            }
            if (Character.isUpperCase(name.charAt(0))) {
                return new Typed(TypeRef.external(owner.type().candidates().stream()
                        .map(c -> c + "." + name).toList()), true);
            }
            return Typed.UNKNOWN;
        }
        if (!owner.type().isKnown() && Character.isUpperCase(name.charAt(0)) && isPackageLike(scope)) {
            FileContext file = index.fileOf(f);
            if (file != null) {
                return new Typed(index.resolveTypeName(f.toString(), f, file), true);
            }
        }
        return Typed.UNKNOWN;
    }

    private Typed typeOfCall(MethodCallExpr call) {
        List<MethodInfo> targets = calls == null ? List.of() : calls.projectTargets(call);
        for (MethodInfo target : targets) {
            if (target.declaration() instanceof MethodDeclaration m && !m.getType().isVoidType()) {
                TypeRef ref = index.resolveType(m.getType(), m);
                if (ref.isKnown() && !isTypeParameter(m, ref)) {
                    return value(ref);
                }
            }
        }
        if (!targets.isEmpty()) {
            return Typed.UNKNOWN;
        }
        // Factories on external types return that type: HttpClient.newHttpClient(),
        // OkHttpClient.Builder().build() chains, Executors are handled by the catalogue.
        if (call.getScope().isPresent()) {
            Typed owner = typeOf(call.getScope().get());
            String name = call.getNameAsString();
            if (owner.isTypeName() && owner.type().isKnown() && !owner.type().isProject()
                    && (name.startsWith("new") || name.startsWith("create") || name.equals("getInstance")
                    || name.equals("getDefault"))) {
                return value(owner.type());
            }
            for (String candidate : owner.type().candidates()) {
                String produced = STATIC_FACTORIES.get(candidate + "#" + name);
                if (owner.isTypeName() && produced != null) {
                    return value(TypeRef.external(List.of(produced)));
                }
            }
            if (owner.type().isProject() && !owner.isTypeName() && call.getArguments().isEmpty()) {
                TypeRef argument = inheritedTypeArgument(owner.type().project(), name);
                if (argument != null) {
                    return value(argument);
                }
            }
            if (name.equals("build") && call.getScope().get() instanceof MethodCallExpr inner) {
                TypeRef root = builderRoot(inner);
                if (root != null) {
                    return value(root);
                }
            }
        }
        return Typed.UNKNOWN;
    }

    /**
     * For an accessor a framework base class declares with a type parameter as its return type, called
     * on a project subclass that binds it ({@code service.getBaseMapper()} on a class extending
     * {@code ServiceImpl<OrderMapper, Order>} returns an {@code OrderMapper}): the bound type, from the
     * {@code extends} / {@code implements} clause naming the base, here or in a project supertype.
     */
    private TypeRef inheritedTypeArgument(TypeInfo start, String method) {
        java.util.ArrayDeque<TypeInfo> work = new java.util.ArrayDeque<>(List.of(start));
        java.util.Set<TypeInfo> seen = new java.util.HashSet<>();
        while (!work.isEmpty()) {
            TypeInfo t = work.poll();
            if (!seen.add(t) || !(t.declaration() instanceof com.github.javaparser.ast.body.ClassOrInterfaceDeclaration c)) {
                continue;
            }
            List<com.github.javaparser.ast.type.ClassOrInterfaceType> clauses = new java.util.ArrayList<>(c.getExtendedTypes());
            clauses.addAll(c.getImplementedTypes());
            for (var clause : clauses) {
                TypeRef base = index.resolveTypeName(clause.getNameWithScope(), c, t.file());
                for (String candidate : base.candidates()) {
                    Integer at = INHERITED_TYPE_ARGUMENTS.get(candidate + "#" + method);
                    var arguments = clause.getTypeArguments().orElse(null);
                    if (at != null && arguments != null && at < arguments.size()) {
                        TypeRef bound = index.resolveType(arguments.get(at), c);
                        return bound.isProject() ? bound : null;
                    }
                }
                if (base.isProject()) {
                    work.add(base.project());
                }
            }
        }
        return null;
    }

    /** For {@code T.builder()...build()} or {@code T.newBuilder()...build()}: T. */
    private TypeRef builderRoot(MethodCallExpr call) {
        MethodCallExpr current = call;
        while (true) {
            if (current.getScope().isEmpty()) {
                return null;
            }
            Expression scope = current.getScope().get();
            if (scope instanceof MethodCallExpr next) {
                current = next;
                continue;
            }
            String name = current.getNameAsString();
            if (!name.equals("builder") && !name.equals("newBuilder")) {
                return null;
            }
            Typed owner = typeOf(scope);
            return owner.isTypeName() && owner.type().isKnown() ? owner.type() : null;
        }
    }

    private static boolean isTypeParameter(MethodDeclaration m, TypeRef ref) {
        String written = m.getType().asString();
        if (m.getTypeParameters().stream().anyMatch(tp -> tp.getNameAsString().equals(written))) {
            return true;
        }
        Node parent = m.getParentNode().orElse(null);
        return parent instanceof com.github.javaparser.ast.nodeTypes.NodeWithTypeParameters<?> owner
                && owner.getTypeParameters().stream().anyMatch(tp -> tp.getNameAsString().equals(written));
    }

    private TypeRef resolveTypeName(String name, Node context) {
        FileContext file = index.fileOf(context);
        return file == null ? TypeRef.UNKNOWN : index.resolveTypeName(name, context, file);
    }

    /** The type of a variable declared with {@code type}, keeping its type arguments. */
    private Typed declared(com.github.javaparser.ast.type.Type type, Node context) {
        TypeRef ref = index.resolveType(type, context);
        if (!ref.isKnown()) {
            return Typed.UNKNOWN;
        }
        return new Typed(ref, false, TypeArguments.of(type));
    }

    private static Typed value(TypeRef ref) {
        return ref.isKnown() ? new Typed(ref, false) : Typed.UNKNOWN;
    }

    private static boolean isConstantName(String name) {
        for (char c : name.toCharArray()) {
            if (Character.isLowerCase(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPackageLike(Expression scope) {
        Expression current = scope;
        while (current instanceof FieldAccessExpr f) {
            current = f.getScope();
        }
        return current instanceof NameExpr n && Character.isLowerCase(n.getNameAsString().charAt(0));
    }

    /** The scanned type declared by a type declaration node (for callers holding an AST). */
    public TypeInfo typeOf(TypeDeclaration<?> declaration) {
        return index.typeOf(declaration);
    }
}
