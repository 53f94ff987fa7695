package dev.racelint.rules;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.handlers.ForwardedHttpMethod;
import dev.racelint.analyzer.handlers.Handler;
import dev.racelint.analyzer.handlers.Reachability.Reached;
import dev.racelint.analyzer.handlers.RemoteRequests;
import dev.racelint.analyzer.handlers.Webhooks;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.MethodFlow;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A POST endpoint, with no idempotency key, that reaches an effect a retry compounds: a remote
 * command (not a read, not a broker publish), or a new record together with a relative change of
 * existing rows. A lone new row is a visible duplicate and is not reported; a creation a
 * natural-key read, an upsert or a checked claim decides repeats harmlessly, and the concurrent
 * race left there is check-then-act's.
 */
@RuleMetadata(
        id = "non-idempotent-endpoint",
        name = "NonIdempotentEndpoint",
        shape = "3",
        title = "POST endpoint without an idempotency key",
        description = "Clients retry: a double click, a mobile retry after a timeout, a proxy replaying after a 502. "
                + "This POST handler makes a remote call that is not a read (a payment, another service's command, "
                + "mail), or creates a record and changes existing rows relative to their values (an order that "
                + "takes stock), with nothing that looks up, upserts or claims first, and takes no idempotency key, "
                + "so every retry does it again.",
        level = Level.WARNING,
        precision = Precision.MEDIUM,
        cwe = "837",
        tags = {"http", "idempotency"},
        fix = "Take an Idempotency-Key header, store it with a unique constraint per tenant and operation together "
                + "with the request fingerprint and response, in the effect's transaction; replay on repeat, 422 on reuse.")
public final class NonIdempotentEndpointRule implements Rule {

    static final Set<String> KEY_HEADERS = Set.of("idempotency-key", "x-idempotency-key", "x-request-id", "request-id",
            "idempotency_key", "x-idempotency_key");

    @Override
    public void check(MethodContext context, Reporter reporter) {
        Handler handler = context.handler().orElse(null);
        if (handler == null || handler.kind() != Handler.Kind.HTTP || !"POST".equals(handler.httpMethod())
                || enforcesKey(context, handler.headers()) || HandlerRules.claimsIdempotencyKey(context)
                // a webhook's sender redelivers it: non-idempotent-consumer's question, not a client's retry
                || Webhooks.isWebhook(handler, context.reachability())) {
            return;
        }
        RuleDescriptor rule = descriptor();
        CodeLocation at = SourceLocations.of(context.method().declaringType().file().path(), context.method().nameNode(),
                handler.describe());
        List<Reached<DbOp>> reached = context.reachability().databaseOperations(context.method(), false);
        boolean changesRows = reached.stream().anyMatch(op -> relativeUnclaimed(context, op));
        // with no row written, a call that sends a fresh code kept under a cache key repeats as one more message
        boolean writesNoRow = reached.stream().noneMatch(op -> op.item().isWrite());
        Repeat codeOnly = null;
        Note codeFact = null;
        Repeat runtimeVerb = null;
        for (Reached<EffectSite> site : context.reachability().effects(context.method(), false)) {
            EffectSite effect = site.item();
            // A GET/HEAD/OPTIONS call reads (also when a wrapper's callers pass the verb); a replay
            // that stops at a checked claim, or at a key the database keeps unique, never gets here twice.
            if (!HandlerRules.irreversible(effect) || effect.effect().readOnly() || repeatsHarmlessly(effect)
                    || dev.racelint.analyzer.handlers.UrlConnectionVerb.sendsSafeVerb(effect)
                    || ForwardedHttpMethod.safeFromCallers(context.reachability(), context.method(), effect)
                    || memoisedOnPath(site)) {
                continue;
            }
            Repeat repeat = repeatedRequest(context, context.method(), site, changesRows, new java.util.HashSet<>());
            if (repeat != null && !claimed(context, repeat.reached(), effect.call())
                    && keyedInsertBefore(context, reached, repeat.reached()) == null) {
                if (effect.effect().runtimeVerb() != null) {
                    // a verb taken from data may be a read: a definite command elsewhere on the path wins
                    if (runtimeVerb == null) {
                        runtimeVerb = repeat;
                    }
                    continue;
                }
                String code = writesNoRow ? freshCodeStored(repeat.reached()) : null;
                Note fact = code != null ? new Note(code, CODE_FIX) : refusedRepeat(context, repeat.reached());
                if (fact == null) {
                    reportCall(rule, context, handler, at, repeat, null, reporter);
                    return;
                }
                if (codeOnly == null) {
                    codeOnly = repeat;
                    codeFact = fact;
                }
            }
        }
        if (codeOnly != null) {
            reportCall(rule, context, handler, at, codeOnly, codeFact, reporter);
            return;
        }
        if (runtimeVerb != null) {
            reportCall(rule, context, handler, at, runtimeVerb,
                    new Note(verbAtRunTime(runtimeVerb.reached().item()), RUNTIME_VERB_FIX), reporter);
            return;
        }
        List<DbOp> all = reached.stream().map(Reached::item).toList();
        // A lone new row (an admin "add" with a generated id) repeats as a visible, deletable
        // duplicate; what a retry compounds is a change to rows that already exist.
        Reached<DbOp> relative = reached.stream().filter(op -> relativeUnclaimed(context, op)).findFirst().orElse(null);
        if (relative == null) {
            return;
        }
        for (Reached<DbOp> op : reached) {
            if (unguardedCreation(context, op, all)) {
                reportCompound(rule, context, handler, at, op, relative, reporter);
                return;
            }
        }
    }

