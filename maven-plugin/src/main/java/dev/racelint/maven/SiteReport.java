package dev.racelint.maven;

import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.report.ReportText;
import dev.racelint.analyzer.report.ScanReport;
import dev.racelint.analyzer.report.TextReportWriter;
import java.nio.file.Path;
import org.apache.maven.doxia.sink.Sink;

/**
 * The "racelint" page of {@code mvn site}: the summary line, then one table row per finding (rule,
 * level, file:line, message, fix). Text goes through {@link Sink#text}, which escapes it, and through
 * {@link ReportText#terminal}, so nothing from the scanned tree becomes markup or a control sequence.
 */
final class SiteReport {

    private SiteReport() {}

    static void render(Sink sink, ScanReport report, String module, boolean skipped) {
        sink.head();
        sink.title();
        sink.text("racelint: " + module);
        sink.title_();
        sink.head_();
        sink.body();
        sink.section1();
        sink.sectionTitle1();
        sink.text("racelint");
        sink.sectionTitle1_();
        sink.paragraph();
        if (report == null) {
            sink.text(skipped ? "Skipped (racelint.skip=true)." : "Nothing analysed: the module has no source folders.");
        } else {
            sink.text(TextReportWriter.summary(report, "-Dracelint.minLevel="));
        }
        sink.paragraph_();
        if (report != null && !report.findings().isEmpty()) {
            sink.table();
            sink.tableRows(null, false);
            sink.tableRow();
            for (String header : new String[] {"Rule", "Level", "Where", "Finding", "Fix"}) {
                sink.tableHeaderCell();
                sink.text(header);
                sink.tableHeaderCell_();
            }
            sink.tableRow_();
            for (Finding finding : report.findings()) {
                sink.tableRow();
                cell(sink, finding.ruleId());
                cell(sink, finding.level().name().toLowerCase(java.util.Locale.ROOT));
                cell(sink, where(report.sourceRoot(), finding));
                cell(sink, finding.message().plain());
                cell(sink, finding.fix());
                sink.tableRow_();
            }
            sink.tableRows_();
            sink.table_();
        }
        sink.section1_();
        sink.body_();
        sink.flush();
    }

    private static void cell(Sink sink, String text) {
        sink.tableCell();
        sink.text(ReportText.terminal(text));
        sink.tableCell_();
    }

    /** file:line relative to the source root, as the other reports name it. */
    static String where(Path root, Finding finding) {
        Path file = finding.primary().file().toAbsolutePath().normalize();
        Path base = root.toAbsolutePath().normalize();
        String shown = file.startsWith(base) ? base.relativize(file).toString().replace('\\', '/') : file.getFileName().toString();
        return shown + ":" + finding.primary().region().startLine();
    }
}
