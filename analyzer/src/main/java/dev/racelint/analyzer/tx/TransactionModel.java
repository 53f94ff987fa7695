package dev.racelint.analyzer.tx;

import dev.racelint.analyzer.index.MethodMemo;
import com.github.javaparser.Position;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.callgraph.CallKind;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.AnalysisLimits;
import dev.racelint.analyzer.effects.EffectSummaries;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where transactions are: Spring and Jakarta {@code @Transactional} with propagation and the
 * proxy rule, TransactionTemplate and jOOQ callbacks, and programmatic JDBC. Also the
 * transaction-aware effect summaries: effects reached on the same transaction, stopping at calls
 * that suspend the transaction (NOT_SUPPORTED, NEVER, after-commit listeners) or that open one of
 * their own (which are scopes in their own right and report there).
 */
public final class TransactionModel {

    static final Set<String> SPRING_TRANSACTIONAL = Set.of("org.springframework.transaction.annotation.Transactional");
    static final Set<String> JAKARTA_TRANSACTIONAL = Set.of("jakarta.transaction.Transactional", "javax.transaction.Transactional");
    static final Set<String> ANY_TRANSACTIONAL = Set.of("org.springframework.transaction.annotation.Transactional",
            "jakarta.transaction.Transactional", "javax.transaction.Transactional");
    static final Set<String> RETRYABLE = Set.of("org.springframework.retry.annotation.Retryable",
            "io.github.resilience4j.retry.annotation.Retry");
    static final Set<String> TRANSACTIONAL_EVENT_LISTENER = Set.of(
            "org.springframework.transaction.event.TransactionalEventListener");

    private final ProgramIndex index;
    private final CallGraph graph;
    private final Annotations annotations;
    private final MethodMemo<Optional<TransactionAttribute>> attributes;
    private final Map<Set<EffectKind>, EffectSummaries> summaries = new ConcurrentHashMap<>();
    private final AnalysisLimits limits;
    private final DirectInstances directInstances;

    public TransactionModel(ProgramIndex index, CallGraph graph) {
        this(index, graph, AnalysisLimits.DEFAULT);
    }

    /** With the given bounds (witness-calls: how far a scope's effects are followed). */
    public TransactionModel(ProgramIndex index, CallGraph graph, AnalysisLimits limits) {
        this.index = index;
        this.graph = graph;
        this.annotations = new Annotations(index);
        this.attributes = new MethodMemo<>(index);
        this.limits = limits;
        this.directInstances = new DirectInstances(index, annotations);
    }

    /** The analysis's numeric bounds. */
    public AnalysisLimits limits() {
        return limits;
    }

    // ---- attributes ---------------------------------------------------------------------------

    /**
     * The transaction attribute a proxy applies when {@code method} is called through a bean
     * reference, or empty when none applies (no annotation, or the method cannot be proxied:
     * private, static, final, a constructor, an anonymous class method).
     */
    public Optional<TransactionAttribute> attribute(MethodInfo method) {
        return attributes.get(method, this::computeAttribute);
    }

    private Optional<TransactionAttribute> computeAttribute(MethodInfo method) {
        if (method.isConstructor() || method.isAnonymous() || method.isPrivate() || method.isStatic()
                || method.isFinal() || !(method.declaration() instanceof MethodDeclaration decl)) {
            return Optional.empty();
        }
        // an object the code makes with new has no proxy around it
        if (directInstances.onlyConstructedDirectly(method.declaringType())) {
            return Optional.empty();
        }
        Optional<AnnotationExpr> own = annotations.find(decl, ANY_TRANSACTIONAL);
        if (own.isPresent()) {
            return Optional.of(toAttribute(own.get(), "@" + own.get().getNameAsString()));
        }
        // Annotations on an overridden interface or superclass method apply too.
        for (TypeRef sup : index.supertypeClosure(method.declaringType())) {
            if (!sup.isProject() || sup.project() == method.declaringType()) {
                continue;
            }
            for (MethodInfo m : sup.project().methodsNamed(method.name())) {
                if (m.parameterCount() == method.parameterCount()
                        && m.declaration() instanceof MethodDeclaration md) {
                    Optional<AnnotationExpr> inherited = annotations.find(md, ANY_TRANSACTIONAL);
                    if (inherited.isPresent()) {
                        return Optional.of(toAttribute(inherited.get(), "@" + inherited.get().getNameAsString()
                                + " on " + sup.project().simpleName() + "." + m.name() + "()"));
                    }
                }
            }
        }
        for (TypeRef sup : index.supertypeClosure(method.declaringType())) {
            if (!sup.isProject()) {
                continue;
            }
            TypeInfo type = sup.project();
            Optional<AnnotationExpr> onClass = annotations.find(type.declaration(), ANY_TRANSACTIONAL);
            if (onClass.isPresent()) {
                return Optional.of(toAttribute(onClass.get(),
                        "class-level @" + onClass.get().getNameAsString() + " on " + type.simpleName()));
            }
        }
        return Optional.empty();
    }

