package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.ArrayInitializerExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithAnnotations;
import dev.racelint.analyzer.effects.ApiCatalogue.AuthorizationEntry;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Privileged entry points: HTTP handlers (or their classes) guarded by an authorization annotation that
 * requires a specific authority, role or permission ({@code @PreAuthorize("hasAuthority('x')")},
 * {@code @RolesAllowed}, Shiro's {@code @RequiresPermissions}...). The annotation types and what they
 * mean are catalogue data ({@code authorization} in the API catalogue, {@code authorization:} in
 * racelint.yml), never names in this code. An annotation that asks only for a logged-in caller
 * ({@code isAuthenticated()}, {@code permitAll()}) is no privilege.
 *
 * <p>A rule asks whether every entry point that reaches a method is privileged: then a race on it needs
 * two callers who both hold the authority, which makes its harm small (an administrator's screen).
 * Anything else that reaches the method - an unguarded handler, a listener, a job, or a method with no
 * caller in the tree (called from outside, by a framework) - makes the answer no.
 */
public final class PrivilegedEntryPoints {

    /** None known: every answer is no (an analysis built without the catalogue's authorization data). */
    public static final PrivilegedEntryPoints NONE = new PrivilegedEntryPoints(null, null, null, List.of());

    /**
     * What the entry points reaching a method require.
     *
     * @param authorities the authorities, roles or permissions as written ({@code system:menu:add})
     * @param annotation  the annotation's simple name ({@code PreAuthorize})
     * @param file        the file name of the annotated handler ({@code SysMenuController.java})
     * @param line        the annotation's line
     */
    public record Privilege(String authorities, String annotation, String file, int line) {
        /** "only callers holding system:menu:add reach it (@PreAuthorize at SysMenuController.java:110)". */
        public String sentence() {
            return "only callers holding " + authorities + " reach it (@" + annotation + " at " + file + ":" + line + ")";
        }
    }

    /** A quoted authority in an expression: {@code 'system:menu:add'} or {@code "ROLE_ADMIN"}. */
    private static final Pattern QUOTED = Pattern.compile("'([^']*)'|\"([^\"]*)\"");
    /** A function or bean method called in an expression: {@code hasAuthority(}, {@code @ss.hasPermi(}. */
    private static final Pattern CALL = Pattern.compile("([A-Za-z_$][\\w$]*)\\s*\\(");

    private final ProgramIndex index;
    private final HandlerModel handlers;
    private final Reachability reachability;
    private final List<AuthorizationEntry> entries;
    private final Annotations annotations;
    private final Map<Integer, Optional<Privilege>> memo = new ConcurrentHashMap<>();

    public PrivilegedEntryPoints(ProgramIndex index, HandlerModel handlers, Reachability reachability,
            List<AuthorizationEntry> entries) {
        this.index = index;
        this.handlers = handlers;
        this.reachability = reachability;
        this.entries = List.copyOf(entries);
        this.annotations = index == null ? null : new Annotations(index);
    }

    /**
     * The privilege every entry point reaching {@code method} requires (the nearest one's), when each of
     * them is an HTTP handler that requires one; empty when any is not, when a method on the way has no
     * caller in the tree and is no handler, or when the callers go further than {@code reach-depth} calls.
     */
    public Optional<Privilege> onlyPrivilegedCallers(MethodInfo method) {
        if (entries.isEmpty() || index == null) {
            return Optional.empty();
        }
        return memo.computeIfAbsent(method.id(), id -> compute(method));
    }

    private Optional<Privilege> compute(MethodInfo start) {
        return EveryEntryPoint.nearestIfEvery(start, handlers, reachability, this::privilegeOf);
    }

    /**
     * What a handler requires: its own authorization annotation, else its class's (a method's own one,
     * an opening one too, replaces the class's, as the frameworks apply them).
     */
    Optional<Privilege> privilegeOf(MethodInfo handler) {
        if (!(handler.declaration() instanceof MethodDeclaration decl)) {
            return Optional.empty();
        }
        Optional<Optional<Privilege>> own = decide(decl, handler);
        if (own.isPresent()) {
            return own.get();
        }
        return decide(handler.declaringType().declaration(), handler).orElse(Optional.empty());
    }

    /** Empty when {@code annotated} carries no catalogued annotation; else what the first one requires. */
    private Optional<Optional<Privilege>> decide(NodeWithAnnotations<?> annotated, MethodInfo handler) {
        for (AuthorizationEntry entry : entries) {
            Optional<AnnotationExpr> found = annotations.find(annotated, entry.annotations());
            if (found.isPresent()) {
                // through a meta-annotation the annotation found sits on the team's annotation type, in its file
                dev.racelint.analyzer.index.FileContext where = index.fileOf(found.get());
                Path file = where != null ? where.path() : handler.declaringType().file().path();
                return Optional.of(requirement(entry, found.get()).map(authorities -> new Privilege(authorities,
                        found.get().getName().getIdentifier(), file.getFileName().toString(),
                        found.get().getBegin().map(p -> p.line).orElse(0))));
            }
        }
        return Optional.empty();
    }

    /** The authorities an annotation requires, as the message shows them; empty when it requires none. */
    private static Optional<String> requirement(AuthorizationEntry entry, AnnotationExpr annotation) {
        Optional<Expression> value = Annotations.attribute(annotation, "value");
        return switch (entry.form()) {
            case "expression" -> value.flatMap(PrivilegedEntryPoints::literal)
                    .flatMap(text -> expressionRequirement(text, entry.authenticationOnly()));
            case "names" -> value.flatMap(v -> namesRequirement(v, entry, annotation));
            case "marker" -> Optional.of(value.map(v -> values(v).isEmpty() ? v.toString() : String.join(", ", values(v)))
                    .orElse("@" + annotation.getName().getIdentifier()));
            default -> Optional.empty(); // open: any logged-in caller
        };
    }

    /**
     * A Spring Security expression requires an authority when each of its alternatives ({@code or}, {@code ||})
     * calls a check with a quoted argument that is not an authentication-only function, and nothing negates it.
     */
    static Optional<String> expressionRequirement(String expression, Set<String> authenticationOnly) {
        List<String> authorities = new ArrayList<>();
        for (String alternative : alternatives(expression)) {
            String lower = alternative.toLowerCase(Locale.ROOT);
            if (alternative.contains("!") || lower.matches("(?s).*\\bnot\\b.*")) {
                return Optional.empty();
            }
            boolean requires = false;
            Matcher call = CALL.matcher(alternative);
            while (call.find()) {
                if (authenticationOnly.contains(call.group(1))) {
                    continue;
                }
                int close = closingParenthesis(alternative, call.end() - 1);
                Matcher quoted = QUOTED.matcher(alternative.substring(call.end(), close));
                while (quoted.find()) {
                    String authority = quoted.group(1) != null ? quoted.group(1) : quoted.group(2);
                    if (!authority.isBlank()) {
                        requires = true;
                        if (!authorities.contains(authority)) {
                            authorities.add(authority);
                        }
                    }
                }
            }
            if (!requires) {
                return Optional.empty(); // this alternative lets a caller in without an authority
            }
        }
        return authorities.isEmpty() ? Optional.empty() : Optional.of(String.join(" or ", authorities));
    }

    /** The top-level alternatives of an expression: split at {@code or} / {@code ||} outside parentheses and quotes. */
    private static List<String> alternatives(String expression) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < expression.length(); i++) {
            char c = expression.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && (expression.startsWith("||", i) || orWordAt(expression, i))) {
                out.add(expression.substring(start, i));
                i += 1;
                start = i + 1;
            }
        }
        out.add(expression.substring(start));
        return out;
    }

    private static boolean orWordAt(String text, int i) {
        return text.regionMatches(true, i, "or", 0, 2) && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)))
                && (i + 2 >= text.length() || !Character.isLetterOrDigit(text.charAt(i + 2)));
    }

    private static int closingParenthesis(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            if (text.charAt(i) == '(') {
                depth++;
            } else if (text.charAt(i) == ')' && --depth == 0) {
                return i;
            }
        }
        return text.length();
    }

    /** Values that name the authorities: required unless the list is empty or names only authentication. */
    private static Optional<String> namesRequirement(Expression value, AuthorizationEntry entry, AnnotationExpr annotation) {
        List<String> names = values(value);
        if (value instanceof ArrayInitializerExpr array && array.getValues().isEmpty()) {
            return Optional.empty();
        }
        if (!names.isEmpty() && entry.authenticationOnly().containsAll(names)) {
            return Optional.empty();
        }
        String combine = entry.combine();
        if (!entry.combineAttribute().isEmpty()) {
            Optional<String> mode = Annotations.enumAttribute(annotation, entry.combineAttribute());
            if (mode.isPresent()) {
                combine = mode.get().toUpperCase(Locale.ROOT).endsWith("OR") ? "or" : "and";
            }
        }
        // a constant names its authority in another file: shown as written
        return Optional.of(names.isEmpty() ? value.toString() : String.join(" " + combine + " ", names));
    }

    /** The string literals of a value: one literal, an array of them, or literals joined with +. */
    private static List<String> values(Expression value) {
        List<String> out = new ArrayList<>();
        if (value instanceof ArrayInitializerExpr array) {
            for (Expression e : array.getValues()) {
                literal(e).ifPresent(out::add);
            }
        } else {
            literal(value).ifPresent(out::add);
        }
        return out;
    }

    /** A string literal, or literals joined with {@code +}; empty for anything else (a constant). */
    private static Optional<String> literal(Expression value) {
        if (value instanceof StringLiteralExpr s) {
            return Optional.of(s.asString());
        }
        if (value instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS) {
            Optional<String> left = literal(b.getLeft());
            Optional<String> right = literal(b.getRight());
            return left.isPresent() && right.isPresent() ? Optional.of(left.get() + right.get()) : Optional.empty();
        }
        return Optional.empty();
    }
}
