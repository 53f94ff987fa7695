package dev.racelint.rules;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.effects.ApiEffect;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import dev.racelint.analyzer.tx.ReachedEffect;
import dev.racelint.analyzer.tx.TransactionScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Network I/O (or a sleep) reachable inside a transaction scope, through any number of calls.
 * Reported once per scope and external API, at the scope, with the path to the call.
 */
@RuleMetadata(
        id = "io-in-transaction",
        name = "IoInTransaction",
        shape = "transaction boundaries",
        title = "Network I/O inside a database transaction",
        description = "A transaction reaches an HTTP call, a broker publish, mail, an RPC, a cloud SDK call "
                + "or a sleep. The database connection and every row lock the transaction holds stay held for "
                + "the remote call's full latency, so one slow dependency drains the connection pool; and if "
                + "the transaction rolls back, the remote effect has already happened.",
        level = Level.ERROR,
        precision = Precision.HIGH,
        cwe = "362",
        tags = {"transactions", "reliability"},
        fix = "Make the call before the transaction (with an idempotency key) or after commit through an "
                + "outbox or an AFTER_COMMIT listener.")
public final class IoInTransactionRule implements Rule {

    private static final Set<EffectKind> IO = Set.of(EffectKind.NETWORK, EffectKind.SLEEP);

    @Override
    public void check(MethodContext context, Reporter reporter) {
        List<TransactionScope> scopes = context.transactionScopes();
        if (scopes.isEmpty()) {
            return;
        }
        RuleDescriptor rule = descriptor();
        for (TransactionScope scope : scopes) {
            List<ReachedEffect> effects = new ArrayList<>(context.effectsIn(scope, IO));
            // a pause of a few constant milliseconds (a spin step polling a lock) is not a wait worth a ticket
            effects.removeIf(reached -> shortConstantPause(reached.site().call(), reached.calls()));
            if (effects.isEmpty()) {
                continue;
            }
            // A transaction that only reads holds no row lock and has nothing for a rollback to undo: the
            // remote call keeps one pooled connection busy, which is not the defect this rule reports.
            if (context.transactionHolds(scope).isEmpty()) {
                continue;
            }
            // An annotated method that only the tree's own interface declares, and that nothing calls
            // while the interface's other operations are called, never opens this transaction.
            if (scope.kind() == TransactionScope.Kind.ANNOTATED_METHOD && context.handler().isEmpty()
                    && !dev.racelint.analyzer.callgraph.UncalledInterfaceMethods
                            .deadDeclarations(context.transactions().graph(), scope.method()).isEmpty()) {
                continue;
            }
            // one finding per kind of remote effect in the scope (every S3 call of one download, every
            // HTTP call of one client): the other calls are related locations
            java.util.Map<String, List<ReachedEffect>> byEffect = new java.util.LinkedHashMap<>();
            for (ReachedEffect reached : effects) {
                ApiEffect e = reached.site().effect();
                byEffect.computeIfAbsent(e.kind() + "/" + e.label(), k -> new ArrayList<>()).add(reached);
            }
            for (List<ReachedEffect> same : byEffect.values()) {
                reporter.report(toFinding(rule, scope, same.get(0), same.subList(1, same.size()),
                        smallHarm(context, scope, same)));
            }
        }
    }

    /** A small harm shown from a fact: what the calls still do, and the note naming the fact. */
    private record SmallHarm(String consequence, String note) {}

    /**
     * Why the harm of these calls is small, from a fact, or empty: each one is an asynchronous send
     * whose future is dropped (the transaction does not wait for the broker), or nothing on the
     * transaction writes or locks before any of them (up to the call it holds one pooled connection,
     * and the call might as well have run before the transaction began).
     */
    private static java.util.Optional<SmallHarm> smallHarm(MethodContext context, TransactionScope scope,
            List<ReachedEffect> same) {
        if (same.stream().allMatch(r -> r.site().effect().asynchronous())) {
            return java.util.Optional.of(new SmallHarm(": the message goes out even if the transaction then rolls "
                    + "back, so consumers may act on a change that never committed.", " Reported as a note: "
                    + same.get(0).site().effect().api() + " at " + where(same.get(0).site().location())
                    + " hands the message to a background sender and its future is not waited on, so the "
                    + "transaction does not wait for the broker."));
        }
        // every call of the group on its shortest path runs before any write, and no later code on those
        // paths writes and then calls out again (the shortest path to an API may be its earliest call only)
        if (same.stream().allMatch(r -> context.transactionHoldsBefore(scope, r).isEmpty()
                && !context.transactionHoldsThenReachesAfter(scope, r, IO))) {
            boolean sleeps = same.get(0).site().effect().kind() == EffectKind.SLEEP;
            return java.util.Optional.of(new SmallHarm(": the transaction keeps its pooled connection "
                    + (sleeps ? "while the thread sleeps." : "for the remote call's full latency."), " Reported as a note: nothing on this transaction (from "
                    + where(scope.anchor()) + ") writes or locks a row before the call at "
                    + where(same.get(0).site().location()) + ", so no lock is held while it waits and the call "
                    + "might as well run before the transaction begins."));
        }
        return java.util.Optional.empty();
    }

