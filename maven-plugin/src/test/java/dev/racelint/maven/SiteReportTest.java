package dev.racelint.maven;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.report.ScanReport;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.maven.doxia.sink.Sink;
import org.apache.maven.reporting.MavenReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report goal as a site report: what it writes to the site plugin's Doxia sink. */
class SiteReportTest {

    @TempDir
    Path repo;

    private static final String CHECKOUT = """
            package demo;

            import org.springframework.transaction.annotation.Transactional;
            import org.springframework.web.client.RestTemplate;

            public class CheckoutService {
                private final RestTemplate rest = new RestTemplate();
                private final org.springframework.jdbc.core.JdbcTemplate jdbc = null;

                @Transactional
                public void checkout(String orderId) {
                    jdbc.update("UPDATE orders SET state = 'PAYING' WHERE id = ?", orderId);
                    rest.postForObject("http://payments/charge", orderId, String.class);
                }
            }
            """;

    /** A sink that records the events, text as "text:..." */
    private static Sink recording(List<String> events) {
        return (Sink) Proxy.newProxyInstance(Sink.class.getClassLoader(), new Class<?>[] {Sink.class},
                (proxy, method, args) -> {
                    events.add(method.getName().equals("text") ? "text:" + args[0] : method.getName());
                    return null;
                });
    }

    @Test
    void theSitePageListsEachFindingWithItsPlaceAndFix() throws Exception {
        Path file = repo.resolve("src/main/java/demo/CheckoutService.java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, CHECKOUT, StandardCharsets.UTF_8);
        RuleRegistry registry = RuleRegistry.load(SiteReportTest.class.getClassLoader());
        ModuleScan.Request request = new ModuleScan.Request(List.of(repo.resolve("src/main/java")), List.of(), false,
                List.of(), List.of(), RuleSelection.resolve(registry, List.of(), List.of()), repo, null, null, "test", 1);
        ScanReport report = ModuleScan.run(request, registry).report();
        assertThat(report.findings()).hasSize(1);

        List<String> events = new ArrayList<>();
        SiteReport.render(recording(events), report, "shop", false);

        assertThat(events).containsSubsequence("head", "title", "text:racelint: shop", "title_", "body", "section1",
                "table", "tableRow", "tableCell", "text:io-in-transaction", "tableCell_", "tableCell", "text:error",
                "tableCell_", "tableCell", "text:src/main/java/demo/CheckoutService.java:11", "tableCell_", "table_",
                "section1_", "body_");
        assertThat(events).anyMatch(e -> e.startsWith("text:checkout() runs inside a transaction"));
        assertThat(events).anyMatch(e -> e.startsWith("text:racelint: 1 finding") || e.startsWith("text:1 finding"));

        List<String> empty = new ArrayList<>();
        SiteReport.render(recording(empty), null, "shop", true);
        assertThat(empty).contains("text:Skipped (racelint.skip=true).").doesNotContain("table");
    }

    @Test
    void theReportGoalIsASiteReport() {
        ReportMojo mojo = new ReportMojo();
        assertThat(mojo).isInstanceOf(MavenReport.class);
        assertThat(mojo.getOutputName()).isEqualTo("racelint");
        assertThat(mojo.getCategoryName()).isEqualTo(MavenReport.CATEGORY_PROJECT_REPORTS);
        assertThat(mojo.isExternalReport()).isFalse();
        assertThat(Set.of(mojo.getName(java.util.Locale.ROOT))).containsExactly("racelint");
    }
}
