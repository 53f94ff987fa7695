package dev.racelint.analyzer.resolve;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.SuperExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.expr.TypeExpr;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.FileContext;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import dev.racelint.analyzer.parse.NodeMemo;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves call sites: which scanned methods a call may run (with dispatch from interfaces and
 * abstract classes to the scanned implementations) and which catalogued external API it is.
 */
public final class CallResolver {

    /**
     * What a call is.
     *
     * @param targets   scanned methods it may run
     * @param viaProxy  true when the receiver is another object (a Spring bean reference), so
     *                  proxy-based advice such as @Transactional applies; false for calls on
     *                  {@code this}, unqualified calls and {@code super} calls
     * @param api       the catalogue entry it matched, or null
     */
    public record Resolution(List<MethodInfo> targets, boolean viaProxy, ApiCatalogue.Match api) {
        static final Resolution NONE = new Resolution(List.of(), false, null);
    }

    private final ProgramIndex index;
    private final ExpressionTyper typer;
    private final ApiCatalogue catalogue;
    private final Annotations annotations;
    private final NodeMemo<Resolution> memo;
    private final ConcurrentHashMap<OverridesKey, List<MethodInfo>> overrides =
            new ConcurrentHashMap<>();

    /** The API catalogue the calls are matched against. */
    public ApiCatalogue catalogue() {
        return catalogue;
    }

    public CallResolver(ProgramIndex index, ExpressionTyper typer, ApiCatalogue catalogue) {
        this.index = index;
        this.typer = typer;
        this.catalogue = catalogue;
        this.annotations = new Annotations(index);
        this.memo = new NodeMemo<>(NodeMemo.EXPECTED_PER_METHOD * index.methods().size());
        typer.setCallResolver(this);
    }

    public ExpressionTyper typer() {
        return typer;
    }

    public Annotations annotations() {
        return annotations;
    }

    List<MethodInfo> projectTargets(MethodCallExpr call) {
        return resolve(call).targets();
    }

    public Resolution resolve(MethodCallExpr call) {
        Resolution cached = memo.get(call);
        if (cached != null) {
            return cached;
        }
        Resolution r;
        try {
            r = compute(call);
        } catch (StackOverflowError e) {
            r = Resolution.NONE;
        }
        memo.put(call, r);
        return r;
    }