    private static void reportCall(RuleDescriptor rule, MethodContext context, Handler handler, CodeLocation at,
            Repeat repeat, Note smallHarm, Reporter reporter) {
        EffectSite effect = repeat.reached().item();
        report(rule, context, handler, at, effect.location(), repeat.reached(),
                "calls " + effect.effect().api() + " (" + effect.effect().label()
                        + (repeat.request() == null ? "" : ", " + repeat.request()) + ")",
                effect.effect().runtimeVerb() != null
                        ? ", a remote call whose HTTP method is not known before run time and that nothing claims first,"
                        : ", a remote call that is not a read (not GET, HEAD or OPTIONS) and that nothing claims first,",
                "makes the call again", effect.effect().apiKey(), smallHarm, reporter);
    }

    /**
     * The note's sentence for a call whose HTTP method is converted from data at run time ({@link
     * dev.racelint.analyzer.effects.ApiEffect#runtimeVerb()}): it is a command only for the requests that
     * name an unsafe verb, which the code cannot tell, so it is not counted as one at warning level.
     */
    private static String verbAtRunTime(EffectSite site) {
        return " Reported as a note: the HTTP method is decided at run time (" + site.effect().runtimeVerb() + " in the call at "
                + site.location().file().getFileName() + ":" + site.location().region().startLine()
                + "), so the call is a read for some requests and a command for others.";
    }

    static final String RUNTIME_VERB_FIX = "If the requests sent this way can be commands (POST, PATCH), take an "
            + "Idempotency-Key header on the endpoint and pass it on to the remote side with each command, or let "
            + "the remote side deduplicate by a key the request carries.";

    /**
     * The note's sentence when a method on the way to the call (or the calling method) passes it a
     * value drawn at random there and sets the same value under a cache key ({@link
     * dev.racelint.analyzer.handlers.FreshCodes}): the handler writes no row, so a retry sends one more
     * message with a new code that replaces the stored one, and leaves no second record. Null otherwise.
     */
    private static String freshCodeStored(Reached<EffectSite> reached) {
        List<CallEdge> path = reached.path();
        for (int i = path.size(); i >= 0; i--) {
            MethodInfo in = i == path.size() ? reached.item().method() : path.get(i).caller();
            Node site = i == path.size() ? reached.item().call() : path.get(i).site();
            var found = dev.racelint.analyzer.handlers.FreshCodes.of(in, site).orElse(null);
            if (found != null) {
                var file = in.declaringType().file().path();
                CodeLocation draw = SourceLocations.ofCall(file, found.draw(), "draw");
                CodeLocation store = SourceLocations.ofCall(file, found.store(), "store");
                return " Reported as a note: the call sends a value drawn at random in " + in.displayName() + " ("
                        + found.draw() + " at " + draw.file().getFileName() + ":" + draw.region().startLine()
                        + "), sets that value under a cache key ("
                        + found.store() + " at " + store.file().getFileName() + ":" + store.region().startLine()
                        + "), and writes no row: a retry sends one more message whose new value replaces the stored "
                        + "one, and leaves no duplicate record.";
            }
        }
        return null;
    }

