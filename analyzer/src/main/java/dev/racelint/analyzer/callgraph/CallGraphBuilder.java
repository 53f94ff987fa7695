package dev.racelint.analyzer.callgraph;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.ClassExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.SuperExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.stmt.LocalClassDeclarationStmt;
import com.github.javaparser.ast.stmt.LocalRecordDeclarationStmt;
import dev.racelint.analyzer.effects.ApiEffect;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.MethodMemo;
import dev.racelint.analyzer.index.FileBudget;
import dev.racelint.analyzer.index.MethodTasks;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import dev.racelint.analyzer.resolve.CallResolver;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the call graph and each method's facts with one walk of each method body. Lambdas and
 * method references passed to ordinary calls run inline (streams, Optional, templates); those
 * passed to hand-off APIs (executors, async futures, collections that keep them), to scanned
 * methods that only queue or store them ({@link CallbackTiming}) and to {@code @Async} methods do not.
 */
public final class CallGraphBuilder {

    static final Set<String> ASYNC = Set.of("org.springframework.scheduling.annotation.Async",
            "jakarta.ejb.Asynchronous", "javax.ejb.Asynchronous", "jakarta.enterprise.concurrent.Asynchronous");
    static final Set<String> EVENT_LISTENERS = Set.of("org.springframework.context.event.EventListener",
            "org.springframework.transaction.event.TransactionalEventListener",
            "org.springframework.transaction.event.TransactionalApplicationListener");

    /** The name of this phase in {@code too-slow} diagnostics. */
    public static final String PHASE = "call graph";

    private final ProgramIndex index;
    private final CallResolver resolver;
    private final Annotations annotations;
    private final Map<String, List<MethodInfo>> listenersByEventType = new HashMap<>();
    private final MethodMemo<Boolean> async;
    private final CallbackTiming callbacks;
    private final KeyedRegistry registries;

    public CallGraphBuilder(ProgramIndex index, CallResolver resolver) {
        this.index = index;
        this.resolver = resolver;
        this.annotations = resolver.annotations();
        this.async = new MethodMemo<>(index);
        this.callbacks = new CallbackTiming(resolver);
        this.registries = new KeyedRegistry(index, resolver);
    }

    public CallGraph build() {
        return build(1);
    }

    /**
     * Walks every method body on {@code threads} threads. Each method's facts are its own and come out
     * in source order; the resolver's memos are thread-safe; so the graph does not depend on the threads.
     */
    public CallGraph build(int threads) {
        return build(threads, FileBudget.UNLIMITED);
    }

    /**
     * As {@link #build(int)}, each walk charged to its file's budget. The methods of a file that runs
     * out before the graph is complete get no facts at all, not the walks that happened to finish
     * first, so the graph depends only on whether the file ran out, not on the order of the walks.
     */
    public CallGraph build(int threads, FileBudget budget) {
        indexEventListeners();
        List<MethodInfo> methods = index.methods();
        MethodFacts[] facts = new MethodFacts[methods.size()];
        MethodTasks.forEach(methods, threads, m -> {
            MethodFacts f = new MethodFacts(m);
            budget.run(m.declaringType().file().path(), PHASE, () -> {
                try {
                    walk(m, f);
                } catch (StackOverflowError e) {
                    // A pathological body (thousands of nested expressions): keep what was found.
                }
            });
            facts[m.id()] = f;
        });
        for (MethodInfo m : methods) {
            if (budget.ranOut(m.declaringType().file().path())) {
                facts[m.id()] = new MethodFacts(m);
            }
            facts[m.id()].asyncWhenProxied = isAsync(m);
        }
        return new CallGraph(index, facts);
    }

