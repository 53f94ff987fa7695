package dev.racelint.analyzer.tx;

import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import java.util.HashSet;
import java.util.Set;

/**
 * Project classes whose instances the code makes itself with {@code new}, never handed to a
 * container: no stereotype or CDI scope on the class, and no {@code new} of it inside a
 * {@code @Bean} or {@code @Produces} method. Calls on such an instance go to the object itself, so
 * no proxy applies its {@code @Transactional} (the transaction, if any, is the caller's). A class
 * declared as a bean in XML and also made with {@code new} elsewhere would be missed; the class
 * then needs a stereotype for racelint to see the bean.
 */
final class DirectInstances {

    static final Set<String> CONTAINER_MANAGED = Set.of(
            "org.springframework.stereotype.Component", "org.springframework.stereotype.Service",
            "org.springframework.stereotype.Repository", "org.springframework.stereotype.Controller",
            "org.springframework.web.bind.annotation.RestController",
            "org.springframework.context.annotation.Configuration",
            "jakarta.enterprise.context.ApplicationScoped", "javax.enterprise.context.ApplicationScoped",
            "jakarta.enterprise.context.RequestScoped", "javax.enterprise.context.RequestScoped",
            "jakarta.enterprise.context.Dependent", "javax.enterprise.context.Dependent",
            "jakarta.inject.Singleton", "javax.inject.Singleton", "jakarta.ejb.Stateless", "javax.ejb.Stateless",
            "jakarta.ejb.Stateful", "javax.ejb.Stateful", "jakarta.ejb.Singleton", "javax.ejb.Singleton");
    static final Set<String> FACTORY_METHODS = Set.of("org.springframework.context.annotation.Bean",
            "jakarta.enterprise.inject.Produces", "javax.enterprise.inject.Produces");

    private final ProgramIndex index;
    private final Annotations annotations;
    private volatile Set<TypeInfo> constructed;
    private volatile Set<TypeInfo> produced;

    DirectInstances(ProgramIndex index, Annotations annotations) {
        this.index = index;
        this.annotations = annotations;
    }

    /** Only ever made with {@code new} by the project's code (see the class comment). */
    boolean onlyConstructedDirectly(TypeInfo type) {
        if (constructed == null) {
            computeOnce();
        }
        return constructed.contains(type) && !produced.contains(type)
                && !annotations.has(type.declaration(), CONTAINER_MANAGED);
    }

    private synchronized void computeOnce() {
        if (constructed != null) {
            return;
        }
        Set<TypeInfo> made = new HashSet<>();
        Set<TypeInfo> factories = new HashSet<>();
        for (MethodInfo method : index.methods()) {
            boolean factory = method.declaration() instanceof MethodDeclaration decl
                    && annotations.has(decl, FACTORY_METHODS);
            for (ObjectCreationExpr creation : index.bodyNodes(method).creations()) {
                TypeRef ref = index.resolveType(creation.getType(), creation);
                if (ref.isProject()) {
                    (factory ? factories : made).add(ref.project());
                }
            }
        }
        produced = Set.copyOf(factories);
        constructed = Set.copyOf(made);
    }
}