    /**
     * The note's sentence when a guard on the way to the call refuses the state that the same request
     * writes to the same row further down that way ({@link dev.racelint.analyzer.persistence.RefusedRepeats}):
     * a retry of the request that succeeded reads that state and stops before the call. Two requests at the
     * same moment both pass the guard; that race is check-then-act's. Null otherwise.
     */
    private static Note refusedRepeat(MethodContext context, Reached<EffectSite> reached) {
        var found = dev.racelint.analyzer.persistence.RefusedRepeats.onPath(context.persistence(), reached.path(),
                reached.item().method(), reached.item().call()).orElse(null);
        if (found == null) {
            return null;
        }
        var guardFile = found.in().declaringType().file().path();
        CodeLocation guard = SourceLocations.ofCall(guardFile, found.getter(), "guard");
        return new Note(" Reported as a note: " + found.in().displayName() + " refuses the request when " + found.guard()
                + " (" + guard.file().getFileName() + ":" + guard.region().startLine() + "), and the request sets "
                + found.setter() + " and writes the row back (" + found.write().describe() + " at "
                + found.write().location().file().getFileName() + ":" + found.write().location().region().startLine()
                + "), so a retry of a request that succeeded is refused before the call. Two requests at the same "
                + "moment both pass that guard: a row lock or a conditional update closes it (check-then-act).", REFUSAL_FIX);
    }

    /**
     * An insert that runs before {@code effect} on the same path, into a table the schema keeps
     * unique on a composite key (the merchant and its own order number), or on a key whose every
     * column the insert takes unchanged from the request ({@link CallerSuppliedValues}): a retry with
     * the same request collides with the first request's row there and stops before the effect. A
     * single unique column filled otherwise is as often a number the server generates for each request.
     */
    private static Reached<DbOp> keyedInsertBefore(MethodContext context, List<Reached<DbOp>> reached,
            Reached<EffectSite> effect) {
        for (Reached<DbOp> op : reached) {
            DbOp item = op.item();
            // a save of an entity built elsewhere counts: when it inserts, the key refuses the second row
            boolean creates = (item.kind() == DbOp.Kind.INSERT && !item.upsert()) || item.kind() == DbOp.Kind.SAVE;
            if (creates && (naturallyKeyed(context, item) || keyedByCaller(context, op))
                    && runsBefore(op, item.call(), effect, effect.item().call())) {
                return op;
            }
        }
        return null;
    }

    private static boolean naturallyKeyed(MethodContext context, DbOp insert) {
        var schema = context.persistence().schema();
        var table = schema.table(insert.table())
                .or(() -> insert.entity() == null ? java.util.Optional.empty() : schema.table(insert.entity().table()));
        return table.map(t -> t.keys().stream().anyMatch(k -> k.size() > 1)).orElse(false);
    }

