package dev.racelint.rules;

import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.handlers.Handler;
import dev.racelint.analyzer.handlers.Reachability.Reached;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.ServerMaintainedTables;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import java.util.List;
import java.util.Set;

/**
 * A PUT/PATCH handler that writes the client's copy of a row over one the server also keeps
 * ({@link ServerMaintainedTables}), with no precondition.
 */
@RuleMetadata(
        id = "missing-if-match",
        name = "MissingIfMatch",
        shape = "4",
        title = "PUT/PATCH overwrites a resource without If-Match or a version check",
        description = "A client GETs a row, edits it, and PUTs its copy back with no precondition, while the "
                + "server also keeps that row (a counter moved relatively, a total it stores, or rows summed into "
                + "one). The stale copy silently writes back what the server changed in between: a lost update "
                + "across the network, where no database transaction can help.",
        level = Level.WARNING,
        precision = Precision.MEDIUM,
        cwe = "362",
        tags = {"http", "race-condition"},
        fix = "Return a strong ETag (from the version column) on GET, require If-Match on PUT/PATCH: 428 when it is "
                + "missing, 412 when it does not match; or compare a version field from the body in the UPDATE.")
public final class MissingIfMatchRule implements Rule {

    static final Set<String> PRECONDITION_HEADERS = Set.of("if-match", "if-unmodified-since", "etag", "if-none-match");

    @Override
    public void check(MethodContext context, Reporter reporter) {
        Handler handler = context.handler().orElse(null);
        if (handler == null || handler.kind() != Handler.Kind.HTTP
                || !("PUT".equals(handler.httpMethod()) || "PATCH".equals(handler.httpMethod()))
                || handler.headers().keySet().stream().anyMatch(PRECONDITION_HEADERS::contains)) {
            return;
        }
        // Only an overwrite from the client's representation: a command endpoint (no body, or a body
        // whose values are not written) has no stale client copy to lose.
        com.github.javaparser.ast.body.Parameter body = handler.body().orElse(null);
        if (body == null) {
            return;
        }
        RequestBodyFlow flow = RequestBodyFlow.of(context.transactions().graph(), context.persistence(),
                context.method(), body, context.limits().reachDepth());
        RequestBodyFlow.BodyWrite write = null;
        for (RequestBodyFlow.BodyWrite w : flow.writes()) {
            if (w.op().conditional()) {
                return; // the update compares a version or state
            }
            if (write == null && !flow.compared(w)) {
                write = w; // a write made only after the body's value was checked against the stored one is guarded
            }
        }
        if (write == null || comparesVersion(context, handler)) {
            return;
        }
        DbOp written = write.op();
        List<Reached<DbOp>> ops = context.reachability().databaseOperations(context.method(), false);
        for (Reached<DbOp> o : ops) {
            if ((o.item().kind() == DbOp.Kind.UPDATE || o.item().kind() == DbOp.Kind.SAVE) && o.item().conditional()
                    && o.item().sameTable(written)) {
                return; // another update of that table compares a version or state
            }
        }
        // Only a row the server also keeps from stored state (a counter moved relatively, a stored total,
        // or rows summed into one): a stale copy written back then undoes work nobody re-enters. A row only
        // clients edit loses at most a concurrent edit of the same form, which the user sees and redoes.
        java.util.Set<Integer> onPath = new java.util.HashSet<>();
        for (Reached<MethodInfo> m : context.reachability().methods(context.method(), false)) {
            onPath.add(m.item().id());
        }
        java.util.Set<String> partial = partialWrite(write);
        boolean clientCopy = partial == null && clientCopy(context, write);
        ServerMaintainedTables.Upkeep upkeep = null;
        for (ServerMaintainedTables.Upkeep u : context.persistence().serverMaintained().upkeep(written.table())) {
            boolean keeps = switch (u.kind()) {
                // the kept value is written back only from the client's own copy of the row (not from a row
                // this request loaded, nor from a statement naming its columns); the handler's path keeping
                // the row itself is no second writer
                case RELATIVE -> clientCopy && !onPath.contains(u.in().id());
                // a fresh object filled field by field writes a total only when it sets that field itself
                case DERIVED -> !onPath.contains(u.in().id())
                        && (partial == null ? clientCopy : u.keptBy().stream().anyMatch(partial::contains));
                // any whole write of a summed record reverts what others changed in it, and the total follows
                case SUMMED -> partial == null;
            };
            if (keeps) {
                upkeep = u;
                break;
            }
        }
        // With no such writer the stale copy still overwrites another client's edit of the same record
        // saved in between: reported, as a note (the loss is an edit its author can see and redo), when
        // what is written is the client's representation - the body whole, or several of its properties.
        // One property set on the row the request names (an enabled flag, a target count) is a command.
        if (upkeep == null && !clientCopy && bodyPropertiesWritten(context, body) < 2) {
            return;
        }
        Reached<DbOp> load = ops.stream().filter(o -> o.item().kind() == DbOp.Kind.READ && o.item().sameTable(written))
                .findFirst().orElse(null);
        RuleDescriptor rule = descriptor();
        CodeLocation at = SourceLocations.of(context.method().declaringType().file().path(), context.method().nameNode(),
                handler.describe());
        String bodyName = body.getNameAsString();
        CodeLocation writeAt = written.location().withLabel("writes the body's `" + bodyName + "`: " + written.describe());
        List<CodeLocation> related = new java.util.ArrayList<>(List.of(writeAt));
        Message.Builder text = Message.builder()
                .text("The " + handler.describe() + " writes its request body `" + bodyName + "` into ")
                .link(written.describe(), 0);
        if (load != null) {
            related.add(load.item().location().withLabel("loads: " + load.item().describe()));
            text.text(" over the ").link("stored " + load.item().table(), 1);
        }
        if (upkeep != null) {
            related.add(upkeep.write().location().withLabel(upkeepLabel(upkeep)));
            text.text(" with no If-Match, ETag or version check, while ").link(upkeep.in().displayName(), related.size() - 1)
                    .text(consequence(upkeep, written.table()));
        } else {
            text.text(" with no If-Match, ETag or version check: a client that saves a copy it loaded earlier "
                    + "overwrites what another client saved to the record in between. Reported as a note: nothing in "
                    + "the program keeps " + (written.table().isEmpty() ? "that table" : written.table()) + " from stored state (no relative update, stored total "
                    + "or sum over its rows; the write is at " + written.location().file().getFileName() + ":"
                    + written.location().region().startLine() + "), so what is lost is a concurrent edit of the same record.");
        }
        Message message = text.build();
        Reached<DbOp> reached = new Reached<>(written, write.in(), write.path());
        reporter.report(new Finding(rule.id(), upkeep == null ? Level.NOTE : rule.level(), message, at, related,
                HandlerRules.flow(at, reached, writeAt), fix(context, written, upkeep),
                Fingerprints.of(rule.id(), context.method().signature(), "handler", written.table()),
                context.method().signature()));
    }