    private Resolution compute(MethodCallExpr call) {
        String name = call.getNameAsString();
        int arity = call.getArguments().size();
        if (call.getScope().isEmpty()) {
            for (TypeInfo t = index.enclosingType(call); t != null; t = t.outer()) {
                List<MethodInfo> found = index.findMethods(t, name, arity);
                if (!found.isEmpty()) {
                    return new Resolution(withOverrides(found, t, List.of()), false, null);
                }
            }
            return resolveStaticImport(call, name, arity);
        }
        Expression scope = call.getScope().get();
        if (scope instanceof ThisExpr) {
            TypeInfo self = typer.typeOf(scope).type().project();
            if (self != null) {
                List<MethodInfo> found = index.findMethods(self, name, arity);
                if (!found.isEmpty()) {
                    return new Resolution(withOverrides(found, self, List.of()), false, null);
                }
                return external(index.supertypeClosure(self), call);
            }
            return Resolution.NONE;
        }
        if (scope instanceof SuperExpr) {
            TypeInfo self = index.enclosingType(call);
            if (self != null) {
                for (TypeRef sup : self.supertypes()) {
                    if (sup.isProject()) {
                        List<MethodInfo> found = index.findMethods(sup.project(), name, arity);
                        if (!found.isEmpty()) {
                            return new Resolution(found, false, null);
                        }
                    }
                }
                return external(index.supertypeClosure(self), call);
            }
            return Resolution.NONE;
        }
        ExpressionTyper.Typed receiver = typer.typeOf(scope);
        TypeRef type = receiver.type();
        if (type.isProject() && catalogue.hasDeclarations()) {
            // A team's own wrapper declared in racelint.yml is the API it wraps: stop there.
            List<String> names = new ArrayList<>();
            for (TypeRef t : index.supertypeClosure(type.project())) {
                if (t.isProject() && catalogue.declares(t.project().qualifiedName())) {
                    names.add(t.project().qualifiedName());
                }
            }
            ApiCatalogue.Match declared = names.isEmpty() ? null : catalogue.match(names, chainFrom(call));
            if (declared != null) {
                return new Resolution(List.of(), !receiver.isTypeName(), declared);
            }
        }
        if (type.isProject()) {
            // A scanned subclass of a catalogued client (a hand-written or checked-in gRPC stub,
            // a RestTemplate subclass) is that client: stop there rather than walk its internals.
            Resolution inherited = external(index.supertypeClosure(type.project()), call);
            boolean inheritedHere = inherited.api() != null && inherited.api().method().equals(name);
            if (inheritedHere && (inherited.api().entry().effect() == EffectKind.NETWORK
                        || inherited.api().entry().effect() == EffectKind.SLEEP)) {
                return new Resolution(List.of(), true, new ApiCatalogue.Match(inherited.api().entry(),
                        type.project().qualifiedName(), name));
            }
            List<MethodInfo> found = index.findMethods(type.project(), name, arity);
            if (!found.isEmpty()) {
                List<MethodInfo> targets = receiver.isTypeName() ? found
                        : withOverrides(found, type.project(), receiver.typeArguments());
                ApiCatalogue.Match api = interfaceClient(found);
                if (api == null && inheritedHere && inherited.api().entry().effect() == EffectKind.HANDOFF) {
                    // A project executor (a subtype of java.util.concurrent.Executor): what is
                    // submitted to it runs on its threads, whatever its own code looks like.
                    api = new ApiCatalogue.Match(inherited.api().entry(), type.project().qualifiedName(), name);
                }
                return new Resolution(targets, !receiver.isTypeName(), api);
            }
            return external(index.supertypeClosure(type.project()), call);
        }
        if (type.isKnown()) {
            return external(List.of(type), call);
        }
        ApiCatalogue.Match any = catalogue.matchAnyReceiver(name);
        return any == null ? Resolution.NONE : new Resolution(List.of(), true, any);
    }

    private Resolution resolveStaticImport(MethodCallExpr call, String name, int arity) {
        FileContext file = index.fileOf(call);
        if (file == null) {
            return Resolution.NONE;
        }
        List<String> owners = new ArrayList<>();
        String single = file.staticMemberImport(name);
        if (single != null) {
            owners.add(single);
        }
        owners.addAll(file.staticOnDemandImports());
        for (String owner : owners) {
            TypeInfo project = index.type(owner);
            if (project != null) {
                List<MethodInfo> found = index.findMethods(project, name, arity);
                if (!found.isEmpty()) {
                    return new Resolution(found, false, null);
                }
            } else {
                ApiCatalogue.Match m = catalogue.match(List.of(owner), chainFrom(call));
                if (m != null) {
                    return new Resolution(List.of(), false, m);
                }
            }
        }
        return Resolution.NONE;
    }

    /** A call on an external type (or a scanned type's external supertypes): the catalogue decides. */
    private Resolution external(List<TypeRef> types, MethodCallExpr call) {
        List<String> names = new ArrayList<>();
        for (TypeRef t : types) {
            if (!t.isProject()) {
                names.addAll(t.candidates());
            }
        }
        if (names.isEmpty()) {
            return Resolution.NONE;
        }
        ApiCatalogue.Match m = catalogue.match(names, chainFrom(call));
        return m == null ? Resolution.NONE : new Resolution(List.of(), true, m);
    }

