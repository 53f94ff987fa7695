package dev.racelint.analyzer.callgraph;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.stmt.ExplicitConstructorInvocationStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.MethodMemo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import dev.racelint.analyzer.resolve.CallResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Dispatch through a registry keyed by its entries' own key: {@code registry.get(TYPE_A).start(..)},
 * where {@code get} returns {@code map.get(key)} and the map is filled only with
 * {@code toMap(Handler::getType, identity())} or {@code put(h.getType(), h)}. Each implementation's key
 * is what its {@code getType()} returns: a constant, or a field the base constructor takes from the
 * constant the implementation passes to {@code super(..)}. A call on the entry for a constant key then
 * runs only on the implementations with that key (or with a key this cannot tell), not on every one.
 */
final class KeyedRegistry {

    /** Map methods that put entries under a key other than the entry's own ({@code put}) or in bulk. */
    private static final Set<String> OTHER_MUTATORS = Set.of("putAll", "compute", "computeIfAbsent",
            "computeIfPresent", "merge", "replace", "replaceAll");

    private final ProgramIndex index;
    private final CallResolver resolver;
    private final MethodMemo<Optional<String>> keyMethods;

    KeyedRegistry(ProgramIndex index, CallResolver resolver) {
        this.index = index;
        this.resolver = resolver;
        this.keyMethods = new MethodMemo<>(index);
    }

    /** The targets of {@code call} that can be the registry entry for its constant key; all of them when unknown. */
    List<MethodInfo> narrow(MethodCallExpr call, List<MethodInfo> targets) {
        if (targets.size() < 2 || !(call.getScope().orElse(null) instanceof MethodCallExpr lookup)
                || lookup.getArguments().size() != 1) {
            return targets;
        }
        String key = constant(lookup.getArgument(0));
        if (key == null) {
            return targets;
        }
        List<MethodInfo> lookups = resolver.resolve(lookup).targets();
        if (lookups.size() != 1) {
            return targets;
        }
        String keyMethod = keyMethods.get(lookups.get(0), this::keyMethodOf).orElse(null);
        if (keyMethod == null) {
            return targets;
        }
        List<MethodInfo> out = new ArrayList<>();
        for (MethodInfo target : targets) {
            if (mayBeEntry(target, keyMethod, key)) {
                out.add(target);
            }
        }
        return out.isEmpty() ? targets : out;
    }

    /**
     * Some concrete class that runs {@code target} (its own class or a subclass that does not override
     * it) has the key, or a key that cannot be told.
     */
    private boolean mayBeEntry(MethodInfo target, String keyMethod, String key) {
        TypeInfo owner = target.declaringType();
        List<TypeInfo> runners = new ArrayList<>();
        runners.add(owner);
        for (TypeInfo sub : index.allSubtypes(owner)) {
            if (!overrides(sub, target)) {
                runners.add(sub);
            }
        }
        boolean concrete = false;
        for (TypeInfo type : runners) {
            if (!isConcreteClass(type)) {
                continue;
            }
            concrete = true;
            String value = keyOf(type, keyMethod);
            if (value == null || value.equals(key)) {
                return true;
            }
        }
        return !concrete;
    }

    private static boolean overrides(TypeInfo type, MethodInfo method) {
        return type.methodsNamed(method.name()).stream()
                .anyMatch(m -> m.parameterCount() == method.parameterCount() && !m.isAbstract());
    }

    private static boolean isConcreteClass(TypeInfo type) {
        return type.declaration() instanceof ClassOrInterfaceDeclaration c && !c.isInterface() && !c.isAbstract();
    }

