package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.HashSet;
import java.util.Set;

/**
 * An HTTP client call whose HTTP method arrives as a parameter of a wrapper ({@code doExecute(HttpMethod
 * method, ..)} calling {@code exchange(url, method, ..)}): which verb it sends is decided by the callers.
 * The call is a read, from the start method's point of view, when every call into the wrapper that the
 * start method reaches passes {@code HttpMethod.GET}, {@code HEAD} or {@code OPTIONS}, directly or
 * through further wrappers; a verb that comes from the start method's own parameters is not known.
 */
public final class ForwardedHttpMethod {

    /** Spring's HTTP-method type, the {@code methodArgument} of the catalogued Spring HTTP clients. */
    private static final String HTTP_METHOD_TYPE = "HttpMethod";
    private static final int MAX_WRAPPERS = 8;

    private ForwardedHttpMethod() {}

    /** Whether {@code site}'s HTTP method is a parameter that every reached caller sets to a safe verb. */
    public static boolean safeFromCallers(Reachability reachability, MethodInfo start, EffectSite site) {
        Set<Integer> reached = new HashSet<>();
        reachability.methods(start, false).forEach(r -> reached.add(r.item().id()));
        int index = httpMethodParameter(site.call(), site.method());
        return index >= 0 && safe(reachability, start, site.method(), index, reached, new HashSet<>(), 0);
    }

    private static boolean safe(Reachability reachability, MethodInfo start, MethodInfo wrapper, int index,
            Set<Integer> reached, Set<String> seen, int depth) {
        if (wrapper.id() == start.id() || depth > MAX_WRAPPERS || !seen.add(wrapper.id() + "#" + index)) {
            return false;
        }
        boolean any = false;
        for (CallEdge edge : reachability.callers(wrapper)) {
            if (!reached.contains(edge.caller().id())) {
                continue;
            }
            if (!(edge.site() instanceof MethodCallExpr call) || call.getArguments().size() <= index) {
                return false;
            }
            Expression argument = call.getArgument(index);
            if (argument instanceof FieldAccessExpr constant
                    && simpleName(constant.getScope().toString()).equals(HTTP_METHOD_TYPE)
                    && ApiCatalogue.safeHttpMethod(constant.getNameAsString())) {
                any = true;
                continue;
            }
            int forwarded = argument instanceof NameExpr name ? parameterIndex(name, edge.caller()) : -1;
            if (forwarded < 0 || !safe(reachability, start, edge.caller(), forwarded, reached, seen, depth + 1)) {
                return false;
            }
            any = true;
        }
        return any;
    }

    /** The position of the enclosing method's parameter of the HTTP-method type passed to {@code call}, or -1. */
    private static int httpMethodParameter(MethodCallExpr call, MethodInfo in) {
        for (Expression argument : call.getArguments()) {
            if (argument instanceof NameExpr name) {
                int index = parameterIndex(name, in);
                if (index >= 0 && simpleName(in.declaration().getParameter(index).getTypeAsString())
                        .equals(HTTP_METHOD_TYPE)) {
                    return index;
                }
            }
        }
        return -1;
    }

    /** The position of the parameter {@code name} refers to in {@code in}, or -1 when it names no parameter. */
    static int parameterIndex(NameExpr name, MethodInfo in) {
        CallableDeclaration<?> declaration = in.declaration();
        if (!(LocalVariables.declarationOf(name.getNameAsString(), name) instanceof Parameter parameter)
                || declaration == null) {
            return -1;
        }
        for (int i = 0; i < declaration.getParameters().size(); i++) {
            if (declaration.getParameter(i) == parameter) {
                return i;
            }
        }
        return -1;
    }

    static String simpleName(String type) {
        return type.substring(type.lastIndexOf('.') + 1);
    }
}
