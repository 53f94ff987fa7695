package dev.racelint.maven;

import dev.racelint.analyzer.report.HtmlReportWriter;
import dev.racelint.analyzer.report.JsonReportWriter;
import dev.racelint.analyzer.report.ReportWriter;
import dev.racelint.analyzer.report.SarifReportWriter;
import dev.racelint.analyzer.report.TextReportWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The report files the plugin can write into {@code outputDirectory}. */
enum OutputFormat {
    SARIF("racelint.sarif"), JSON("racelint.json"), TEXT("racelint.txt"), HTML("racelint.html");

    /** The file name in the output directory. */
    final String fileName;

    /**
     * The file name in a folder that several modules write to: {@code racelint-<artifactId>.sarif},
     * so that no module overwrites another's report.
     */
    String fileName(String module) {
        return module == null ? fileName : fileName.replace("racelint.", "racelint-" + module + ".");
    }

    OutputFormat(String fileName) {
        this.fileName = fileName;
    }

    ReportWriter writer() {
        return switch (this) {
            case SARIF -> new SarifReportWriter();
            case JSON -> new JsonReportWriter();
            case TEXT -> new TextReportWriter(false);
            case HTML -> new HtmlReportWriter();
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a comma-separated list such as {@code sarif,json}, in order, without repeats. Blank
     * text (or {@code none}) means no report file.
     *
     * @throws IllegalArgumentException naming the unknown format and the valid ones
     */
    static Set<OutputFormat> parseList(String text) {
        Set<OutputFormat> formats = new LinkedHashSet<>();
        if (text == null || text.isBlank() || text.strip().equalsIgnoreCase("none")) {
            return formats;
        }
        List<String> unknown = new ArrayList<>();
        for (String part : text.split(",")) {
            String name = part.strip();
            if (name.isEmpty()) {
                continue;
            }
            try {
                formats.add(valueOf(name.toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown output format" + (unknown.size() == 1 ? " '" + unknown.get(0) + "'"
                    : "s " + unknown.stream().map(f -> "'" + f + "'").collect(Collectors.joining(", ")))
                    + " in outputFormats (racelint.outputFormats); valid formats: "
                    + Arrays.stream(values()).map(OutputFormat::toString).collect(Collectors.joining(", ")));
        }
        return formats;
    }
}
