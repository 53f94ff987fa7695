package dev.racelint.analyzer.handlers;

import dev.racelint.analyzer.index.MethodMemo;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Finds the handlers: Spring MVC and JAX-RS endpoints, message listeners, webhooks. */
public final class HandlerModel {

    private static final String WEB = "org.springframework.web.bind.annotation.";
    private static final Map<String, String> SPRING_MAPPINGS = Map.of(
            WEB + "PostMapping", "POST", WEB + "PutMapping", "PUT", WEB + "PatchMapping", "PATCH",
            WEB + "GetMapping", "GET", WEB + "DeleteMapping", "DELETE");
    private static final Set<String> REQUEST_MAPPING = Set.of(WEB + "RequestMapping");
    private static final Map<String, String> JAXRS = Map.of(
            "jakarta.ws.rs.POST", "POST", "jakarta.ws.rs.PUT", "PUT", "jakarta.ws.rs.PATCH", "PATCH",
            "jakarta.ws.rs.GET", "GET", "jakarta.ws.rs.DELETE", "DELETE",
            "javax.ws.rs.POST", "POST", "javax.ws.rs.PUT", "PUT", "javax.ws.rs.PATCH", "PATCH",
            "javax.ws.rs.GET", "GET", "javax.ws.rs.DELETE", "DELETE");
    private static final Set<String> JAXRS_PATH = Set.of("jakarta.ws.rs.Path", "javax.ws.rs.Path");
    private static final Map<String, String> LISTENERS = Map.of(
            "org.springframework.kafka.annotation.KafkaListener", "Kafka",
            "org.springframework.kafka.annotation.KafkaHandler", "Kafka",
            "org.springframework.amqp.rabbit.annotation.RabbitListener", "RabbitMQ",
            "org.springframework.amqp.rabbit.annotation.RabbitHandler", "RabbitMQ",
            "org.springframework.jms.annotation.JmsListener", "JMS",
            "io.awspring.cloud.sqs.annotation.SqsListener", "SQS");
    private static final Map<String, String> LISTENER_INTERFACES = Map.of(
            "jakarta.jms.MessageListener", "JMS", "javax.jms.MessageListener", "JMS",
            "org.springframework.amqp.core.MessageListener", "RabbitMQ",
            "org.springframework.amqp.rabbit.api.ChannelAwareMessageListener", "RabbitMQ",
            "org.springframework.amqp.rabbit.listener.api.ChannelAwareMessageListener", "RabbitMQ",
            "org.springframework.kafka.listener.MessageListener", "Kafka",
            "org.springframework.kafka.listener.AcknowledgingMessageListener", "Kafka",
            "org.apache.rocketmq.spring.core.RocketMQListener", "RocketMQ",
            "org.apache.rocketmq.spring.core.RocketMQReplyListener", "RocketMQ");
    /** Listener interfaces whose callback is {@code consumeMessage}: the RocketMQ push consumer's. */
    private static final Map<String, String> CONSUME_MESSAGE_INTERFACES = Map.of(
            "org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently", "RocketMQ",
            "org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly", "RocketMQ");
    private static final Set<String> REQUEST_HEADER = Set.of(WEB + "RequestHeader", "jakarta.ws.rs.HeaderParam",
            "javax.ws.rs.HeaderParam");
    private static final Set<String> REQUEST_BODY = Set.of(WEB + "RequestBody");
    private static final Set<String> JAXRS_NON_BODY = Set.of("jakarta.ws.rs.PathParam", "jakarta.ws.rs.QueryParam",
            "jakarta.ws.rs.HeaderParam", "jakarta.ws.rs.core.Context", "jakarta.ws.rs.FormParam", "jakarta.ws.rs.CookieParam",
            "javax.ws.rs.PathParam", "javax.ws.rs.QueryParam", "javax.ws.rs.HeaderParam", "javax.ws.rs.core.Context",
            "javax.ws.rs.FormParam", "jakarta.ws.rs.BeanParam", "jakarta.ws.rs.MatrixParam");
    private static final Set<String> SCHEDULED = Set.of("org.springframework.scheduling.annotation.Scheduled",
            "org.springframework.scheduling.annotation.Schedules");
    private static final Set<String> SCHEDULER_LOCK = Set.of("net.javacrumbs.shedlock.spring.annotation.SchedulerLock",
            "net.javacrumbs.shedlock.core.SchedulerLock");
    private static final Set<String> QUARTZ_JOB = Set.of("org.quartz.Job", "org.quartz.InterruptableJob",
            "org.springframework.scheduling.quartz.QuartzJobBean");
    private static final Set<String> DISALLOW_CONCURRENT = Set.of("org.quartz.DisallowConcurrentExecution");
    /** Quartz 1.x's form of {@code @DisallowConcurrentExecution}: the scheduler never runs one job detail twice at once. */
    private static final Set<String> STATEFUL_JOB = Set.of("org.quartz.StatefulJob");
    private static final Set<String> CACHEABLE = Set.of("org.springframework.cache.annotation.Cacheable");

