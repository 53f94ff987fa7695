package dev.racelint.analyzer.coverage;

import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.SuperExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithTypeParameters;
import com.github.javaparser.ast.stmt.CatchClause;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.effects.ApiEffect;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.handlers.Handler;
import dev.racelint.analyzer.handlers.HandlerModel;
import dev.racelint.analyzer.handlers.Reachability;
import dev.racelint.analyzer.handlers.Webhooks;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.FileContext;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import dev.racelint.analyzer.persistence.DbApiFamily;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.DbOpClassifier;
import dev.racelint.analyzer.persistence.PersistenceModel;
import dev.racelint.analyzer.resolve.CallResolver;
import dev.racelint.analyzer.source.SourceText;
import dev.racelint.analyzer.sql.SqlModel;
import dev.racelint.analyzer.tx.TransactionModel;
import dev.racelint.analyzer.tx.TransactionScope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Computes a scan's {@link Coverage} from the models the rules read, after the rules ran (every
 * per-method fact is memoised by then, so this mostly counts).
 *
 * <p>Blind spots: the methods that handlers start and transactions run (each handler and
 * {@code @Transactional} method with everything it calls, at any depth; a callback or JDBC scope
 * with the calls it covers) are searched for calls that resolve to no scanned method, no catalogue
 * entry and no database operation. Such a call's type is its receiver's declared type (or, on a
 * scanned receiver or {@code this}, the first external supertype that could declare the method);
 * it is a blind spot unless the API catalogue or the database model knows the type or the
 * coverage catalogue lists it as inert. Calls whose receiver has no known qualified type are not
 * counted.
 */
public final class CoverageModel {

    /** How many blind-spot types the summary keeps (the most called). */
    public static final int BLIND_SPOTS_SHOWN = 10;

    /** The warning given when the tree shows data access but no database operation was recognised. */
    public static final String DATA_ACCESS_UNRECOGNISED = "data-access-unrecognised";

    /** HTTP verbs counted on their own; any other is {@code other}. */
    static final List<String> HTTP_VERBS = List.of("GET", "POST", "PUT", "PATCH", "DELETE", "other");

    /** Broker ids by the handler model's framework name; any other is {@code other}. */
    private static final Map<String, String> BROKERS = orderedMap("Kafka", "kafka", "RabbitMQ", "rabbitmq", "JMS", "jms",
            "SQS", "sqs");

    /** The effect kinds counted, in their fixed order, with the labels the text report uses. */
    public static final Map<String, String> EFFECT_KINDS = orderedMap("http", "HTTP", "publish", "broker publish",
            "mail", "mail", "rpc", "RPC", "sdk", "cloud SDK", "storage", "object storage", "sleep", "sleep", "ack", "acknowledgement",
            "event", "application event", "lock", "lock", "idempotency-claim", "idempotency claim", "other", "other");

    /** Names shown as evidence of data access; never a reason on their own ("no verdict from a name"). */
    private static final Pattern DATA_ACCESS_NAME = Pattern.compile(".*(Mapper|Repository|Dao|DAO)");

    private final ProgramIndex index;
    private final CallGraph graph;
    private final CallResolver resolver;
    private final ApiCatalogue apis;
    private final CoverageCatalogue catalogue;
    private final HandlerModel handlers;
    private final TransactionModel transactions;
    private final PersistenceModel persistence;
    private final DbOpClassifier classifier;
    /** Made on first use: only a scan with POST handlers asks which of them are webhooks. */
    private Reachability reachability;

    public CoverageModel(ProgramIndex index, CallGraph graph, CallResolver resolver, ApiCatalogue apis,
            CoverageCatalogue catalogue, HandlerModel handlers, TransactionModel transactions,
            PersistenceModel persistence, DbOpClassifier classifier) {
        this.index = index;
        this.graph = graph;
        this.resolver = resolver;
        this.apis = apis;
        this.catalogue = catalogue;
        this.handlers = handlers;
        this.transactions = transactions;
        this.persistence = persistence;
        this.classifier = classifier;
    }