    /**
     * Is this resolved interface method a declarative HTTP client (Feign, Retrofit, HTTP
     * interface)? Then calling it is network I/O even though its body is not in the sources.
     */
    private ApiCatalogue.Match interfaceClient(List<MethodInfo> found) {
        for (MethodInfo m : found) {
            if (m.body() != null) {
                continue;
            }
            for (ApiCatalogue.InterfaceEntry entry : catalogue.interfaces()) {
                boolean typeMatch = !entry.typeAnnotations().isEmpty()
                        && annotations.has(m.declaringType().declaration(), entry.typeAnnotations());
                boolean methodMatch = !entry.methodAnnotations().isEmpty()
                        && m.declaration() instanceof MethodDeclaration md
                        && annotations.has(md, entry.methodAnnotations());
                if (typeMatch || methodMatch) {
                    ApiCatalogue.Entry synthetic = new ApiCatalogue.Entry(List.of(), Set.of("*"), Set.of(),
                            Set.of(), false, entry.effect(), entry.detail(), entry.label(),
                            safeHttpMethod(m, entry) ? Set.of("*") : Set.of(), "");
                    return new ApiCatalogue.Match(synthetic, m.declaringType().qualifiedName(), m.name());
                }
            }
        }
        return null;
    }

    /**
     * Does the client method's annotation give it a safe HTTP method: {@code @GetMapping},
     * {@code @RequestLine("GET /x")}, {@code @RequestMapping(method = RequestMethod.GET)}?
     */
    private boolean safeHttpMethod(MethodInfo m, ApiCatalogue.InterfaceEntry entry) {
        if (!(m.declaration() instanceof MethodDeclaration md)) {
            return false;
        }
        if (!entry.readAnnotations().isEmpty() && annotations.has(md, entry.readAnnotations())) {
            return true;
        }
        for (java.util.Map.Entry<String, String> named : entry.methodAttributes().entrySet()) {
            var found = annotations.find(md, Set.of(named.getKey())).flatMap(a -> Annotations.attribute(a, named.getValue()));
            if (found.isPresent() && ApiCatalogue.safeHttpMethod(httpVerb(found.get()))) {
                return true;
            }
        }
        return false;
    }

    /** "GET" from {@code "GET /users/{id}"}, {@code RequestMethod.GET} or {@code {RequestMethod.GET}}; else "". */
    private static String httpVerb(Expression value) {
        if (value instanceof com.github.javaparser.ast.expr.ArrayInitializerExpr array) {
            return array.getValues().size() == 1 ? httpVerb(array.getValues().get(0)) : "";
        }
        if (value instanceof com.github.javaparser.ast.expr.StringLiteralExpr text) {
            String trimmed = text.getValue().trim();
            int space = trimmed.indexOf(' ');
            return space < 0 ? trimmed : trimmed.substring(0, space);
        }
        String written = value.toString();
        return written.substring(written.lastIndexOf('.') + 1);
    }

    /**
     * The method names along the call chain starting at {@code call}: its own name, then those of
     * the calls made on its result ({@code a.b().c().d()} from b gives [b, c, d]).
     */
    static List<String> chainFrom(MethodCallExpr call) {
        List<String> names = new ArrayList<>();
        names.add(call.getNameAsString());
        Node current = call;
        Node parent = call.getParentNode().orElse(null);
        while (parent instanceof MethodCallExpr outer && outer.getScope().isPresent()
                && outer.getScope().get() == current) {
            names.add(outer.getNameAsString());
            current = outer;
            parent = outer.getParentNode().orElse(null);
        }
        return names;
    }

    /** The outermost call of the chain {@code call} starts: where a chained effect completes. */
    public static MethodCallExpr chainEnd(MethodCallExpr call) {
        MethodCallExpr current = call;
        Node parent = call.getParentNode().orElse(null);
        while (parent instanceof MethodCallExpr outer && outer.getScope().isPresent()
                && outer.getScope().get() == current) {
            current = outer;
            parent = outer.getParentNode().orElse(null);
        }
        return current;
    }