    /**
     * The key method of a registry lookup: {@code lookup} returns {@code field.get(parameter)} (maybe
     * through {@code Optional.ofNullable(..).orElseThrow(..)}), and every write of that map field in its
     * class puts each entry under the value of one method of the entry.
     */
    private Optional<String> keyMethodOf(MethodInfo lookup) {
        if (!(lookup.declaration() instanceof MethodDeclaration declaration) || declaration.getParameters().size() != 1
                || declaration.getBody().isEmpty()) {
            return Optional.empty();
        }
        String parameter = declaration.getParameter(0).getNameAsString();
        List<ReturnStmt> returns = declaration.getBody().get().findAll(ReturnStmt.class);
        if (returns.size() != 1 || returns.get(0).getExpression().isEmpty()) {
            return Optional.empty();
        }
        String field = mapRead(returns.get(0).getExpression().get(), parameter);
        TypeInfo owner = lookup.declaringType();
        if (field == null || owner.fieldDeclarator(field) == null) {
            return Optional.empty();
        }
        String keyMethod = null;
        for (AssignExpr assign : owner.declaration().findAll(AssignExpr.class)) {
            if (!field.equals(fieldName(assign.getTarget()))) {
                continue;
            }
            String k = toMapKey(assign.getValue());
            if (k == null || keyMethod != null && !keyMethod.equals(k)) {
                return Optional.empty();
            }
            keyMethod = k;
        }
        VariableDeclarator declarator = owner.fieldDeclarator(field);
        if (declarator.getInitializer().isPresent() && !(declarator.getInitializer().get().isObjectCreationExpr()
                && declarator.getInitializer().get().asObjectCreationExpr().getArguments().isEmpty())) {
            String k = toMapKey(declarator.getInitializer().get());
            if (k == null || keyMethod != null && !keyMethod.equals(k)) {
                return Optional.empty();
            }
            keyMethod = k;
        }
        for (MethodCallExpr use : owner.declaration().findAll(MethodCallExpr.class)) {
            if (use.getScope().isEmpty() || !field.equals(fieldName(use.getScope().get()))) {
                continue;
            }
            if (OTHER_MUTATORS.contains(use.getNameAsString())) {
                return Optional.empty();
            }
            if (use.getNameAsString().equals("put") || use.getNameAsString().equals("putIfAbsent")) {
                String k = ownKey(use);
                if (k == null || keyMethod != null && !keyMethod.equals(k)) {
                    return Optional.empty();
                }
                keyMethod = k;
            }
        }
        return Optional.ofNullable(keyMethod);
    }

    /** The map field read by {@code field.get(parameter)} that the returned expression yields, or null. */
    private static String mapRead(Expression returned, String parameter) {
        Expression e = returned;
        // Optional.ofNullable(map.get(k)).orElseThrow(..): absent keys throw, present ones give the entry
        while (e instanceof MethodCallExpr chained && (chained.getNameAsString().equals("orElseThrow")
                || chained.getNameAsString().equals("get") && chained.getArguments().isEmpty()
                || chained.getNameAsString().equals("orElse") && chained.getArguments().size() == 1
                        && chained.getArgument(0).isNullLiteralExpr())
                && chained.getScope().isPresent()) {
            e = chained.getScope().get();
        }
        if (e instanceof MethodCallExpr wrap && wrap.getNameAsString().equals("ofNullable") && wrap.getArguments().size() == 1
                && wrap.getScope().map(s -> s.toString().equals("Optional")).orElse(false)) {
            e = wrap.getArgument(0);
        }
        if (e instanceof MethodCallExpr get && get.getNameAsString().equals("get") && get.getArguments().size() == 1
                && get.getArgument(0) instanceof NameExpr name && name.getNameAsString().equals(parameter)
                && get.getScope().isPresent()) {
            return fieldName(get.getScope().get());
        }
        return null;
    }

    private static String fieldName(Expression e) {
        if (e instanceof NameExpr name) {
            return name.getNameAsString();
        }
        if (e instanceof FieldAccessExpr access && access.getScope() instanceof ThisExpr) {
            return access.getNameAsString();
        }
        return null;
    }

