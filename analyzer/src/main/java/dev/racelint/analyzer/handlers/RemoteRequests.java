package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The requests an HTTP client call sends, as the callers of a team's wrapper fix them: a wrapper
 * {@code doExecute(HttpMethod method, String path, ..)} calling {@code exchange(host + path, method, ..)}
 * is reached through {@code post(env, path, ..)} passing {@code HttpMethod.POST}, and that from
 * {@code post(env, "apps/{appId}/clusters", ..)}. Each way the start method reaches the call gives
 * one request: its verb (when an {@code HttpMethod} constant fixes it), its path template (string
 * constants joined into the URL, any other part a variable; the host in front dropped), and the
 * calls from the method that fixed both down to the client call, so a finding can show that path.
 */
public final class RemoteRequests {

    /**
     * @param verb   GET, POST, .. when a constant fixes it, else null
     * @param path   the URL's path template without scheme and host ({@code {}} for a part not known),
     *               or null when no constant part is known
     * @param origin the method whose call fixed verb and path (the client call's own method when it does)
     * @param chain  the calls from {@code origin} down to the client call's method
     */
    public record Request(String verb, String path, MethodInfo origin, List<CallEdge> chain) {}

    private static final String HTTP_METHOD_TYPE = "HttpMethod";
    private static final int MAX_WRAPPERS = 8;
    private static final int MAX_REQUESTS = 64;

    /** A part of a URL or of the verb: known text, the enclosing method's parameter, or not known. */
    private record Part(String text, int parameter) {
        static final Part UNKNOWN = new Part(null, -1);

        boolean isParameter() {
            return parameter >= 0;
        }
    }

    private RemoteRequests() {}

    /**
     * The requests {@code site} sends when {@code start} runs, one per way through the wrappers whose
     * parameters carry its verb or URL; empty when the call's verb and URL are not told by constants
     * at all (nothing is known, the caller must treat the call as it would without this).
     */
    public static List<Request> of(Reachability reachability, MethodInfo start, EffectSite site) {
        MethodCallExpr call = site.call();
        MethodInfo in = site.method();
        Part verb = verbOf(call, in);
        List<Part> url = call.getArguments().isEmpty() ? List.of(Part.UNKNOWN) : parts(call.getArgument(0), in);
        if (verb == Part.UNKNOWN && url.stream().noneMatch(p -> p.text() != null || p.isParameter())) {
            return List.of();
        }
        Set<Integer> reached = new HashSet<>();
        reachability.methods(start, false).forEach(r -> reached.add(r.item().id()));
        List<Request> out = new ArrayList<>();
        walk(reachability, start, reached, in, verb, url, List.of(), out, 0);
        return out;
    }

    private static void walk(Reachability reachability, MethodInfo start, Set<Integer> reached, MethodInfo in,
            Part verb, List<Part> url, List<CallEdge> chain, List<Request> out, int depth) {
        boolean open = verb.isParameter() || url.stream().anyMatch(Part::isParameter);
        if (!open || in.id() == start.id() || depth >= MAX_WRAPPERS || out.size() >= MAX_REQUESTS) {
            // what is still a parameter here (the start method's own, a wrapper too deep) is not known
            out.add(new Request(verb.text(), render(url.stream().map(p -> p.isParameter() ? Part.UNKNOWN : p).toList()),
                    in, chain));
            return;
        }
        boolean any = false;
        Set<String> seen = new HashSet<>();
        for (CallEdge edge : reachability.callers(in)) {
            if (!reached.contains(edge.caller().id()) || !seen.add(edge.caller().id() + "@" + edge.location())) {
                continue;
            }
            any = true;
            if (!(edge.site() instanceof MethodCallExpr caller)) {
                out.add(new Request(null, null, edge.caller(), prepend(edge, chain)));
                continue;
            }
            Part v = verb.isParameter() ? argumentVerb(caller, verb.parameter(), edge.caller()) : verb;
            List<Part> u = new ArrayList<>();
            for (Part p : url) {
                if (!p.isParameter()) {
                    u.add(p);
                } else if (p.parameter() < caller.getArguments().size()
                        && (!in.isVarArgs() || p.parameter() < in.parameterCount() - 1)) {
                    u.addAll(parts(caller.getArgument(p.parameter()), edge.caller()));
                } else {
                    u.add(Part.UNKNOWN);
                }
            }
            walk(reachability, start, reached, edge.caller(), v, u, prepend(edge, chain), out, depth + 1);
        }
        if (!any) {
            out.add(new Request(null, null, in, chain));
        }
    }

