package dev.racelint.analyzer.index;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.EnumConstantDeclaration;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.RecordDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.TypePatternExpr;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.Type;
import dev.racelint.analyzer.parse.ParsedFile;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Declarations of the scanned program: types, their supertypes, fields and methods, and the
 * imports of each file, with name resolution that works without a classpath.
 */
public final class ProgramIndex {

    /** java.lang types that matter for receivers and static calls; others resolve by import. */
    private static final Set<String> JAVA_LANG = Set.of(
            "Thread", "Object", "String", "System", "Runnable", "Math", "Integer", "Long", "Boolean",
            "Double", "Float", "Short", "Byte", "Character", "StringBuilder", "Class", "Enum", "Record",
            "Iterable", "AutoCloseable", "Exception", "RuntimeException", "Error", "Throwable",
            "InterruptedException", "Number", "Void", "ThreadLocal", "Process", "ProcessBuilder",
            "Runtime", "CharSequence", "Comparable", "Override", "Deprecated", "SuppressWarnings",
            "FunctionalInterface", "SafeVarargs", "IllegalStateException", "IllegalArgumentException");

    private final List<FileContext> files = new ArrayList<>();
    private final Map<String, TypeInfo> typesByName = new HashMap<>();
    /** Qualified names declared more than once (copies in sibling modules), with every declaration. */
    private final Map<String, List<TypeInfo>> sameNamedTypes = new HashMap<>();
    private final List<TypeInfo> types = new ArrayList<>();
    private final Map<Node, TypeInfo> typesByDeclaration = new IdentityHashMap<>();
    private final Map<Node, MethodInfo> methodsByDeclaration = new IdentityHashMap<>();
    private final Map<ObjectCreationExpr, List<MethodInfo>> anonymousMethods = new IdentityHashMap<>();
    private final Map<Node, List<MethodInfo>> enumConstantMethods = new IdentityHashMap<>();
    private final List<MethodInfo> methods = new ArrayList<>();
    private final Map<String, List<TypeInfo>> directSubtypes = new HashMap<>();
    private final Map<CompilationUnit, FileContext> fileByUnit = new IdentityHashMap<>();
    private volatile boolean complete;
    private MethodMemo<List<MethodCallExpr>> ownCalls;
    private MethodMemo<BodyNodes> bodyNodes;
    private final ConcurrentHashMap<SimpleNameKey, TypeRef> simpleNames =
            new ConcurrentHashMap<>();

    /** The name of this phase in {@code too-slow} diagnostics. */
    public static final String PHASE = "index";

    public static ProgramIndex build(List<ParsedFile> parsed) {
        return build(parsed, 1);
    }

    /** Indexes {@code parsed}; the walks that find each file's declarations run on {@code threads} threads. */
    public static ProgramIndex build(List<ParsedFile> parsed, int threads) {
        return build(parsed, threads, FileBudget.UNLIMITED);
    }

    /**
     * As {@link #build(List, int)}, charging each file's part to its budget. Every file is indexed
     * whatever it costs: the other files' calls resolve against its declarations.
     */
    public static ProgramIndex build(List<ParsedFile> parsed, int threads, FileBudget budget) {
        ProgramIndex index = new ProgramIndex();
        DeclarationNodes[] found = new DeclarationNodes[parsed.size()];
        List<Integer> positions = java.util.stream.IntStream.range(0, parsed.size()).boxed().toList();
        MethodTasks.forEach(positions, threads, i -> budget.charge(parsed.get(i).path(), PHASE,
                () -> found[i] = DeclarationNodes.of(parsed.get(i).unit())));
        for (int i = 0; i < found.length; i++) {
            int position = i;
            budget.charge(parsed.get(i).path(), PHASE, () -> index.addFile(parsed.get(position), found[position]));
            found[i] = null;
        }
        for (TypeInfo type : index.types) {
            index.resolveSupertypes(type);
        }
        for (TypeInfo type : index.types) {
            for (TypeRef sup : type.supertypes) {
                if (sup.isProject()) {
                    index.directSubtypes.computeIfAbsent(sup.project().qualifiedName(), k -> new ArrayList<>())
                            .add(type);
                }
            }
        }
        index.complete = true;
        index.ownCalls = new MethodMemo<>(index);
        index.bodyNodes = new MethodMemo<>(index);
        return index;
    }

