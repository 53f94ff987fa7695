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
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleMetadata;
import java.util.List;
import java.util.Set;

/** A PUT/PATCH handler that writes values of its request body over a stored resource with no precondition. */
@RuleMetadata(
        id = "missing-if-match",
        name = "MissingIfMatch",
        shape = "4",
        title = "PUT/PATCH overwrites a resource without If-Match or a version check",
        description = "Two clients GET the same resource, edit it, and PUT it back. Without a precondition the "
                + "second PUT silently overwrites the first client's change: a lost update across the network, "
                + "where no database transaction can help.",
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
        Message message = text.text(" with no If-Match, ETag or version check: two clients editing the same "
                        + "version silently overwrite each other.")
                .build();
        Reached<DbOp> reached = new Reached<>(written, write.in(), write.path());
        reporter.report(new Finding(rule.id(), rule.level(), message, at, related,
                HandlerRules.flow(at, reached, writeAt), rule.fix(),
                Fingerprints.of(rule.id(), context.method().signature(), "handler", written.table()),
                context.method().signature()));
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
