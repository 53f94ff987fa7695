package dev.racelint.analyzer.retry;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.BreakStmt;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.BodyNodes;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Retry shapes whose waits have no randomness or no bound: Spring Retry {@code @Backoff} without
 * {@code random = true}, {@code ExponentialBackOffPolicy} / {@code FixedBackOffPolicy}, hand-written
 * loops that sleep a fixed or growing delay after a failure, and {@code while (true)} retry loops.
 */
public final class RetryFacts {
    private static final Set<String> RETRYABLE = Set.of("org.springframework.retry.annotation.Retryable");
    private static final Set<String> FIXED_POLICIES = Set.of("org.springframework.retry.backoff.ExponentialBackOffPolicy",
            "org.springframework.retry.backoff.FixedBackOffPolicy");

    /** The {@code @Retryable} attributes that list the exception types it retries. */
    private static final Set<String> RETRIED_TYPES = Set.of("value", "include", "retryFor");
    /** Catching or listing one of these retries every failure, whatever its cause. */
    private static final Set<String> EVERY_FAILURE = Set.of("java.lang.Exception", "java.lang.RuntimeException",
            "java.lang.Throwable");
    private static final String SIMPLE_RETRY_POLICY = "org.springframework.retry.policy.SimpleRetryPolicy";
    private static final Set<String> RETRY_OPERATIONS = Set.of("org.springframework.retry.support.RetryTemplate",
            "org.springframework.retry.RetryOperations");
    /** Retry policies that can be told which exception types to retry. */
    private static final Set<String> RETRY_POLICIES = Set.of(SIMPLE_RETRY_POLICY,
            "org.springframework.retry.policy.ExceptionClassifierRetryPolicy",
            "org.springframework.retry.policy.BinaryExceptionClassifierRetryPolicy");

    /** Failures that a retry cannot fix: client errors other than 429, and payloads that do not parse. */
    private static final Set<String> NON_RETRYABLE = Set.of("HttpClientErrorException", "BadRequest", "Unauthorized",
            "Forbidden", "NotFound", "MethodNotAllowed", "NotAcceptable", "Conflict", "Gone", "UnsupportedMediaType",
            "UnprocessableEntity", "HttpMessageNotReadableException", "JsonProcessingException", "JsonParseException",
            "JsonMappingException", "MismatchedInputException", "InvalidFormatException", "DateTimeParseException",
            "NumberFormatException", "ClientErrorException", "BadRequestException", "NotFoundException",
            "ForbiddenException", "NotAuthorizedException");
    /** Resilience4j and Guava-retrying waits that are never randomised. */
    private static final Set<String> FIXED_INTERVAL_FACTORIES = Set.of("ofExponentialBackoff", "ofDefaults", "of");
    private static final Set<String> GUAVA_FIXED_WAITS = Set.of("fixedWait", "exponentialWait", "incrementingWait",
            "fibonacciWait");
    /** Every call name {@link #unjitteredLibraryWaits} looks at: the others are skipped before their scope is printed. */
    private static final Set<String> LIBRARY_WAIT_CALLS = java.util.stream.Stream.of(FIXED_INTERVAL_FACTORIES,
            GUAVA_FIXED_WAITS, Set.of("waitDuration", "withBackoff", "withDelay"))
            .flatMap(Set::stream).collect(java.util.stream.Collectors.toUnmodifiableSet());

    /**
     * The most attempts (the first call included) after which a retry that gives up counts as
     * few: Spring Retry's own default ({@code @Retryable} without {@code maxAttempts}, a
     * {@code RetryTemplate} without a retry policy, {@code new SimpleRetryPolicy()}). Such a retry
     * sends each failed caller back at most twice in step with the others, so an unjittered one is
     * reported as a note.
     */
    public static final int FEW_ATTEMPTS = 3;
    private static final String SPRING_RETRY_DEFAULT = "Spring Retry's default of " + FEW_ATTEMPTS + " attempts";

    /** Evidence that a retry gives up after at most {@link #FEW_ATTEMPTS} attempts: what says so and where. */
    public record FewAttempts(String evidence, Node at) {}

    /** A library-configured or hand-computed wait between attempts with no randomness. */
    public record UnjitteredWait(Node at, String library, String detail) {}

    /** A retry of a failure that will fail the same way again. */
    public record NonRetryableRetry(Node at, String exception, String how) {}

    private final ProgramIndex index;
    private final dev.racelint.analyzer.resolve.ExpressionTyper typer;
    private final Annotations annotations;
    /** The scanned methods' calls and catalogued effects, to see a pause a helper method makes; may be null. */
    private final dev.racelint.analyzer.callgraph.CallGraph graph;

    public RetryFacts(ProgramIndex index, dev.racelint.analyzer.resolve.ExpressionTyper typer,
            dev.racelint.analyzer.callgraph.CallGraph graph) {
        this.typer = typer;
        this.index = index;
        this.annotations = new Annotations(index);
        this.graph = graph;
    }

    /** {@code @Retryable(backoff = @Backoff(delay/multiplier...))} without {@code random = true}. */
    public boolean unjitteredBackoffAnnotation(MethodInfo method) {
        if (!(method.declaration() instanceof MethodDeclaration decl)) {
            return false;
        }
        AnnotationExpr retryable = annotations.find(decl, RETRYABLE).orElse(null);
        if (retryable == null) {
            return false;
        }
        for (NormalAnnotationExpr backoff : retryable.findAll(NormalAnnotationExpr.class)) {
            if (!backoff.getNameAsString().endsWith("Backoff")) {
                continue;
            }
            boolean random = backoff.getPairs().stream().anyMatch(p -> p.getNameAsString().equals("random")
                    && p.getValue() instanceof BooleanLiteralExpr b && b.getValue());
            boolean timed = backoff.getPairs().stream().anyMatch(p -> p.getNameAsString().equals("delay")
                    || p.getNameAsString().equals("multiplier") || p.getNameAsString().equals("value"));
            return timed && !random;
        }
        return false;
    }

    /** {@code new ExponentialBackOffPolicy()} / {@code new FixedBackOffPolicy()} in the method. */
    public List<ObjectCreationExpr> fixedBackOffPolicies(MethodInfo method) {
        List<ObjectCreationExpr> out = new ArrayList<>();
        for (ObjectCreationExpr creation : index.bodyNodes(method).creations()) {
            TypeRef type = index.resolveType(creation.getType(), creation);
            if (type.candidates().stream().anyMatch(FIXED_POLICIES::contains) && index.isOwnCode(creation, method)) {
                out.add(creation);
            }
        }
        return out;
    }