    /** {@code ..collect(Collectors.toMap(Entry::key, Function.identity()))}: the key method, or null. */
    private static String toMapKey(Expression value) {
        if (!(value instanceof MethodCallExpr collect) || !collect.getNameAsString().equals("collect")
                || collect.getArguments().size() != 1 || !(collect.getArgument(0) instanceof MethodCallExpr toMap)
                || !toMap.getNameAsString().equals("toMap") || toMap.getArguments().size() != 2) {
            return null;
        }
        if (!(toMap.getArgument(0) instanceof MethodReferenceExpr ref) || !isIdentity(toMap.getArgument(1))) {
            return null;
        }
        return ref.getIdentifier();
    }

    private static boolean isIdentity(Expression e) {
        if (e instanceof MethodCallExpr call) {
            return call.getNameAsString().equals("identity") && call.getArguments().isEmpty()
                    && call.getScope().map(s -> s.toString().equals("Function")).orElse(false);
        }
        return e instanceof LambdaExpr lambda && lambda.getParameters().size() == 1 && lambda.getExpressionBody()
                .map(b -> b instanceof NameExpr n && n.getNameAsString().equals(lambda.getParameter(0).getNameAsString()))
                .orElse(false);
    }

    /** {@code map.put(entry.key(), entry)}: the key method, or null when the key is anything else. */
    private static String ownKey(MethodCallExpr put) {
        if (put.getArguments().size() != 2 || !(put.getArgument(1) instanceof NameExpr entry)
                || !(put.getArgument(0) instanceof MethodCallExpr key) || !key.getArguments().isEmpty()
                || !(key.getScope().orElse(null) instanceof NameExpr scope)
                || !scope.getNameAsString().equals(entry.getNameAsString())) {
            return null;
        }
        return key.getNameAsString();
    }

    /**
     * The key of instances of {@code type}: the constant its key method returns, found on the type or its
     * nearest superclass that declares it; when that returns a field its constructor takes from a
     * parameter, the constant {@code type}'s constructors pass there in {@code super(..)}. Null if unknown.
     */
    private String keyOf(TypeInfo type, String keyMethod) {
        TypeInfo declaring = type;
        TypeInfo child = null;
        while (declaring != null && declaring.methodsNamed(keyMethod).stream().noneMatch(m -> m.parameterCount() == 0)) {
            child = declaring;
            declaring = superclass(declaring);
        }
        if (declaring == null) {
            return null;
        }
        MethodInfo method = declaring.methodsNamed(keyMethod).stream().filter(m -> m.parameterCount() == 0).findFirst().get();
        if (!(method.declaration() instanceof MethodDeclaration declaration) || declaration.getBody().isEmpty()) {
            return null;
        }
        List<ReturnStmt> returns = declaration.getBody().get().findAll(ReturnStmt.class);
        if (returns.size() != 1 || returns.get(0).getExpression().isEmpty()) {
            return null;
        }
        Expression returned = returns.get(0).getExpression().get();
        String value = constant(returned);
        if (value != null) {
            return value;
        }
        String field = fieldName(returned);
        // the field is set from a constructor parameter of the declaring class, and the type is its
        // direct subclass passing a constant there
        if (field == null || child == null || child != type || superclass(type) != declaring) {
            return null;
        }
        int position = parameterAssigned(declaring, field);
        if (position < 0) {
            return null;
        }
        String passed = null;
        List<ConstructorDeclaration> constructors = ((ClassOrInterfaceDeclaration) type.declaration()).getConstructors();
        if (constructors.isEmpty()) {
            return null;
        }
        for (ConstructorDeclaration constructor : constructors) {
            var statements = constructor.getBody().getStatements();
            if (statements.isEmpty() || !(statements.get(0) instanceof ExplicitConstructorInvocationStmt invocation)
                    || invocation.isThis() || invocation.getArguments().size() <= position) {
                return null;
            }
            String v = constant(invocation.getArgument(position));
            if (v == null || passed != null && !passed.equals(v)) {
                return null;
            }
            passed = v;
        }
        return passed;
    }