    /** The declarations of one file, each kind in source order, found by one walk of its tree. */
    private record DeclarationNodes(List<TypeDeclaration<?>> types, List<ObjectCreationExpr> anonymousClasses,
            List<EnumConstantDeclaration> enumConstants, boolean patternVariables) {

        static DeclarationNodes of(CompilationUnit unit) {
            List<TypeDeclaration<?>> types = new ArrayList<>();
            List<ObjectCreationExpr> anonymousClasses = new ArrayList<>();
            List<EnumConstantDeclaration> enumConstants = new ArrayList<>();
            boolean[] patternVariables = {false};
            unit.walk(node -> {
                if (node instanceof TypeDeclaration<?> t) {
                    types.add(t);
                } else if (node instanceof ObjectCreationExpr o && o.getAnonymousClassBody().isPresent()) {
                    anonymousClasses.add(o);
                } else if (node instanceof EnumConstantDeclaration e) {
                    enumConstants.add(e);
                } else if (node instanceof TypePatternExpr) {
                    patternVariables[0] = true;
                }
            });
            return new DeclarationNodes(types, anonymousClasses, enumConstants, patternVariables[0]);
        }
    }

    private void addFile(ParsedFile parsed, DeclarationNodes found) {
        FileContext file = new FileContext(parsed.path(), parsed.unit());
        if (!found.patternVariables()) {
            file.noPatternVariables();
        }
        files.add(file);
        fileByUnit.put(parsed.unit(), file);
        List<TypeDeclaration<?>> typeDeclarations = found.types();
        List<ObjectCreationExpr> anonymousClasses = found.anonymousClasses();
        List<EnumConstantDeclaration> enumConstants = found.enumConstants();
        for (TypeDeclaration<?> decl : typeDeclarations) {
            TypeInfo outer = enclosingType(decl.getParentNode().orElse(null));
            String name = outer != null
                    ? outer.qualifiedName() + "." + decl.getNameAsString()
                    : (file.packageName().isEmpty() ? "" : file.packageName() + ".") + decl.getNameAsString();
            TypeInfo type = new TypeInfo(name, decl, file, outer);
            types.add(type);
            TypeInfo first = typesByName.putIfAbsent(name, type);
            if (first != null) {
                sameNamedTypes.computeIfAbsent(name, k -> new ArrayList<>(List.of(first))).add(type);
            }
            typesByDeclaration.put(decl, type);
            indexMembers(type);
        }
        for (ObjectCreationExpr creation : anonymousClasses) {
            TypeInfo owner = enclosingType(creation);
            if (owner == null) {
                continue;
            }
            List<MethodInfo> list = new ArrayList<>();
            for (BodyDeclaration<?> member : creation.getAnonymousClassBody().get()) {
                if (member instanceof CallableDeclaration<?> callable) {
                    list.add(addMethod(owner, callable, true));
                }
            }
            anonymousMethods.put(creation, list);
        }
        for (EnumConstantDeclaration constant : enumConstants) {
            TypeInfo owner = enclosingType(constant);
            if (owner == null) {
                continue;
            }
            List<MethodInfo> list = new ArrayList<>();
            for (BodyDeclaration<?> member : constant.getClassBody()) {
                if (member instanceof CallableDeclaration<?> callable) {
                    list.add(addMethod(owner, callable, true));
                }
            }
            enumConstantMethods.put(constant, list);
        }
    }