    /**
     * Adds the implementations in scanned subtypes of {@code receiver} (class-hierarchy dispatch).
     * When the receiver was declared with type arguments ({@code DataValidator<Customer>}), a
     * subtype that binds them to other types ({@code extends DataValidator<Asset>}) cannot be the
     * object behind it - Spring injects by generic type too - and is left out.
     */
    private List<MethodInfo> withOverrides(List<MethodInfo> found, TypeInfo receiver, List<String> typeArguments) {
        // The same interface method is called from many places: its implementations are found once.
        return new ArrayList<>(overrides.computeIfAbsent(new OverridesKey(List.copyOf(found), receiver, List.copyOf(typeArguments)),
                k -> List.copyOf(findOverrides(found, receiver, typeArguments))));
    }

    private record OverridesKey(List<MethodInfo> found, TypeInfo receiver, List<String> typeArguments) {}

    private List<MethodInfo> findOverrides(List<MethodInfo> found, TypeInfo receiver, List<String> typeArguments) {
        LinkedHashSet<MethodInfo> out = new LinkedHashSet<>(found);
        if (found.stream().allMatch(m -> m.isStatic() || m.isPrivate() || m.isConstructor())) {
            return new ArrayList<>(out);
        }
        for (TypeInfo sub : index.allSubtypes(receiver)) {
            if (!typeArguments.isEmpty() && bindsOtherArguments(sub, receiver, typeArguments)) {
                continue;
            }
            for (MethodInfo m : sameNamed(sub, found)) {
                for (MethodInfo f : found) {
                    if (m.name().equals(f.name()) && m.parameterCount() == f.parameterCount() && !m.isStatic()) {
                        out.add(m);
                    }
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** The methods of {@code type} named as one of {@code found}, in declaration order, without looking at the others. */
    private static List<MethodInfo> sameNamed(TypeInfo type, List<MethodInfo> found) {
        List<String> names = found.stream().map(MethodInfo::name).distinct().toList();
        if (names.size() == 1) {
            return type.methodsNamed(names.get(0));
        }
        List<MethodInfo> out = new ArrayList<>();
        names.forEach(n -> out.addAll(type.methodsNamed(n)));
        out.sort(java.util.Comparator.comparingInt(MethodInfo::id));
        return out;
    }

    /** Does {@code sub} (or an ancestor on its way) extend {@code target} with arguments other than {@code wanted}? */
    private boolean bindsOtherArguments(TypeInfo sub, TypeInfo target, List<String> wanted) {
        java.util.ArrayDeque<TypeInfo> work = new java.util.ArrayDeque<>(List.of(sub));
        java.util.Set<TypeInfo> seen = new java.util.HashSet<>();
        while (!work.isEmpty()) {
            TypeInfo t = work.poll();
            if (!seen.add(t)) {
                continue;
            }
            for (com.github.javaparser.ast.type.ClassOrInterfaceType clause : writtenSupertypes(t)) {
                TypeRef ref = index.resolveTypeName(clause.getNameWithScope(),
                        t.declaration().getParentNode().orElse(t.declaration()), t.file());
                if (ref.isProject() && ref.project() == target) {
                    return conflicts(TypeArguments.of(clause), wanted, typeParameters(t));
                }
                if (ref.isProject()) {
                    work.add(ref.project());
                }
            }
        }
        return false;
    }

    private static boolean conflicts(List<String> passed, List<String> wanted, java.util.Set<String> variables) {
        for (int i = 0; i < Math.min(passed.size(), wanted.size()); i++) {
            String a = passed.get(i);
            String b = wanted.get(i);
            if (a.equals(TypeArguments.ANY) || b.equals(TypeArguments.ANY) || variables.contains(a) || looksLikeVariable(b)) {
                continue;
            }
            if (!a.equals(b)) {
                return true;
            }
        }
        return false;
    }

    private static boolean looksLikeVariable(String name) {
        return name.length() <= 2 && Character.isUpperCase(name.charAt(0));
    }

    private static List<com.github.javaparser.ast.type.ClassOrInterfaceType> writtenSupertypes(TypeInfo t) {
        var decl = t.declaration();
        List<com.github.javaparser.ast.type.ClassOrInterfaceType> out = new ArrayList<>();
        if (decl instanceof com.github.javaparser.ast.body.ClassOrInterfaceDeclaration c) {
            out.addAll(c.getExtendedTypes());
            out.addAll(c.getImplementedTypes());
        } else if (decl instanceof com.github.javaparser.ast.nodeTypes.NodeWithImplements<?> n) {
            out.addAll(n.getImplementedTypes());
        }
        return out;
    }

    private static java.util.Set<String> typeParameters(TypeInfo t) {
        java.util.Set<String> out = new java.util.HashSet<>();
        if (t.declaration() instanceof com.github.javaparser.ast.nodeTypes.NodeWithTypeParameters<?> n) {
            n.getTypeParameters().forEach(p -> out.add(p.getNameAsString()));
        }
        return out;
    }

    /** Scanned methods a method reference may run (any arity: the functional interface decides). */
    public List<MethodInfo> resolve(MethodReferenceExpr ref) {
        String name = ref.getIdentifier();
        Expression scope = ref.getScope();
        TypeInfo owner;
        boolean typeName;
        if (scope instanceof ThisExpr || scope instanceof SuperExpr) {
            owner = index.enclosingType(ref);
            typeName = false;
        } else if (scope instanceof TypeExpr te) {
            owner = index.resolveType(te.getType(), ref).project();
            typeName = true;
        } else {
            ExpressionTyper.Typed typed = typer.typeOf(scope);
            owner = typed.type().project();
            typeName = typed.isTypeName();
        }
        if (owner == null || name.equals("new")) {
            return List.of();
        }
        List<MethodInfo> found = new ArrayList<>();
        for (TypeRef t : index.supertypeClosure(owner)) {
            if (t.isProject()) {
                found.addAll(t.project().methodsNamed(name));
                if (!found.isEmpty()) {
                    break;
                }
            }
        }
        return typeName ? found : withOverrides(found, owner, List.of());
    }

    /** Scanned constructors a {@code new} expression may run. */
    public List<MethodInfo> resolve(ObjectCreationExpr creation) {
        TypeRef type = index.resolveType(creation.getType(), creation);
        if (!type.isProject()) {
            return List.of();
        }
        List<MethodInfo> out = new ArrayList<>();
        for (MethodInfo m : type.project().methodsNamed(MethodInfo.CONSTRUCTOR_NAME)) {
            if (m.acceptsArity(creation.getArguments().size())) {
                out.add(m);
            }
        }
        return out;
    }

    /** True when the catalogue says lambdas passed to this call run later: on another thread, or when taken from where they are stored. */
    public boolean isHandoff(Resolution r, MethodCallExpr call) {
        if (r.api() != null && r.api().entry().effect() == EffectKind.HANDOFF
                && r.api().method().equals(call.getNameAsString())) {
            return true;
        }
        if (!r.targets().isEmpty()) {
            return false;
        }
        // Along a chain whose intermediate results are not typed (no classpath), the catalogue
        // matches at the chain's root receiver: Failsafe.with(policy).with(pool).runAsync(..) is
        // matched from Failsafe, where the match names the call of the chain it is for.
        MethodCallExpr root = call;
        while (root.getScope().orElse(null) instanceof MethodCallExpr inner) {
            root = inner;
        }
        if (root == call) {
            return false;
        }
        Resolution atRoot = resolve(root);
        return atRoot.api() != null && atRoot.api().entry().effect() == EffectKind.HANDOFF
                && atRoot.api().method().equals(call.getNameAsString());
    }
}
