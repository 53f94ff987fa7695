package dev.racelint.analyzer.effects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Type patterns come from the scanned tree's racelint.yml: matching one can never stall the scan. */
class ApiCatalogueTypePatternTest {

    private static final String BACKTRACKING = "**a**a**a**a**a**a**a**a**a**a**a**aZ";
    private static final String LONG_NAME = "com." + "a".repeat(100);

    @Test
    void aBacktrackingDeclaredTypePatternAnswersAtOnceOnALongName() throws Exception {
        ApiCatalogue catalogue = ApiCatalogue.builtIn();
        catalogue.loadDeclared(declaring(BACKTRACKING));

        assertTimeoutPreemptively(Duration.ofSeconds(1), () -> {
            assertThat(catalogue.declares(LONG_NAME)).isFalse();
            assertThat(catalogue.match(List.of(LONG_NAME), List.of("call"))).isNull();
        });
        assertThat(catalogue.declares(LONG_NAME + "Z")).isTrue();
    }

    @Test
    void typePatternsMatchAsDocumented() throws Exception {
        ApiCatalogue catalogue = ApiCatalogue.builtIn();
        catalogue.loadDeclared(declaring("com.acme.*Client"));

        assertThat(catalogue.declares("com.acme.PaymentsClient")).isTrue();
        assertThat(catalogue.declares("com.acme.payments.PaymentsClient")).isFalse();
        assertThat(catalogue.match(List.of("com.acme.PaymentsClient"), List.of("call")).method()).isEqualTo("call");
        assertThat(catalogue.match(List.of("software.amazon.awssdk.services.s3.S3Client"), List.of("putObject")))
                .as("the built-in software.amazon.awssdk.services.*.*Client").isNotNull();
    }

    private static JsonNode declaring(String typePattern) throws Exception {
        return new ObjectMapper().readTree("""
                {"apis": [{"types": ["%s"], "methods": ["*"], "effect": "NETWORK", "detail": "http", "label": "HTTP"}]}
                """.formatted(typePattern));
    }
}
