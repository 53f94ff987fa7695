package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.Set;

/**
 * The verb a JDK {@code HttpURLConnection} sends, from what the method does with the connection: GET
 * unless {@code setRequestMethod} names another verb or a request body is written
 * ({@code setDoOutput}, {@code getOutputStream}, which turn the default into POST). The call is a read
 * when the connection is a local or parameter of the method and it only ever sets a safe verb (or none)
 * and writes no body.
 */
public final class UrlConnectionVerb {

    private static final Set<String> CONNECTION_TYPES = Set.of("java.net.HttpURLConnection",
            "javax.net.ssl.HttpsURLConnection");
    private static final Set<String> BODY_CALLS = Set.of("getOutputStream", "setDoOutput");

    private UrlConnectionVerb() {}

    /** Whether {@code site} is a call on an {@code HttpURLConnection} that sends GET, HEAD or OPTIONS. */
    public static boolean sendsSafeVerb(EffectSite site) {
        String key = site.effect().apiKey();
        int hash = key.indexOf('#');
        MethodCallExpr call = site.call();
        if (hash < 0 || !CONNECTION_TYPES.contains(key.substring(0, hash)) || BODY_CALLS.contains(call.getNameAsString())
                || !(call.getScope().orElse(null) instanceof NameExpr receiver)) {
            return false;
        }
        Node declaration = LocalVariables.declarationOf(receiver.getNameAsString(), receiver);
        Node body = site.method().body();
        if (declaration == null || body == null) {
            return false;
        }
        for (MethodCallExpr use : body.findAll(MethodCallExpr.class)) {
            if (!(use.getScope().orElse(null) instanceof NameExpr scope)
                    || !scope.getNameAsString().equals(receiver.getNameAsString())
                    || LocalVariables.declarationOf(scope.getNameAsString(), scope) != declaration) {
                continue;
            }
            if (BODY_CALLS.contains(use.getNameAsString())) {
                return false;
            }
            if (use.getNameAsString().equals("setRequestMethod") && !(use.getArguments().size() == 1
                    && use.getArgument(0) instanceof StringLiteralExpr verb && ApiCatalogue.safeHttpMethod(verb.asString()))) {
                return false;
            }
        }
        return true;
    }
}