    private static List<CallEdge> prepend(CallEdge edge, List<CallEdge> chain) {
        List<CallEdge> next = new ArrayList<>(chain.size() + 1);
        next.add(edge);
        next.addAll(chain);
        return next;
    }

    private static Part argumentVerb(MethodCallExpr call, int index, MethodInfo in) {
        return index < call.getArguments().size() ? verbExpression(call.getArgument(index), in) : Part.UNKNOWN;
    }

    /** The verb argument of the client call: an {@code HttpMethod} constant or parameter. */
    private static Part verbOf(MethodCallExpr call, MethodInfo in) {
        for (Expression argument : call.getArguments()) {
            Part p = verbExpression(argument, in);
            if (p != Part.UNKNOWN) {
                return p;
            }
        }
        return Part.UNKNOWN;
    }

    private static Part verbExpression(Expression argument, MethodInfo in) {
        if (argument instanceof FieldAccessExpr constant
                && ForwardedHttpMethod.simpleName(constant.getScope().toString()).equals(HTTP_METHOD_TYPE)) {
            return new Part(constant.getNameAsString().toUpperCase(Locale.ROOT), -1);
        }
        if (argument instanceof NameExpr name) {
            int index = ForwardedHttpMethod.parameterIndex(name, in);
            if (index >= 0 && ForwardedHttpMethod.simpleName(in.declaration().getParameter(index).getTypeAsString()).equals(HTTP_METHOD_TYPE)) {
                return new Part(null, index);
            }
        }
        return Part.UNKNOWN;
    }

    /** The parts of a URL expression: string constants, a String parameter, anything else not known. */
    private static List<Part> parts(Expression expression, MethodInfo in) {
        if (expression instanceof EnclosedExpr enclosed) {
            return parts(enclosed.getInner(), in);
        }
        if (expression instanceof StringLiteralExpr literal) {
            return List.of(new Part(literal.asString(), -1));
        }
        if (expression instanceof BinaryExpr binary && binary.getOperator() == BinaryExpr.Operator.PLUS) {
            List<Part> out = new ArrayList<>(parts(binary.getLeft(), in));
            out.addAll(parts(binary.getRight(), in));
            return out;
        }
        if (expression instanceof NameExpr name) {
            int index = ForwardedHttpMethod.parameterIndex(name, in);
            if (index >= 0) {
                return ForwardedHttpMethod.simpleName(in.declaration().getParameter(index).getTypeAsString()).equals("String")
                        ? List.of(new Part(null, index)) : List.of(Part.UNKNOWN);
            }
            String constant = LocalVariables.constantField(name);
            if (constant != null) {
                return List.of(new Part(constant, -1));
            }
        }
        return List.of(Part.UNKNOWN);
    }

    /** The URL's path template: not-known parts in front (a base URL) and the scheme and host dropped. */
    private static String render(List<Part> url) {
        int first = 0;
        while (first < url.size() && url.get(first).text() == null) {
            first++;
        }
        if (first == url.size()) {
            return null;
        }
        StringBuilder s = new StringBuilder();
        for (int i = first; i < url.size(); i++) {
            s.append(url.get(i).text() == null ? "{}" : url.get(i).text());
        }
        String path = s.toString();
        if (path.startsWith("http://") || path.startsWith("https://")) {
            int slash = path.indexOf('/', path.indexOf("//") + 2);
            path = slash < 0 ? "" : path.substring(slash);
        }
        return path;
    }
}