    /**
     * Is the written object the client's own copy of the row: the body (or an object deserialised from
     * it) rather than a row this request loaded and set some fields on, or a loaded row a library copy
     * ({@code BeanUtils.copyProperties(form, row)}) filled from the body whole? Only then does the write
     * carry the client's stale value of every column, those the server keeps included.
     */
    private static boolean clientCopy(MethodContext context, RequestBodyFlow.BodyWrite write) {
        if (!(write.value() instanceof com.github.javaparser.ast.expr.NameExpr name)) {
            return false; // a field of the body ({@code form.title()}): the statement names its columns
        }
        com.github.javaparser.ast.Node declaration = dev.racelint.analyzer.resolve.LocalVariables
                .declarationOf(name.getNameAsString(), name);
        if (declaration instanceof com.github.javaparser.ast.body.Parameter) {
            return true;
        }
        var flow = context.persistence().flow(write.in()).orElse(null);
        boolean loaded = flow != null && flow.reaching(name).stream().anyMatch(op -> op.kind() == DbOp.Kind.READ);
        if (!loaded) {
            return true;
        }
        java.util.Set<com.github.javaparser.ast.Node> projectCalls = java.util.Collections.newSetFromMap(
                new java.util.IdentityHashMap<>());
        context.transactions().graph().facts(write.in()).calls().forEach(e -> projectCalls.add(e.site()));
        for (MethodCallExpr call : write.in().body().findAll(MethodCallExpr.class)) {
            if (call == write.op().call() || projectCalls.contains(call) || call.getArguments().size() < 2) {
                continue;
            }
            for (var argument : call.getArguments()) {
                if (argument instanceof com.github.javaparser.ast.expr.NameExpr n && n.getNameAsString().equals(name.getNameAsString())
                        && dev.racelint.analyzer.resolve.LocalVariables.declarationOf(n.getNameAsString(), n) == declaration) {
                    return true; // a library copy onto the loaded row
                }
            }
        }
        return false;
    }