    private void indexMembers(TypeInfo type) {
        TypeDeclaration<?> decl = type.declaration();
        for (BodyDeclaration<?> member : decl.getMembers()) {
            if (member instanceof FieldDeclaration field) {
                field.getVariables().forEach(v -> {
                    type.fieldTypes.put(v.getNameAsString(), v.getType());
                    type.fieldDeclarators.putIfAbsent(v.getNameAsString(), v);
                });
            } else if (member instanceof CallableDeclaration<?> callable) {
                type.addMethod(addMethod(type, callable, false));
            }
        }
        if (decl instanceof RecordDeclaration record) {
            record.getParameters().forEach(p -> type.fieldTypes.put(p.getNameAsString(), p.getType()));
        }
        if (decl instanceof EnumDeclaration enumDecl) {
            ClassOrInterfaceType self = new ClassOrInterfaceType(null, enumDecl.getNameAsString());
            enumDecl.getEntries().forEach(e -> type.fieldTypes.put(e.getNameAsString(), self));
        }
    }

    private MethodInfo addMethod(TypeInfo owner, CallableDeclaration<?> callable, boolean anonymous) {
        MethodInfo method = new MethodInfo(methods.size(), owner, callable, anonymous);
        methods.add(method);
        methodsByDeclaration.put(callable, method);
        return method;
    }

    private void resolveSupertypes(TypeInfo type) {
        TypeDeclaration<?> decl = type.declaration();
        Node context = decl.getParentNode().orElse(decl);
        List<ClassOrInterfaceType> written = new ArrayList<>();
        if (decl instanceof ClassOrInterfaceDeclaration c) {
            written.addAll(c.getExtendedTypes());
            written.addAll(c.getImplementedTypes());
        } else if (decl instanceof EnumDeclaration e) {
            written.addAll(e.getImplementedTypes());
        } else if (decl instanceof RecordDeclaration r) {
            written.addAll(r.getImplementedTypes());
        }
        for (ClassOrInterfaceType t : written) {
            TypeRef ref = resolveTypeName(t.getNameWithScope(), context, type.file());
            if (ref.isProject() && ref.project() == type) {
                continue;
            }
            type.supertypes.add(ref);
        }
    }

    // ---- queries ----------------------------------------------------------------------------

    public List<TypeInfo> types() {
        return Collections.unmodifiableList(types);
    }

    public List<MethodInfo> methods() {
        return Collections.unmodifiableList(methods);
    }

    public List<FileContext> files() {
        return Collections.unmodifiableList(files);
    }

    public TypeInfo type(String qualifiedName) {
        return typesByName.get(qualifiedName);
    }

    /**
     * The type {@code qualifiedName} as a name written in {@code from} means it. When several modules
     * of the tree declare that name, javac compiling {@code from}'s module sees its own copy (or the one
     * of the nearest module): the declaration whose file shares the longest leading path with
     * {@code from} wins, the first indexed one on a tie.
     */
    public TypeInfo type(String qualifiedName, FileContext from) {
        List<TypeInfo> copies = sameNamedTypes.get(qualifiedName);
        if (copies == null || from == null) {
            return typesByName.get(qualifiedName);
        }
        TypeInfo nearest = null;
        int longest = -1;
        for (TypeInfo copy : copies) {
            int shared = sharedLeadingNames(copy.file().path(), from.path());
            if (shared > longest) {
                nearest = copy;
                longest = shared;
            }
        }
        return nearest;
    }

    private static int sharedLeadingNames(Path a, Path b) {
        int n = 0;
        while (n < a.getNameCount() && n < b.getNameCount() && a.getName(n).equals(b.getName(n))) {
            n++;
        }
        return n;
    }

    public TypeInfo typeOf(TypeDeclaration<?> declaration) {
        return typesByDeclaration.get(declaration);
    }

    public MethodInfo methodOf(CallableDeclaration<?> declaration) {
        return methodsByDeclaration.get(declaration);
    }

    /** Methods of an anonymous class body created by this expression. */
    public List<MethodInfo> anonymousMethods(ObjectCreationExpr creation) {
        return anonymousMethods.getOrDefault(creation, List.of());
    }

    public FileContext fileOf(CompilationUnit unit) {
        return fileByUnit.get(unit);
    }

    public FileContext fileOf(Node node) {
        return node.findCompilationUnit().map(fileByUnit::get).orElse(null);
    }

    /** The innermost scanned type whose body contains {@code node} (the node itself if a type). */
    public TypeInfo enclosingType(Node node) {
        Node current = node;
        while (current != null) {
            if (current instanceof TypeDeclaration<?> t) {
                TypeInfo info = typesByDeclaration.get(t);
                if (info != null) {
                    return info;
                }
            }
            current = current.getParentNode().orElse(null);
        }
        return null;
    }

