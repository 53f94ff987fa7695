package dev.racelint.analyzer.effects;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.stmt.ReturnStmt;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The HTTP method of a request object that a client's builder made ({@code HttpRequest.newBuilder(uri).GET().build()},
 * OkHttp's {@code new Request.Builder().url(u).head().build()}), followed from the argument of the send
 * back through locals (the builder kept in a variable and given headers on later lines), reassignments
 * and helper methods of the same class (one that returns the request, one that is handed the builder),
 * never by a name. The builder's verb methods ({@code GET()}, {@code post(body)}) and its generic
 * {@code method("GET", ..)} set the method; with none, the builder's default applies (GET for both
 * clients). Anything the trace cannot see - a builder passed in as a parameter, handed to a method of
 * another class, copied from an existing request - leaves the verb unknown, and the call stays a command.
 */
final class RequestBuilders {

    /**
     * Catalogue data ({@code requestBuilder} on an API entry): how that client's requests are built.
     *
     * @param creations    where a fresh builder comes from: {@code Type#method} for a static factory,
     *                     {@code Type#new} for a constructor, optionally with {@code /arity}
     * @param verbMethods  builder methods that set the HTTP method named by them ({@code GET}, {@code post})
     * @param methodCall   the builder method that takes the HTTP method as its first argument ({@code method})
     * @param defaultVerb  the method a builder sends when none is set (empty: none known)
     */
    record Spec(List<String> creations, Set<String> verbMethods, String methodCall, String defaultVerb) {}

    private RequestBuilders() {}

    /** Whether {@code request} is a request built by {@code spec}'s builder whose every possible method is safe. */
    static boolean safe(Expression request, Spec spec, Set<String> sends) {
        Trace trace = new Trace(spec, sends);
        trace.expression(request);
        if (trace.unknown || !trace.origin) {
            return false;
        }
        if (trace.verbs.isEmpty()) {
            return !spec.defaultVerb().isEmpty() && ApiCatalogue.safeHttpMethod(spec.defaultVerb());
        }
        return trace.verbs.stream().allMatch(ApiCatalogue::safeHttpMethod);
    }

    private static final class Trace {
        private final Spec spec;
        /** The catalogued client's methods: handing the request to one of them is the send. */
        private final Set<String> sends;
        private final Set<String> verbs = new HashSet<>();
        private final Set<Node> seen = new HashSet<>();
        /** A fresh builder was seen at the root of the request's chain. */
        private boolean origin;
        /** Something on the way is out of sight: the verb cannot be told. */
        private boolean unknown;

        Trace(Spec spec, Set<String> sends) {
            this.spec = spec;
            this.sends = sends;
        }

        void expression(Expression e) {
            if (unknown) {
                return;
            }
            if (e instanceof EnclosedExpr enclosed) {
                expression(enclosed.getInner());
            } else if (e instanceof CastExpr cast) {
                expression(cast.getExpression());
            } else if (e instanceof MethodCallExpr call) {
                call(call);
            } else if (e instanceof ObjectCreationExpr created) {
                if (creation(created.getType().getNameWithScope(), "new", created.getArguments().size())) {
                    origin = true;
                } else {
                    unknown = true;
                }
            } else if (e instanceof NameExpr name) {
                local(name);
            } else {
                unknown = true;
            }
        }

        private void call(MethodCallExpr call) {
            verb(call);
            Expression scope = call.getScope().orElse(null);
            if (scope != null && !(scope instanceof ThisExpr)) {
                String written = scope instanceof NameExpr || scope instanceof com.github.javaparser.ast.expr.FieldAccessExpr
                        ? scope.toString() : null;
                if (written != null && creation(written, call.getNameAsString(), call.getArguments().size())) {
                    origin = true;
                    return;
                }
                expression(scope);
                return;
            }
            // a helper of the same class that returns the request (or the builder)
            List<MethodDeclaration> helpers = sameClass(call);
            if (helpers.isEmpty()) {
                unknown = true;
                return;
            }
            for (MethodDeclaration helper : helpers) {
                if (!seen.add(helper)) {
                    continue;
                }
                List<ReturnStmt> returns = helper.findAll(ReturnStmt.class);
                if (returns.isEmpty()) {
                    unknown = true;
                }
                for (ReturnStmt r : returns) {
                    r.getExpression().ifPresentOrElse(this::expression, () -> unknown = true);
                }
            }
        }