    /**
     * How many of the body's properties the handler's path reads: accessor calls on the body, on a
     * parameter of the body's type in a method it reaches, or on a local made from one there (a copy into
     * an entity), leaving out those only handed to a database read (the selector of the row: {@code findByUsername(user.getUsername())}).
     */
    private static int bodyPropertiesWritten(MethodContext context, com.github.javaparser.ast.body.Parameter body) {
        String type = body.getType().asString();
        java.util.Set<String> read = new java.util.TreeSet<>();
        for (Reached<MethodInfo> m : context.reachability().methods(context.method(), false)) {
            com.github.javaparser.ast.Node methodBody = m.item().body();
            if (methodBody == null) {
                continue;
            }
            java.util.Set<com.github.javaparser.ast.Node> holders = java.util.Collections.newSetFromMap(
                    new java.util.IdentityHashMap<>());
            m.item().declaration().getParameters().stream().filter(p -> p.getType().asString().equals(type))
                    .forEach(holders::add);
            if (holders.isEmpty()) {
                continue;
            }
            // a local made from the body (a library copy into an entity: BeanUtils.transform(Item.class, dto))
            for (com.github.javaparser.ast.body.VariableDeclarator local
                    : methodBody.findAll(com.github.javaparser.ast.body.VariableDeclarator.class)) {
                if (local.getInitializer().map(init -> init.findAll(com.github.javaparser.ast.expr.NameExpr.class).stream()
                        .anyMatch(n -> holders.contains(dev.racelint.analyzer.resolve.LocalVariables
                                .declarationOf(n.getNameAsString(), n)))).orElse(false)) {
                    holders.add(local);
                }
            }
            List<DbOp> reads = context.persistence().flow(m.item()).map(f -> f.ops().stream()
                    .filter(op -> op.kind() == DbOp.Kind.READ).toList()).orElse(List.of());
            for (MethodCallExpr call : methodBody.findAll(MethodCallExpr.class)) {
                if (call.getArguments().isEmpty()
                        && call.getScope().orElse(null) instanceof com.github.javaparser.ast.expr.NameExpr scope
                        && holders.contains(dev.racelint.analyzer.resolve.LocalVariables.declarationOf(
                                scope.getNameAsString(), scope))
                        && !selectsOnly(call, reads, methodBody)) {
                    read.add(call.getNameAsString());
                }
            }
        }
        return read.size();
    }

    /** Is {@code value} only an argument of a read, directly or through the local it initialises? */
    private static boolean selectsOnly(MethodCallExpr value, List<DbOp> reads, com.github.javaparser.ast.Node body) {
        if (reads.stream().anyMatch(op -> op.call().isAncestorOf(value))) {
            return true;
        }
        if (!(value.getParentNode().orElse(null) instanceof com.github.javaparser.ast.body.VariableDeclarator local)) {
            return false;
        }
        List<com.github.javaparser.ast.expr.NameExpr> uses = body.findAll(com.github.javaparser.ast.expr.NameExpr.class,
                n -> n.getNameAsString().equals(local.getNameAsString())
                        && dev.racelint.analyzer.resolve.LocalVariables.declarationOf(n.getNameAsString(), n) == local);
        return !uses.isEmpty() && uses.stream().allMatch(n -> reads.stream().anyMatch(op -> op.call().isAncestorOf(n)));
    }

    /**
     * The calls that fill the written object when it is a fresh one the writing method builds field by
     * field ({@code DepotHead h = new DepotHead(); h.setId(id); h.setRemark(r); update(h)}); null when
     * the write takes a whole object (the body itself, a loaded row, a copy).
     */
    private static java.util.Set<String> partialWrite(RequestBodyFlow.BodyWrite write) {
        if (!(write.value() instanceof com.github.javaparser.ast.expr.NameExpr name) || write.in().body() == null) {
            return null;
        }
        com.github.javaparser.ast.Node declaration = dev.racelint.analyzer.resolve.LocalVariables
                .declarationOf(name.getNameAsString(), name);
        if (!(declaration instanceof com.github.javaparser.ast.body.VariableDeclarator variable)
                || !(variable.getInitializer().orElse(null) instanceof com.github.javaparser.ast.expr.ObjectCreationExpr created)
                || !created.getArguments().isEmpty() || created.getAnonymousClassBody().isPresent()) {
            return null;
        }
        java.util.Set<String> filledBy = new java.util.TreeSet<>();
        for (com.github.javaparser.ast.expr.NameExpr use : write.in().body().findAll(
                com.github.javaparser.ast.expr.NameExpr.class, n -> n.getNameAsString().equals(name.getNameAsString()))) {
            if (dev.racelint.analyzer.resolve.LocalVariables.declarationOf(use.getNameAsString(), use) != declaration) {
                continue;
            }
            com.github.javaparser.ast.Node parent = use.getParentNode().orElse(null);
            if (parent instanceof MethodCallExpr call && call.getScope().orElse(null) == use) {
                if (!call.getArguments().isEmpty()) {
                    filledBy.add(call.getNameAsString());
                }
            } else if (parent != write.op().call()) {
                return null; // handed on or reassigned: what it holds is not only what is set here
            }
        }
        return filledBy;
    }

