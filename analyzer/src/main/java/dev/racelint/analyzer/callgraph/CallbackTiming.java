package dev.racelint.analyzer.callgraph;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NullLiteralExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.stmt.LocalClassDeclarationStmt;
import com.github.javaparser.ast.stmt.LocalRecordDeclarationStmt;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.CallResolver;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a functional value (a lambda, a method reference, or a parameter or local holding one)
 * passed to a call runs during that call or only later, on another thread or whenever whoever it was
 * stored with takes it out again. Library callees are decided by the API catalogue ({@code HANDOFF}
 * entries: executors, async futures, Failsafe's async runs, timers, and collections the value is
 * stored in); a scanned callee by its own body: it runs now when it invokes the parameter (directly,
 * in a lambda that runs now, or by passing it on to a callee that runs it now); later when every use
 * stores it (in a field or a collection), hands it to an executor, or sits in a callback that itself
 * runs later. Anything else (the value is returned, passed to an unknown library method) is
 * {@link When#UNKNOWN}, which the call graph reads as running now, as it always has.
 */
public final class CallbackTiming {

    /** When a functional value handed to a call runs. */
    public enum When {
        /** During the call (maybe only on some paths). */
        NOW,
        /** Only after the call returned, or on another thread: never under the caller's locks. */
        LATER,
        /** Nothing says: read as {@link #NOW}. */
        UNKNOWN
    }

    /**
     * How many scanned callees deep a parameter is followed (a setting of this fact, not of a rule):
     * a value passed further than this counts as {@link When#UNKNOWN}, that is, as running now.
     */
    static final int MAX_DEPTH = 8;

    private final CallResolver resolver;
    private final Map<Long, When> memo = new ConcurrentHashMap<>();
    /** The parameters being worked out on this thread, innermost last; a result that met one of them is not memoised. */
    private final ThreadLocal<Deque<Frame>> inProgress = ThreadLocal.withInitial(ArrayDeque::new);

    private static final class Frame {
        final long key;
        boolean cut;

        Frame(long key) {
            this.key = key;
        }
    }

    public CallbackTiming(CallResolver resolver) {
        this.resolver = resolver;
    }

    /** When a functional value passed as argument {@code index} of {@code call} runs. */
    public When whenArgumentRuns(MethodCallExpr call, int index) {
        CallResolver.Resolution r = resolver.resolve(call);
        if (resolver.isHandoff(r, call)) {
            return When.LATER;
        }
        return ofTargets(r.targets(), index);
    }

    private When ofTargets(List<MethodInfo> targets, int index) {
        List<When> verdicts = new ArrayList<>();
        for (MethodInfo target : targets) {
            if (target.body() != null) {
                verdicts.add(parameter(target, index));
            }
        }
        return combine(verdicts);
    }

    /** Any use that runs now wins; later only when every use is later. */
    private static When combine(List<When> uses) {
        if (uses.isEmpty()) {
            return When.UNKNOWN;
        }
        if (uses.contains(When.NOW)) {
            return When.NOW;
        }
        return uses.stream().allMatch(u -> u == When.LATER) ? When.LATER : When.UNKNOWN;
    }

    /** When a functional value given to {@code method} as its parameter {@code index} runs. */
    When parameter(MethodInfo method, int index) {
        List<Parameter> params = method.declaration().getParameters();
        if (params.isEmpty()) {
            return When.UNKNOWN;
        }
        int at = index;
        if (at >= params.size()) {
            if (!params.get(params.size() - 1).isVarArgs()) {
                return When.UNKNOWN;
            }
            at = params.size() - 1;
        }
        if (params.get(at).isVarArgs()) {
            return When.UNKNOWN; // an array of callbacks: its uses are element reads, not the value
        }
        long key = ((long) method.id() << 8) | Math.min(at, 255);
        When known = memo.get(key);
        if (known != null) {
            return known;
        }
        Deque<Frame> stack = inProgress.get();
        for (Frame f : stack) {
            if (f.key == key) {
                stack.forEach(g -> g.cut = true);
                return When.UNKNOWN;
            }
        }
        if (stack.size() >= MAX_DEPTH) {
            stack.forEach(g -> g.cut = true);
            return When.UNKNOWN;
        }
        Frame frame = new Frame(key);
        stack.addLast(frame);
        When result;
        try {
            result = usesOf(params.get(at).getNameAsString(), method.body(), new java.util.HashMap<>());
        } finally {
            stack.removeLast();
        }
        if (!frame.cut) {
            memo.putIfAbsent(key, result);
        }
        return result;
    }

    /** When a value named {@code name} (a parameter or a local) runs, from its uses within {@code scope}. */
    private When usesOf(String name, Node scope, Map<Node, When> seen) {
        if (scope == null) {
            return When.UNKNOWN;
        }
        List<When> uses = new ArrayList<>();
        Deque<Node> work = new ArrayDeque<>();
        work.push(scope);
        while (!work.isEmpty()) {
            Node n = work.pop();
            if (n instanceof LocalClassDeclarationStmt || n instanceof LocalRecordDeclarationStmt
                    || n instanceof TypeDeclaration<?>) {
                continue;
            }
            if (n instanceof ObjectCreationExpr creation && creation.getAnonymousClassBody().isPresent()) {
                // Used inside an anonymous class: when its methods run is another question.
                if (creation.getAnonymousClassBody().get().stream()
                        .anyMatch(member -> member.findFirst(NameExpr.class, e -> e.getNameAsString().equals(name)).isPresent())) {
                    uses.add(When.UNKNOWN);
                }
                creation.getArguments().forEach(work::push);
                creation.getScope().ifPresent(work::push);
                continue;
            }
            if (n instanceof NameExpr use && use.getNameAsString().equals(name)) {
                uses.add(inEnclosingCallbacks(use, scope, valueUse(use, seen), seen));
                continue;
            }
            n.getChildNodes().forEach(work::push);
        }
        uses.removeIf(u -> u == null);
        return combine(uses);
    }

    /** A use inside a lambda that runs later runs later too, whatever the lambda does with it. */
    private When inEnclosingCallbacks(Node use, Node scope, When own, Map<Node, When> seen) {
        if (own == null || own == When.LATER) {
            return own;
        }
        for (Node n = use.getParentNode().orElse(null); n != null && n != scope; n = n.getParentNode().orElse(null)) {
            if (n instanceof LambdaExpr lambda) {
                if (valueUse(lambda, seen) == When.LATER) {
                    return When.LATER;
                }
            }
        }
        return own;
    }

    /**
     * When the functional value of {@code expr} runs, from what its parent does with it (seen through
     * parentheses, casts and conditionals); null for a use that neither runs nor passes it
     * ({@code callback != null}, {@code callback = ...}).
     */
    private When valueUse(Node expr, Map<Node, When> seen) {
        Node parent = expr.getParentNode().orElse(null);
        if (parent instanceof EnclosedExpr || parent instanceof CastExpr
                || (parent instanceof ConditionalExpr c && c.getCondition() != expr)) {
            return valueUse(parent, seen);
        }
        if (parent instanceof MethodCallExpr call) {
            if (call.getScope().orElse(null) == expr) {
                return When.NOW; // callback.run(), supplier.get(), consumer.accept(x)
            }
            int index = argumentIndex(call.getArguments(), expr);
            return index < 0 ? When.UNKNOWN : whenArgumentRuns(call, index);
        }
        if (parent instanceof MethodReferenceExpr ref && ref.getScope() == expr) {
            return valueUse(ref, seen); // callback::run runs when that reference does
        }
        if (parent instanceof ObjectCreationExpr creation) {
            int index = argumentIndex(creation.getArguments(), expr);
            if (index < 0) {
                return When.UNKNOWN;
            }
            List<MethodInfo> ctors = resolver.resolve(creation);
            // A library object built around the callback (a Thread, a task) keeps it for later.
            return ctors.isEmpty() ? When.LATER : ofTargets(ctors, index);
        }
        if (parent instanceof BinaryExpr b && (b.getOperator() == BinaryExpr.Operator.EQUALS
                || b.getOperator() == BinaryExpr.Operator.NOT_EQUALS)
                && (b.getLeft() instanceof NullLiteralExpr || b.getRight() instanceof NullLiteralExpr)) {
            return null;
        }
        if (parent instanceof AssignExpr assign && assign.getTarget() == expr) {
            return null; // callback = ...: the variable is given a value, not used
        }
        if (parent instanceof AssignExpr assign && assign.getValue() == expr
                && assign.getOperator() == AssignExpr.Operator.ASSIGN) {
            Expression target = assign.getTarget();
            if (target instanceof FieldAccessExpr) {
                return When.LATER; // this.callback = callback: kept for later
            }
            if (target instanceof NameExpr local) {
                VariableDeclarator declared = localDeclaration(local);
                if (declared == null) {
                    return When.LATER; // a field assigned by its simple name
                }
                return local(declared, seen);
            }
            return When.UNKNOWN;
        }
        if (parent instanceof VariableDeclarator declared && declared.getInitializer().orElse(null) == expr) {
            Node scope = declarationScope(declared);
            if (scope == null) {
                return When.LATER; // a field initialised with it
            }
            return local(declared, seen);
        }
        return When.UNKNOWN;
    }

    /** When the value held by a local variable runs, from its uses; each local worked out once per question. */
    private When local(VariableDeclarator declared, Map<Node, When> seen) {
        When known = seen.get(declared);
        if (known != null) {
            return known;
        }
        seen.put(declared, When.UNKNOWN);
        When result = usesOf(declared.getNameAsString(), declarationScope(declared), seen);
        seen.put(declared, result);
        return result;
    }

    private static int argumentIndex(List<Expression> arguments, Node expr) {
        for (int i = 0; i < arguments.size(); i++) {
            if (arguments.get(i) == expr) {
                return i;
            }
        }
        return -1;
    }

    /** The local variable a simple name assigned in a method body refers to; null when it is a field. */
    private static VariableDeclarator localDeclaration(NameExpr name) {
        for (Node n = name.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof TypeDeclaration<?> || n instanceof ObjectCreationExpr) {
                return null;
            }
            if (n instanceof com.github.javaparser.ast.body.CallableDeclaration<?> callable) {
                return callable.findFirst(VariableDeclarator.class,
                        v -> v.getNameAsString().equals(name.getNameAsString())
                                && declarationScope(v) != null && declarationScope(v).isAncestorOf(name)).orElse(null);
            }
        }
        return null;
    }

    /** The block a local variable is visible in; null for a field. */
    private static Node declarationScope(VariableDeclarator declared) {
        for (Node n = declared.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof com.github.javaparser.ast.body.FieldDeclaration) {
                return null;
            }
            if (n instanceof com.github.javaparser.ast.stmt.BlockStmt || n instanceof com.github.javaparser.ast.stmt.ForStmt
                    || n instanceof com.github.javaparser.ast.stmt.ForEachStmt
                    || n instanceof com.github.javaparser.ast.stmt.TryStmt || n instanceof LambdaExpr) {
                return n;
            }
        }
        return null;
    }
}
