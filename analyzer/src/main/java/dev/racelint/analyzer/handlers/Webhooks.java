package dev.racelint.analyzer.handlers;

import dev.racelint.analyzer.effects.EffectKind;

/**
 * Which HTTP handlers are webhooks: calls from a sender that redelivers until it gets a success, so
 * they are consumers of at-least-once deliveries. Decided from what the handler does, not from its
 * path or names: a POST handler that (itself or through its callees) verifies the sender's signature
 * - a {@code SENDER_VERIFICATION} effect of the catalogue, or an API declared
 * {@code webhook-signature} in racelint.yml. A POST that merely says "notify" or "callback" is a
 * user's request (an operator's resend button, a test message), and nothing redelivers it.
 */
public final class Webhooks {

    private Webhooks() {}

    public static boolean isWebhook(Handler handler, Reachability reachability) {
        return handler.kind() == Handler.Kind.HTTP && "POST".equals(handler.httpMethod())
                && reachability.effects(handler.method(), false).stream()
                        .anyMatch(r -> r.item().effect().kind() == EffectKind.SENDER_VERIFICATION);
    }
}