    /**
     * The insert writes every column of a primary or unique key with a value the caller sent (a name
     * from the request body, a path variable): the second request with the same values is refused.
     */
    private static boolean keyedByCaller(MethodContext context, Reached<DbOp> op) {
        var table = context.persistence().schema().table(op.item().table()).orElse(null);
        if (table == null) {
            return false;
        }
        Map<String, com.github.javaparser.ast.expr.Expression> values =
                dev.racelint.analyzer.persistence.InsertedValues.of(op.item(), context.persistence().index());
        if (values.isEmpty()) {
            return false;
        }
        for (Set<String> key : table.keys()) {
            if (!key.isEmpty() && key.stream().allMatch(column -> values.containsKey(column)
                    && CallerSuppliedValues.fromCaller(values.get(column), context.method(), op.path()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Does {@code a} (reached along its path) run before {@code b}? Both paths start at the handler;
     * where they part, the call (or statement) of the one comes before that of the other in the method
     * they share.
     */
    static boolean runsBefore(Reached<?> a, Node aNode, Reached<?> b, Node bNode) {
        List<CallEdge> pa = a.path();
        List<CallEdge> pb = b.path();
        int i = 0;
        while (i < pa.size() && i < pb.size() && pa.get(i).site() == pb.get(i).site()) {
            i++;
        }
        Node x = i < pa.size() ? pa.get(i).site() : aNode;
        Node y = i < pb.size() ? pb.get(i).site() : bNode;
        if (x == y || x.getBegin().isEmpty() || y.getBegin().isEmpty()) {
            return false;
        }
        return x.getBegin().get().isBefore(y.getBegin().get());
    }

    /** The request a retry repeats, with the path the finding shows, and "POST apps/{id}" when the verb and path are known. */
    private record Repeat(Reached<EffectSite> reached, String request) {}

    /**
     * The way {@code site} is reached from {@code start} whose request a retry repeats with harm, or null
     * when there is none. An HTTP call through a team's wrapper sends one request per way its callers
     * fix the verb and URL ({@link RemoteRequests}): a GET, HEAD or OPTIONS among them reads; one whose
     * server side is in the scanned tree is decided by what that side does ({@link #harmlessInTree}),
     * whether the tree's controller implements the client interface (Feign) or serves the URL's
     * constant path for that verb.
     */
    private static Repeat repeatedRequest(MethodContext context, MethodInfo start, Reached<EffectSite> site,
            boolean changesRows, Set<MethodInfo> seen) {
        EffectSite effect = site.item();
        if (!"http".equals(effect.effect().detail())) {
            return new Repeat(site, null);
        }
        List<MethodInfo> implementations = context.reachability().targetsOf(effect.method(), effect.call());
        if (!implementations.isEmpty()) {
            return harmlessInTree(context, implementations, changesRows, seen) ? null : new Repeat(site, null);
        }
        List<RemoteRequests.Request> requests = RemoteRequests.of(context.reachability(), start, effect);
        if (requests.isEmpty()) {
            return new Repeat(site, null);
        }
        Map<Integer, List<CallEdge>> paths = new java.util.HashMap<>();
        for (Reached<MethodInfo> m : context.reachability().methods(start, false)) {
            paths.putIfAbsent(m.item().id(), m.path());
        }
        for (RemoteRequests.Request request : requests) {
            if (request.verb() != null && dev.racelint.analyzer.effects.ApiCatalogue.safeHttpMethod(request.verb())) {
                continue;
            }
            if (request.verb() != null && request.path() != null) {
                List<MethodInfo> servers = context.routes().serving(request.verb(), request.path());
                if (!servers.isEmpty() && harmlessInTree(context, servers, changesRows, seen)) {
                    continue;
                }
            }
            List<CallEdge> path = new java.util.ArrayList<>(paths.getOrDefault(request.origin().id(), List.of()));
            path.addAll(request.chain());
            return new Repeat(new Reached<>(effect, effect.method(), List.copyOf(path)),
                    request.verb() == null || request.path() == null ? null : request.verb() + " " + request.path());
        }
        return null;
    }

    /**
     * Whether repeating the request that the tree's {@code servers} serve does no harm a retry compounds,
     * by this rule's own measure: none of them changes stored values relatively or makes a remote command
     * of its own (followed the same way), and a new record there counts only when the calling handler
     * also changes rows relatively (the order created by one service, the stock taken by the other). A
     * query declared as POST, a quantity set to a number, a creation the server checks first: the same
     * state after the repeat, or the visible duplicate a lone new row is here.
     */
    private static boolean harmlessInTree(MethodContext context, List<MethodInfo> servers, boolean changesRows,
            Set<MethodInfo> seen) {
        for (MethodInfo server : servers) {
            if (!seen.add(server)) {
                continue;
            }
            List<Reached<DbOp>> ops = context.reachability().databaseOperations(server, false);
            List<DbOp> all = ops.stream().map(Reached::item).toList();
            for (Reached<DbOp> op : ops) {
                if (relativeUnclaimed(context, op) || changesRows && unguardedCreation(context, op, all)) {
                    return false;
                }
            }
            for (Reached<EffectSite> reached : context.reachability().effects(server, false)) {
                EffectSite next = reached.item();
                if (HandlerRules.irreversible(next) && !next.effect().readOnly() && !repeatsHarmlessly(next)
                        && !dev.racelint.analyzer.handlers.UrlConnectionVerb.sendsSafeVerb(next)
                        && !ForwardedHttpMethod.safeFromCallers(context.reachability(), server, next)
                        && repeatedRequest(context, server, reached, changesRows, seen) != null) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean relativeUnclaimed(MethodContext context, Reached<DbOp> op) {
        return op.item().kind() == DbOp.Kind.UPDATE && op.item().selfRelative() && !claimed(context, op, op.item().call())
                && !drawsNumber(context, op);
    }

    /**
     * A number drawn from a counter row: the method increments a column and then reads that table back,
     * returning what it read (a sequence: {@code UPDATE seq SET v = v + 1}, then {@code SELECT v}). A
     * retry draws the next number, a gap in the numbering; no data a client sees is changed twice.
     */
    private static boolean drawsNumber(MethodContext context, Reached<DbOp> op) {
        var flow = context.persistence().flow(op.in()).orElse(null);
        if (flow == null || !(op.in().declaration() instanceof com.github.javaparser.ast.body.MethodDeclaration method)
                || method.getType().isVoidType() || op.item().call().getBegin().isEmpty()) {
            return false;
        }
        var incremented = op.item().call().getBegin().get();
        for (com.github.javaparser.ast.stmt.ReturnStmt returned : method.findAll(com.github.javaparser.ast.stmt.ReturnStmt.class)) {
            var value = returned.getExpression().orElse(null);
            if (value != null && flow.reaching(value).stream().anyMatch(read -> read.kind() == DbOp.Kind.READ
                    && read.sameTable(op.item()) && read.call().getBegin().map(incremented::isBefore).orElse(false))) {
                return true;
            }
        }
        return false;
    }

    /** A new record that no read of its table, upsert, replace-set or checked claim decides. */
    private static boolean unguardedCreation(MethodContext context, Reached<DbOp> op, List<DbOp> all) {
        DbOp item = op.item();
        var flow = context.persistence().flow(op.in()).orElse(null);
        boolean creates = (item.kind() == DbOp.Kind.INSERT && !item.upsert())
                || (item.kind() == DbOp.Kind.SAVE && flow != null
                    && dev.racelint.analyzer.persistence.PersistenceModel.savesNewObject(item, flow));
        return creates && !replacesSet(item, all) && !keyChecked(context, op) && !claimed(context, op, item.call());
    }

    /**
     * A message handed to a broker, or an object put into or deleted from object storage. Brokers
     * deliver at least once, so their consumers must already tell a duplicate from a new message
     * (non-idempotent-consumer's question). A repeated put writes the same key again or a fresh,
     * unreferenced object - the storage form of a lone new row - and a repeated delete deletes nothing more.
     */
    private static boolean repeatsHarmlessly(EffectSite effect) {
        // a create behind an existence read of the same resource: the retry finds what the first created
        return "publish".equals(effect.effect().detail()) || "storage".equals(effect.effect().detail())
                || effect.effect().existenceGuard() != null;
    }

    /** The path deletes from the table before inserting into it: the submitted set replaces the stored one. */
    private static boolean replacesSet(DbOp insert, List<DbOp> allReached) {
        return allReached.stream().anyMatch(o -> o.kind() == DbOp.Kind.DELETE && o.sameTable(insert));
    }

    /**
     * The creation is decided by a read of its own table (an existence or natural-key check that
     * returns or throws when the row is there, not a limit a second row still passes), in the
     * method that inserts or in one on the way to it: a retry finds the first request's row. The
     * race of two concurrent requests is check-then-act's to report.
     */
    private static boolean keyChecked(MethodContext context, Reached<DbOp> op) {
        return anyOnPath(context, op, op.item().call(),
                flow -> node -> flow.decidingReads(node, op.item()).stream().anyMatch(flow::existenceTest));
    }

    /** A conditional update whose row count is tested decides whether {@code node} runs: the replay loses the claim. */
    private static boolean claimed(MethodContext context, Reached<?> reached, Node node) {
        return anyOnPath(context, reached, node, flow -> n -> !flow.claimsBefore(n).isEmpty())
                || tokenConsumedOnPath(reached, node);
    }

    /**
     * The remote call, or a call on the way to it, runs only when a map lookup misses and that branch
     * stores into the map: the retry is answered from the map ({@link dev.racelint.analyzer.handlers.MemoisedCalls}).
     */
    private static boolean memoisedOnPath(Reached<EffectSite> site) {
        if (dev.racelint.analyzer.handlers.MemoisedCalls.memoised(site.item().call())) {
            return true;
        }
        return site.path().stream().anyMatch(edge -> dev.racelint.analyzer.handlers.MemoisedCalls.memoised(edge.site()));
    }

    /** A one-time token deleted atomically, with the result tested, before the call on the path down to {@code node}. */
    private static boolean tokenConsumedOnPath(Reached<?> reached, Node node) {
        if (dev.racelint.analyzer.handlers.OneTimeTokens.consumedBefore(reached.in(), node)) {
            return true;
        }
        for (CallEdge edge : reached.path()) {
            if (dev.racelint.analyzer.handlers.OneTimeTokens.consumedBefore(edge.caller(), edge.site())) {
                return true;
            }
        }
        return false;
    }

    /** Does {@code test} hold at {@code node} in the method reached, or at any call on the path down to it? */
    private static boolean anyOnPath(MethodContext context, Reached<?> reached, Node node,
            java.util.function.Function<MethodFlow, java.util.function.Predicate<Node>> test) {
        MethodFlow own = context.persistence().flow(reached.in()).orElse(null);
        if (own != null && test.apply(own).test(node)) {
            return true;
        }
        for (CallEdge edge : reached.path()) {
            MethodFlow caller = context.persistence().flow(edge.caller()).orElse(null);
            if (caller != null && test.apply(caller).test(edge.site())) {
                return true;
            }
        }
        return false;
    }

    /** An idempotency-key header parameter that the handler passes on (not only logs). */
    private static boolean enforcesKey(MethodContext context, Map<String, Parameter> headers) {
        var body = context.method().body();
        for (Map.Entry<String, Parameter> h : headers.entrySet()) {
            if (!KEY_HEADERS.contains(h.getKey()) || body == null) {
                continue;
            }
            String name = h.getValue().getNameAsString();
            for (NameExpr use : body.findAll(NameExpr.class)) {
                if (use.getNameAsString().equals(name) && use.getParentNode().orElse(null) instanceof MethodCallExpr call
                        && !isLogging(call)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Logging APIs by type (SLF4J, Log4j 2, java.util.logging and System.Logger, Commons Logging), not by variable name. */
    private static final Set<String> LOGGER_TYPES = Set.of("Logger", "Log", "ExtendedLogger", "XLogger", "System.Logger");

    /** A call that only logs: on a receiver declared as a logger, on SLF4J's MDC, or a print. */
    private static boolean isLogging(MethodCallExpr call) {
        if (call.getNameAsString().equals("println")) {
            return true;
        }
        if (!(call.getScope().orElse(null) instanceof NameExpr receiver)) {
            return false;
        }
        String name = receiver.getNameAsString();
        if (name.equals("MDC")) {
            return true;
        }
        String type = null;
        com.github.javaparser.ast.Node declaration = dev.racelint.analyzer.resolve.LocalVariables.declarationOf(name, receiver);
        if (declaration instanceof com.github.javaparser.ast.body.VariableDeclarator v) {
            type = v.getTypeAsString();
        } else if (declaration instanceof com.github.javaparser.ast.body.Parameter p) {
            type = p.getTypeAsString();
        } else {
            for (var n = receiver.getParentNode().orElse(null); n != null && type == null; n = n.getParentNode().orElse(null)) {
                if (n instanceof com.github.javaparser.ast.body.TypeDeclaration<?> t) {
                    type = t.getFieldByName(name).map(f -> f.getVariable(0).getTypeAsString()).orElse(null);
                }
            }
        }
        if (type == null) {
            return false;
        }
        String simple = type.startsWith("java.lang.System.") ? "System." + type.substring(type.lastIndexOf('.') + 1)
                : type.substring(type.lastIndexOf('.') + 1);
        return LOGGER_TYPES.contains(simple) || LOGGER_TYPES.contains(type);
    }

    /** A sentence that lowers a finding to a note, and the fix that goes with it. */
    private record Note(String text, String fix) {}

    static final String REFUSAL_FIX = "A retry of a request that succeeded is refused by the state it wrote. To close the "
            + "concurrent double submit too, make the state change the claim: an UPDATE whose WHERE tests the old state, "
            + "with its row count checked before the call, or a row lock on the read.";

    /**
     * Why a handler only privileged callers reach is a note: its duplicates come from the few operators who hold
     * the authority repeating their own request, not from any client's retry.
     */
    static final String PRIVILEGED_RETRY = "a duplicate needs one of them to repeat the request";

    static final String CODE_FIX = "If the extra messages cost, bound resends per recipient: set a cooldown key with "
            + "an expiry atomically (SET NX) before sending, and answer the retry from it instead of sending again.";

    static final String COMPOUND_FIX = "Let the caller send a key it generates once per intent (an Idempotency-Key header, "
            + "or a token the confirm step issued) and insert it under a unique constraint in the same transaction, "
            + "before the record and the relative update: the retry then fails at that insert and answers with the "
            + "first result instead of creating a second record and applying the change to the existing rows again.";

    /** A new record and a relative change of existing rows on one path: the retry does both again. */
    private static void reportCompound(RuleDescriptor rule, MethodContext context, Handler handler, CodeLocation at,
            Reached<DbOp> creation, Reached<DbOp> relative, Reporter reporter) {
        DbOp item = creation.item();
        DbOp change = relative.item();
        CodeLocation created = item.location().withLabel("creates a record: " + item.describe());
        CodeLocation changed = change.location().withLabel("changes existing rows relative to their stored values: "
                + change.describe());
        Message message = Message.builder()
                .text("The " + handler.describe() + " ")
                .link("creates a record" + (item.table().isEmpty() ? "" : " in " + item.table()) + " ("
                        + item.describe() + ")", 0)
                .text(HandlerRules.via(creation) + " that no read of its table, upsert or checked claim guards, and ")
                .link("changes existing rows relative to their stored values" + (change.table().isEmpty() ? ""
                        : " in " + change.table()) + " (" + change.describe() + ")", 1)
                .text(HandlerRules.via(relative) + ", and takes no idempotency key: a retried request creates another "
                        + "record and applies the change again." + PrivilegedCallers.sentence(context, PRIVILEGED_RETRY))
                .build();
        reporter.report(new Finding(rule.id(), PrivilegedCallers.level(rule, context), message, at, List.of(created, changed),
                HandlerRules.flow(at, creation, created), COMPOUND_FIX,
                Fingerprints.of(rule.id(), context.method().signature(), "handler", item.describe()),
                context.method().signature()));
    }

    private static void report(RuleDescriptor rule, MethodContext context, Handler handler, CodeLocation at,
            CodeLocation effect, Reached<?> reached, String what, String unguarded, String again, String key,
            Note smallHarm, Reporter reporter) {
        Message message = Message.builder()
                .text("The " + handler.describe() + " ")
                .link(what, 0)
                .text(HandlerRules.via(reached) + unguarded + " and takes no idempotency key: a retried request "
                        + again + "." + (smallHarm == null ? PrivilegedCallers.sentence(context, PRIVILEGED_RETRY) : smallHarm.text()))
                .build();
        reporter.report(new Finding(rule.id(), smallHarm == null ? PrivilegedCallers.level(rule, context) : Level.NOTE, message, at, List.of(effect),
                HandlerRules.flow(at, reached, effect), smallHarm == null ? rule.fix() : smallHarm.fix(),
                Fingerprints.of(rule.id(), context.method().signature(), "handler", key), context.method().signature()));
    }
}
