package dev.racelint.analyzer.effects;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.config.ProjectConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTP calls with safe semantics (GET, HEAD, OPTIONS) are told from the API's method and its HTTP-method argument. */
class ApiCatalogueReadOnlyTest {

    private static final String REST_TEMPLATE = "org.springframework.web.client.RestTemplate";
    private static final String WEB_CLIENT = "org.springframework.web.reactive.function.client.WebClient";

    @TempDir
    Path tree;

    @Test
    void restTemplateReadMethodsAndGetExchangesAreReadOnly() {
        ApiCatalogue catalogue = ApiCatalogue.builtIn();

        assertThat(readOnly(catalogue, REST_TEMPLATE, "rest.getForObject(url, String.class)")).isTrue();
        assertThat(readOnly(catalogue, REST_TEMPLATE, "rest.headForHeaders(url)")).isTrue();
        assertThat(readOnly(catalogue, REST_TEMPLATE, "rest.exchange(url, HttpMethod.GET, null, String.class)")).isTrue();
        assertThat(readOnly(catalogue, REST_TEMPLATE, "rest.postForObject(url, body, String.class)")).isFalse();
        assertThat(readOnly(catalogue, REST_TEMPLATE, "rest.exchange(url, HttpMethod.POST, body, String.class)")).isFalse();
        assertThat(readOnly(catalogue, REST_TEMPLATE, "rest.exchange(url, method, body, String.class)"))
                .as("a method chosen at run time is not known to be safe").isFalse();
    }

    @Test
    void webClientGetIsReadOnlyAndPostIsNot() {
        ApiCatalogue catalogue = ApiCatalogue.builtIn();

        assertThat(readOnly(catalogue, WEB_CLIENT, "web.get().uri(url).retrieve().bodyToMono(String.class).block()")).isTrue();
        assertThat(readOnly(catalogue, WEB_CLIENT, "web.method(HttpMethod.HEAD).uri(url).retrieve().toBodilessEntity().block()"))
                .isTrue();
        assertThat(readOnly(catalogue, WEB_CLIENT, "web.post().uri(url).retrieve().bodyToMono(String.class).block()")).isFalse();
    }

    @Test
    void aDeclaredHttpReadApiIsReadOnlyAndADeclaredHttpApiIsNot() throws Exception {
        Path file = tree.resolve("racelint.yml");
        Files.writeString(file, """
                apis:
                  "com.acme.rates.RatesClient#*": http-read
                  "com.acme.payments.PaymentsClient#*": http
                """);
        ApiCatalogue catalogue = ApiCatalogue.builtIn();
        ProjectConfig.read(file, Path.of("racelint.yml"), List.of(tree)).extend(catalogue);

        assertThat(readOnly(catalogue, "com.acme.rates.RatesClient", "rates.current(currency)")).isTrue();
        assertThat(readOnly(catalogue, "com.acme.payments.PaymentsClient", "payments.charge(card)")).isFalse();
    }

    @Test
    void aDeclarationOverridesTheBuiltInEntryForTheSameMethod() throws Exception {
        Path file = tree.resolve("racelint.yml");
        Files.writeString(file, """
                apis:
                  "software.amazon.awssdk.services.s3.S3Client#createMultipartUpload": http-read
                """);
        ApiCatalogue catalogue = ApiCatalogue.builtIn();
        String s3 = "software.amazon.awssdk.services.s3.S3Client";
        assertThat(readOnly(catalogue, s3, "s3.createMultipartUpload(request)")).isFalse();
        ProjectConfig.read(file, Path.of("racelint.yml"), List.of(tree)).extend(catalogue);

        assertThat(readOnly(catalogue, s3, "s3.createMultipartUpload(request)")).isTrue();
        assertThat(readOnly(catalogue, s3, "s3.copyObject(request)")).as("the other methods keep the built-in entry").isFalse();
    }

    private static boolean readOnly(ApiCatalogue catalogue, String type, String expression) {
        MethodCallExpr call = StaticJavaParser.parseExpression(expression).asMethodCallExpr();
        while (call.getScope().orElse(null) instanceof MethodCallExpr inner) {
            call = inner;
        }
        ApiCatalogue.Match match = catalogue.match(List.of(type), chain(call));
        assertThat(match).as(expression).isNotNull();
        ApiEffect effect = match.effect(call);
        assertThat(effect.kind()).isEqualTo(EffectKind.NETWORK);
        return effect.readOnly();
    }

    /** The method names along the chain from the receiver's call outwards. */
    private static List<String> chain(MethodCallExpr first) {
        List<String> names = new java.util.ArrayList<>();
        com.github.javaparser.ast.Node current = first;
        while (current instanceof MethodCallExpr call) {
            names.add(call.getNameAsString());
            com.github.javaparser.ast.Node parent = call.getParentNode().orElse(null);
            current = parent instanceof MethodCallExpr outer && outer.getScope().orElse(null) == call ? outer : null;
        }
        return names;
    }
}
