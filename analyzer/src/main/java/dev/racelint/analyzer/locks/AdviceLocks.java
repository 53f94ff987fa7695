package dev.racelint.analyzer.locks;

import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Locks an AspectJ/Spring AOP {@code @Around} advice takes around the methods carrying an
 * annotation: the advice binds the annotation ({@code @annotation(lockSpec)} with a parameter of
 * that type, or {@code @annotation(com.acme.Locked)}), acquires a lock that waits and calls
 * {@code proceed()} while holding it. The advised method's whole body then runs under that lock.
 */
final class AdviceLocks {
    private static final Set<String> ASPECT = Set.of("org.aspectj.lang.annotation.Aspect");
    private static final Set<String> AROUND = Set.of("org.aspectj.lang.annotation.Around");
    private static final Set<String> POINTCUT = Set.of("org.aspectj.lang.annotation.Pointcut");
    private static final Pattern ANNOTATION_DESIGNATOR = Pattern.compile("@annotation\\(\\s*([\\w.$]+)\\s*\\)");
    private static final Pattern POINTCUT_REFERENCE = Pattern.compile("(?<![\\w.@])([a-zA-Z_$][\\w$]*)\\(\\s*\\)");

    private final ProgramIndex index;
    private final Annotations annotations;
    private final Function<MethodInfo, List<LockScope>> scopes;
    private volatile Map<String, LockScope> byAnnotation;

    AdviceLocks(ProgramIndex index, Function<MethodInfo, List<LockScope>> scopes) {
        this.index = index;
        this.annotations = new Annotations(index);
        this.scopes = scopes;
    }

    /** The advice lock held while {@code method} runs, if one of its annotations is bound by such an advice. */
    Optional<LockScope> around(MethodInfo method) {
        if (!(method.declaration() instanceof MethodDeclaration declaration) || declaration.getAnnotations().isEmpty()) {
            return Optional.empty();
        }
        Map<String, LockScope> advised = advised();
        if (advised.isEmpty()) {
            return Optional.empty();
        }
        for (AnnotationExpr a : declaration.getAnnotations()) {
            for (String name : annotations.resolve(a).candidates()) {
                LockScope lock = advised.get(name);
                if (lock != null) {
                    return Optional.of(lock);
                }
            }
        }
        return Optional.empty();
    }

    private Map<String, LockScope> advised() {
        Map<String, LockScope> out = byAnnotation;
        if (out == null) {
            synchronized (this) {
                out = byAnnotation;
                if (out == null) {
                    out = collect();
                    byAnnotation = out;
                }
            }
        }
        return out;
    }

    private Map<String, LockScope> collect() {
        Map<String, LockScope> out = new LinkedHashMap<>();
        for (TypeInfo type : index.types()) {
            if (!annotations.has(type.declaration(), ASPECT)) {
                continue;
            }
            for (MethodInfo advice : type.methods()) {
                if (!(advice.declaration() instanceof MethodDeclaration declaration)) {
                    continue;
                }
                Optional<AnnotationExpr> around = annotations.find(declaration, AROUND);
                if (around.isEmpty()) {
                    continue;
                }
                LockScope lock = lockAroundProceed(advice);
                if (lock == null) {
                    continue;
                }
                String pointcut = pointcutText(type, around.get(), 0);
                Matcher m = ANNOTATION_DESIGNATOR.matcher(pointcut);
                while (m.find()) {
                    for (String name : boundAnnotation(declaration, m.group(1))) {
                        out.putIfAbsent(name, lock);
                    }
                }
            }
        }
        return Map.copyOf(out);
    }

    /** A waiting lock of the advice whose scope covers a {@code proceed()} call, else null. */
    private LockScope lockAroundProceed(MethodInfo advice) {
        if (advice.body() == null) {
            return null;
        }
        List<MethodCallExpr> proceeds = advice.body().findAll(MethodCallExpr.class,
                c -> c.getNameAsString().equals("proceed") && c.getScope().isPresent());
        for (LockScope scope : scopes.apply(advice)) {
            if (scope.waits() && scope.kind() != LockScope.Kind.ROW_LOCK
                    && proceeds.stream().anyMatch(p -> scope.covers().test(p))) {
                return scope;
            }
        }
        return null;
    }

    /** The pointcut expression of an advice, with a reference to a {@code @Pointcut} method of the aspect expanded. */
    private String pointcutText(TypeInfo aspect, AnnotationExpr annotation, int depth) {
        Expression value = Annotations.attribute(annotation, "value")
                .or(() -> Annotations.attribute(annotation, "pointcut")).orElse(null);
        if (!(value instanceof StringLiteralExpr literal)) {
            return "";
        }
        String text = literal.asString();
        if (depth > 2) {
            return text;
        }
        StringBuilder expanded = new StringBuilder(text);
        Matcher m = POINTCUT_REFERENCE.matcher(text);
        while (m.find()) {
            for (MethodInfo named : aspect.methodsNamed(m.group(1))) {
                if (named.declaration() instanceof MethodDeclaration d) {
                    annotations.find(d, POINTCUT).ifPresent(p -> expanded.append(' ').append(pointcutText(aspect, p, depth + 1)));
                }
            }
        }
        return expanded.toString();
    }

    /** {@code @annotation(x)}: the type of the advice's parameter {@code x}, or the type named {@code x}. */
    private List<String> boundAnnotation(MethodDeclaration advice, String token) {
        for (Parameter p : advice.getParameters()) {
            if (p.getNameAsString().equals(token)) {
                TypeRef ref = index.resolveType(p.getType(), p);
                return ref.candidates();
            }
        }
        var file = index.fileOf(advice);
        return file == null ? List.of() : index.resolveTypeName(token, advice, file).candidates();
    }
}