    private void indexEventListeners() {
        for (MethodInfo m : index.methods()) {
            if (!(m.declaration() instanceof MethodDeclaration decl) || m.isAnonymous()) {
                continue;
            }
            AnnotationExpr listener = annotations.find(decl, EVENT_LISTENERS).orElse(null);
            if (listener == null) {
                continue;
            }
            List<TypeRef> eventTypes = new ArrayList<>();
            for (String attr : List.of("classes", "value")) {
                Annotations.attribute(listener, attr).ifPresent(v -> v.findAll(ClassExpr.class)
                        .forEach(c -> eventTypes.add(index.resolveType(c.getType(), c))));
            }
            if (eventTypes.isEmpty() && !decl.getParameters().isEmpty()) {
                Parameter p = decl.getParameter(0);
                eventTypes.add(index.resolveType(p.getType(), p));
            }
            for (TypeRef t : eventTypes) {
                for (String name : t.candidates()) {
                    listenersByEventType.computeIfAbsent(name, k -> new ArrayList<>()).add(m);
                }
            }
        }
    }

    private void walk(MethodInfo method, MethodFacts facts) {
        Node body = method.body();
        if (body == null) {
            return;
        }
        Path file = method.declaringType().file().path();
        Deque<Node> stack = new ArrayDeque<>();
        stack.push(body);
        while (!stack.isEmpty()) {
            Node node = stack.pop();
            if (node instanceof LocalClassDeclarationStmt || node instanceof LocalRecordDeclarationStmt
                    || node instanceof TypeDeclaration<?>) {
                continue;
            }
            if (node instanceof LambdaExpr && !runsInline(node)) {
                continue;
            }
            if (node instanceof MethodReferenceExpr ref) {
                if (runsInline(ref)) {
                    boolean viaProxy = !(ref.getScope() instanceof ThisExpr || ref.getScope() instanceof SuperExpr);
                    for (MethodInfo target : resolver.resolve(ref)) {
                        addEdge(facts, target, ref, CallKind.METHOD_REFERENCE, viaProxy,
                                SourceLocations.of(file, ref, "calls " + target.displayName()));
                    }
                }
                continue;
            }
            if (node instanceof ObjectCreationExpr creation) {
                for (MethodInfo ctor : resolver.resolve(creation)) {
                    addEdge(facts, ctor, creation, CallKind.CALL, false,
                            SourceLocations.of(file, creation.getType(), "calls new " + ctor.declaringType().simpleName() + "()"));
                }
                creation.getScope().ifPresent(stack::push);
                pushReversed(stack, new ArrayList<>(creation.getArguments()));
                continue;
            }
            if (node instanceof MethodCallExpr call) {
                visitCall(method, facts, file, call);
            }
            pushReversed(stack, node.getChildNodes());
        }
    }

    private static void pushReversed(Deque<Node> stack, List<? extends Node> children) {
        for (int i = children.size() - 1; i >= 0; i--) {
            stack.push(children.get(i));
        }
    }

    private void visitCall(MethodInfo method, MethodFacts facts, Path file, MethodCallExpr call) {
        CallResolver.Resolution r = resolver.resolve(call);
        // registry.get(TYPE_A).run(..) runs only on the entries keyed TYPE_A, not on every implementation
        for (MethodInfo target : registries.narrow(call, r.targets())) {
            if (r.viaProxy() && isAsync(target)) {
                continue;
            }
            addEdge(facts, target, call, CallKind.CALL, r.viaProxy(),
                    SourceLocations.ofCall(file, call, "calls " + target.displayName()));
        }
        if (r.api() == null || !r.api().method().equals(call.getNameAsString())) {
            return;
        }
        ApiEffect effect = resolver.catalogue().effectAt(r.api(), call);
        switch (effect.kind()) {
            case HANDOFF -> { }
            case NETWORK, SLEEP -> {
                if (!innerCallOfChainIsIo(call)) {
                    facts.effects.add(new EffectSite(method, call, effect,
                            SourceLocations.ofCall(file, CallResolver.chainEnd(call),
                                    "calls " + effect.api() + " (" + effect.label() + ")")));
                }
            }
            case TRANSACTION_CALLBACK -> {
                facts.effects.add(new EffectSite(method, call, effect,
                        SourceLocations.of(file, call.getName(), effect.label() + " runs its callback in a transaction")));
                for (Expression arg : call.getArguments()) {
                    if (arg instanceof ObjectCreationExpr creation) {
                        for (MethodInfo callback : index.anonymousMethods(creation)) {
                            addEdge(facts, callback, creation, CallKind.CALLBACK, false,
                                    SourceLocations.of(file, creation.getType(), "runs " + callback.name() + "()"));
                        }
                    }
                }
            }
            case EVENT_PUBLISH -> {
                facts.effects.add(new EffectSite(method, call, effect,
                        SourceLocations.ofCall(file, call, "publishes an application event")));
                if (!call.getArguments().isEmpty()) {
                    for (MethodInfo listener : listenersFor(call.getArgument(0))) {
                        if (isAsync(listener)) {
                            continue;
                        }
                        addEdge(facts, listener, call, CallKind.EVENT, true,
                                SourceLocations.ofCall(file, call, "publishes an event to " + listener.displayName()));
                    }
                }
            }
            default -> facts.effects.add(new EffectSite(method, call, effect,
                    SourceLocations.ofCall(file, call, "calls " + effect.api())));
        }
    }