    private Reachability reachability() {
        if (reachability == null) {
            reachability = new Reachability(graph, persistence, transactions);
        }
        return reachability;
    }

    /**
     * The coverage of a scan.
     *
     * @param files          the analysed files, whose non-blank lines are counted
     * @param sql            the SQL model's counts at the end of the scan
     * @param mapperXmlFiles MyBatis mapper files read
     */
    public Coverage compute(List<Path> files, SqlModel.Stats sql, int mapperXmlFiles) {
        List<MethodInfo> methods = index.methods();
        Map<String, Integer> http = zeros(HTTP_VERBS);
        Map<String, Integer> consumers = zeros(new ArrayList<>(BROKERS.values()));
        consumers.put("other", 0);
        int webhooks = 0;
        int scheduled = 0;
        int annotated = 0;
        int programmatic = 0;
        Map<String, Integer> operations = new LinkedHashMap<>();
        for (DbApiFamily family : DbApiFamily.values()) {
            operations.put(family.id(), 0);
        }
        Map<String, Integer> effects = zeros(new ArrayList<>(EFFECT_KINDS.keySet()));
        for (MethodInfo method : methods) {
            try {
                Optional<Handler> handler = handlers.handler(method);
                if (handler.isPresent()) {
                    Handler h = handler.get();
                    switch (h.kind()) {
                        case HTTP -> {
                            String verb = h.httpMethod() != null && HTTP_VERBS.contains(h.httpMethod()) ? h.httpMethod()
                                    : "other";
                            http.merge(verb, 1, Integer::sum);
                            webhooks += Webhooks.isWebhook(h, reachability()) ? 1 : 0;
                        }
                        case MESSAGE -> consumers.merge(BROKERS.getOrDefault(h.framework(), "other"), 1, Integer::sum);
                        case SCHEDULED -> scheduled++;
                    }
                }
                for (TransactionScope scope : transactions.scopesIn(method)) {
                    if (scope.kind() == TransactionScope.Kind.ANNOTATED_METHOD) {
                        annotated++;
                    } else {
                        programmatic++;
                    }
                }
                for (DbOp op : persistence.directOps(method)) {
                    operations.merge(classifier.family(op).id(), 1, Integer::sum);
                }
                for (EffectSite site : graph.facts(method).effects()) {
                    String kind = effectKind(site.effect());
                    if (kind != null) {
                        effects.merge(kind, 1, Integer::sum);
                    }
                }
            } catch (RuntimeException | StackOverflowError e) {
                // a method a model cannot take (the rules report it as a rule failure): not counted
            }
        }
        return new Coverage(files.size(), nonBlankLines(files),
                new Coverage.EntryPoints(http, webhooks, consumers, scheduled),
                new Coverage.Transactions(annotated + programmatic, annotated, programmatic),
                operations, new Coverage.Sql(sql.parsed(), sql.fallback()), effects, blindSpots(),
                dataAccess(mapperXmlFiles));
    }

    /** The id an effect is counted under, or null for the transaction APIs (counted as transactions). */
    static String effectKind(ApiEffect effect) {
        return switch (effect.kind()) {
            case TRANSACTION_CALLBACK, TRANSACTION_CONTROL, HANDOFF -> null;
            case NETWORK -> EFFECT_KINDS.containsKey(effect.detail()) && !effect.detail().equals("other")
                    ? effect.detail() : "other";
            case SLEEP -> "sleep";
            case ACK -> "ack";
            case EVENT_PUBLISH -> "event";
            case LOCK, UNLOCK -> "lock";
            case IDEMPOTENCY_CLAIM -> "idempotency-claim";
            default -> "other";
        };
    }