    /** The innermost method, constructor or anonymous-class method containing {@code node}. */
    public MethodInfo enclosingMethod(Node node) {
        Node current = node;
        while (current != null) {
            if (current instanceof CallableDeclaration<?> c) {
                MethodInfo info = methodsByDeclaration.get(c);
                if (info != null) {
                    return info;
                }
            }
            current = current.getParentNode().orElse(null);
        }
        return null;
    }

    /**
     * Is {@code node} the method's own code: inside its body, and not inside a nested, local or
     * anonymous class's method (lambdas are the method's own code)?
     */
    public boolean isOwnCode(Node node, MethodInfo method) {
        return enclosingMethod(node) == method;
    }

    /**
     * The method calls of {@code method}'s own code (not of the lambdas' or classes' methods declared
     * inside it), in source order; found once, since several models and rules ask for them.
     */
    public List<MethodCallExpr> ownCalls(MethodInfo method) {
        return ownCalls.get(method, m -> bodyNodes(m).calls().stream().filter(call -> isOwnCode(call, m)).toList());
    }

    /** The calls, object creations, catch clauses, synchronized blocks and loops of a method body: one walk, kept. */
    public BodyNodes bodyNodes(MethodInfo method) {
        return bodyNodes.get(method, BodyNodes::of);
    }

    /** Project types that directly extend or implement {@code type}. */
    public List<TypeInfo> directSubtypes(TypeInfo type) {
        return directSubtypes.getOrDefault(type.qualifiedName(), List.of());
    }

    /** All project subtypes of {@code type}, transitively, in discovery order. */
    public List<TypeInfo> allSubtypes(TypeInfo type) {
        LinkedHashSet<TypeInfo> out = new LinkedHashSet<>();
        Deque<TypeInfo> work = new ArrayDeque<>(directSubtypes(type));
        while (!work.isEmpty()) {
            TypeInfo t = work.poll();
            if (t != type && out.add(t)) {
                work.addAll(directSubtypes(t));
            }
        }
        return new ArrayList<>(out);
    }

    /** {@code type} and its supertypes, nearest first, each once (project and external). */
    public List<TypeRef> supertypeClosure(TypeInfo type) {
        List<TypeRef> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Deque<TypeRef> work = new ArrayDeque<>();
        work.add(TypeRef.project(type));
        while (!work.isEmpty()) {
            TypeRef ref = work.poll();
            String key = ref.isProject() ? ref.project().qualifiedName() : String.join("|", ref.candidates());
            if (!seen.add(key)) {
                continue;
            }
            out.add(ref);
            if (ref.isProject()) {
                work.addAll(ref.project().supertypes());
            }
        }
        return out;
    }

