package dev.racelint.analyzer.report;

import static dev.racelint.analyzer.report.ReportFixtures.render;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The same report gives the same characters: twice with one writer, and with a new writer. */
class DeterminismTest {

    static Stream<Arguments> writers() {
        return Stream.of(
                Arguments.of("text", (Supplier<ReportWriter>) TextReportWriter::new),
                Arguments.of("text-color", (Supplier<ReportWriter>) () -> new TextReportWriter(true)),
                Arguments.of("json", (Supplier<ReportWriter>) JsonReportWriter::new),
                Arguments.of("sarif", (Supplier<ReportWriter>) SarifReportWriter::new));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writers")
    void sameReportSameOutput(String name, Supplier<ReportWriter> writers) {
        ReportWriter writer = writers.get();
        String first = render(writer, ReportFixtures.report());
        String second = render(writer, ReportFixtures.report());
        String third = render(writers.get(), ReportFixtures.report());
        assertThat(first).isNotEmpty();
        assertThat(second).isEqualTo(first);
        assertThat(third).isEqualTo(first);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writers")
    void emptyReportSameOutput(String name, Supplier<ReportWriter> writers) {
        assertThat(render(writers.get(), ReportFixtures.emptyReport()))
                .isEqualTo(render(writers.get(), ReportFixtures.emptyReport()));
    }
}
