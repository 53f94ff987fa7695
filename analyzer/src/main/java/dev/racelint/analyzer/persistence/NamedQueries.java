package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.index.Annotations;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The JPA named queries declared on the tree's entities ({@code @NamedQuery(name, query)}, also inside
 * {@code @NamedQueries}; {@code @NamedNativeQuery} as SQL), by name: what
 * {@code EntityManager.createNamedQuery(name)} runs.
 */
final class NamedQueries {

    /**
     * A declared query: its text as written in the annotation, whether it is JPQL (else native SQL), and
     * the entity that declares it (the one its JPQL names, when another entity elsewhere shares that name).
     */
    record Declared(Expression query, boolean jpql, EntityModel.Entity owner) {}

    private static final Set<String> JPQL = Set.of("jakarta.persistence.NamedQuery", "javax.persistence.NamedQuery",
            "org.hibernate.annotations.NamedQuery");
    private static final Set<String> NATIVE = Set.of("jakarta.persistence.NamedNativeQuery",
            "javax.persistence.NamedNativeQuery", "org.hibernate.annotations.NamedNativeQuery");

    private final Map<String, Declared> byName = new HashMap<>();

    NamedQueries(Annotations annotations, EntityModel entities) {
        for (EntityModel.Entity entity : entities.all()) {
            TypeDeclaration<?> decl = entity.type().declaration();
            for (AnnotationExpr annotation : decl.getAnnotations()) {
                // the annotation itself, or the ones a container (@NamedQueries({..})) holds
                for (AnnotationExpr a : annotation.findAll(AnnotationExpr.class)) {
                    var names = annotations.resolve(a).candidates();
                    boolean jpql = names.stream().anyMatch(JPQL::contains);
                    if (!jpql && names.stream().noneMatch(NATIVE::contains)) {
                        continue;
                    }
                    Optional<Expression> name = Annotations.attribute(a, "name");
                    Optional<Expression> query = Annotations.attribute(a, "query");
                    if (name.orElse(null) instanceof StringLiteralExpr n && query.isPresent()) {
                        byName.putIfAbsent(n.asString(), new Declared(query.get(), jpql, entity));
                    }
                }
            }
        }
    }

    Optional<Declared> byName(String name) {
        return Optional.ofNullable(byName.get(name));
    }
}
