package dev.racelint.analyzer.effects;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An HTTP request that asks an authorization server for an access token: its protocol parameter says so
 * (RFC 6749: {@code grant_type=client_credentials} in the URL's query or the form body, section 4.4), as
 * catalogue data ({@code tokenRequests}: the parameter and the grant types), never the method's or the
 * class's name. A token request is a credential fetch: repeating it issues one more token and changes
 * nothing another system acts on, so it is not a command whatever verb carries it (the spec asks for POST).
 *
 * <p>The parameter is looked for in what reaches the call's arguments within the calling method: string
 * constants written into them ({@code "grant_type=client_credentials&scope=.."}), a call that puts the
 * parameter and its value side by side ({@code form.add("grant_type", "client_credentials")}, a builder's
 * {@code set(..)}), followed through the locals the arguments name - their initialisers, reassignments and
 * the calls made on them on other lines ({@code form.add(..)} before {@code new HttpEntity<>(form, headers)}).
 */
final class TokenRequests {

    /** A parameter ({@code grant_type}) whose listed values ({@code client_credentials}) make a token request. */
    record Marker(String parameter, Set<String> values) {}

    private TokenRequests() {}

    static boolean requestsToken(MethodCallExpr call, List<Marker> markers) {
        Deque<Node> work = new ArrayDeque<>(call.getArguments());
        Set<Node> seen = new HashSet<>();
        while (!work.isEmpty()) {
            Node next = work.pop();
            if (!seen.add(next)) {
                continue;
            }
            for (StringLiteralExpr literal : next.findAll(StringLiteralExpr.class)) {
                if (inQuery(literal.asString(), markers)) {
                    return true;
                }
            }
            for (MethodCallExpr put : next.findAll(MethodCallExpr.class)) {
                if (pairs(put.getArguments(), markers)) {
                    return true;
                }
            }
            for (NameExpr name : next.findAll(NameExpr.class)) {
                Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
                if (!(declaration instanceof VariableDeclarator local) || !seen.add(local)) {
                    continue;
                }
                local.getInitializer().ifPresent(work::push);
                for (NameExpr use : LocalVariables.uses(local)) {
                    Node parent = use.getParentNode().orElse(null);
                    if (parent instanceof MethodCallExpr on && on.getScope().orElse(null) == use) {
                        work.push(on);
                    } else if (parent instanceof AssignExpr assign && assign.getTarget() == use) {
                        work.push(assign.getValue());
                    }
                }
            }
        }
        return false;
    }

    /** {@code grant_type=client_credentials} as a query or form parameter of a string constant. */
    private static boolean inQuery(String text, List<Marker> markers) {
        for (Marker marker : markers) {
            for (String value : marker.values()) {
                String pair = marker.parameter() + "=" + value;
                for (int at = text.indexOf(pair); at >= 0; at = text.indexOf(pair, at + 1)) {
                    int end = at + pair.length();
                    boolean starts = at == 0 || "?&".indexOf(text.charAt(at - 1)) >= 0;
                    boolean ends = end == text.length() || text.charAt(end) == '&';
                    if (starts && ends) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** A call given the parameter's name and one of its values side by side, as constants. */
    private static boolean pairs(List<Expression> arguments, List<Marker> markers) {
        for (int i = 0; i + 1 < arguments.size(); i++) {
            String name = RequestBuilders.constant(arguments.get(i));
            String value = name == null ? null : RequestBuilders.constant(arguments.get(i + 1));
            if (value == null) {
                continue;
            }
            for (Marker marker : markers) {
                if (marker.parameter().equals(name) && marker.values().contains(value)) {
                    return true;
                }
            }
        }
        return false;
    }
}