    /**
     * {@code Thread.sleep(..)} with no randomness that waits before trying a failed operation again:
     * it sits in a catch clause that does not leave the loop, or after a try that leaves the loop on
     * success and whose failures stay in it. A sleep on the success path (pacing, a batch linger) or
     * in a loop whose every failure leaves it is not a retry wait.
     */
    public List<MethodCallExpr> unjitteredSleepsInRetryLoops(MethodInfo method) {
        List<MethodCallExpr> out = new ArrayList<>();
        List<Statement> unbounded = unboundedRetryLoops(method);
        for (MethodCallExpr call : index.bodyNodes(method).calls()) {
            if (!call.getNameAsString().equals("sleep") || call.getArguments().isEmpty()
                    || !call.getScope().map(s -> s.toString().equals("Thread") || s.toString().contains("TimeUnit")).orElse(false)) {
                continue;
            }
            String arg = call.getArguments().toString().toLowerCase(Locale.ROOT);
            if (arg.contains("random") || arg.contains("jitter")) {
                continue;
            }
            Statement loop = enclosingLoop(call);
            if (loop != null && !unbounded.contains(loop) && waitsAfterFailure(call, loop) && index.isOwnCode(call, method)) {
                out.add(call);
            }
        }
        return out;
    }

    private static boolean waitsAfterFailure(Node sleep, Statement loop) {
        for (Node n = sleep.getParentNode().orElse(null); n != null && n != loop; n = n.getParentNode().orElse(null)) {
            if (n instanceof CatchClause c && !isInterruption(c)) {
                return !alwaysLeaves(c.getBody());
            }
        }
        // after a try (in the same loop body) that leaves the loop on success: reached only on failure
        for (Node child = sleep, parent = sleep.getParentNode().orElse(null); parent != null && child != loop;
                child = parent, parent = parent.getParentNode().orElse(null)) {
            if (parent instanceof BlockStmt block && child instanceof Statement st) {
                int at = block.getStatements().indexOf(st);
                for (int i = 0; i < at; i++) {
                    if (block.getStatement(i) instanceof TryStmt t && !t.getCatchClauses().isEmpty()
                            && leavesOnSuccess(t.getTryBlock())
                            && !t.getCatchClauses().stream().allMatch(c -> alwaysLeaves(c.getBody()))) {
                        return true;
                    }
                }
            }
            if (parent == loop) {
                break;
            }
        }
        return false;
    }

    /** The try block breaks out of (or returns from) the loop once its work succeeded. */
    private static boolean leavesOnSuccess(BlockStmt tryBlock) {
        return tryBlock.getStatements().stream().anyMatch(st -> st instanceof BreakStmt || st instanceof ReturnStmt);
    }