    private static String where(CodeLocation at) {
        return at.file().getFileName() + ":" + at.region().startLine();
    }

    private static Finding toFinding(RuleDescriptor rule, TransactionScope scope, ReachedEffect reached,
            List<ReachedEffect> alsoReached, java.util.Optional<SmallHarm> smallHarm) {
        ApiEffect effect = reached.site().effect();
        CodeLocation ioCall = reached.site().location();

        Message.Builder message = Message.builder();
        switch (scope.kind()) {
            case ANNOTATED_METHOD -> message.text(scope.title() + " runs inside a transaction (" + scope.origin() + ") and calls ");
            case CALLBACK -> message.text(capitalise(scope.title()) + " runs inside a transaction and calls ");
            case JDBC -> message.text(scope.title() + " calls ");
        }
        message.link(effect.api(), 0).text(" (" + effect.label() + ")");
        if (!reached.calls().isEmpty()) {
            message.text(" via " + describeVia(reached.calls()));
        }
        if (scope.kind() == TransactionScope.Kind.JDBC) {
            message.text(" after setAutoCommit(false) and before commit()");
        }
        if (!alsoReached.isEmpty()) {
            message.text(" (and " + alsoReached.size() + " more " + effect.label() + " call"
                    + (alsoReached.size() == 1 ? "" : "s") + ")");
        }
        boolean reads = reached.site().effect().readOnly() && alsoReached.stream().allMatch(r -> r.site().effect().readOnly());
        message.text(smallHarm.map(h -> h.consequence() + h.note()).orElse(consequence(effect, reads)));

        List<CodeLocation> flow = new ArrayList<>();
        flow.add(scope.anchor());
        for (CallEdge edge : reached.calls()) {
            flow.add(edge.location());
        }
        flow.add(ioCall);

        String fingerprint = Fingerprints.of(rule.id(), scope.method().signature(), scope.anchorText(), effect.apiKey());
        List<CodeLocation> related = new ArrayList<>(List.of(ioCall));
        for (ReachedEffect other : alsoReached) {
            related.add(other.site().location().withLabel("also " + other.site().effect().api() + " ("
                    + other.site().effect().label() + ")"));
        }
        return new Finding(rule.id(), smallHarm.isPresent() ? Level.NOTE : rule.level(), message.build(), scope.anchor().withLabel(scope.title()),
                related, flow, fix(effect), fingerprint, scope.method().signature());
    }

    /** "RiskClient.assess()", or "A.b() -> C.d()" for deeper paths. */
    private static String describeVia(List<CallEdge> calls) {
        List<String> names = new ArrayList<>();
        for (CallEdge e : calls) {
            names.add(e.callee().displayName());
        }
        if (names.size() > 3) {
            return names.get(0) + " -> ... -> " + names.get(names.size() - 1);
        }
        return String.join(" -> ", names);
    }

    /**
     * What the calls put at risk. A call with safe HTTP semantics (GET, HEAD, OPTIONS: {@link ApiEffect#readOnly})
     * changes nothing remote, so there is nothing for a rollback to undo: its harm is the wait, with the
     * connection and the locks taken so far held for its latency.
     */
    private static String consequence(ApiEffect effect, boolean reads) {
        if (reads) {
            return ": the call only reads (nothing remote for a rollback to undo), but the connection and the row "
                    + "locks the transaction took before it stay held for its full latency, and writers queue behind them.";
        }
        if (effect.kind() == EffectKind.SLEEP) {
            return ": the connection and any row locks stay held while the thread sleeps.";
        }
        return switch (effect.detail()) {
            case "publish" -> ": the message goes out even if the transaction then rolls back, so consumers act on "
                    + "a change that never committed (or see it before it commits); and the connection and row locks "
                    + "stay held whenever the send blocks (a synchronous send, broker metadata, a full buffer).";
            case "mail" -> ": the connection and row locks are held while the mail server answers, and the mail "
                    + "is sent even if the transaction then rolls back.";
            default -> ": the connection and any row locks are held for the remote call's full latency, and a "
                    + "rollback cannot undo the remote effect.";
        };
    }

    private static String fix(ApiEffect effect) {
        if (effect.kind() == EffectKind.SLEEP) {
            return "Do not wait inside a transaction: retry or poll outside it, wrapping the whole transaction.";
        }
        return switch (effect.detail()) {
            case "publish" -> "Write an outbox row in the same transaction and publish it after commit from a relay.";
            case "mail" -> "Send the mail after commit: an outbox row, or a @TransactionalEventListener(AFTER_COMMIT).";
            default -> "Call " + effect.api() + " before the transaction (with an idempotency key), or after commit "
                    + "via an outbox; use a pending -> confirmed state when the answer matters.";
        };
    }

