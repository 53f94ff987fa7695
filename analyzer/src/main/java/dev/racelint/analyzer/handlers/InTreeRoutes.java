package dev.racelint.analyzer.handlers;

import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The HTTP handlers of the scanned tree by verb and mapped path, so that a client call whose URL is
 * built from string constants ({@code restTemplate.exchange(host + "apps/{appId}/clusters", POST, ..)})
 * can be matched to the controller in the tree that serves it. Path variables ({@code {id}}) on
 * either side match any one segment; the scheme, host and query string of the URL are not compared.
 */
public final class InTreeRoutes {

    private record Route(String verb, List<String> segments, MethodInfo handler) {}

    private final List<Route> routes = new ArrayList<>();

    InTreeRoutes(ProgramIndex index, HandlerModel handlers) {
        for (MethodInfo method : index.methods()) {
            handlers.handler(method).filter(h -> h.kind() == Handler.Kind.HTTP && h.httpMethod() != null)
                    .ifPresent(h -> routes.add(new Route(h.httpMethod().toUpperCase(Locale.ROOT), segments(h.path()),
                            method)));
        }
    }

    /** The in-tree handlers that serve {@code verb} on {@code urlPath} (a path template, host already removed). */
    public List<MethodInfo> serving(String verb, String urlPath) {
        List<String> wanted = segments(urlPath);
        List<MethodInfo> out = new ArrayList<>();
        for (Route route : routes) {
            if (route.verb().equals(verb.toUpperCase(Locale.ROOT)) && matches(route.segments(), wanted)) {
                out.add(route.handler());
            }
        }
        return out;
    }

    private static boolean matches(List<String> route, List<String> wanted) {
        if (route.size() != wanted.size() || route.isEmpty()) {
            return false;
        }
        for (int i = 0; i < route.size(); i++) {
            String a = route.get(i);
            String b = wanted.get(i);
            if (!a.equals(b) && !variable(a) && !variable(b)) {
                return false;
            }
        }
        return true;
    }

    private static boolean variable(String segment) {
        return segment.contains("{");
    }

    static List<String> segments(String path) {
        String p = path;
        int query = p.indexOf('?');
        if (query >= 0) {
            p = p.substring(0, query);
        }
        return Arrays.stream(p.split("/")).filter(s -> !s.isEmpty()).toList();
    }
}
