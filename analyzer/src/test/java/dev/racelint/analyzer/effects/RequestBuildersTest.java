package dev.racelint.analyzer.effects;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.expr.MethodCallExpr;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The HTTP method of a request a client's builder made, followed through locals and same-class helpers
 * (JDK HttpClient, OkHttp), the read methods of the cloud SDKs, and token requests by their grant type.
 */
class RequestBuildersTest {

    private static final String JDK = "java.net.http.HttpClient";
    private static final String OKHTTP = "okhttp3.OkHttpClient";

    private final ApiCatalogue catalogue = ApiCatalogue.builtIn();

    @Test
    void jdkRequestBuiltWithGetInALocalIsARead() {
        assertThat(readOnly(JDK, "send", """
                HttpRequest.Builder b = HttpRequest.newBuilder().uri(uri).GET();
                b.header("Accept", "application/json");
                return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
                """)).isTrue();
        assertThat(readOnly(JDK, "send", """
                HttpRequest request = HttpRequest.newBuilder(uri).build();
                return http.send(request, HttpResponse.BodyHandlers.ofString());
                """)).as("no method set: the builder's default, GET").isTrue();
        assertThat(readOnly(JDK, "send", """
                return http.send(HttpRequest.newBuilder(uri).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), h);
                """)).isTrue();
    }

    @Test
    void jdkRequestWithAnUnsafeOrUnknownMethodIsNot() {
        assertThat(readOnly(JDK, "send", """
                HttpRequest.Builder b = HttpRequest.newBuilder().uri(uri);
                b.POST(HttpRequest.BodyPublishers.ofString(body));
                return http.send(b.build(), h);
                """)).as("the verb set on a later line").isFalse();
        assertThat(readOnly(JDK, "send", """
                return http.send(HttpRequest.newBuilder(uri).method(verb, HttpRequest.BodyPublishers.noBody()).build(), h);
                """)).as("a verb chosen at run time").isFalse();
        assertThat(readOnly(JDK, "send", """
                return http.send(given, h);
                """)).as("a request from elsewhere").isFalse();
        assertThat(readOnly(JDK, "send", """
                HttpRequest.Builder b = HttpRequest.newBuilder().uri(uri).GET();
                decorate(b);
                return http.send(b.build(), h);
                """)).as("the builder handed to another class's method").isFalse();
    }

    @Test
    void okHttpRequestThroughAHelperIsReadOrCommandByItsBuilder() {
        assertThat(readOnly(OKHTTP, "newCall", """
                Request.Builder rb = new Request.Builder().url(url).get();
                addHeaders(rb);
                return client.newCall(rb.build()).execute();
                """)).isTrue();
        assertThat(readOnly(OKHTTP, "newCall", """
                return client.newCall(build(url)).execute();
                """)).as("a helper that returns the request").isTrue();
        assertThat(readOnly(OKHTTP, "newCall", """
                Request.Builder rb = new Request.Builder().url(url);
                addPost(rb);
                return client.newCall(rb.build()).execute();
                """)).as("a helper that sets POST on the builder it is handed").isFalse();
        assertThat(readOnly(OKHTTP, "newCall", """
                return client.newCall(new Request.Builder().url(url).post(body).build()).execute();
                """)).isFalse();
    }

    @Test
    void cloudSdkReadActionsAreReadsAndCommandsAreNot() {
        assertThat(sdk("software.amazon.awssdk.services.s3.S3Client", "s3.getObject(request)")).isTrue();
        assertThat(sdk("software.amazon.awssdk.services.s3.S3Client", "s3.headObject(request)")).isTrue();
        assertThat(sdk("software.amazon.awssdk.services.s3.S3Client", "s3.createMultipartUpload(request)")).isFalse();
        assertThat(sdk("com.amazonaws.services.s3.AmazonS3", "s3.doesBucketExistV2(bucket)")).isTrue();
        assertThat(sdk("com.amazonaws.services.s3.AmazonS3", "s3.createBucket(bucket)")).isFalse();
        assertThat(sdk("com.google.cloud.storage.Storage", "storage.signUrl(info, 15, TimeUnit.MINUTES)")).isTrue();
        assertThat(sdk("com.google.cloud.storage.Storage", "storage.create(info, bytes)")).isFalse();
    }

    @Test
    void aTokenRequestIsReadOnlyByItsGrantType() {
        assertThat(token("""
                MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
                form.add("grant_type", "client_credentials");
                return rest.exchange(tokenUrl, HttpMethod.POST, new HttpEntity<>(form, headers), Map.class);
                """)).isTrue();
        assertThat(token("""
                return rest.exchange(tokenUrl + "?grant_type=client_credentials", HttpMethod.POST, entity, Map.class);
                """)).isTrue();
        assertThat(token("""
                MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
                form.add("grant_type", "authorization_code_exchange");
                form.add("amount", amount);
                return rest.exchange(url, HttpMethod.POST, new HttpEntity<>(form, headers), Map.class);
                """)).as("another grant type value").isFalse();
        assertThat(token("""
                return rest.exchange(url + "?kind=client_credentials", HttpMethod.POST, entity, Map.class);
                """)).as("the value under another parameter").isFalse();
    }

    private boolean token(String body) {
        MethodCallExpr call = callIn(body, "exchange");
        ApiCatalogue.Match match = catalogue.match(List.of("org.springframework.web.client.RestTemplate"), List.of("exchange"));
        return catalogue.effectAt(match, call).readOnly();
    }

    private boolean sdk(String type, String expression) {
        MethodCallExpr call = StaticJavaParser.parseExpression(expression).asMethodCallExpr();
        ApiCatalogue.Match match = catalogue.match(List.of(type), List.of(call.getNameAsString()));
        assertThat(match).as(expression).isNotNull();
        return catalogue.effectAt(match, call).readOnly();
    }

    private boolean readOnly(String type, String method, String body) {
        MethodCallExpr call = callIn(body, method);
        ApiCatalogue.Match match = catalogue.match(List.of(type), List.of(method, "execute"));
        assertThat(match).isNotNull();
        return catalogue.effectAt(match, call).readOnly();
    }

    private static MethodCallExpr callIn(String body, String method) {
        CompilationUnit unit = StaticJavaParser.parse("""
                class Sender {
                    Object send(Object http, Object client, Object rest, java.net.URI uri, String url, Object given,
                            Object h, String verb, String body, String tokenUrl, Object headers, Object entity,
                            String amount) throws Exception {
                %s
                    }
                    void addHeaders(Request.Builder b) { b.header("Accept", "application/json"); }
                    void addPost(Request.Builder b) { b.post(RequestBody.create(new byte[0])); }
                    Request build(String u) { return new Request.Builder().url(u).head().build(); }
                }
                """.formatted(body));
        return unit.findAll(MethodCallExpr.class).stream().filter(c -> c.getNameAsString().equals(method)).findFirst()
                .orElseThrow();
    }
}
