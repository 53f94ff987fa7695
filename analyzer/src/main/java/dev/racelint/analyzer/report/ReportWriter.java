package dev.racelint.analyzer.report;

import java.io.IOException;
import java.io.Writer;

/** Renders a scan report in one output format. Output must be deterministic for the same input. */
public interface ReportWriter {
    void write(ScanReport report, Writer out) throws IOException;
}
