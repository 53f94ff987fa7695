package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.body.Parameter;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.Map;
import java.util.Optional;

/**
 * An entry point that the outside world calls: an HTTP endpoint, a message listener, or a webhook
 * (an HTTP POST endpoint that receives another system's deliveries).
 *
 * @param httpMethod    GET, POST, PUT, PATCH, DELETE for HTTP handlers, else null
 * @param path          the mapped path (class prefix included) when known, else ""
 * @param framework     "Spring MVC", "JAX-RS", "Kafka", "RabbitMQ", "JMS", "SQS"
 * @param headers       request headers taken as parameters, by lower-case header name
 * @param body          the request body parameter, if any
 * @param exclusive     for scheduled jobs: runs under a scheduler lock (ShedLock {@code @SchedulerLock},
 *                      Quartz {@code @DisallowConcurrentExecution})
 */
public record Handler(MethodInfo method, Kind kind, String httpMethod, String path, String framework,
        Map<String, Parameter> headers, Optional<Parameter> body, boolean exclusive) {

    /** HTTP endpoints (webhooks among them: {@link Webhooks}), message listeners, and jobs a scheduler starts. */
    public enum Kind { HTTP, MESSAGE, SCHEDULED }

    public String describe() {
        return switch (kind) {
            case HTTP -> httpMethod + " " + (path.isEmpty() ? "" : path + " ") + "handler "
                    + method.displayName();
            case MESSAGE -> framework + " listener " + method.displayName();
            case SCHEDULED -> framework + " job " + method.displayName();
        };
    }
}
