package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.NameExpr;
import dev.racelint.analyzer.index.FileContext;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import dev.racelint.analyzer.resolve.ExpressionTyper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tree's message listeners by the destination constants they subscribe to: a constant of a
 * project type named in the listener's annotations or its class's ({@code @JmsListener(destination =
 * OrderMQ.NAME)}, {@code @RocketMQMessageListener(topic = OrderMQ.NAME)}). A publish is linked to its
 * in-tree consumers by a fact of the same kind: it passes that constant, or a message object whose
 * type declares the constant the listeners name.
 */
public final class MessageConsumers {

    /** Listeners by "owner#FIELD" of each destination constant they name. */
    private final Map<String, Set<MethodInfo>> byConstant = new LinkedHashMap<>();
    /** Listeners by the qualified name of the type declaring a constant they name. */
    private final Map<String, Set<MethodInfo>> byOwner = new LinkedHashMap<>();
    private final ProgramIndex index;

    MessageConsumers(ProgramIndex index, HandlerModel handlers) {
        this.index = index;
        for (MethodInfo method : index.methods()) {
            if (handlers.handler(method).filter(h -> h.kind() == Handler.Kind.MESSAGE).isEmpty()) {
                continue;
            }
            List<AnnotationExpr> annotations = new ArrayList<>();
            method.declaration().getAnnotations().forEach(annotations::add);
            method.declaringType().declaration().getAnnotations().forEach(annotations::add);
            for (AnnotationExpr annotation : annotations) {
                for (Expression value : annotation.findAll(Expression.class, e -> e instanceof FieldAccessExpr
                        || e instanceof NameExpr)) {
                    String key = constant(value, method.declaringType());
                    if (key != null) {
                        byConstant.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(method);
                        byOwner.computeIfAbsent(key.substring(0, key.indexOf('#')), k -> new LinkedHashSet<>())
                                .add(method);
                    }
                }
            }
        }
    }

    /**
     * The in-tree listeners that receive what a publish with these arguments sends: listeners naming a
     * constant passed as an argument, or a constant declared by an argument's (project) type.
     */
    public Set<MethodInfo> receiving(List<Expression> arguments, TypeInfo at, ExpressionTyper typer) {
        Set<MethodInfo> out = new LinkedHashSet<>();
        for (Expression argument : arguments) {
            String key = argument instanceof FieldAccessExpr || argument instanceof NameExpr ? constant(argument, at) : null;
            if (key != null) {
                out.addAll(byConstant.getOrDefault(key, Set.of()));
                continue;
            }
            TypeRef type = typer.typeOf(argument).type();
            if (type.isProject()) {
                out.addAll(byOwner.getOrDefault(type.project().qualifiedName(), Set.of()));
            }
        }
        return out;
    }

    /** "owner#FIELD" of the project constant {@code value} names where {@code at} is the enclosing type, else null. */
    private String constant(Expression value, TypeInfo at) {
        TypeInfo owner;
        String field;
        if (value instanceof FieldAccessExpr access) {
            if (access.getParentNode().orElse(null) instanceof FieldAccessExpr) {
                return null; // the inner part of a longer name: its whole is looked at
            }
            FileContext file = index.fileOf(value);
            if (file == null) {
                return null;
            }
            TypeRef ref = index.resolveTypeName(access.getScope().toString(), value, file);
            owner = ref.isProject() ? ref.project() : null;
            field = access.getNameAsString();
        } else if (value instanceof NameExpr name) {
            owner = at;
            field = name.getNameAsString();
        } else {
            return null;
        }
        if (owner == null) {
            return null;
        }
        ProgramIndex.FieldRef declared = index.findField(owner, field);
        return declared == null ? null : declared.owner().qualifiedName() + "#" + field;
    }
}