    /**
     * The warning that findings about the database cannot appear: the tree shows data access
     * (mapper XML, data-access imports, types declared as repositories or mappers) but no database
     * operation was recognised. Names are added to the evidence, never enough on their own.
     */
    public static Optional<Diagnostic> dataAccessWarning(Coverage coverage) {
        Coverage.DataAccess access = coverage.dataAccess();
        if (coverage.databaseOperationCount() > 0 || !access.any()) {
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>();
        if (access.mapperXmlFiles() > 0) {
            evidence.add(count(access.mapperXmlFiles(), "MyBatis mapper XML file", "MyBatis mapper XML files"));
        }
        if (access.importingFiles() > 0) {
            List<Map.Entry<String, Integer>> packages = new ArrayList<>(access.imports().entrySet());
            String files = count(access.importingFiles(), "file", "files");
            if (packages.size() == 1) {
                evidence.add(files + " importing " + packages.get(0).getKey());
            } else {
                StringBuilder text = new StringBuilder(files).append(" importing data-access packages (");
                for (int i = 0; i < Math.min(3, packages.size()); i++) {
                    text.append(i == 0 ? "" : ", ").append(packages.get(i).getKey()).append(' ')
                            .append(packages.get(i).getValue());
                }
                evidence.add(text.append(packages.size() > 3 ? ", ...)" : ")").toString());
            }
        }
        if (access.declaredTypes() > 0) {
            evidence.add(count(access.declaredTypes(), "type", "types")
                    + " declared as data access (a repository or mapper supertype, @Mapper or @Repository)");
        }
        String named = access.namedTypes() > 0
                ? " (" + count(access.namedTypes(), "type", "types") + " named *Mapper, *Repository or *Dao)" : "";
        return Optional.of(new Diagnostic(null, 0, 0, Level.WARNING, DATA_ACCESS_UNRECOGNISED,
                joined(evidence) + named + ", but no database operation was recognised: findings about database races"
                        + " cannot appear; see --coverage"));
    }

    // ---- blind spots --------------------------------------------------------------------------

    private Coverage.BlindSpots blindSpots() {
        List<MethodInfo> methods = index.methods();
        BitSet whole = new BitSet(methods.size());
        Deque<MethodInfo> work = new ArrayDeque<>();
        // a callback or JDBC scope covers part of its method: those calls only, and what they reach
        Map<MethodInfo, List<Predicate<Node>>> partial = new LinkedHashMap<>();
        for (MethodInfo method : methods) {
            if (isHandler(method)) {
                enqueue(method, whole, work);
            }
            for (TransactionScope scope : scopesOrNone(method)) {
                if (scope.kind() == TransactionScope.Kind.ANNOTATED_METHOD) {
                    enqueue(method, whole, work);
                } else {
                    partial.computeIfAbsent(method, m -> new ArrayList<>()).add(scope.covers());
                    for (CallEdge edge : graph.facts(method).calls()) {
                        if (scope.covers().test(edge.site())) {
                            enqueue(edge.callee(), whole, work);
                        }
                    }
                }
            }
        }
        while (!work.isEmpty()) {
            for (CallEdge edge : graph.facts(work.poll()).calls()) {
                enqueue(edge.callee(), whole, work);
            }
        }
        Map<String, Integer> counts = new HashMap<>();
        for (MethodInfo method : methods) {
            boolean all = whole.get(method.id());
            List<Predicate<Node>> covers = partial.get(method);
            if (!all && covers == null) {
                continue;
            }
            for (MethodCallExpr call : index.ownCalls(method)) {
                if (!all && covers.stream().noneMatch(c -> c.test(call))) {
                    continue;
                }
                String type;
                try {
                    type = blindType(call);
                } catch (RuntimeException | StackOverflowError e) {
                    continue; // an expression the typer cannot take is no blind spot to name
                }
                if (type != null) {
                    counts.merge(type, 1, Integer::sum);
                }
            }
        }
        List<Coverage.BlindSpot> sorted = counts.entrySet().stream()
                .map(e -> new Coverage.BlindSpot(e.getKey(), e.getValue()))
                .sorted(Comparator.comparingInt(Coverage.BlindSpot::calls).reversed()
                        .thenComparing(Coverage.BlindSpot::type))
                .toList();
        int calls = counts.values().stream().mapToInt(Integer::intValue).sum();
        return new Coverage.BlindSpots(counts.size(), calls, sorted.subList(0, Math.min(BLIND_SPOTS_SHOWN, sorted.size())));
    }

    private boolean isHandler(MethodInfo method) {
        try {
            return handlers.handler(method).isPresent();
        } catch (RuntimeException | StackOverflowError e) {
            return false;
        }
    }

    private List<TransactionScope> scopesOrNone(MethodInfo method) {
        try {
            return transactions.scopesIn(method);
        } catch (RuntimeException | StackOverflowError e) {
            return List.of();
        }
    }

    private static void enqueue(MethodInfo method, BitSet seen, Deque<MethodInfo> work) {
        if (!seen.get(method.id())) {
            seen.set(method.id());
            work.add(method);
        }
    }

    /** The external type a call that nothing recognised is made on, when it is a blind spot; else null. */
    String blindType(MethodCallExpr call) {
        CallResolver.Resolution r = resolver.resolve(call);
        if (!r.targets().isEmpty() || r.api() != null || classifier.classify(call).isPresent()) {
            return null;
        }
        Expression scope = call.getScope().orElse(null);
        if (scope == null || scope instanceof ThisExpr || scope instanceof SuperExpr) {
            FileContext file = index.fileOf(call);
            String owner = scope == null && file != null ? file.staticMemberImport(call.getNameAsString()) : null;
            if (owner != null && index.type(owner) == null) {
                return unknown(List.of(owner));
            }
            TypeInfo self = index.enclosingType(call);
            return self == null ? null : firstUnknownSupertype(self);
        }
        if (scope instanceof NameExpr name && isCaughtException(call, name.getNameAsString())) {
            return null; // e.getMessage(): an exception is a value, whatever library threw it
        }
        TypeRef type = resolver.typer().typeOf(scope).type();
        if (type.isProject()) {
            return firstUnknownSupertype(type.project());
        }
        if (type.isKnown() && isTypeVariable(call, type.simpleName())) {
            return null; // T item; item.compareTo(..): the typer's same-package guess names no type
        }
        return unknown(type.candidates());
    }

    /** Whether {@code name} at {@code node} is the parameter of a catch clause around it. */
    private static boolean isCaughtException(Node node, String name) {
        for (Node n = node; n != null && !(n instanceof CallableDeclaration<?>); n = n.getParentNode().orElse(null)) {
            if (n instanceof CatchClause c && c.getParameter().getNameAsString().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a type parameter of a declaration around {@code node} is named {@code simpleName}. */
    private static boolean isTypeVariable(Node node, String simpleName) {
        for (Node n = node; n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof NodeWithTypeParameters<?> generic
                    && generic.getTypeParameters().stream().anyMatch(p -> p.getNameAsString().equals(simpleName))) {
                return true;
            }
        }
        return false;
    }

    /** The first candidate name when none of the candidates is known, inert or no type name at all; else null. */
    private String unknown(List<String> candidates) {
        if (candidates.isEmpty()) {
            return null;
        }
        for (String name : candidates) {
            if (!name.contains(".") || name.contains("[") || catalogue.isInert(name) || apis.knowsType(name)
                    || isUnscannedJavaLang(name)) {
                return null;
            }
        }
        return DbOpClassifier.recognisesType(candidates) ? null : candidates.get(0);
    }

    /**
     * A simple name the typer placed in the file's own package ({@code new StringBuffer()} without an
     * import) where the sources declare no such type: javac would take {@code java.lang}'s, when the
     * JDK has one of that name.
     */
    private boolean isUnscannedJavaLang(String qualified) {
        String simple = qualified.substring(qualified.lastIndexOf('.') + 1);
        return index.type(qualified) == null && JAVA_LANG.computeIfAbsent(simple, CoverageModel::inJavaLang);
    }

    private static final java.util.Map<String, Boolean> JAVA_LANG = new java.util.concurrent.ConcurrentHashMap<>();

    private static boolean inJavaLang(String simple) {
        try {
            Class.forName("java.lang." + simple, false, null);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * A scanned type's nearest external supertype that nothing knows (the method is inherited from
     * it), or null; null too when Lombok writes methods into the type or a scanned supertype, which
     * is then the likelier declarer of a method the sources do not show.
     */
    private String firstUnknownSupertype(TypeInfo type) {
        for (TypeRef ref : index.supertypeClosure(type)) {
            if (ref.isProject() && resolver.annotations().has(ref.project().declaration(), catalogue.generatedMembers())) {
                return null;
            }
        }
        for (TypeRef ref : index.supertypeClosure(type)) {
            if (ref.isProject()) {
                continue;
            }
            String name = unknown(ref.candidates());
            if (name != null) {
                return name;
            }
        }
        return null;
    }

    // ---- data access and lines ----------------------------------------------------------------

    private Coverage.DataAccess dataAccess(int mapperXmlFiles) {
        Map<String, Integer> byPackage = new HashMap<>();
        int importing = 0;
        for (FileContext file : index.files()) {
            Set<String> packages = new LinkedHashSet<>();
            for (ImportDeclaration imp : file.unit().getImports()) {
                String pkg = catalogue.dataAccessPackage(imp.getNameAsString());
                if (pkg != null) {
                    packages.add(pkg);
                }
            }
            if (!packages.isEmpty()) {
                importing++;
                packages.forEach(p -> byPackage.merge(p, 1, Integer::sum));
            }
        }
        Map<String, Integer> imports = new LinkedHashMap<>();
        byPackage.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> imports.put(e.getKey(), e.getValue()));
        Annotations annotations = resolver.annotations();
        int declared = 0;
        int named = 0;
        for (TypeInfo type : index.types()) {
            if (index.isSubtypeOf(type, catalogue.dataAccessSupertypes())
                    || annotations.has(type.declaration(), catalogue.dataAccessAnnotations())) {
                declared++;
            }
            if (DATA_ACCESS_NAME.matcher(type.simpleName()).matches()) {
                named++;
            }
        }
        return new Coverage.DataAccess(mapperXmlFiles, importing, imports, declared, named,
                persistence.schema().tableCount(), persistence.schema().keyCount());
    }

    /**
     * Non-blank lines of the files; a file that cannot be read again counts none. Counted on the
     * bytes (UTF-8 and ISO-8859-1 spell every whitespace that matters as one byte), decoded only
     * for a UTF-16 byte-order mark: reading the files again is most of what coverage costs.
     */
    static long nonBlankLines(List<Path> files) {
        long lines = 0;
        for (Path file : files) {
            try {
                byte[] bytes = Files.readAllBytes(file);
                boolean utf16 = bytes.length >= 2 && ((bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF)
                        || (bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE));
                lines += utf16 ? nonBlankLines(SourceText.decode(bytes).text()) : nonBlankLines(bytes);
            } catch (IOException | RuntimeException e) {
                // deleted or changed since it was parsed: the parse diagnostics already tell that story
            }
        }
        return lines;
    }

    private static long nonBlankLines(byte[] bytes) {
        long lines = 0;
        boolean blank = true;
        for (int i = 0; i < bytes.length; i++) {
            byte b = bytes[i];
            if (b == '\n' || (b == '\r' && (i + 1 >= bytes.length || bytes[i + 1] != '\n'))) {
                lines += blank ? 0 : 1;
                blank = true;
            } else if (b != ' ' && b != '\t' && b != '\f' && b != '\r' && b != 0x0B) {
                blank = false;
            }
        }
        return lines + (blank ? 0 : 1);
    }

    static long nonBlankLines(String text) {
        long lines = 0;
        boolean blank = true;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
                lines += blank ? 0 : 1;
                blank = true;
            } else if (c != ' ' && c != '\t' && c != '\f' && c != '\r' && c != 0x0B) {
                blank = false;
            }
        }
        return lines + (blank ? 0 : 1);
    }

    private static Map<String, Integer> zeros(List<String> keys) {
        Map<String, Integer> out = new LinkedHashMap<>();
        keys.forEach(k -> out.put(k, 0));
        return out;
    }

    private static Map<String, String> orderedMap(String... pairs) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put(pairs[i], pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    private static String count(int n, String singular, String plural) {
        return String.format(java.util.Locale.ROOT, "%,d", n) + " " + (n == 1 ? singular : plural);
    }

    private static String joined(List<String> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }
}