        /** A verb set along the chain: {@code .GET()}, {@code .post(body)}, {@code .method("HEAD", ..)}. */
        private void verb(MethodCallExpr call) {
            String name = call.getNameAsString();
            if (spec.verbMethods().contains(name)) {
                verbs.add(name.toUpperCase(Locale.ROOT));
            } else if (name.equals(spec.methodCall()) && !call.getArguments().isEmpty()) {
                String verb = constant(call.getArgument(0));
                if (verb == null) {
                    unknown = true;
                } else {
                    verbs.add(verb.toUpperCase(Locale.ROOT));
                }
            }
        }

        private void local(NameExpr name) {
            Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
            if (!(declaration instanceof VariableDeclarator local)) {
                unknown = true;
                return;
            }
            if (!seen.add(local)) {
                return;
            }
            local.getInitializer().ifPresentOrElse(this::expression, () -> unknown = true);
            variable(local);
        }

        /** What the method does with the variable (a local, or a helper's parameter it was handed) on other lines. */
        private void variable(Node declaration) {
            for (NameExpr use : LocalVariables.uses(declaration)) {
                Node parent = use.getParentNode().orElse(null);
                if (parent instanceof MethodCallExpr on && on.getScope().orElse(null) == use) {
                    // rb.header(..).post(body): every call chained on the variable may set the verb
                    for (Node n = on; n instanceof MethodCallExpr chained; n = chained.getParentNode().orElse(null)) {
                        verb(chained);
                        if (!(chained.getParentNode().orElse(null) instanceof MethodCallExpr outer)
                                || outer.getScope().orElse(null) != chained) {
                            break;
                        }
                    }
                } else if (parent instanceof AssignExpr assign && assign.getTarget() == use) {
                    expression(assign.getValue());
                } else if (parent instanceof MethodCallExpr callee && callee.getArguments().contains(use)) {
                    handedTo(callee, callee.getArguments().indexOf(use));
                }
            }
        }

        /** The builder handed to a method: one of the same class is followed into; any other is out of sight. */
        private void handedTo(MethodCallExpr callee, int index) {
            if (callee.getScope().isPresent() && !(callee.getScope().get() instanceof ThisExpr)) {
                // the send itself, or a method of another object: only the catalogued client is known
                if (!isTheSend(callee)) {
                    unknown = true;
                }
                return;
            }
            List<MethodDeclaration> helpers = sameClass(callee);
            if (helpers.isEmpty()) {
                unknown = true;
            }
            for (MethodDeclaration helper : helpers) {
                Parameter p = helper.getParameter(index);
                if (seen.add(p)) {
                    variable(p);
                }
            }
        }

        /** A call that is handed the finished request ({@code client.send(request, ..)}, {@code newCall(request)}). */
        private boolean isTheSend(MethodCallExpr callee) {
            return sends.contains(callee.getNameAsString());
        }

        private boolean creation(String written, String method, int arity) {
            for (String c : spec.creations()) {
                int hash = c.indexOf('#');
                int slash = c.indexOf('/', hash);
                String type = c.substring(0, hash);
                String m = slash < 0 ? c.substring(hash + 1) : c.substring(hash + 1, slash);
                if (!m.equals(method) || slash >= 0 && Integer.parseInt(c.substring(slash + 1)) != arity) {
                    continue;
                }
                if (type.equals(written) || type.endsWith("." + written)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Methods of the class declaring {@code call} with its name and number of arguments. */
    private static List<MethodDeclaration> sameClass(MethodCallExpr call) {
        TypeDeclaration<?> type = call.findAncestor(TypeDeclaration.class).orElse(null);
        if (type == null) {
            return List.of();
        }
        return type.getMethodsByName(call.getNameAsString()).stream()
                .filter(m -> m.getParameters().size() == call.getArguments().size() && m.getBody().isPresent())
                .toList();
    }

    /** A string literal, or a final String field of an enclosing type initialised with one. */
    static String constant(Expression e) {
        if (e instanceof StringLiteralExpr s) {
            return s.asString();
        }
        return e instanceof NameExpr n ? LocalVariables.constantField(n) : null;
    }
}
