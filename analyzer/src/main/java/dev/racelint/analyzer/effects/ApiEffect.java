package dev.racelint.analyzer.effects;

/**
 * The effect of one catalogued external method.
 *
 * @param kind     what it does
 * @param detail   sub-kind: {@code http}, {@code publish}, {@code mail}, {@code rpc}, {@code sdk}...
 * @param label    how messages name the sub-kind: "HTTP", "broker publish", "mail"...
 * @param api      how messages name the method: {@code HttpClient.send()}
 * @param apiKey   stable identity: {@code java.net.http.HttpClient#send}
 * @param readOnly the call has safe HTTP semantics (GET, HEAD, OPTIONS), decided from the API's
 *                 method, its {@code HttpMethod} argument or the client interface's annotation
 */
public record ApiEffect(EffectKind kind, String detail, String label, String api, String apiKey, boolean readOnly) {

    public ApiEffect(EffectKind kind, String detail, String label, String api, String apiKey) {
        this(kind, detail, label, api, apiKey, false);
    }

    public ApiEffect asReadOnly() {
        return new ApiEffect(kind, detail, label, api, apiKey, true);
    }
}