    /** Milliseconds of pause at most that count as a spin step, not a wait. */
    private static final long SHORT_PAUSE_MILLIS = 100;

    /**
     * {@code Thread.sleep(10)} or {@code TimeUnit.MILLISECONDS.sleep(10)}: a sleep of a literal duration of
     * at most {@link #SHORT_PAUSE_MILLIS}. The duration may be a parameter that no code reassigns, bound to
     * such a literal at the call on {@code path} (from the scope down to the sleep's method) - a retry
     * helper's pause, {@code retry(action, 3, 100)}. A duration from a field, a computation or a caller
     * that passes a variable is not.
     */
    static boolean shortConstantPause(com.github.javaparser.ast.expr.MethodCallExpr call, List<CallEdge> path) {
        if (!call.getNameAsString().equals("sleep") || call.getArguments().size() != 1
                || !(durationOnPath(call.getArgument(0), path)
                        instanceof com.github.javaparser.ast.expr.LiteralStringValueExpr literal)
                || !(literal instanceof com.github.javaparser.ast.expr.IntegerLiteralExpr
                        || literal instanceof com.github.javaparser.ast.expr.LongLiteralExpr)) {
            return false;
        }
        long amount;
        try {
            amount = Long.parseLong(literal.getValue().replace("_", "").replaceAll("[lL]$", ""));
        } catch (NumberFormatException e) {
            return false;
        }
        String unit = call.getScope().map(Object::toString).orElse("Thread");
        long millis;
        if (unit.endsWith("MILLISECONDS")) {
            millis = amount;
        } else if (unit.endsWith("MICROSECONDS")) {
            millis = amount / 1_000;
        } else if (unit.endsWith("NANOSECONDS")) {
            millis = amount / 1_000_000;
        } else if (unit.equals("Thread") || unit.equals("java.lang.Thread")) {
            millis = amount;
        } else {
            return false;
        }
        return millis <= SHORT_PAUSE_MILLIS;
    }

    /**
     * {@code duration}, an expression in the method {@code path} ends in, followed back through parameters
     * bound at the path's calls (a parameter no code of its method assigns): the expression it ends in.
     */
    private static com.github.javaparser.ast.expr.Expression durationOnPath(
            com.github.javaparser.ast.expr.Expression duration, List<CallEdge> path) {
        com.github.javaparser.ast.expr.Expression e = duration;
        for (int depth = path.size(); depth > 0; depth--) {
            e = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(e);
            if (!(e instanceof com.github.javaparser.ast.expr.NameExpr name)
                    || !(dev.racelint.analyzer.resolve.LocalVariables.declarationOf(name.getNameAsString(), name)
                            instanceof com.github.javaparser.ast.body.Parameter parameter)
                    || !(parameter.getParentNode().orElse(null)
                            instanceof com.github.javaparser.ast.body.CallableDeclaration<?> owner)) {
                return e;
            }
            CallEdge edge = path.get(depth - 1);
            int index = owner.getParameters().indexOf(parameter);
            if (owner != edge.callee().declaration() || parameter.isVarArgs() || assigned(owner, parameter)
                    || !(edge.site() instanceof com.github.javaparser.ast.expr.MethodCallExpr site)
                    || index < 0 || site.getArguments().size() != owner.getParameters().size()) {
                return e;
            }
            e = site.getArgument(index);
        }
        return dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(e);
    }

    /** Does code in {@code owner} assign {@code parameter} ({@code x = ..}, {@code x += ..}, {@code x++})? */
    private static boolean assigned(com.github.javaparser.ast.body.CallableDeclaration<?> owner,
            com.github.javaparser.ast.body.Parameter parameter) {
        String name = parameter.getNameAsString();
        java.util.function.Predicate<com.github.javaparser.ast.expr.Expression> isParameter = target ->
                target instanceof com.github.javaparser.ast.expr.NameExpr n && n.getNameAsString().equals(name)
                        && dev.racelint.analyzer.resolve.LocalVariables.declarationOf(name, n) == parameter;
        return owner.findAll(com.github.javaparser.ast.expr.AssignExpr.class).stream()
                .anyMatch(a -> isParameter.test(a.getTarget()))
                || owner.findAll(com.github.javaparser.ast.expr.UnaryExpr.class).stream()
                        .anyMatch(u -> isIncrement(u) && isParameter.test(u.getExpression()));
    }

    private static boolean isIncrement(com.github.javaparser.ast.expr.UnaryExpr u) {
        return switch (u.getOperator()) {
            case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT -> true;
            default -> false;
        };
    }

    private static String capitalise(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
