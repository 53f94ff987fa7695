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
 * @param asynchronous the catalogue lists the method as one that hands the work to a background
 *                 sender and returns a future at once ({@code asyncMethods}), and this call discards
 *                 that future: the caller does not wait for the remote side
 * @param runtimeVerb the HTTP method is converted from a value at run time ({@code HttpMethod.valueOf(
 *                 input.getMethod())}): the source of that expression, or null when the verb is a constant
 *                 or not the call's own argument. Such a call may be a read or a command; nothing in the
 *                 code tells which.
 * @param existenceGuard the call creates a resource only in the branch that an existence read of the same
 *                 resource decides ({@code if (!s3.doesBucketExistV2(bucket)) s3.createBucket(bucket)}, the
 *                 read listed for the create in the catalogue's {@code createIfAbsent}): the source of that
 *                 read, or null. A repeat finds the resource the first call created.
 */
public record ApiEffect(EffectKind kind, String detail, String label, String api, String apiKey, boolean readOnly,
        boolean asynchronous, String runtimeVerb, String existenceGuard) {

    public ApiEffect(EffectKind kind, String detail, String label, String api, String apiKey, boolean readOnly,
            boolean asynchronous) {
        this(kind, detail, label, api, apiKey, readOnly, asynchronous, null, null);
    }

    public ApiEffect(EffectKind kind, String detail, String label, String api, String apiKey) {
        this(kind, detail, label, api, apiKey, false, false);
    }

    public ApiEffect(EffectKind kind, String detail, String label, String api, String apiKey, boolean readOnly) {
        this(kind, detail, label, api, apiKey, readOnly, false);
    }

    public ApiEffect asReadOnly() {
        return new ApiEffect(kind, detail, label, api, apiKey, true, asynchronous, runtimeVerb, existenceGuard);
    }

    public ApiEffect asAsynchronous() {
        return new ApiEffect(kind, detail, label, api, apiKey, readOnly, true, runtimeVerb, existenceGuard);
    }

    public ApiEffect withRuntimeVerb(String verb) {
        return new ApiEffect(kind, detail, label, api, apiKey, readOnly, asynchronous, verb, existenceGuard);
    }

    public ApiEffect withExistenceGuard(String read) {
        return new ApiEffect(kind, detail, label, api, apiKey, readOnly, asynchronous, runtimeVerb, read);
    }
}