    private TransactionAttribute toAttribute(AnnotationExpr annotation, String origin) {
        boolean jakarta = annotations.resolve(annotation).candidates().stream().anyMatch(JAKARTA_TRANSACTIONAL::contains);
        Propagation propagation = Propagation.REQUIRED;
        Optional<String> value = jakarta ? Annotations.enumAttribute(annotation, "value")
                : Annotations.enumAttribute(annotation, "propagation");
        if (value.isPresent()) {
            try {
                propagation = Propagation.valueOf(value.get());
            } catch (IllegalArgumentException e) {
                // A constant we cannot read (e.g. a project constant): assume the default.
            }
        }
        boolean readOnly = Annotations.attribute(annotation, "readOnly")
                .map(v -> v instanceof BooleanLiteralExpr b && b.getValue()).orElse(false);
        String isolation = Annotations.enumAttribute(annotation, "isolation").orElse("DEFAULT");
        return new TransactionAttribute(propagation, readOnly, isolation, origin, annotation);
    }

    /** A method whose proxy retries it ({@code @Retryable}, Resilience4j {@code @Retry}). */
    public boolean isRetryable(MethodInfo method) {
        return method.declaration() instanceof MethodDeclaration decl && !method.isPrivate()
                && (annotations.has(decl, RETRYABLE) || annotations.has(method.declaringType().declaration(), RETRYABLE));
    }

    // ---- call semantics -----------------------------------------------------------------------

    /** How a call relates to the caller's transaction. */
    public enum CallBoundary {
        /** The callee runs on the caller's transaction (or in none if the caller has none). */
        SAME,
        /** The callee is a transactional method reached through its proxy: a scope of its own. */
        OWN_SCOPE,
        /** The callee runs with the caller's transaction suspended, or after it completes. */
        OUTSIDE
    }

    public CallBoundary boundary(CallEdge edge) {
        MethodInfo callee = edge.callee();
        if (edge.kind() == CallKind.EVENT && callee.declaration() instanceof MethodDeclaration decl) {
            Optional<AnnotationExpr> listener = annotations.find(decl, TRANSACTIONAL_EVENT_LISTENER);
            if (listener.isPresent()) {
                String phase = Annotations.enumAttribute(listener.get(), "phase").orElse("AFTER_COMMIT");
                if (!phase.equals("BEFORE_COMMIT")) {
                    return CallBoundary.OUTSIDE;
                }
            }
        }
        if (!edge.viaProxy()) {
            return CallBoundary.SAME;
        }
        Optional<TransactionAttribute> attr = attribute(callee);
        if (attr.isEmpty() || attr.get().propagation() == Propagation.SUPPORTS) {
            return CallBoundary.SAME;
        }
        return attr.get().propagation().suspends() ? CallBoundary.OUTSIDE : CallBoundary.OWN_SCOPE;
    }

    /**
     * Effects of the given kinds each method reaches on its own transaction: propagation stops
     * at calls into other transaction scopes and at calls that run outside the transaction.
     */
    public EffectSummaries sameTransactionEffects(Set<EffectKind> kinds) {
        return summaries.computeIfAbsent(Set.copyOf(kinds), k -> EffectSummaries.compute(graph,
                site -> k.contains(site.effect().kind()),
                edge -> boundary(edge) == CallBoundary.SAME, limits.summaryCalls()));
    }

    /**
     * The effects of the given kinds that run inside {@code scope} on its transaction, one per
     * distinct API, each with its shortest call path (ties go to the earliest in the source).
     */
    public List<ReachedEffect> effectsIn(TransactionScope scope, Set<EffectKind> kinds) {
        EffectSummaries sums = sameTransactionEffects(kinds);
        java.util.LinkedHashMap<String, ReachedEffect> best = new java.util.LinkedHashMap<>();
        dev.racelint.analyzer.callgraph.MethodFacts facts = graph.facts(scope.method());
        for (EffectSite site : facts.effects()) {
            if (kinds.contains(site.effect().kind()) && scope.covers().test(site.call())) {
                best.putIfAbsent(site.effect().apiKey(), new ReachedEffect(site, List.of()));
            }
        }
        for (CallEdge edge : facts.calls()) {
            if (!scope.covers().test(edge.site()) || boundary(edge) != CallBoundary.SAME) {
                continue;
            }
            for (Map.Entry<String, dev.racelint.analyzer.effects.Witness> e : sums.of(edge.callee()).entrySet()) {
                List<CallEdge> path = new ArrayList<>();
                path.add(edge);
                path.addAll(sums.path(e.getValue()));
                ReachedEffect existing = best.get(e.getKey());
                if (existing == null || existing.calls().size() > path.size()) {
                    best.put(e.getKey(), new ReachedEffect(e.getValue().site(), List.copyOf(path)));
                }
            }
        }
        return new ArrayList<>(best.values());
    }