    private static String upkeepLabel(ServerMaintainedTables.Upkeep upkeep) {
        return switch (upkeep.kind()) {
            case RELATIVE -> "moves stored values relatively: " + upkeep.write().describe();
            case DERIVED -> "stores a total read from " + upkeep.sourceTable() + ": " + upkeep.write().describe();
            case SUMMED -> "stores a total summed from " + upkeep.sourceTable() + ": " + upkeep.write().describe();
        };
    }

    private static String consequence(ServerMaintainedTables.Upkeep upkeep, String table) {
        return switch (upkeep.kind()) {
            case RELATIVE -> " changes the same " + table + " rows relatively (" + upkeep.write().describe()
                    + "): a client that saves a copy it loaded earlier writes the old values back and undoes those changes.";
            case DERIVED -> " stores a total computed from " + upkeep.sourceTable() + " in " + table + " ("
                    + upkeep.write().describe() + "): a client that saves a copy it loaded earlier writes the old total back.";
            case SUMMED -> " sums the " + table + " rows into a stored total (" + upkeep.write().describe()
                    + "): a client that saves a copy it loaded earlier silently reverts a change someone else made "
                    + "to the record, and the total follows.";
        };
    }

    /** The fix in the terms of the API that writes: a versioned UPDATE for SQL and mappers, @Version for entities. */
    private static String fix(MethodContext context, DbOp written, ServerMaintainedTables.Upkeep upkeep) {
        String leaveOut = upkeep == null || upkeep.kind() == ServerMaintainedTables.Upkeep.Kind.SUMMED ? ""
                : " Also leave the columns the server keeps out of the client's write.";
        return switch (context.persistence().classifier().family(written)) {
            case SPRING_DATA, JPA, HIBERNATE -> "Give the entity a @Version field, return it as the ETag on GET and "
                    + "require If-Match on " + "PUT/PATCH (428 when missing), copying the client's version onto the "
                    + "entity before saving so a stale copy fails with an optimistic-lock error (answer 412)." + leaveOut;
            default -> "Add a version column to " + written.table() + ", return it as the ETag on GET and require "
                    + "If-Match on PUT/PATCH (428 when missing); write with `... SET ..., version = version + 1 WHERE id = ? "
                    + "AND version = ?` and answer 412 when no row matched." + leaveOut;
        };
    }

    /**
     * Does the handler take the client's version to compare: a version or ETag read from one of its
     * parameters (the request body, a form), or a framework ETag check anywhere it calls? Reading
     * the version of the entity it just loaded or saved does not count: that is the server's copy.
     */
    private static boolean comparesVersion(MethodContext context, Handler handler) {
        var decl = context.method().declaration();
        java.util.Set<String> parameters = new java.util.HashSet<>();
        decl.getParameters().forEach(p -> parameters.add(p.getNameAsString()));
        for (Reached<MethodInfo> m : context.reachability().methods(context.method(), false)) {
            var body = m.item().body();
            if (body == null) {
                continue;
            }
            for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
                String n = call.getNameAsString();
                if (n.equals("checkNotModified") || n.equals("evaluatePreconditions")) {
                    return true;
                }
                boolean versionAccessor = n.equals("getVersion") || n.equals("version") || n.equals("getEtag")
                        || n.equals("getETag") || n.equals("etag");
                if (versionAccessor && m.item() == context.method() && call.getScope().orElse(null)
                        instanceof com.github.javaparser.ast.expr.NameExpr scope
                        && parameters.contains(scope.getNameAsString())) {
                    return true;
                }
            }
        }
        return false;
    }
}
