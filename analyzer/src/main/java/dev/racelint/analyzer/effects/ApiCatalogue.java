package dev.racelint.analyzer.effects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.config.Glob;
import dev.racelint.analyzer.finding.Fingerprints;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which external methods do what, loaded from data ({@code racelint/api-catalogue.json}) so that
 * users can extend it. Matching is by the qualified name of the receiver's declared type and the
 * method names called on it.
 */
public final class ApiCatalogue {

    public static final String RESOURCE = "racelint/api-catalogue.json";

    /** One catalogue entry. */
    public record Entry(List<String> typePatterns, Set<String> methods, Set<String> exceptMethods,
            Set<String> chainRequires, boolean anyReceiver, EffectKind effect, String detail, String label,
            Set<String> readMethods, String methodArgumentType, Set<String> readArgumentTypes,
            Set<String> asyncMethods, RequestBuilders.Spec requestBuilder, Map<String, Set<String>> createIfAbsent) {

        public Entry(List<String> typePatterns, Set<String> methods, Set<String> exceptMethods,
                Set<String> chainRequires, boolean anyReceiver, EffectKind effect, String detail, String label,
                Set<String> readMethods, String methodArgumentType, Set<String> readArgumentTypes,
                Set<String> asyncMethods, RequestBuilders.Spec requestBuilder) {
            this(typePatterns, methods, exceptMethods, chainRequires, anyReceiver, effect, detail, label, readMethods,
                    methodArgumentType, readArgumentTypes, asyncMethods, requestBuilder, Map.of());
        }

        public Entry(List<String> typePatterns, Set<String> methods, Set<String> exceptMethods,
                Set<String> chainRequires, boolean anyReceiver, EffectKind effect, String detail, String label,
                Set<String> readMethods, String methodArgumentType, Set<String> readArgumentTypes) {
            this(typePatterns, methods, exceptMethods, chainRequires, anyReceiver, effect, detail, label, readMethods,
                    methodArgumentType, readArgumentTypes, Set.of(), null);
        }

        public Entry(List<String> typePatterns, Set<String> methods, Set<String> exceptMethods,
                Set<String> chainRequires, boolean anyReceiver, EffectKind effect, String detail, String label) {
            this(typePatterns, methods, exceptMethods, chainRequires, anyReceiver, effect, detail, label, Set.of(), "");
        }

        public Entry(List<String> typePatterns, Set<String> methods, Set<String> exceptMethods,
                Set<String> chainRequires, boolean anyReceiver, EffectKind effect, String detail, String label,
                Set<String> readMethods, String methodArgumentType) {
            this(typePatterns, methods, exceptMethods, chainRequires, anyReceiver, effect, detail, label, readMethods,
                    methodArgumentType, Set.of());
        }

        boolean acceptsMethod(String name) {
            if (matchesAny(exceptMethods, name)) {
                return false;
            }
            return methods.contains("*") || methods.contains(name);
        }

        /** A method listed in {@code readMethods}, by name or by a pattern ({@code get*}: '*' is any run of characters). */
        boolean readsWith(String name) {
            return matchesAny(readMethods, name);
        }

        /** {@code name} is one of {@code names}, or matches one that is a pattern ('*': any run of characters). */
        private static boolean matchesAny(Set<String> names, String name) {
            for (String listed : names) {
                if (listed.equals(name) || listed.contains("*") && METHOD_PATTERNS.computeIfAbsent(listed, Glob::typeName).matches(name)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final Map<String, Glob> METHOD_PATTERNS = new ConcurrentHashMap<>();

    /** An entry that matched a call: the type it matched and the method that triggered it. */
    public record Match(Entry entry, String typeName, String method) {
        public ApiEffect effect() {
            String simple = typeName == null ? "" : simpleName(typeName);
            String api = (simple.isEmpty() ? "" : simple + ".") + method + "()";
            String key = (typeName == null ? "*" : typeName) + "#" + method;
            return new ApiEffect(entry.effect(), entry.detail(), entry.label(), api, key);
        }

        /** The effect of this match at {@code call}: read-only when the API's method or HTTP-method argument is a safe one. */
        public ApiEffect effect(com.github.javaparser.ast.expr.MethodCallExpr call) {
            ApiEffect plain = effect();
            ApiEffect read = readOnly(call) ? plain.asReadOnly() : plain;
            String verb = runtimeVerb(call);
            read = verb == null ? read : read.withRuntimeVerb(verb);
            String guard = CreateIfAbsent.existenceRead(call, entry.createIfAbsent().getOrDefault(method, Set.of()));
            read = guard == null ? read : read.withExistenceGuard(guard);
            return asynchronous(call) ? read.asAsynchronous() : read;
        }

        /**
         * The argument that converts a value into the catalogued HTTP-method type at run time - a static
         * call on that type ({@code HttpMethod.valueOf(input.getMethod())}, {@code HttpMethod.resolve(m)}),
         * passed directly or through a local that is not reassigned - when the value is not a string
         * literal: which verb the call sends is data (a workflow definition, a stored request), not code.
         */
        private String runtimeVerb(com.github.javaparser.ast.expr.MethodCallExpr call) {
            String argumentType = simpleName(entry.methodArgumentType());
            for (var argument : call.getArguments()) {
                var value = argument;
                if (argument instanceof com.github.javaparser.ast.expr.NameExpr name
                        && dev.racelint.analyzer.resolve.LocalVariables.declarationOf(name.getNameAsString(), name)
                                instanceof com.github.javaparser.ast.body.VariableDeclarator local
                        && !dev.racelint.analyzer.resolve.LocalVariables.reassigned(local)
                        && local.getInitializer().isPresent()) {
                    value = local.getInitializer().get();
                }
                if (value instanceof com.github.javaparser.ast.expr.MethodCallExpr conversion
                        && conversion.getScope().orElse(null) instanceof com.github.javaparser.ast.expr.NameExpr scope
                        && simpleName(scope.getNameAsString()).equals(argumentType)
                        && conversion.getArguments().stream().noneMatch(a -> a.isStringLiteralExpr())) {
                    return value.toString();
                }
            }
            return null;
        }

        /**
         * A method the catalogue lists as handing the send to a background thread ({@code asyncMethods}),
         * called as a statement of its own: the future it returns is dropped, so nobody waits on it
         * ({@code send(..).get()}, a kept or returned future, are waits or may be).
         */
        private boolean asynchronous(com.github.javaparser.ast.expr.MethodCallExpr call) {
            return entry.asyncMethods().contains(method) && call.getNameAsString().equals(method)
                    && call.getParentNode().orElse(null) instanceof com.github.javaparser.ast.stmt.ExpressionStmt;
        }

        private boolean readOnly(com.github.javaparser.ast.expr.MethodCallExpr call) {
            if (entry.readsWith(method)) {
                return true;
            }
            if (!entry.readArgumentTypes().isEmpty()
                    && call.getArguments().stream().anyMatch(a -> safeRequest(a, entry.readArgumentTypes()))) {
                return true;
            }
            if (entry.requestBuilder() != null && builtSafe(call)) {
                return true;
            }
            if (entry.methodArgumentType().isEmpty()) {
                return false;
            }
            String argumentType = simpleName(entry.methodArgumentType());
            for (var argument : call.getArguments()) {
                // HttpMethod.GET: the constant of the catalogued HTTP-method type, not a value computed at run time
                if (argument instanceof com.github.javaparser.ast.expr.FieldAccessExpr constant
                        && simpleName(constant.getScope().toString()).equals(argumentType)
                        && safeHttpMethod(constant.getNameAsString())) {
                    return true;
                }
            }
            return false;
        }

        /**
         * A request argument that the client's builder made with a safe method ({@link RequestBuilders}); for a
         * call on a local that holds what an earlier call was given the request ({@code Call c =
         * client.newCall(request); c.execute()}), that earlier call's arguments.
         */
        private boolean builtSafe(com.github.javaparser.ast.expr.MethodCallExpr call) {
            var arguments = call.getArguments();
            if (arguments.isEmpty() && call.getScope().orElse(null) instanceof com.github.javaparser.ast.expr.NameExpr receiver
                    && dev.racelint.analyzer.resolve.LocalVariables.declarationOf(receiver.getNameAsString(), receiver)
                            instanceof com.github.javaparser.ast.body.VariableDeclarator local
                    && local.getInitializer().orElse(null) instanceof com.github.javaparser.ast.expr.MethodCallExpr made
                    && entry.acceptsMethod(made.getNameAsString())
                    && !dev.racelint.analyzer.resolve.LocalVariables.reassigned(local)) {
                arguments = made.getArguments();
            }
            return arguments.stream().anyMatch(a -> RequestBuilders.safe(a, entry.requestBuilder(), entry.methods()));
        }
    }

    /**
     * An argument that is a request object of a safe type ({@code new HttpGet(url)}, or a variable or
     * parameter declared as one): the client sends that request's method.
     */
    private static boolean safeRequest(com.github.javaparser.ast.expr.Expression argument, Set<String> types) {
        String type = null;
        if (argument instanceof com.github.javaparser.ast.expr.ObjectCreationExpr created) {
            type = created.getType().getNameWithScope();
        } else if (argument instanceof com.github.javaparser.ast.expr.NameExpr name) {
            var declaration = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(name.getNameAsString(), name);
            if (declaration instanceof com.github.javaparser.ast.body.VariableDeclarator v) {
                type = v.getType().isVarType() ? v.getInitializer()
                        .filter(com.github.javaparser.ast.expr.ObjectCreationExpr.class::isInstance)
                        .map(i -> ((com.github.javaparser.ast.expr.ObjectCreationExpr) i).getType().getNameWithScope())
                        .orElse(null) : v.getTypeAsString();
            } else if (declaration instanceof com.github.javaparser.ast.body.Parameter p) {
                type = p.getTypeAsString();
            }
        }
        if (type == null) {
            return false;
        }
        String simple = simpleName(type);
        return types.stream().anyMatch(t -> simpleName(t).equals(simple));
    }

    /** GET, HEAD and OPTIONS: the HTTP methods defined as safe (RFC 9110, 9.2.1), so a repeat changes nothing. */
    public static boolean safeHttpMethod(String verb) {
        return SAFE_HTTP_METHODS.contains(verb.toUpperCase(java.util.Locale.ROOT));
    }

    private static final Set<String> SAFE_HTTP_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    /** An annotation that marks scanned interfaces or their methods as remote clients. */
    public record InterfaceEntry(Set<String> typeAnnotations, Set<String> methodAnnotations,
            EffectKind effect, String detail, String label, Set<String> readAnnotations,
            Map<String, String> methodAttributes) {}

    /**
     * Annotations that restrict who reaches a method ({@code authorization} in the catalogue, racelint.yml
     * {@code authorization:}): see {@link dev.racelint.analyzer.handlers.PrivilegedEntryPoints}.
     *
     * @param annotations        qualified annotation type names
     * @param form               expression, names, open or marker
     * @param authenticationOnly functions (expression) or values (names) that ask for authentication only
     * @param combine            how several values combine: "or" or "and"
     * @param combineAttribute   the attribute whose enum value (ending in AND or OR) changes {@code combine}
     */
    public record AuthorizationEntry(Set<String> annotations, String form, Set<String> authenticationOnly,
            String combine, String combineAttribute) {}

    private final List<AuthorizationEntry> authorization = new ArrayList<>();

    /**
     * Commands on shared lists used as work queues ({@code lists} in the catalogue): see
     * {@link dev.racelint.analyzer.handlers.UnfedQueues}.
     *
     * @param types   receiver types (qualified names) of the list commands
     * @param through calls that return such a receiver from a client ({@code opsForList})
     * @param push    methods that add to the list named by their first argument
     * @param pop     methods that take from the list named by their first argument
     * @param move    methods that take from the list named by the first argument and add to the second's
     * @param open    calls that return a handle bound to the list named by their first argument
     */
    public record ListEntry(Set<String> types, Set<String> through, Set<String> push, Set<String> pop,
            Set<String> move, Set<String> open) {}

    private final List<ListEntry> lists = new ArrayList<>();

    private final Map<String, List<Entry>> exactTypes = new HashMap<>();
    private final List<Map.Entry<Glob, Entry>> patternTypes = new ArrayList<>();
    private final List<Entry> anyReceiver = new ArrayList<>();
    /** Protocol parameters that make an HTTP request a token request ({@code grant_type=client_credentials}). */
    private final List<TokenRequests.Marker> tokenRequests = new ArrayList<>();
    private final List<InterfaceEntry> interfaces = new ArrayList<>();

    private final Set<String> declaredExact = new java.util.HashSet<>();
    private final List<Glob> declaredPatterns = new ArrayList<>();
    private final Map<String, List<Entry>> entriesByType = new ConcurrentHashMap<>();
    private final Map<String, Boolean> declaredByType = new ConcurrentHashMap<>();
    /** Every document loaded, in order: what {@link #fingerprint()} hashes. */
    private final StringBuilder loaded = new StringBuilder();

    public static ApiCatalogue builtIn() {
        try (InputStream in = ApiCatalogue.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            ApiCatalogue catalogue = new ApiCatalogue();
            catalogue.load(new ObjectMapper().readTree(in));
            return catalogue;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Adds a project's own declarations (from racelint.yml): the same format, but they may name
     * types in the scanned code (a team's wrapper client), which then count as the API they wrap.
     */
    public void loadDeclared(JsonNode root) {
        declaredByType.clear();
        entriesByType.clear();
        for (JsonNode api : root.path("apis")) {
            for (String type : strings(api.path("types"))) {
                if (type.contains("*")) {
                    declaredPatterns.add(Glob.typeName(type));
                } else {
                    declaredExact.add(type);
                }
            }
        }
        load(root, true);
    }

    /** Whether a project type (by qualified name) was declared as an API in the project's config. */
    public boolean declares(String qualifiedName) {
        if (declaredExact.contains(qualifiedName)) {
            return true;
        }
        // memoised: every call on the type asks, and the patterns come from the scanned tree
        return declaredByType.computeIfAbsent(qualifiedName, name -> {
            for (Glob p : declaredPatterns) {
                if (p.matches(name)) {
                    return true;
                }
            }
            return false;
        });
    }

    public boolean hasDeclarations() {
        return !declaredExact.isEmpty() || !declaredPatterns.isEmpty();
    }

    /** A hash of every document this catalogue was loaded from: equal fingerprints match calls alike. */
    public String fingerprint() {
        return Fingerprints.sha256(loaded.toString());
    }

    /** Adds the entries of a catalogue document (same format as the built-in resource). */
    public void load(JsonNode root) {
        load(root, false);
    }

    /** {@code createIfAbsent}: a create method -> the existence reads of the same resource that may decide it. */
    private static Map<String, Set<String>> createIfAbsent(JsonNode node) {
        Map<String, Set<String>> out = new HashMap<>();
        node.fields().forEachRemaining(f -> out.put(f.getKey(), new LinkedHashSet<>(strings(f.getValue()))));
        return Map.copyOf(out);
    }

    private static RequestBuilders.Spec requestBuilder(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        return new RequestBuilders.Spec(strings(node.path("creations")), new LinkedHashSet<>(strings(node.path("verbMethods"))),
                node.path("methodCall").asText(""), node.path("defaultVerb").asText(""));
    }

    /**
     * The effect of {@code match} at {@code call}: {@link Match#effect(com.github.javaparser.ast.expr.MethodCallExpr)},
     * and an HTTP request that asks for an access token ({@link TokenRequests}: a credential fetch, safe to
     * repeat) is read-only too.
     */
    public ApiEffect effectAt(Match match, com.github.javaparser.ast.expr.MethodCallExpr call) {
        ApiEffect effect = match.effect(call);
        if (!effect.readOnly() && "http".equals(effect.detail()) && !tokenRequests.isEmpty()
                && TokenRequests.requestsToken(call, tokenRequests)) {
            return effect.asReadOnly();
        }
        return effect;
    }

    private void load(JsonNode root, boolean declared) {
        loaded.append(root).append('\n');
        entriesByType.clear();
        for (JsonNode api : root.path("apis")) {
            Entry entry = new Entry(
                    strings(api.path("types")),
                    new LinkedHashSet<>(strings(api.path("methods"))),
                    new LinkedHashSet<>(strings(api.path("exceptMethods"))),
                    new LinkedHashSet<>(strings(api.path("chainRequires"))),
                    api.path("anyReceiver").asBoolean(false),
                    EffectKind.valueOf(api.path("effect").asText()),
                    api.path("detail").asText(""),
                    api.path("label").asText(""),
                    new LinkedHashSet<>(strings(api.path("readMethods"))),
                    api.path("methodArgument").asText(""),
                    new LinkedHashSet<>(strings(api.path("readArguments"))),
                    new LinkedHashSet<>(strings(api.path("asyncMethods"))),
                    requestBuilder(api.path("requestBuilder")),
                    createIfAbsent(api.path("createIfAbsent")));
            if (entry.anyReceiver()) {
                anyReceiver.add(declared ? 0 : anyReceiver.size(), entry);
            }
            for (String type : entry.typePatterns()) {
                // a project's declaration overrides what the built-in catalogue says of the same method
                if (type.contains("*")) {
                    patternTypes.add(declared ? 0 : patternTypes.size(), Map.entry(Glob.typeName(type), entry));
                } else {
                    List<Entry> list = exactTypes.computeIfAbsent(type, k -> new ArrayList<>());
                    list.add(declared ? 0 : list.size(), entry);
                }
            }
        }
        for (JsonNode node : root.path("tokenRequests")) {
            tokenRequests.add(new TokenRequests.Marker(node.path("parameter").asText(),
                    new LinkedHashSet<>(strings(node.path("values")))));
        }
        for (JsonNode node : root.path("authorization")) {
            authorization.add(new AuthorizationEntry(
                    new LinkedHashSet<>(strings(node.path("annotations"))),
                    node.path("form").asText("marker"),
                    new LinkedHashSet<>(strings(node.path("authenticationOnly"))),
                    node.path("combine").asText("or"),
                    node.path("combineAttribute").asText("")));
        }
        for (JsonNode node : root.path("lists")) {
            lists.add(new ListEntry(new LinkedHashSet<>(strings(node.path("types"))),
                    new LinkedHashSet<>(strings(node.path("through"))), new LinkedHashSet<>(strings(node.path("push"))),
                    new LinkedHashSet<>(strings(node.path("pop"))), new LinkedHashSet<>(strings(node.path("move"))),
                    new LinkedHashSet<>(strings(node.path("open")))));
        }
        for (JsonNode node : root.path("interfaces")) {
            interfaces.add(new InterfaceEntry(
                    new LinkedHashSet<>(strings(node.path("typeAnnotations"))),
                    new LinkedHashSet<>(strings(node.path("methodAnnotations"))),
                    EffectKind.valueOf(node.path("effect").asText()),
                    node.path("detail").asText(""),
                    node.path("label").asText(""),
                    new LinkedHashSet<>(strings(node.path("readAnnotations"))),
                    textMap(node.path("methodAttributes"))));
        }
    }

    /**
     * Matches a call chain rooted at a receiver of one of {@code typeNames} (candidates for the
     * declared type and its supertypes). {@code chain} lists the method names called along the
     * chain, starting with the call on the receiver. Returns the first match, or null.
     */
    public Match match(List<String> typeNames, List<String> chain) {
        for (String type : typeNames) {
            for (Entry entry : entriesFor(type)) {
                Match m = matchChain(entry, type, chain);
                if (m != null) {
                    return m;
                }
            }
        }
        return null;
    }

    /** Matches a call whose receiver type is unknown, by method name alone. */
    public Match matchAnyReceiver(String method) {
        for (Entry entry : anyReceiver) {
            if (entry.acceptsMethod(method)) {
                return new Match(entry, null, method);
            }
        }
        return null;
    }

    /** Whether any entry names this type (exactly or by a pattern), whichever of its methods it lists. */
    public boolean knowsType(String type) {
        return !entriesFor(type).isEmpty();
    }

    /** The annotations that admit only callers holding an authority (and those that open a method again). */
    public List<ListEntry> lists() {
        return List.copyOf(lists);
    }

    public List<AuthorizationEntry> authorization() {
        return List.copyOf(authorization);
    }

    public List<InterfaceEntry> interfaces() {
        return interfaces;
    }

    /** The entries for a type name: exact ones, then those whose pattern matches; memoised (every call asks). */
    private List<Entry> entriesFor(String type) {
        return entriesByType.computeIfAbsent(type, t -> {
            List<Entry> out = new ArrayList<>(exactTypes.getOrDefault(t, List.of()));
            for (Map.Entry<Glob, Entry> p : patternTypes) {
                if (p.getKey().matches(t)) {
                    out.add(p.getValue());
                }
            }
            return List.copyOf(out);
        });
    }

    private static Match matchChain(Entry entry, String type, List<String> chain) {
        String hit = null;
        int hitIndex = -1;
        for (int i = 0; i < chain.size(); i++) {
            if (entry.acceptsMethod(chain.get(i))) {
                hit = chain.get(i);
                hitIndex = i;
                break;
            }
        }
        if (hit == null) {
            return null;
        }
        if (!entry.chainRequires().isEmpty()) {
            boolean satisfied = false;
            for (int i = hitIndex; i < chain.size(); i++) {
                if (entry.chainRequires().contains(chain.get(i))) {
                    satisfied = true;
                    break;
                }
            }
            if (!satisfied) {
                return null;
            }
        }
        return new Match(entry, type, hit);
    }

    private static Map<String, String> textMap(JsonNode object) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        object.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    static String simpleName(String qualified) {
        int dot = qualified.lastIndexOf('.');
        return dot < 0 ? qualified : qualified.substring(dot + 1);
    }
}