    // ---- scopes -------------------------------------------------------------------------------

    /** The transaction scopes that start in {@code method}, in source order. */
    public List<TransactionScope> scopesIn(MethodInfo method) {
        List<TransactionScope> scopes = new ArrayList<>();
        java.nio.file.Path file = method.declaringType().file().path();
        Optional<TransactionAttribute> attr = attribute(method);
        if (attr.isPresent() && attr.get().propagation().runsInTransaction() && method.body() != null) {
            String title = method.name() + "()";
            scopes.add(new TransactionScope(TransactionScope.Kind.ANNOTATED_METHOD, method,
                    SourceLocations.of(file, method.nameNode(), title + " runs in a transaction (" + attr.get().origin() + ")"),
                    title, attr.get().origin(), method.signature(), node -> true));
        }
        for (EffectSite site : graph.facts(method).effects()) {
            if (site.effect().kind() == EffectKind.TRANSACTION_CALLBACK) {
                MethodCallExpr call = site.call();
                List<Node> callbacks = new ArrayList<>(call.getArguments());
                String api = site.effect().api();
                String title = "the " + api + " callback in " + method.name() + "()";
                scopes.add(new TransactionScope(TransactionScope.Kind.CALLBACK, method,
                        SourceLocations.of(file, call.getName(), api + " runs this callback in a transaction"),
                        title, api, normalise(call.getScope().map(Node::toString).orElse("") + "." + call.getNameAsString()),
                        node -> callbacks.stream().anyMatch(cb -> isWithin(node, cb))));
            }
            if (site.effect().kind() == EffectKind.TRANSACTION_CONTROL && isSetAutoCommitFalse(site.call())) {
                MethodCallExpr begin = site.call();
                Position start = begin.getEnd().orElse(null);
                Position end = findCommit(method, begin);
                String title = method.name() + "()";
                scopes.add(new TransactionScope(TransactionScope.Kind.JDBC, method,
                        SourceLocations.ofCall(file, begin, "auto-commit is turned off here: a transaction begins"),
                        title, "setAutoCommit(false)", normalise(begin.toString()),
                        node -> isBetween(node, start, end)));
            }
        }
        return scopes;
    }

    private static boolean isSetAutoCommitFalse(MethodCallExpr call) {
        return call.getNameAsString().equals("setAutoCommit") && call.getArguments().size() == 1
                && call.getArgument(0) instanceof BooleanLiteralExpr b && !b.getValue();
    }

    /** The first commit()/rollback() on the same connection after {@code begin}, or null. */
    private Position findCommit(MethodInfo method, MethodCallExpr begin) {
        String receiver = begin.getScope().map(Expression::toString).orElse("");
        Position after = begin.getEnd().orElse(null);
        Position best = null;
        for (EffectSite site : graph.facts(method).effects()) {
            MethodCallExpr call = site.call();
            String name = call.getNameAsString();
            if (site.effect().kind() != EffectKind.TRANSACTION_CONTROL
                    || !(name.equals("commit") || name.equals("rollback"))
                    || !call.getScope().map(Expression::toString).orElse("").equals(receiver)) {
                continue;
            }
            Position at = call.getBegin().orElse(null);
            if (at != null && after != null && at.isAfter(after) && (best == null || at.isBefore(best))) {
                best = at;
            }
        }
        return best;
    }

    private static boolean isBetween(Node node, Position start, Position end) {
        Position at = node.getBegin().orElse(null);
        if (at == null || start == null) {
            return false;
        }
        return at.isAfter(start) && (end == null || at.isBefore(end));
    }

    /** Is {@code node} {@code root} or inside it? */
    public static boolean isWithin(Node node, Node root) {
        for (Node n = node; n != null; n = n.getParentNode().orElse(null)) {
            if (n == root) {
                return true;
            }
        }
        return false;
    }

    static String normalise(String source) {
        return source.replaceAll("\\s+", "");
    }

    public CallGraph graph() {
        return graph;
    }
}