    private final ProgramIndex index;
    private final Annotations annotations;
    private final MethodMemo<Optional<Handler>> memo;
    private InTreeRoutes routes;
    /** Which handlers admit only privileged callers; set once the call graph is there ({@link #usePrivileges}). */
    private volatile PrivilegedEntryPoints privileged = PrivilegedEntryPoints.NONE;
    private MessageConsumers consumers;

    public HandlerModel(ProgramIndex index) {
        this.index = index;
        this.annotations = new Annotations(index);
        this.memo = new MethodMemo<>(index);
    }

    public Optional<Handler> handler(MethodInfo method) {
        return memo.get(method, this::compute);
    }

    /** Gives the model the privileged entry points, which need the call graph built after it. */
    public void usePrivileges(PrivilegedEntryPoints entryPoints) {
        this.privileged = entryPoints;
    }

    /** The privileged entry points: what the handlers reaching a method require, when all of them require one. */
    public PrivilegedEntryPoints privileged() {
        return privileged;
    }

    /** The tree's HTTP handlers by verb and path, built on first use. */
    public synchronized InTreeRoutes routes() {
        if (routes == null) {
            routes = new InTreeRoutes(index, this);
        }
        return routes;
    }

    /** The tree's message listeners by the destination constants they name, built on first use. */
    public synchronized MessageConsumers consumers() {
        if (consumers == null) {
            consumers = new MessageConsumers(index, this);
        }
        return consumers;
    }