    /** The position of the parameter every constructor of {@code type} assigns to {@code field}, or -1. */
    private static int parameterAssigned(TypeInfo type, String field) {
        if (!(type.declaration() instanceof ClassOrInterfaceDeclaration declaration)) {
            return -1;
        }
        int position = -1;
        for (ConstructorDeclaration constructor : declaration.getConstructors()) {
            int found = -1;
            for (AssignExpr assign : constructor.findAll(AssignExpr.class)) {
                if (field.equals(fieldName(assign.getTarget())) && assign.getValue() instanceof NameExpr name) {
                    for (int i = 0; i < constructor.getParameters().size(); i++) {
                        if (constructor.getParameter(i).getNameAsString().equals(name.getNameAsString())) {
                            found = i;
                        }
                    }
                }
            }
            if (found < 0 || position >= 0 && position != found) {
                return -1;
            }
            position = found;
        }
        return position;
    }

    private TypeInfo superclass(TypeInfo type) {
        if (!(type.declaration() instanceof ClassOrInterfaceDeclaration declaration)
                || declaration.getExtendedTypes().isEmpty()) {
            return null;
        }
        TypeRef ref = index.resolveType(declaration.getExtendedTypes(0), declaration);
        return ref.isProject() ? ref.project() : null;
    }

    /**
     * A compile-time constant's value: a literal, or a static final field (by name, qualified, or
     * statically imported) of a project type with a literal initialiser; null otherwise.
     */
    private String constant(Expression value) {
        if (value instanceof StringLiteralExpr s) {
            return "\"" + s.asString() + "\"";
        }
        if (value instanceof LiteralExpr literal && !value.isNullLiteralExpr()) {
            return literal.toString();
        }
        TypeInfo owner = null;
        String field = null;
        if (value instanceof FieldAccessExpr access && access.getScope() instanceof NameExpr typeName) {
            var file = index.fileOf(value);
            if (file != null) {
                TypeRef ref = index.resolveTypeName(typeName.getNameAsString(), value, file);
                owner = ref.isProject() ? ref.project() : null;
            }
            field = access.getNameAsString();
        } else if (value instanceof NameExpr name) {
            field = name.getNameAsString();
            for (TypeInfo t = index.enclosingType(value); t != null && owner == null; t = t.outer()) {
                if (t.fieldDeclarator(field) != null) {
                    owner = t;
                }
            }
            if (owner == null) {
                owner = staticImportOwner(value, field);
            }
        }
        if (owner == null) {
            return null;
        }
        VariableDeclarator declarator = owner.fieldDeclarator(field);
        if (declarator == null || !(declarator.getParentNode().orElse(null) instanceof FieldDeclaration declaration)
                || !owner.isInterface() && !(declaration.isStatic() && declaration.isFinal())) {
            return null;
        }
        Expression initializer = declarator.getInitializer().orElse(null);
        return initializer instanceof LiteralExpr && !(initializer instanceof com.github.javaparser.ast.expr.NullLiteralExpr)
                ? constantLiteral(initializer) : null;
    }

    private static String constantLiteral(Expression literal) {
        return literal instanceof StringLiteralExpr s ? "\"" + s.asString() + "\"" : literal.toString();
    }

    private TypeInfo staticImportOwner(Node at, String field) {
        CompilationUnit unit = at.findCompilationUnit().orElse(null);
        if (unit == null) {
            return null;
        }
        for (ImportDeclaration imported : unit.getImports()) {
            if (!imported.isStatic()) {
                continue;
            }
            String name = imported.getNameAsString();
            String typeName = imported.isAsterisk() ? name
                    : name.endsWith("." + field) ? name.substring(0, name.length() - field.length() - 1) : null;
            TypeInfo type = typeName == null ? null : index.type(typeName);
            if (type != null && type.fieldDeclarator(field) != null) {
                return type;
            }
        }
        return null;
    }
}