    /**
     * One I/O per call chain: with a classpath, {@code client.newCall(r).execute()} types both
     * calls, and the chain already matched at its innermost catalogued call.
     */
    private boolean innerCallOfChainIsIo(MethodCallExpr call) {
        Expression scope = call.getScope().orElse(null);
        while (scope instanceof MethodCallExpr inner) {
            CallResolver.Resolution r = resolver.resolve(inner);
            if (r.api() != null && r.api().method().equals(inner.getNameAsString())
                    && (r.api().entry().effect() == EffectKind.NETWORK || r.api().entry().effect() == EffectKind.SLEEP)) {
                return true;
            }
            scope = inner.getScope().orElse(null);
        }
        return false;
    }

    private List<MethodInfo> listenersFor(Expression event) {
        TypeRef type = resolver.typer().typeOf(event).type();
        if (!type.isProject()) {
            List<MethodInfo> out = new ArrayList<>();
            type.candidates().forEach(c -> out.addAll(listenersByEventType.getOrDefault(c, List.of())));
            return out;
        }
        List<MethodInfo> out = new ArrayList<>();
        for (TypeRef t : index.supertypeClosure(type.project())) {
            for (String c : t.candidates()) {
                for (MethodInfo m : listenersByEventType.getOrDefault(c, List.of())) {
                    if (!out.contains(m)) {
                        out.add(m);
                    }
                }
            }
        }
        return out;
    }

    /**
     * A lambda or method reference passed to a call runs in place unless the callee only runs it
     * later ({@link CallbackTiming}): a library hand-off, a collection it is stored in, or a scanned
     * method that queues or stores it. Anywhere else (a field, a local, a constructor) it is not
     * walked as part of this method.
     */
    private boolean runsInline(Node functional) {
        Node parent = functional.getParentNode().orElse(null);
        if (!(parent instanceof MethodCallExpr call)) {
            return false;
        }
        for (int i = 0; i < call.getArguments().size(); i++) {
            if (call.getArgument(i) == functional) {
                return callbacks.whenArgumentRuns(call, i) != CallbackTiming.When.LATER;
            }
        }
        return false;
    }

    /** Asked at every call edge through a proxy: memoised per method. */
    private boolean isAsync(MethodInfo target) {
        return async.get(target, this::computeAsync);
    }

    private boolean computeAsync(MethodInfo target) {
        if (target.declaration() instanceof MethodDeclaration decl && annotations.has(decl, ASYNC)) {
            return true;
        }
        TypeInfo owner = target.declaringType();
        return !target.isAnonymous() && annotations.has(owner.declaration(), ASYNC);
    }

    private static void addEdge(MethodFacts facts, MethodInfo target, Node site, CallKind kind, boolean viaProxy,
            dev.racelint.analyzer.finding.CodeLocation location) {
        facts.calls.add(new CallEdge(facts.method(), target, site, kind, viaProxy, location));
    }

    static boolean isTransactionKind(ApiEffect effect) {
        return effect.kind() == EffectKind.TRANSACTION_CALLBACK || effect.kind() == EffectKind.TRANSACTION_CONTROL;
    }
}
