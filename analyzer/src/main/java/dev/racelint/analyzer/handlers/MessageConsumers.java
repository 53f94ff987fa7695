package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
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
 * type declares the constant the listeners name. Or, where the project has its own envelope (a
 * {@code Request} with a body, dispatched to handlers by the body's type), by the envelope's types: the
 * publish passes a project envelope built around a body of type B, and the receivers are the methods
 * taking that envelope type as a parameter that downcast its content to B ({@code (B) request.getBody()}).
 */
public final class MessageConsumers {

    /** Listeners by "owner#FIELD" of each destination constant they name. */
    private final Map<String, Set<MethodInfo>> byConstant = new LinkedHashMap<>();
    /** Listeners by the qualified name of the type declaring a constant they name. */
    private final Map<String, Set<MethodInfo>> byOwner = new LinkedHashMap<>();
    private final ProgramIndex index;
    /** Methods by the qualified name of each project type one of their parameters has; built on first use. */
    private Map<String, Set<MethodInfo>> byParameterType;

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

    /**
     * The methods that receive a project envelope this publish sends and take its body out by type: an
     * argument of project type E built (in {@code publisher}) around a value of project type B, and a
     * method with a parameter of type E that casts something read from that parameter to B. Empty when
     * no argument is such an envelope.
     */
    public synchronized Set<MethodInfo> unwrapping(List<Expression> arguments, MethodInfo publisher, ExpressionTyper typer) {
        Set<MethodInfo> out = new LinkedHashSet<>();
        for (Expression argument : arguments) {
            TypeRef envelope = typer.typeOf(argument).type();
            if (!envelope.isProject()) {
                continue;
            }
            Set<String> bodies = new LinkedHashSet<>();
            contents(argument, publisher, typer, bodies, new LinkedHashSet<>());
            bodies.remove(envelope.project().qualifiedName());
            if (bodies.isEmpty()) {
                continue;
            }
            for (MethodInfo receiver : parameterTypes().getOrDefault(envelope.project().qualifiedName(), Set.of())) {
                if (receiver != publisher && castsParameterContent(receiver, envelope.project().qualifiedName(), bodies)) {
                    out.add(receiver);
                }
            }
        }
        return out;
    }

    /** Project types of the values {@code built} is made from: arguments of its calls and constructor, followed through local variables. */
    private void contents(Expression built, MethodInfo publisher, ExpressionTyper typer, Set<String> out, Set<String> seen) {
        for (Expression from : assignedValues(built, publisher, seen)) {
            List<Expression> parts = new ArrayList<>();
            for (Expression e = from; e != null; ) {
                if (e instanceof MethodCallExpr call) {
                    parts.addAll(call.getArguments());
                    e = call.getScope().orElse(null);
                } else if (e instanceof ObjectCreationExpr creation) {
                    parts.addAll(creation.getArguments());
                    e = null;
                } else {
                    e = null;
                }
            }
            for (Expression part : parts) {
                for (Expression value : assignedValues(part, publisher, seen)) {
                    TypeRef type = typer.typeOf(value).type();
                    if (type.isProject()) {
                        out.add(type.project().qualifiedName());
                    }
                }
                TypeRef declared = typer.typeOf(part).type();
                if (declared.isProject()) {
                    out.add(declared.project().qualifiedName());
                }
            }
        }
    }

    /** {@code value} itself, or for a local variable of {@code method} its initialiser and every value assigned to it. */
    private static List<Expression> assignedValues(Expression value, MethodInfo method, Set<String> seen) {
        if (!(value instanceof NameExpr name) || method.body() == null) {
            return List.of(value);
        }
        List<Expression> out = new ArrayList<>();
        if (!seen.add(name.getNameAsString())) {
            return out;
        }
        for (VariableDeclarator local : method.body().findAll(VariableDeclarator.class,
                v -> v.getNameAsString().equals(name.getNameAsString()))) {
            local.getInitializer().ifPresent(out::add);
        }
        for (AssignExpr assign : method.body().findAll(AssignExpr.class, a -> a.getTarget() instanceof NameExpr t
                && t.getNameAsString().equals(name.getNameAsString()))) {
            out.add(assign.getValue());
        }
        return out.isEmpty() ? List.of(value) : out;
    }

    private Map<String, Set<MethodInfo>> parameterTypes() {
        if (byParameterType == null) {
            byParameterType = new LinkedHashMap<>();
            for (MethodInfo method : index.methods()) {
                for (Parameter parameter : method.declaration().getParameters()) {
                    TypeRef type = index.resolveType(parameter.getType(), parameter);
                    if (type.isProject()) {
                        byParameterType.computeIfAbsent(type.project().qualifiedName(), k -> new LinkedHashSet<>()).add(method);
                    }
                }
            }
        }
        return byParameterType;
    }

    /** Does {@code method} cast a value read from its parameter of type {@code envelope} to one of {@code bodies}? */
    private boolean castsParameterContent(MethodInfo method, String envelope, Set<String> bodies) {
        Node body = method.body();
        if (body == null) {
            return false;
        }
        Set<String> names = new LinkedHashSet<>();
        for (Parameter parameter : method.declaration().getParameters()) {
            TypeRef type = index.resolveType(parameter.getType(), parameter);
            if (type.isProject() && type.project().qualifiedName().equals(envelope)) {
                names.add(parameter.getNameAsString());
            }
        }
        for (CastExpr cast : body.findAll(CastExpr.class)) {
            TypeRef target = index.resolveType(cast.getType(), cast);
            if (target.isProject() && bodies.contains(target.project().qualifiedName())
                    && !(cast.getExpression() instanceof NameExpr)
                    && cast.getExpression().findAll(NameExpr.class, n -> names.contains(n.getNameAsString())).size() > 0) {
                return true;
            }
        }
        return false;
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