    /** A block that always ends the loop: its own statements include a throw, return, break or System.exit. */
    private static boolean alwaysLeaves(BlockStmt block) {
        for (Statement st : block.getStatements()) {
            if (st instanceof ThrowStmt || st instanceof ReturnStmt || st instanceof BreakStmt) {
                return true;
            }
            if (st instanceof ExpressionStmt e && e.getExpression() instanceof MethodCallExpr m
                    && m.getNameAsString().equals("exit") && m.getScope().map(x -> x.toString().equals("System")).orElse(false)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code while (true)} / {@code for (;;)} loops that catch a failure and keep going with no way
     * out: no catch leaves the loop and no attempt counter (a variable the loop updates and a
     * condition in it checks before leaving) bounds it.
     */
    public List<Statement> unboundedRetryLoops(MethodInfo method) {
        List<Statement> out = new ArrayList<>();
        for (Statement loop : index.bodyNodes(method).loops().stream().filter(RetryFacts::isInfinite).toList()) {
            List<CatchClause> catches = loop.findAll(CatchClause.class, c -> !isInterruption(c));
            // A retry waits before trying again; a worker loop taking new work each turn does not.
            boolean waits = loop.findAll(MethodCallExpr.class).stream().anyMatch(c -> c.getNameAsString().equals("sleep"));
            if (catches.isEmpty() || !waits || !index.isOwnCode(loop, method) || !leavesOutsideCatch(loop)) {
                continue;
            }
            boolean exits = false;
            for (CatchClause c : catches) {
                if (!c.getBody().findAll(ThrowStmt.class).isEmpty() || !c.getBody().findAll(ReturnStmt.class).isEmpty()
                        || !c.getBody().findAll(BreakStmt.class).isEmpty()) {
                    exits = true;
                }
            }
            if (!exits && !countsAttempts(loop)) {
                out.add(loop);
            }
        }
        return out;
    }

    /**
     * A retry ends once its work succeeds: a {@code return} or {@code break} of the loop outside its
     * catch clauses. A loop whose only exits are in catches (an interruption) runs its work on every
     * pass whatever the outcome - a periodic task whose next tick is not a retry of a failure.
     */
    private static boolean leavesOutsideCatch(Statement loop) {
        List<Statement> exits = new ArrayList<>();
        exits.addAll(loop.findAll(ReturnStmt.class));
        exits.addAll(loop.findAll(BreakStmt.class));
        for (Statement exit : exits) {
            boolean notOnSuccess = false;
            for (Node n = exit.getParentNode().orElse(null); n != null && n != loop; n = n.getParentNode().orElse(null)) {
                if (n instanceof CatchClause || n instanceof com.github.javaparser.ast.expr.LambdaExpr
                        || n instanceof com.github.javaparser.ast.body.TypeDeclaration<?>
                        || (exit instanceof BreakStmt b && b.getLabel().isEmpty()
                                && (BodyNodes.isLoop(n) || n instanceof com.github.javaparser.ast.stmt.SwitchStmt))) {
                    notOnSuccess = true;
                    break;
                }
            }
            if (!notOnSuccess) {
                return true;
            }
        }
        return false;
    }

    /** An if in the loop that leaves it (throw, return, break) on a condition over a variable the loop updates. */
    private static boolean countsAttempts(Statement loop) {
        Set<String> updated = new java.util.HashSet<>();
        for (UnaryExpr u : loop.findAll(UnaryExpr.class)) {
            if ((u.getOperator().name().contains("CREMENT")) && u.getExpression() instanceof NameExpr n) {
                updated.add(n.getNameAsString());
            }
        }
        for (AssignExpr a : loop.findAll(AssignExpr.class)) {
            if (a.getOperator() != AssignExpr.Operator.ASSIGN && a.getTarget() instanceof NameExpr n) {
                updated.add(n.getNameAsString());
            }
        }
        if (updated.isEmpty()) {
            return false;
        }
        for (IfStmt test : loop.findAll(IfStmt.class)) {
            boolean onCounter = test.getCondition().findAll(NameExpr.class).stream()
                    .anyMatch(n -> updated.contains(n.getNameAsString()));
            boolean leaves = !test.findAll(ThrowStmt.class).isEmpty() || !test.findAll(ReturnStmt.class).isEmpty()
                    || !test.findAll(BreakStmt.class).isEmpty();
            if (onCounter && leaves) {
                return true;
            }
        }
        return false;
    }

    private static boolean isInterruption(CatchClause c) {
        return c.getParameter().getType().asString().endsWith("InterruptedException");
    }

    private static boolean isInfinite(Node n) {
        return (n instanceof WhileStmt w && w.getCondition() instanceof BooleanLiteralExpr b && b.getValue())
                || (n instanceof ForStmt f && f.getCompare().isEmpty());
    }

    private static Statement enclosingLoop(Node node) {
        for (Node n = node.getParentNode().orElse(null); n != null; n = n.getParentNode().orElse(null)) {
            if (BodyNodes.isLoop(n)) {
                return (Statement) n;
            }
            if (n instanceof com.github.javaparser.ast.body.CallableDeclaration<?>) {
                return null;
            }
        }
        return null;
    }

    // ---- which failures a retry covers -----------------------------------------------------------

    /**
     * Evidence that the method's {@code @Retryable} retries every failure - it lists no exception
     * type ({@code value}, {@code include}, {@code retryFor}), or lists {@code Exception},
     * {@code RuntimeException} or {@code Throwable} - so failures that repeat on every attempt
     * (a bad argument, a 4xx) are retried too. Empty when it retries only the types it lists.
     */
    public java.util.Optional<String> retryableCoversEveryFailure(MethodInfo method) {
        if (!(method.declaration() instanceof MethodDeclaration decl)) {
            return java.util.Optional.empty();
        }
        AnnotationExpr retryable = annotations.find(decl, RETRYABLE).orElse(null);
        if (retryable == null) {
            return java.util.Optional.empty();
        }
        List<Expression> listed = new ArrayList<>();
        if (retryable instanceof com.github.javaparser.ast.expr.SingleMemberAnnotationExpr single) {
            listed.add(single.getMemberValue());
        } else if (retryable instanceof NormalAnnotationExpr normal) {
            for (var pair : normal.getPairs()) {
                if (RETRIED_TYPES.contains(pair.getNameAsString())) {
                    listed.add(pair.getValue());
                } else if (pair.getNameAsString().equals("exceptionExpression")) {
                    return java.util.Optional.empty();
                }
            }
        }
        if (listed.isEmpty()) {
            return java.util.Optional.of("@Retryable lists no exception type");
        }
        for (Expression e : listed) {
            for (com.github.javaparser.ast.expr.ClassExpr c : e.findAll(com.github.javaparser.ast.expr.ClassExpr.class)) {
                if (isEveryFailure(c.getType(), c)) {
                    return java.util.Optional.of("@Retryable lists " + c);
                }
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * Evidence that the RetryTemplate built in {@code method} retries every failure: no retry policy
     * that lists exception types ({@code new SimpleRetryPolicy(n, Map.of(X.class, true))}, an
     * exception classifier policy, {@code retryOn(X.class)}, a policy subclass whose {@code canRetry}
     * decides from the failure), or one that lists {@code Exception}.
     */
    public java.util.Optional<String> policyCoversEveryFailure(MethodInfo method) {
        for (ObjectCreationExpr creation : index.bodyNodes(method).creations()) {
            TypeRef type = index.resolveType(creation.getType(), creation);
            if (decidesOnFailure(type)) {
                return java.util.Optional.empty();
            }
            if (type.candidates().stream().noneMatch(RETRY_POLICIES::contains)
                    || type.candidates().contains(SIMPLE_RETRY_POLICY) && creation.getArguments().size() < 2) {
                continue;
            }
            for (com.github.javaparser.ast.expr.ClassExpr c : creation.findAll(com.github.javaparser.ast.expr.ClassExpr.class)) {
                if (isEveryFailure(c.getType(), c)) {
                    return java.util.Optional.of(creation + " lists " + c);
                }
            }
            return java.util.Optional.empty();
        }
        for (MethodCallExpr call : index.bodyNodes(method).calls()) {
            if (call.getNameAsString().equals("retryOn") && chainHas(call, "builder")) {
                boolean every = call.getArguments().stream().anyMatch(a -> a instanceof com.github.javaparser.ast.expr.ClassExpr c
                        && isEveryFailure(c.getType(), c));
                return every ? java.util.Optional.of(call.toString()) : java.util.Optional.empty();
            }
        }
        return java.util.Optional.of("its retry policy lists no exception type");
    }

    /**
     * A retry policy of the project's own (a subclass of a Spring Retry policy) whose {@code canRetry}
     * returns a verdict computed from the failure itself ({@code context.getLastThrowable()}: its type,
     * its SQL state, its message): it retries the failures it picks, not every failure.
     */
    private boolean decidesOnFailure(TypeRef type) {
        if (!type.isProject() || !index.isSubtypeOf(type.project(), RETRY_POLICIES)) {
            return false;
        }
        for (MethodInfo canRetry : index.findMethods(type.project(), "canRetry", 1)) {
            Set<String> failures = new java.util.HashSet<>();
            for (com.github.javaparser.ast.body.VariableDeclarator v : canRetry.declaration()
                    .findAll(com.github.javaparser.ast.body.VariableDeclarator.class)) {
                if (v.getInitializer().map(RetryFacts::readsLastFailure).orElse(false)) {
                    failures.add(v.getNameAsString());
                }
            }
            for (ReturnStmt r : canRetry.declaration().findAll(ReturnStmt.class)) {
                if (r.getExpression().map(e -> readsLastFailure(e) || e.findFirst(NameExpr.class,
                        n -> failures.contains(n.getNameAsString())).isPresent()).orElse(false)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Does {@code e} read the failure that ended the last attempt ({@code RetryContext.getLastThrowable()})? */
    private static boolean readsLastFailure(Expression e) {
        return e.findFirst(MethodCallExpr.class, c -> c.getNameAsString().equals("getLastThrowable")
                && c.getArguments().isEmpty()).isPresent();
    }

    /** The catch clause catches every failure ({@code Exception}, {@code Throwable}, ..): its evidence. */
    public java.util.Optional<String> catchCoversEveryFailure(CatchClause c) {
        var type = c.getParameter().getType();
        List<com.github.javaparser.ast.type.Type> caught = type.isUnionType()
                ? new ArrayList<>(type.asUnionType().getElements()) : List.of(type);
        for (var t : caught) {
            if (isEveryFailure(t, c)) {
                return java.util.Optional.of("catch (" + c.getParameter() + ")");
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * Evidence that the retry loop around {@code sleep} retries every failure: a catch clause that
     * stays in the loop catches {@code Exception}, {@code RuntimeException} or {@code Throwable}.
     */
    public java.util.Optional<String> loopCoversEveryFailure(MethodCallExpr sleep) {
        Statement loop = enclosingLoop(sleep);
        if (loop == null) {
            return java.util.Optional.empty();
        }
        for (CatchClause c : loop.findAll(CatchClause.class, c -> !isInterruption(c) && !alwaysLeaves(c.getBody()))) {
            java.util.Optional<String> every = catchCoversEveryFailure(c);
            if (every.isPresent()) {
                return every;
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * The method's {@code @Retryable} gives up after at most {@link #FEW_ATTEMPTS} attempts: it
     * sets no {@code maxAttempts} (Spring Retry's default) or a literal one that small. Empty when
     * the bound comes from an expression, a property or an interceptor, which are not read.
     */
    public java.util.Optional<FewAttempts> retryableFewAttempts(MethodInfo method) {
        if (!(method.declaration() instanceof MethodDeclaration decl)) {
            return java.util.Optional.empty();
        }
        AnnotationExpr retryable = annotations.find(decl, RETRYABLE).orElse(null);
        if (retryable == null) {
            return java.util.Optional.empty();
        }
        if (retryable instanceof NormalAnnotationExpr normal) {
            for (var pair : normal.getPairs()) {
                String key = pair.getNameAsString();
                if (key.equals("maxAttempts")) {
                    return fewLiteral(pair.getValue()).map(n -> new FewAttempts("maxAttempts = " + n, retryable));
                }
                if (key.equals("maxAttemptsExpression") || key.equals("interceptor")) {
                    return java.util.Optional.empty();
                }
            }
        }
        return java.util.Optional.of(new FewAttempts("@Retryable sets no maxAttempts: " + SPRING_RETRY_DEFAULT, retryable));
    }

    /**
     * The {@code RetryTemplate} built in {@code method} gives up after at most
     * {@link #FEW_ATTEMPTS} attempts: it is given no retry policy ({@code new RetryTemplate()}
     * keeps Spring Retry's default {@code SimpleRetryPolicy}), or the only retry policy built here
     * is a {@code SimpleRetryPolicy} with no or a small literal attempt count. Empty when any other
     * policy or a non-literal count is used.
     */
    public java.util.Optional<FewAttempts> templateFewAttempts(MethodInfo method) {
        ObjectCreationExpr template = null;
        List<ObjectCreationExpr> simple = new ArrayList<>();
        for (ObjectCreationExpr creation : index.bodyNodes(method).creations()) {
            var candidates = index.resolveType(creation.getType(), creation).candidates();
            if (candidates.contains(SIMPLE_RETRY_POLICY)) {
                simple.add(creation);
            } else if (candidates.stream().anyMatch(RETRY_POLICIES::contains)) {
                return java.util.Optional.empty();
            } else if (candidates.contains("org.springframework.retry.support.RetryTemplate") && template == null) {
                template = creation;
            }
        }
        boolean setsPolicy = false;
        for (MethodCallExpr call : index.bodyNodes(method).calls()) {
            String name = call.getNameAsString();
            if (name.equals("setMaxAttempts") || name.equals("maxAttempts")) {
                return call.getArguments().size() == 1 && simple.size() <= 1
                        ? fewLiteral(call.getArgument(0)).map(n -> new FewAttempts(call.toString(), call))
                        : java.util.Optional.empty();
            }
            setsPolicy |= name.equals("setRetryPolicy") || name.equals("retryPolicy") || name.equals("customPolicy");
        }
        if (simple.size() == 1) {
            ObjectCreationExpr policy = simple.get(0);
            if (policy.getArguments().isEmpty()) {
                return java.util.Optional.of(new FewAttempts(policy + ": " + SPRING_RETRY_DEFAULT, policy));
            }
            return fewLiteral(policy.getArgument(0)).map(n -> new FewAttempts(policy.toString(), policy));
        }
        if (simple.isEmpty() && !setsPolicy && template != null) {
            return java.util.Optional.of(new FewAttempts(template + " is given no retry policy: its SimpleRetryPolicy "
                    + "keeps " + SPRING_RETRY_DEFAULT, template));
        }
        return java.util.Optional.empty();
    }

    /**
     * The hand-written retry loop around {@code sleep} gives up after at most {@link #FEW_ATTEMPTS}
     * attempts: a counted {@code for (int i = a; i < n; i++)} (or {@code <=}) whose bound is a literal,
     * a static final constant, or a parameter every call of the method in the code passes such a
     * constant for. Counted with one attempt more after the loop (a last try outside it), so the
     * bound is never underestimated; empty for any other loop or when a caller's value is not a constant.
     */
    public java.util.Optional<FewAttempts> loopFewAttempts(MethodCallExpr sleep, MethodInfo method,
            List<dev.racelint.analyzer.callgraph.CallEdge> callers) {
        if (enclosingLoop(sleep) instanceof WhileStmt countdown) {
            return countdownFewAttempts(sleep, countdown, method);
        }
        if (!(enclosingLoop(sleep) instanceof ForStmt loop) || loop.getInitialization().size() != 1
                || !(loop.getInitialization().get(0) instanceof com.github.javaparser.ast.expr.VariableDeclarationExpr init)
                || init.getVariables().size() != 1 || loop.getUpdate().size() != 1
                || !(loop.getCompare().orElse(null) instanceof com.github.javaparser.ast.expr.BinaryExpr compare)) {
            return java.util.Optional.empty();
        }
        String counter = init.getVariable(0).getNameAsString();
        Integer start = init.getVariable(0).getInitializer().flatMap(RetryFacts::intLiteral).orElse(null);
        boolean increments = loop.getUpdate().get(0) instanceof UnaryExpr u && u.getExpression().toString().equals(counter)
                && (u.getOperator() == UnaryExpr.Operator.POSTFIX_INCREMENT || u.getOperator() == UnaryExpr.Operator.PREFIX_INCREMENT);
        boolean below = compare.getOperator() == com.github.javaparser.ast.expr.BinaryExpr.Operator.LESS;
        if (start == null || !increments || !compare.getLeft().toString().equals(counter)
                || !(below || compare.getOperator() == com.github.javaparser.ast.expr.BinaryExpr.Operator.LESS_EQUALS)) {
            return java.util.Optional.empty();
        }
        // attempts: the loop's iterations, and one more after it
        java.util.function.IntPredicate few = n -> n - start + (below ? 0 : 1) + 1 <= FEW_ATTEMPTS;
        Expression bound = compare.getRight();
        java.util.Optional<Integer> constant = constantInt(bound, method.declaringType());
        if (constant.isPresent()) {
            return few.test(constant.get())
                    ? java.util.Optional.of(new FewAttempts("the loop runs while " + compare, compare))
                    : java.util.Optional.empty();
        }
        int parameter = parameterIndex(bound, method);
        if (parameter < 0 || callers.isEmpty()) {
            return java.util.Optional.empty();
        }
        List<String> passed = new ArrayList<>();
        for (var edge : callers) {
            if (!(edge.site() instanceof MethodCallExpr call) || call.getArguments().size() <= parameter) {
                return java.util.Optional.empty();
            }
            Expression argument = call.getArgument(parameter);
            java.util.Optional<Integer> value = constantInt(argument, edge.caller().declaringType());
            if (value.isEmpty() || !few.test(value.get())) {
                return java.util.Optional.empty();
            }
            passed.add(argument + (argument.isIntegerLiteralExpr() ? "" : " = " + value.get()) + " at "
                    + edge.location().file().getFileName() + ":" + edge.location().region().startLine());
        }
        return java.util.Optional.of(new FewAttempts("every call passes a small " + bound + " (" + String.join("; ", passed)
                + ") and the loop runs while " + compare, compare));
    }

    /**
     * {@code int left = N; while (left > k) { try { work; return; } catch (..) { left--; sleep } }}, or
     * {@code while (left-- > k)}: a local counted down from a constant, changed nowhere but by
     * decrements of one, decremented on every retry (in the loop's condition, or as a statement of
     * the catch clause the sleep is in). The loop makes at most N - k attempts (one more for
     * {@code >=}), and one more is counted when a statement after the loop repeats a call of the
     * retried try block.
     */
    private java.util.Optional<FewAttempts> countdownFewAttempts(MethodCallExpr sleep, WhileStmt loop, MethodInfo method) {
        if (!(loop.getCondition() instanceof com.github.javaparser.ast.expr.BinaryExpr compare)) {
            return java.util.Optional.empty();
        }
        var op = compare.getOperator();
        boolean above = op == com.github.javaparser.ast.expr.BinaryExpr.Operator.GREATER;
        if (!above && op != com.github.javaparser.ast.expr.BinaryExpr.Operator.GREATER_EQUALS) {
            return java.util.Optional.empty();
        }
        Expression left = compare.getLeft();
        boolean inCondition = left instanceof UnaryExpr u && u.getOperator() == UnaryExpr.Operator.POSTFIX_DECREMENT;
        if (inCondition) {
            left = ((UnaryExpr) left).getExpression();
        }
        Integer floor = constantInt(compare.getRight(), method.declaringType()).orElse(null);
        if (!(left instanceof NameExpr counter) || floor == null
                || !(dev.racelint.analyzer.resolve.LocalVariables.declarationOf(counter.getNameAsString(), counter)
                        instanceof com.github.javaparser.ast.body.VariableDeclarator declared)
                || declared.getBegin().isEmpty() || loop.getBegin().isEmpty()
                || !declared.getBegin().get().isBefore(loop.getBegin().get())) {
            return java.util.Optional.empty();
        }
        Integer start = declared.getInitializer().flatMap(i -> constantInt(i, method.declaringType())).orElse(null);
        Node scope = declared.getParentNode().flatMap(Node::getParentNode).flatMap(Node::getParentNode).orElse(null);
        if (start == null || scope == null) {
            return java.util.Optional.empty();
        }
        // the counter only ever goes down by one: no assignment, no increment
        boolean decrementInCatch = false;
        CatchClause retried = sleep.findAncestor(CatchClause.class).filter(c -> c.findAncestor(WhileStmt.class)
                .filter(w -> w == loop).isPresent()).orElse(null);
        for (NameExpr use : scope.findAll(NameExpr.class, n -> n.getNameAsString().equals(counter.getNameAsString())
                && dev.racelint.analyzer.resolve.LocalVariables.declarationOf(n.getNameAsString(), n) == declared)) {
            Node parent = use.getParentNode().orElse(null);
            if (parent instanceof AssignExpr a && a.getTarget() == use) {
                return java.util.Optional.empty();
            }
            if (parent instanceof UnaryExpr u) {
                boolean down = u.getOperator() == UnaryExpr.Operator.POSTFIX_DECREMENT
                        || u.getOperator() == UnaryExpr.Operator.PREFIX_DECREMENT;
                if (!down && (u.getOperator() == UnaryExpr.Operator.POSTFIX_INCREMENT
                        || u.getOperator() == UnaryExpr.Operator.PREFIX_INCREMENT)) {
                    return java.util.Optional.empty();
                }
                // a statement of its own directly in the catch body runs on every failure that reaches the sleep
                decrementInCatch |= down && retried != null && u.getParentNode().orElse(null) instanceof ExpressionStmt st
                        && st.getParentNode().orElse(null) == retried.getBody();
            }
        }
        if (!inCondition && !decrementInCatch) {
            return java.util.Optional.empty();
        }
        int attempts = start - floor + (above ? 0 : 1);
        if (retried != null && repeatedAfter(loop, (TryStmt) retried.getParentNode().orElse(null))) {
            attempts++;
        }
        if (attempts < 1 || attempts > FEW_ATTEMPTS) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new FewAttempts(counter + " counts down from " + start + " and the loop runs while "
                + compare, compare));
    }

    /** Does a statement after {@code loop} in its block call one of the methods {@code retried}'s try block calls? */
    private static boolean repeatedAfter(Statement loop, TryStmt retried) {
        if (retried == null || !(loop.getParentNode().orElse(null) instanceof BlockStmt block)) {
            return true;
        }
        Set<String> work = new java.util.HashSet<>();
        for (MethodCallExpr call : retried.getTryBlock().findAll(MethodCallExpr.class)) {
            work.add(call.getScope().map(Object::toString).orElse("") + "." + call.getNameAsString());
        }
        var statements = block.getStatements();
        for (int i = statements.indexOf(loop) + 1; i < statements.size(); i++) {
            for (MethodCallExpr call : statements.get(i).findAll(MethodCallExpr.class)) {
                if (work.contains(call.getScope().map(Object::toString).orElse("") + "." + call.getNameAsString())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static int parameterIndex(Expression bound, MethodInfo method) {
        var c = method.declaration();
        if (!(bound instanceof NameExpr name) || c == null
                || dev.racelint.analyzer.resolve.LocalVariables.declarationOf(name.getNameAsString(), name)
                        instanceof com.github.javaparser.ast.body.VariableDeclarator) {
            return -1;
        }
        for (int i = 0; i < c.getParameters().size(); i++) {
            if (c.getParameter(i).getNameAsString().equals(name.getNameAsString())) {
                return i;
            }
        }
        return -1;
    }

    /** An int literal, or a static final field of {@code in} (or an outer type) initialised with one. */
    private java.util.Optional<Integer> constantInt(Expression value, dev.racelint.analyzer.index.TypeInfo in) {
        java.util.Optional<Integer> literal = intLiteral(value);
        if (literal.isPresent() || !(value instanceof NameExpr name)) {
            return literal;
        }
        ProgramIndex.FieldRef field = null;
        for (var t = in; t != null && field == null; t = t.outer()) {
            field = index.findField(t, name.getNameAsString());
        }
        var owner = field == null ? null : field.owner().declaration();
        if (owner == null) {
            return java.util.Optional.empty();
        }
        return owner.getFieldByName(name.getNameAsString())
                .filter(f -> f.isStatic() && f.isFinal())
                .flatMap(f -> f.getVariables().stream().filter(v -> v.getNameAsString().equals(name.getNameAsString()))
                        .findFirst())
                .flatMap(v -> v.getInitializer())
                .flatMap(RetryFacts::intLiteral);
    }

    private static java.util.Optional<Integer> intLiteral(Expression value) {
        if (value instanceof com.github.javaparser.ast.expr.IntegerLiteralExpr literal) {
            try {
                return java.util.Optional.of(Integer.parseInt(literal.getValue().replace("_", "")));
            } catch (NumberFormatException e) {
                return java.util.Optional.empty();
            }
        }
        return java.util.Optional.empty();
    }

    /** A retry loop that tries again at once, and what bounds its attempts (empty when not few). */
    public record ImmediateRetry(Statement loop, CatchClause retried, java.util.Optional<FewAttempts> few) {}

    /**
     * {@code while (true)} / {@code for (;;)} loops that retry a failed operation with no pause at
     * all: a try that leaves the loop on success, a catch that stays in it, and nothing in the loop
     * that waits (sleep, await, wait, park, a scheduled call). Every caller that failed together
     * tries again in the same instant. Its attempts are few when the catch leaves once a counter
     * declared before the loop reaches a small constant ({@code if (count++ >= MAX) throw ..}).
     */
    public List<ImmediateRetry> immediateRetryLoops(MethodInfo method) {
        List<ImmediateRetry> out = new ArrayList<>();
        for (Statement loop : index.bodyNodes(method).loops().stream().filter(RetryFacts::isInfinite).toList()) {
            Statement body = loop instanceof WhileStmt w ? w.getBody() : ((ForStmt) loop).getBody();
            if (!(body instanceof BlockStmt block) || !index.isOwnCode(loop, method)
                    || loop.findAll(MethodCallExpr.class).stream().anyMatch(this::waits)) {
                continue;
            }
            for (Statement st : block.getStatements()) {
                if (!(st instanceof TryStmt t) || !leavesOnSuccess(t.getTryBlock()) || pausesThroughCall(loop, t, method)) {
                    continue;
                }
                CatchClause retried = t.getCatchClauses().stream()
                        .filter(c -> !isInterruption(c) && !alwaysLeaves(c.getBody())).findFirst().orElse(null);
                if (retried != null) {
                    out.add(new ImmediateRetry(loop, retried, counterFewAttempts(retried, loop, method)));
                    break;
                }
            }
        }
        return out;
    }

    /**
     * JDK calls that make a loop wait between turns (so it is no immediate retry), by receiver type: a
     * project method of the same name waits for nothing, so the type decides, not the name.
     */
    private static final java.util.Map<String, Set<String>> WAITING_CALLS = java.util.Map.ofEntries(
            java.util.Map.entry("java.lang.Thread", Set.of("sleep", "join")),
            java.util.Map.entry("java.util.concurrent.TimeUnit", Set.of("sleep", "timedWait", "timedJoin")),
            java.util.Map.entry("java.lang.Object", Set.of("wait")),
            java.util.Map.entry("java.util.concurrent.locks.LockSupport", Set.of("park", "parkNanos", "parkUntil")),
            java.util.Map.entry("java.util.concurrent.CountDownLatch", Set.of("await")),
            java.util.Map.entry("java.util.concurrent.CyclicBarrier", Set.of("await")),
            java.util.Map.entry("java.util.concurrent.Phaser", Set.of("awaitAdvance", "awaitAdvanceInterruptibly",
                    "arriveAndAwaitAdvance")),
            java.util.Map.entry("java.util.concurrent.locks.Condition", Set.of("await", "awaitNanos", "awaitUntil",
                    "awaitUninterruptibly")),
            java.util.Map.entry("java.util.concurrent.Semaphore", Set.of("acquire", "tryAcquire", "acquireUninterruptibly")),
            java.util.Map.entry("java.util.concurrent.BlockingQueue", Set.of("poll", "take")),
            java.util.Map.entry("java.util.concurrent.BlockingDeque", Set.of("poll", "take", "pollFirst", "pollLast",
                    "takeFirst", "takeLast")),
            java.util.Map.entry("java.util.concurrent.LinkedBlockingQueue", Set.of("poll", "take")),
            java.util.Map.entry("java.util.concurrent.ArrayBlockingQueue", Set.of("poll", "take")),
            java.util.Map.entry("java.util.concurrent.LinkedBlockingDeque", Set.of("poll", "take", "pollFirst", "pollLast",
                    "takeFirst", "takeLast")),
            java.util.Map.entry("java.util.concurrent.PriorityBlockingQueue", Set.of("poll", "take")),
            java.util.Map.entry("java.util.concurrent.DelayQueue", Set.of("poll", "take")),
            java.util.Map.entry("java.util.concurrent.SynchronousQueue", Set.of("poll", "take")),
            java.util.Map.entry("java.util.concurrent.TransferQueue", Set.of("poll", "take", "transfer", "tryTransfer")),
            java.util.Map.entry("java.util.concurrent.LinkedTransferQueue", Set.of("poll", "take", "transfer", "tryTransfer")),
            java.util.Map.entry("java.util.concurrent.Future", Set.of("get")),
            java.util.Map.entry("java.util.concurrent.FutureTask", Set.of("get")),
            java.util.Map.entry("java.util.concurrent.CompletableFuture", Set.of("get", "join")),
            java.util.Map.entry("java.util.concurrent.ScheduledExecutorService", Set.of("schedule")),
            java.util.Map.entry("java.util.concurrent.ScheduledThreadPoolExecutor", Set.of("schedule")),
            java.util.Map.entry("java.util.concurrent.ExecutorService", Set.of("awaitTermination", "invokeAll", "invokeAny")));

    /**
     * Whether the loop, outside the attempt itself ({@code attempt}'s try block), calls a scanned method
     * that waits, directly or through the methods it calls: a back-off helper ({@code sleepBackoff(n)})
     * pauses the retry as much as a {@code Thread.sleep} in the loop does. What the attempt calls is not
     * asked, so that a pause deep inside the retried work does not hide an immediate retry.
     */
    private boolean pausesThroughCall(Statement loop, TryStmt attempt, MethodInfo method) {
        if (graph == null) {
            return false;
        }
        java.util.ArrayDeque<MethodInfo> work = new java.util.ArrayDeque<>();
        for (dev.racelint.analyzer.callgraph.CallEdge call : graph.facts(method).calls()) {
            if (loop.isAncestorOf(call.site()) && !attempt.getTryBlock().isAncestorOf(call.site())) {
                work.add(call.callee());
            }
        }
        // a loop in a lambda handed to a framework (a listener callback) is not in the method's own calls:
        // an unscoped call there still names a method of the enclosing classes, as Java resolves it
        for (MethodCallExpr call : loop.findAll(MethodCallExpr.class)) {
            if (call.getScope().isEmpty() && !attempt.getTryBlock().isAncestorOf(call)) {
                for (dev.racelint.analyzer.index.TypeInfo type = method.declaringType(); type != null; type = type.outer()) {
                    type.methodsNamed(call.getNameAsString()).stream()
                            .filter(m -> m.declaration().getParameters().size() == call.getArguments().size())
                            .forEach(work::add);
                }
            }
        }
        Set<MethodInfo> seen = new java.util.HashSet<>();
        while (!work.isEmpty()) {
            MethodInfo callee = work.pop();
            if (!seen.add(callee)) {
                continue;
            }
            dev.racelint.analyzer.callgraph.MethodFacts facts = graph.facts(callee);
            if (facts.effects().stream().anyMatch(e -> e.effect().kind() == dev.racelint.analyzer.effects.EffectKind.SLEEP)
                    || index.bodyNodes(callee).calls().stream().anyMatch(this::waits)) {
                return true;
            }
            facts.calls().forEach(c -> work.add(c.callee()));
        }
        return false;
    }

    /** Whether {@code call} waits: a JDK waiting call by its receiver's type (an unscoped call: on this object). */
    private boolean waits(MethodCallExpr call) {
        String name = call.getNameAsString();
        List<String> types = call.getScope().map(scope -> typer.typeOf(scope).type().candidates())
                .orElse(List.of("java.lang.Object"));
        return types.stream().anyMatch(t -> WAITING_CALLS.getOrDefault(t, Set.of()).contains(name));
    }

    /** {@code if (count++ >= MAX) throw/return} in the catch, {@code count} a local set to a literal before the loop. */
    private java.util.Optional<FewAttempts> counterFewAttempts(CatchClause retried, Statement loop, MethodInfo method) {
        for (IfStmt test : retried.getBody().findAll(IfStmt.class)) {
            boolean leaves = !test.getThenStmt().findAll(ThrowStmt.class).isEmpty()
                    || !test.getThenStmt().findAll(ReturnStmt.class).isEmpty() || test.getThenStmt() instanceof ThrowStmt
                    || test.getThenStmt() instanceof ReturnStmt;
            if (!leaves || !(test.getCondition() instanceof com.github.javaparser.ast.expr.BinaryExpr compare)
                    || !(compare.getLeft() instanceof UnaryExpr count) || !(count.getExpression() instanceof NameExpr counter)) {
                continue;
            }
            boolean postfix = count.getOperator() == UnaryExpr.Operator.POSTFIX_INCREMENT;
            boolean prefix = count.getOperator() == UnaryExpr.Operator.PREFIX_INCREMENT;
            var op = compare.getOperator();
            boolean atLeast = op == com.github.javaparser.ast.expr.BinaryExpr.Operator.GREATER_EQUALS;
            boolean above = op == com.github.javaparser.ast.expr.BinaryExpr.Operator.GREATER;
            if (!(postfix || prefix) || !(atLeast || above)
                    || !(dev.racelint.analyzer.resolve.LocalVariables.declarationOf(counter.getNameAsString(), counter)
                            instanceof com.github.javaparser.ast.body.VariableDeclarator declared)
                    || declared.getBegin().isEmpty() || loop.getBegin().isEmpty()
                    || !declared.getBegin().get().isBefore(loop.getBegin().get())) {
                continue;
            }
            Integer start = declared.getInitializer().flatMap(RetryFacts::intLiteral).orElse(null);
            Integer max = constantInt(compare.getRight(), method.declaringType()).orElse(null);
            if (start == null || max == null) {
                continue;
            }
            // the failing attempt that makes the test true is the last one
            int attempts = max - start + (postfix ? 1 : 0) + (above ? 1 : 0);
            if (attempts >= 1 && attempts <= FEW_ATTEMPTS) {
                return java.util.Optional.of(new FewAttempts(counter + " starts at " + start + " and the retry gives up when "
                        + compare, compare));
            }
        }
        return java.util.Optional.empty();
    }

    private static java.util.Optional<Integer> fewLiteral(Expression value) {
        if (value instanceof com.github.javaparser.ast.expr.IntegerLiteralExpr literal) {
            try {
                int n = Integer.parseInt(literal.getValue().replace("_", ""));
                return n >= 1 && n <= FEW_ATTEMPTS ? java.util.Optional.of(n) : java.util.Optional.empty();
            } catch (NumberFormatException e) {
                return java.util.Optional.empty();
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * Calls that run work under a Spring Retry {@code RetryTemplate}: {@code execute(..)} on a field
     * or local variable declared as {@code RetryTemplate} / {@code RetryOperations}.
     */
    public List<MethodCallExpr> retryTemplateExecutions(MethodInfo method) {
        List<MethodCallExpr> out = new ArrayList<>();
        for (MethodCallExpr call : index.bodyNodes(method).calls()) {
            if (call.getNameAsString().equals("execute") && !call.getArguments().isEmpty()
                    && call.getScope().map(s -> isRetryTemplate(method, s)).orElse(false)
                    && index.isOwnCode(call, method)) {
                out.add(call);
            }
        }
        return out;
    }

    private boolean isRetryTemplate(MethodInfo method, Expression scope) {
        String name = scope instanceof NameExpr n ? n.getNameAsString()
                : scope instanceof com.github.javaparser.ast.expr.FieldAccessExpr f && f.getScope().isThisExpr()
                        ? f.getNameAsString() : null;
        if (name == null) {
            return false;
        }
        com.github.javaparser.ast.type.Type type = null;
        Node body = method.body();
        if (scope instanceof NameExpr && body != null) {
            for (var local : body.findAll(com.github.javaparser.ast.body.VariableDeclarator.class)) {
                if (local.getNameAsString().equals(name)) {
                    type = local.getType();
                }
            }
        }
        if (type == null) {
            type = method.declaringType().fieldType(name);
        }
        return type != null && index.resolveType(type, scope).candidates().stream().anyMatch(RETRY_OPERATIONS::contains);
    }

    private boolean isEveryFailure(com.github.javaparser.ast.type.Type type, Node context) {
        TypeRef ref = index.resolveType(type, context);
        return !ref.isProject() && ref.candidates().stream().anyMatch(EVERY_FAILURE::contains);
    }

    // ---- retry libraries -----------------------------------------------------------------------

    /**
     * Waits set up through a retry library with no randomness: Resilience4j
     * {@code IntervalFunction.ofExponentialBackoff/of} and {@code RetryConfig...waitDuration(..)}
     * without an interval function, Failsafe {@code withBackoff/withDelay} without
     * {@code withJitter}, Guava-retrying's fixed/exponential/incrementing waits; and hand-written
     * back-off arithmetic ({@code base * Math.pow(2, n)}, {@code base << n}) in a delay method of a
     * class that never draws a random number.
     */
    public List<UnjitteredWait> unjitteredLibraryWaits(MethodInfo method) {
        List<UnjitteredWait> out = new ArrayList<>();
        Node body = method.body();
        if (body == null) {
            return out;
        }
        for (MethodCallExpr call : index.ownCalls(method)) {
            String name = call.getNameAsString();
            if (!LIBRARY_WAIT_CALLS.contains(name)) {
                continue;
            }
            String scope = call.getScope().map(Object::toString).orElse("");
            if (scope.endsWith("IntervalFunction") && FIXED_INTERVAL_FACTORIES.contains(name)) {
                out.add(new UnjitteredWait(call, "Resilience4j", "IntervalFunction." + name + "(..) never randomises the "
                        + "interval: use IntervalFunction.ofExponentialRandomBackoff or ofRandomized"));
            } else if (name.equals("waitDuration") && chainHas(call, "custom") && !chainHas(call, "intervalFunction")
                    && !chainHas(call, "intervalBiFunction")) {
                out.add(new UnjitteredWait(call, "Resilience4j", "RetryConfig waitDuration(..) waits the same time after "
                        + "every failure: set intervalFunction(IntervalFunction.ofExponentialRandomBackoff(..))"));
            } else if ((name.equals("withBackoff") || name.equals("withDelay") && call.getArguments().size() == 1)
                    && (chainHas(call, "builder") || scope.contains("RetryPolicy")) && !chainHas(call, "withJitter")) {
                out.add(new UnjitteredWait(call, "Failsafe", "RetryPolicy " + name + "(..) without withJitter(..)"));
            } else if (scope.endsWith("WaitStrategies") && GUAVA_FIXED_WAITS.contains(name)
                    && !statementMentions(call, "randomWait")) {
                out.add(new UnjitteredWait(call, "Guava-retrying", "WaitStrategies." + name + "(..) without a randomWait"));
            }
        }
        if (isDelayComputation(method)) {
            for (ReturnStmt ret : body.findAll(ReturnStmt.class)) {
                if (ret.getExpression().isPresent() && growsWithoutJitter(ret.getExpression().get())
                        && index.isOwnCode(ret, method)) {
                    out.add(new UnjitteredWait(ret, "custom back-off", "the delay " + ret.getExpression().get()
                            + " doubles with the attempt and has no random part"));
                }
            }
        }
        return out;
    }

    /**
     * A method computing a wait, told by its type and not by its name: it returns a
     * {@code java.time.Duration}; and nothing in its class draws a random number.
     */
    private static boolean isDelayComputation(MethodInfo method) {
        if (!(method.declaration() instanceof com.github.javaparser.ast.body.MethodDeclaration declaration)) {
            return false;
        }
        String type = declaration.getType().asString();
        if (!type.equals("Duration") && !type.equals("java.time.Duration")) {
            return false;
        }
        String classText = method.declaringType().declaration().toString().toLowerCase(Locale.ROOT);
        return !classText.contains("random");
    }

    private static boolean growsWithoutJitter(Expression e) {
        boolean pow = e.findAll(MethodCallExpr.class).stream().anyMatch(m -> m.getNameAsString().equals("pow"));
        boolean shift = e.findAll(com.github.javaparser.ast.expr.BinaryExpr.class).stream()
                .anyMatch(b -> b.getOperator() == com.github.javaparser.ast.expr.BinaryExpr.Operator.LEFT_SHIFT);
        return pow || shift;
    }

    /** The fluent chain {@code call} belongs to calls {@code name} somewhere (before or after it). */
    private static boolean chainHas(MethodCallExpr call, String name) {
        MethodCallExpr top = call;
        while (top.getParentNode().orElse(null) instanceof MethodCallExpr parent
                && parent.getScope().isPresent() && parent.getScope().get() == top) {
            top = parent;
        }
        // walk down the scope of the outermost call
        for (Expression e = top; e instanceof MethodCallExpr m; e = m.getScope().orElse(null)) {
            if (m.getNameAsString().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean statementMentions(Node node, String text) {
        Node n = node;
        while (n.getParentNode().isPresent() && !(n instanceof Statement)) {
            n = n.getParentNode().get();
        }
        return n.toString().contains(text);
    }

    // ---- non-retryable failures ----------------------------------------------------------------

    /**
     * Retries of failures that cannot succeed on a second try: a 4xx other than 429, or a payload
     * that does not parse. Spring Retry {@code @Retryable(retryFor/value/include = ..)},
     * Resilience4j {@code retryExceptions(..)}, Failsafe {@code handle(..)}, and hand-written loops
     * whose catch of such an exception stays in the loop.
     */
    public List<NonRetryableRetry> nonRetryableRetries(MethodInfo method) {
        List<NonRetryableRetry> out = new ArrayList<>();
        if (method.declaration() instanceof MethodDeclaration decl) {
            annotations.find(decl, RETRYABLE).ifPresent(a -> {
                for (com.github.javaparser.ast.expr.ClassExpr c : a.findAll(com.github.javaparser.ast.expr.ClassExpr.class)) {
                    if (isNonRetryable(c.getType().asString()) && !inExclusion(c)) {
                        out.add(new NonRetryableRetry(c, c.getType().asString(), "@Retryable retries it"));
                    }
                }
            });
        }
        for (MethodCallExpr call : index.bodyNodes(method).calls()) {
            String name = call.getNameAsString();
            if ((name.equals("retryExceptions") || name.equals("handle") || name.equals("retryOnException"))
                    && index.isOwnCode(call, method)) {
                for (Expression arg : call.getArguments()) {
                    if (arg instanceof com.github.javaparser.ast.expr.ClassExpr c && isNonRetryable(c.getType().asString())) {
                        out.add(new NonRetryableRetry(c, c.getType().asString(), name + "(..) retries it"));
                    }
                }
            }
        }
        for (CatchClause c : index.bodyNodes(method).catches()) {
            Statement loop = enclosingLoop(c);
            if (loop == null || loop instanceof ForEachStmt || !index.isOwnCode(c, method) || alwaysLeaves(c.getBody())
                    || !(c.getParentNode().orElse(null) instanceof TryStmt t)) {
                continue;
            }
            // a retry goes round to the same work: the try leaves the loop once it succeeds, or the catch waits
            boolean retries = leavesOnSuccess(t.getTryBlock()) || c.getBody().findAll(MethodCallExpr.class).stream()
                    .anyMatch(m -> m.getNameAsString().equals("sleep"));
            if (!retries) {
                continue;
            }
            String caught = c.getParameter().getType().asString();
            String text = c.getBody().toString();
            boolean checksStatus = text.contains("429") || text.contains("TOO_MANY_REQUESTS") || text.contains("is4xx")
                    || text.contains("is5xx") || text.contains("getStatusCode") || text.contains("statusCode");
            for (String alternative : caught.split("\\|")) {
                String type = alternative.trim();
                if (isNonRetryable(type) && !checksStatus) {
                    out.add(new NonRetryableRetry(c.getParameter(), type, "the loop catches it and tries again"));
                }
            }
        }
        return out;
    }

    private static boolean isNonRetryable(String typeName) {
        String simple = typeName.substring(typeName.lastIndexOf('.') + 1);
        return NON_RETRYABLE.contains(simple);
    }

    /** {@code noRetryFor}/{@code exclude}/{@code notRecoverable} list what is NOT retried. */
    private static boolean inExclusion(Node classExpr) {
        for (Node n = classExpr; n != null; n = n.getParentNode().orElse(null)) {
            if (n instanceof com.github.javaparser.ast.expr.MemberValuePair pair) {
                String key = pair.getNameAsString();
                return key.equals("noRetryFor") || key.equals("exclude") || key.equals("notRecoverable");
            }
        }
        return false;
    }
}