    /** Is {@code type} (or a supertype) named by one of {@code qualifiedNames}? */
    public boolean isSubtypeOf(TypeInfo type, Set<String> qualifiedNames) {
        for (TypeRef ref : supertypeClosure(type)) {
            for (String c : ref.candidates()) {
                if (qualifiedNames.contains(c)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Methods named {@code name} accepting {@code arity} arguments, declared in {@code type} or
     * inherited from its scanned supertypes: the nearest declaring level wins.
     */
    public List<MethodInfo> findMethods(TypeInfo type, String name, int arity) {
        for (TypeRef ref : supertypeClosure(type)) {
            if (!ref.isProject()) {
                continue;
            }
            List<MethodInfo> found = new ArrayList<>();
            for (MethodInfo m : ref.project().methodsNamed(name)) {
                if (m.acceptsArity(arity)) {
                    found.add(m);
                }
            }
            if (!found.isEmpty()) {
                return found;
            }
        }
        return List.of();
    }

    /** Declared type of a field visible in {@code type}: its own, then inherited ones. */
    public FieldRef findField(TypeInfo type, String name) {
        for (TypeRef ref : supertypeClosure(type)) {
            if (ref.isProject()) {
                Type t = ref.project().fieldType(name);
                if (t != null) {
                    return new FieldRef(ref.project(), t);
                }
            }
        }
        return null;
    }

    /** A field's declared type and the type that declares it (for resolving the type's name). */
    public record FieldRef(TypeInfo owner, Type type) {}

    // ---- name resolution ----------------------------------------------------------------------

    /** Resolves a type as written (generics and arrays ignored) where {@code context} sits. */
    public TypeRef resolveType(Type type, Node context) {
        if (type == null || !type.isClassOrInterfaceType()) {
            return TypeRef.UNKNOWN;
        }
        FileContext file = fileOf(context);
        if (file == null) {
            return TypeRef.UNKNOWN;
        }
        return resolveTypeName(type.asClassOrInterfaceType().getNameWithScope(), context, file);
    }

    /** Resolves a (possibly dotted) type name as written in {@code file} at {@code context}. */
    public TypeRef resolveTypeName(String written, Node context, FileContext file) {
        int dot = written.indexOf('.');
        if (dot > 0) {
            String head = written.substring(0, dot);
            String rest = written.substring(dot + 1);
            if (Character.isUpperCase(head.charAt(0))) {
                TypeRef outer = resolveSimpleName(head, context, file);
                if (outer.isProject()) {
                    TypeInfo nested = type(outer.project().qualifiedName() + "." + rest, file);
                    if (nested != null) {
                        return TypeRef.project(nested);
                    }
                }
                if (outer.isKnown()) {
                    return TypeRef.external(outer.candidates().stream().map(c -> c + "." + rest).toList());
                }
            }
            TypeInfo qualified = type(written, file);
            return qualified != null ? TypeRef.project(qualified) : TypeRef.external(List.of(written));
        }
        return resolveSimpleName(written, context, file);
    }

    private TypeRef resolveSimpleName(String name, Node context, FileContext file) {
        TypeInfo scope = enclosingType(context);
        // A pure function of where the name is written (the enclosing type and the file's imports);
        // the same few names are resolved hundreds of thousands of times on a large code base.
        // Only memoised once the supertypes are all known: while they are being resolved, an answer may still change.
        return complete ? simpleNames.computeIfAbsent(new SimpleNameKey(scope, file, name), k -> resolveSimpleName(name, scope, file))
                : resolveSimpleName(name, scope, file);
    }

    private record SimpleNameKey(TypeInfo scope, FileContext file, String name) {}

    private TypeRef resolveSimpleName(String name, TypeInfo scope, FileContext file) {
        for (TypeInfo t = scope; t != null; t = t.outer()) {
            if (t.simpleName().equals(name)) {
                return TypeRef.project(t);
            }
            TypeInfo member = findMemberType(t, name, new HashSet<>());
            if (member != null) {
                return TypeRef.project(member);
            }
        }
        String imported = file.singleImport(name);
        if (imported != null) {
            TypeInfo project = type(imported, file);
            return project != null ? TypeRef.project(project) : TypeRef.external(List.of(imported));
        }
        String samePackage = file.packageName().isEmpty() ? name : file.packageName() + "." + name;
        TypeInfo local = type(samePackage, file);
        if (local != null) {
            return TypeRef.project(local);
        }
        List<String> candidates = new ArrayList<>();
        for (String pkg : file.onDemandImports()) {
            TypeInfo project = type(pkg + "." + name, file);
            if (project != null) {
                return TypeRef.project(project);
            }
            candidates.add(pkg + "." + name);
        }
        if (JAVA_LANG.contains(name)) {
            candidates.add(0, "java.lang." + name);
        }
        if (candidates.isEmpty()) {
            candidates.add(samePackage);
        }
        return TypeRef.external(candidates);
    }

    private TypeInfo findMemberType(TypeInfo type, String name, Set<TypeInfo> seen) {
        if (!seen.add(type)) {
            return null;
        }
        TypeInfo nested = type(type.qualifiedName() + "." + name);
        if (nested != null) {
            return nested;
        }
        for (TypeRef sup : type.supertypes()) {
            if (sup.isProject()) {
                TypeInfo found = findMemberType(sup.project(), name, seen);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