    private Optional<Handler> compute(MethodInfo method) {
        if (!(method.declaration() instanceof MethodDeclaration decl) || method.isAnonymous() || method.isStatic()) {
            return Optional.empty();
        }
        for (AnnotationExpr a : decl.getAnnotations()) {
            TypeRef ref = annotations.resolve(a);
            for (String name : ref.candidates()) {
                String verb = SPRING_MAPPINGS.get(name);
                if (verb == null && REQUEST_MAPPING.contains(name)) {
                    verb = Annotations.attribute(a, "method").map(v -> v.toString().replaceAll(".*\\.", ""))
                            .orElse(null);
                }
                if (verb != null) {
                    String path = joinPath(classPath(method, REQUEST_MAPPING), mappingPath(a));
                    return Optional.of(http(method, decl, verb, path, "Spring MVC"));
                }
                String jaxrs = JAXRS.get(name);
                if (jaxrs != null) {
                    String path = joinPath(classPath(method, JAXRS_PATH),
                            annotations.find(decl, JAXRS_PATH).map(HandlerModel::mappingPath).orElse(""));
                    return Optional.of(http(method, decl, jaxrs, path, "JAX-RS"));
                }
                String framework = LISTENERS.get(name);
                if (framework != null) {
                    return Optional.of(new Handler(method, Handler.Kind.MESSAGE, null, "", framework, Map.of(), Optional.empty(), false));
                }
            }
        }
        if (annotations.has(decl, SCHEDULED)) {
            return Optional.of(new Handler(method, Handler.Kind.SCHEDULED, null, "", "@Scheduled", Map.of(),
                    Optional.empty(), annotations.has(decl, SCHEDULER_LOCK)));
        }
        if ((method.name().equals("execute") || method.name().equals("executeInternal")) && method.parameterCount() == 1
                && index.isSubtypeOf(method.declaringType(), QUARTZ_JOB)) {
            boolean exclusive = exclusiveJob(method.declaringType()) || scheduledOnlyAsExclusive(method.declaringType());
            return Optional.of(new Handler(method, Handler.Kind.SCHEDULED, null, "", "Quartz", Map.of(),
                    Optional.empty(), exclusive || annotations.has(decl, SCHEDULER_LOCK)));
        }
        Map<String, String> callbackInterfaces = switch (method.name()) {
            case "onMessage" -> LISTENER_INTERFACES;
            case "consumeMessage" -> CONSUME_MESSAGE_INTERFACES;
            default -> Map.of();
        };
        if (!callbackInterfaces.isEmpty() && !method.isPrivate()) {
            for (TypeRef sup : index.supertypeClosure(method.declaringType())) {
                for (String name : sup.candidates()) {
                    String framework = callbackInterfaces.get(name);
                    if (framework != null) {
                        return Optional.of(new Handler(method, Handler.Kind.MESSAGE, null, "", framework, Map.of(),
                                Optional.empty(), false));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** The Quartz job class runs one execution at a time: {@code @DisallowConcurrentExecution} or {@code StatefulJob}. */
    private boolean exclusiveJob(dev.racelint.analyzer.index.TypeInfo type) {
        if (index.isSubtypeOf(type, STATEFUL_JOB)) {
            return true;
        }
        for (TypeRef sup : index.supertypeClosure(type)) {
            if (sup.isProject() && annotations.has(sup.project().declaration(), DISALLOW_CONCURRENT)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A job base class whose execute method the project's exclusive subclasses inherit, and that is
     * never itself named as a job class ({@code X.class} handed to Quartz): its runs happen as those
     * subclasses, under their one-at-a-time guarantee. A literal inside the class itself (its logger)
     * does not schedule it.
     */
    private boolean scheduledOnlyAsExclusive(dev.racelint.analyzer.index.TypeInfo type) {
        List<dev.racelint.analyzer.index.TypeInfo> subtypes = index.allSubtypes(type);
        if (subtypes.isEmpty() || !subtypes.stream().allMatch(this::exclusiveJob)) {
            return false;
        }
        for (dev.racelint.analyzer.index.FileContext file : index.files()) {
            for (com.github.javaparser.ast.expr.ClassExpr literal : file.unit().findAll(com.github.javaparser.ast.expr.ClassExpr.class)) {
                if (index.enclosingType(literal) == type) {
                    continue;
                }
                TypeRef named = index.resolveType(literal.getType(), literal);
                if (named.isProject() && named.project() == type) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * For a {@code @Cacheable} method: whether it asks for single-flight loading ({@code sync = true}).
     * Empty when the method is not {@code @Cacheable}.
     */
    public Optional<Boolean> cacheableSync(MethodInfo method) {
        if (!(method.declaration() instanceof MethodDeclaration decl)) {
            return Optional.empty();
        }
        return annotations.find(decl, CACHEABLE).map(a -> Annotations.attribute(a, "sync")
                .map(v -> v.toString().equals("true")).orElse(false));
    }

    private Handler http(MethodInfo method, MethodDeclaration decl, String verb, String path, String framework) {
        Map<String, Parameter> headers = new LinkedHashMap<>();
        Parameter body = null;
        for (Parameter p : decl.getParameters()) {
            Optional<AnnotationExpr> header = annotations.find(p, REQUEST_HEADER);
            if (header.isPresent()) {
                String name = Annotations.attribute(header.get(), "value")
                        .or(() -> Annotations.attribute(header.get(), "name"))
                        .filter(e -> e instanceof StringLiteralExpr).map(e -> ((StringLiteralExpr) e).asString())
                        .orElse(p.getNameAsString());
                headers.put(name.toLowerCase(Locale.ROOT), p);
                continue;
            }
            if (annotations.has(p, REQUEST_BODY)) {
                body = p;
            } else if (framework.equals("JAX-RS") && body == null && p.getAnnotations().stream()
                    .noneMatch(a -> annotations.resolve(a).candidates().stream().anyMatch(JAXRS_NON_BODY::contains))) {
                body = p;
            }
        }
        return new Handler(method, Handler.Kind.HTTP, verb, path, framework,
                Map.copyOf(headers), Optional.ofNullable(body), false);
    }

    private String classPath(MethodInfo method, Set<String> annotation) {
        return annotations.find(method.declaringType().declaration(), annotation).map(HandlerModel::mappingPath).orElse("");
    }

    /** A class prefix and a method path as the frameworks join them: one slash between, never none. */
    private static String joinPath(String prefix, String path) {
        if (prefix.isEmpty() || path.isEmpty() || prefix.endsWith("/") || path.startsWith("/")) {
            return prefix + path;
        }
        return prefix + "/" + path;
    }

    private static String mappingPath(AnnotationExpr a) {
        Optional<Expression> value = Annotations.attribute(a, "value").or(() -> Annotations.attribute(a, "path"));
        if (value.isEmpty()) {
            return "";
        }
        List<StringLiteralExpr> strings = value.get().findAll(StringLiteralExpr.class);
        if (value.get() instanceof StringLiteralExpr s) {
            return s.asString();
        }
        return strings.isEmpty() ? "" : strings.get(0).asString();
    }
}
