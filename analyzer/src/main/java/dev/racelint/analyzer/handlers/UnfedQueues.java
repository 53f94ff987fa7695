package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.effects.ApiCatalogue.ListEntry;
import dev.racelint.analyzer.index.Expressions;
import dev.racelint.analyzer.index.FileContext;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import dev.racelint.analyzer.resolve.ExpressionTyper;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Work queues that are never fed: a consumer that pops a shared list (a Redis list, through the list
 * commands of the catalogue's {@code lists}) whose key no code of the program pushes to. What the
 * consumer does with a popped element - the calls whose arguments are computed from it - then never
 * runs, and neither does a method that only such calls reach.
 *
 * <p>Keys are followed as data: literals, {@code static final} constants (also of other types),
 * concatenations (a constant prefix plus a suffix is a key prefix), locals initialised once, and the
 * parameters of wrappers ({@code RedisUtil.lPush(String key, ..)}), whose keys are what their callers
 * pass, up to {@link #MAX_WRAPPERS} calls out. A pop and a push meet when their keys may be equal (one
 * prefix starts the other key). A push whose key is not known this way (computed, read from a row)
 * may feed any list: then no list counts as unfed. A push made by the consumer itself - the method
 * where the pop's key is fixed also fixes the push's - puts an element back (a retry), which feeds
 * nothing new. A wrapper no code calls pushes nothing in this program. Other programs writing the list
 * are not seen: the fact is only given when the program has no push at all that may reach the key.
 */
public final class UnfedQueues {

    /** Wrapper calls followed out from a list command to the caller that fixes its key. */
    public static final int MAX_WRAPPERS = 4;

    /** None known: nothing is unfed (an analysis built without the catalogue's list commands). */
    public static final UnfedQueues NONE = new UnfedQueues(null, null, null, null, null, List.of());

    /**
     * A consumer of a list that nothing pushes to.
     *
     * @param key      the list's key as resolved ({@code "product_stock_update"}, {@code "order:"...})
     * @param consumer the consumer's display name ({@code StockServiceImpl.consumeStock()})
     * @param file     the consumer's file name
     * @param line     the line of its pop
     */
    public record Unfed(String key, String consumer, String file, int line) {
        /** "it runs only for elements StockTask.drain() pops from the list "stock_update" (at StockTask.java:40), which no code of the program pushes to". */
        public String sentence() {
            return "it runs only for elements " + consumer + " pops from the list " + key + " (at " + file + ":" + line
                    + "), which no code of the program pushes to";
        }
    }

    /** {@code finding} as a note that says why: what it reports runs only for elements of a list nothing fills. */
    public static dev.racelint.analyzer.finding.Finding asNote(dev.racelint.analyzer.finding.Finding finding, Unfed unfed) {
        return new dev.racelint.analyzer.finding.Finding(finding.ruleId(), dev.racelint.analyzer.finding.Level.NOTE,
                dev.racelint.analyzer.finding.Message.builder().append(finding.message())
                        .text(" Reported as a note: " + unfed.sentence() + ".").build(),
                finding.primary(), finding.related(), finding.codeFlow(), finding.fix(), finding.fingerprint(),
                finding.enclosingMethod(), finding.otherFlows());
    }

    /** A key: its text, whole ({@code exact}) or only its start; a null text is not known. */
    private record Key(String text, boolean exact) {
        static final Key UNKNOWN = new Key(null, false);

        boolean known() {
            return text != null;
        }

        boolean mayEqual(Key other) {
            if (!known() || !other.known()) {
                return true;
            }
            if (exact && other.exact) {
                return text.equals(other.text);
            }
            return text.startsWith(other.text) && !other.exact || other.text.startsWith(text) && !exact;
        }

        String shown() {
            return "\"" + text + "\"" + (exact ? "" : "...");
        }
    }

    /** A key as fixed in {@code origin}, by {@code site} there (the list command, or the call to its wrapper). */
    private record Resolved(Key key, MethodInfo origin, Node site) {}

    private final ProgramIndex index;
    private final ExpressionTyper typer;
    private final CallGraph graph;
    private final HandlerModel handlers;
    private final Reachability reachability;
    private final List<ListEntry> entries;
    private volatile Map<Node, Unfed> deadSites;
    private final Map<Integer, Optional<Unfed>> memo = new ConcurrentHashMap<>();

    public UnfedQueues(ProgramIndex index, ExpressionTyper typer, CallGraph graph, HandlerModel handlers,
            Reachability reachability, List<ListEntry> entries) {
        this.index = index;
        this.typer = typer;
        this.graph = graph;
        this.handlers = handlers;
        this.reachability = reachability;
        this.entries = List.copyOf(entries);
    }

    /**
     * The unfed list when every route up to {@code method} passes through a call that runs only for an
     * element popped from a list nothing pushes to; empty when an entry point, a method with no caller in
     * the tree, or callers beyond {@code reach-depth} are reached another way.
     */
    public Optional<Unfed> onlyFromUnfed(MethodInfo method) {
        if (index == null || entries.isEmpty()) {
            return Optional.empty();
        }
        Map<Node, Unfed> dead = deadSites();
        if (dead.isEmpty()) {
            return Optional.empty();
        }
        return memo.computeIfAbsent(method.id(), id -> walk(method, dead));
    }

    private Optional<Unfed> walk(MethodInfo start, Map<Node, Unfed> dead) {
        int maxDepth = reachability.limits().reachDepth();
        Unfed nearest = null;
        BitSet seen = new BitSet();
        Deque<MethodInfo> work = new ArrayDeque<>();
        Deque<Integer> depths = new ArrayDeque<>();
        seen.set(start.id());
        work.add(start);
        depths.add(0);
        while (!work.isEmpty()) {
            MethodInfo m = work.poll();
            int depth = depths.poll();
            if (handlers.handler(m).isPresent()) {
                return Optional.empty();
            }
            List<CallEdge> callers = reachability.callers(m);
            if (callers.isEmpty()) {
                return Optional.empty(); // called from outside the tree, or an entry point of its own
            }
            for (CallEdge edge : callers) {
                Unfed through = dead.get(edge.site());
                if (through != null) {
                    nearest = nearest == null ? through : nearest;
                    continue;
                }
                if (depth >= maxDepth) {
                    return Optional.empty();
                }
                if (!seen.get(edge.caller().id())) {
                    seen.set(edge.caller().id());
                    work.add(edge.caller());
                    depths.add(depth + 1);
                }
            }
        }
        return Optional.ofNullable(nearest);
    }

    /** The call sites that run only for an element popped from an unfed list, with that list. */
    private Map<Node, Unfed> deadSites() {
        Map<Node, Unfed> out = deadSites;
        if (out == null) {
            synchronized (this) {
                if (deadSites == null) {
                    deadSites = compute();
                }
                out = deadSites;
            }
        }
        return out;
    }

    private Map<Node, Unfed> compute() {
        List<Resolved> pops = new ArrayList<>();
        List<Resolved> pushes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ListEntry e : entries) {
            names.addAll(e.push());
            names.addAll(e.pop());
            names.addAll(e.move());
            names.addAll(e.open());
        }
        for (MethodInfo method : index.methods()) {
            for (MethodCallExpr call : index.bodyNodes(method).calls()) {
                String name = call.getNameAsString();
                if (!names.contains(name) || call.getArguments().isEmpty()) {
                    continue;
                }
                for (ListEntry entry : entries) {
                    boolean push = entry.push().contains(name), pop = entry.pop().contains(name),
                            move = entry.move().contains(name), open = entry.open().contains(name);
                    if (!(push || pop || move || open) || !onList(call, entry, open)) {
                        continue;
                    }
                    List<Resolved> first = resolve(call.getArgument(0), method, call, 0);
                    if (pop || move) {
                        pops.addAll(first);
                    }
                    if (push || open) {
                        pushes.addAll(first);
                    }
                    if (move) {
                        pushes.addAll(call.getArguments().size() > 1 ? resolve(call.getArgument(1), method, call, 0)
                                : List.of(new Resolved(Key.UNKNOWN, method, call)));
                    }
                    break;
                }
            }
        }
        Map<Node, Unfed> out = new IdentityHashMap<>();
        if (pushes.stream().anyMatch(p -> !p.key().known())) {
            return out; // a push to a list not known may feed any of them
        }
        for (Resolved pop : pops) {
            if (!pop.key().known() || pushes.stream().anyMatch(p -> p.origin() != pop.origin() && p.key().mayEqual(pop.key()))) {
                continue;
            }
            Unfed unfed = new Unfed(pop.key().shown(), pop.origin().displayName(),
                    pop.origin().declaringType().file().path().getFileName().toString(),
                    pop.site().getBegin().map(p -> p.line).orElse(0));
            for (Node site : forPopped(pop.origin(), pop.site())) {
                out.putIfAbsent(site, unfed);
            }
        }
        return out;
    }

    /** Is {@code call} a command of {@code entry}: on a receiver of its types, or on what a {@code through} call returns? */
    private boolean onList(MethodCallExpr call, ListEntry entry, boolean open) {
        Expression scope = call.getScope().map(Expressions::withoutParenthesesAndCasts).orElse(null);
        if (scope == null) {
            return false;
        }
        if (!open && scope instanceof MethodCallExpr through && entry.through().contains(through.getNameAsString())) {
            return true;
        }
        TypeRef type = typer.typeOf(scope).type();
        if (type.candidates().stream().anyMatch(entry.types()::contains)) {
            return true;
        }
        return type.isProject() && index.isSubtypeOf(type.project(), entry.types());
    }

    /** The keys {@code expression} (in {@code method}) may hold, each where it is fixed. */
    private List<Resolved> resolve(Expression expression, MethodInfo method, Node site, int wrappers) {
        Expression e = Expressions.withoutParenthesesAndCasts(expression);
        Optional<String> constant = constant(e, 0);
        if (constant.isPresent()) {
            return List.of(new Resolved(new Key(constant.get(), true), method, site));
        }
        if (e instanceof BinaryExpr plus && plus.getOperator() == BinaryExpr.Operator.PLUS) {
            Expression left = plus;
            while (left instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS) {
                left = Expressions.withoutParenthesesAndCasts(b.getLeft());
            }
            Optional<String> prefix = constant(left, 0);
            return List.of(new Resolved(prefix.filter(p -> !p.isEmpty()).map(p -> new Key(p, false)).orElse(Key.UNKNOWN),
                    method, site));
        }
        if (e instanceof NameExpr name) {
            Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
            if (declaration instanceof VariableDeclarator local && !LocalVariables.reassigned(local)
                    && local.getInitializer().isPresent()) {
                return resolve(local.getInitializer().get(), method, site, wrappers);
            }
            if (declaration instanceof Parameter parameter
                    && parameter.getParentNode().orElse(null) == method.declaration() && !parameter.isVarArgs()) {
                return throughCallers(method, method.declaration().getParameters().indexOf(parameter), site, wrappers);
            }
        }
        return List.of(new Resolved(Key.UNKNOWN, method, site));
    }

    /** A wrapper's key parameter: what each caller passes; nothing when no code calls the wrapper. */
    private List<Resolved> throughCallers(MethodInfo wrapper, int parameter, Node site, int wrappers) {
        if (wrappers >= MAX_WRAPPERS) {
            return List.of(new Resolved(Key.UNKNOWN, wrapper, site));
        }
        List<Resolved> out = new ArrayList<>();
        for (CallEdge edge : graph.callers(wrapper)) {
            if (edge.site() instanceof MethodCallExpr call && call.getArguments().size() > parameter) {
                out.addAll(resolve(call.getArgument(parameter), edge.caller(), call, wrappers + 1));
            } else {
                out.add(new Resolved(Key.UNKNOWN, edge.caller(), edge.site()));
            }
        }
        return out;
    }

    /** The text of a string constant expression: literals, {@code static final} fields, their concatenations. */
    private Optional<String> constant(Expression expression, int depth) {
        Expression e = Expressions.withoutParenthesesAndCasts(expression);
        if (depth > 8) {
            return Optional.empty();
        }
        if (e instanceof StringLiteralExpr literal) {
            return Optional.of(literal.asString());
        }
        if (e instanceof BinaryExpr plus && plus.getOperator() == BinaryExpr.Operator.PLUS) {
            Optional<String> left = constant(plus.getLeft(), depth + 1);
            Optional<String> right = left.isEmpty() ? Optional.empty() : constant(plus.getRight(), depth + 1);
            return right.isEmpty() ? Optional.empty() : Optional.of(left.get() + right.get());
        }
        TypeInfo owner = null;
        String field = null;
        if (e instanceof FieldAccessExpr access && access.getScope() instanceof NameExpr type) {
            FileContext file = index.fileOf(e);
            TypeRef ref = file == null ? TypeRef.UNKNOWN : index.resolveTypeName(type.getNameAsString(), e, file);
            owner = ref.isProject() ? ref.project() : null;
            field = access.getNameAsString();
        } else if (e instanceof NameExpr name && LocalVariables.declarationOf(name.getNameAsString(), name) == null) {
            owner = index.enclosingType(e);
            field = name.getNameAsString();
        }
        for (TypeInfo t = owner; t != null; t = t.outer()) {
            VariableDeclarator declarator = t.fieldDeclarator(field);
            if (declarator == null) {
                continue;
            }
            if (!(declarator.getParentNode().orElse(null) instanceof FieldDeclaration declaration)
                    || !(t.isInterface() || declaration.isStatic() && declaration.isFinal())) {
                return Optional.empty();
            }
            return declarator.getInitializer().flatMap(init -> constant(init, depth + 1));
        }
        return Optional.empty();
    }

    /**
     * The calls of {@code consumer} that run for a popped element: those whose receiver or an argument is
     * {@code pop} itself or a local computed from its result (through locals and assignments).
     */
    private List<Node> forPopped(MethodInfo consumer, Node pop) {
        CallableDeclaration<?> body = consumer.declaration();
        Set<String> tainted = new HashSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (VariableDeclarator v : body.findAll(VariableDeclarator.class)) {
                if (!tainted.contains(v.getNameAsString())
                        && v.getInitializer().map(init -> derived(init, pop, tainted)).orElse(false)) {
                    grew |= tainted.add(v.getNameAsString());
                }
            }
            for (AssignExpr a : body.findAll(AssignExpr.class)) {
                if (a.getTarget() instanceof NameExpr target && !tainted.contains(target.getNameAsString())
                        && derived(a.getValue(), pop, tainted)) {
                    grew |= tainted.add(target.getNameAsString());
                }
            }
        }
        List<Node> out = new ArrayList<>();
        for (CallEdge edge : graph.facts(consumer).calls()) {
            if (edge.site() == pop || !(edge.site() instanceof MethodCallExpr call)) {
                continue;
            }
            boolean popped = call.getArguments().stream().anyMatch(a -> derived(a, pop, tainted))
                    || call.getScope().map(s -> derived(s, pop, tainted)).orElse(false);
            if (popped) {
                out.add(edge.site());
            }
        }
        return out;
    }

    private static boolean derived(Expression e, Node pop, Set<String> tainted) {
        if (e == pop || e.findFirst(Node.class, n -> n == pop).isPresent()) {
            return true;
        }
        return e.findFirst(NameExpr.class, n -> tainted.contains(n.getNameAsString())).isPresent();
    }
}
