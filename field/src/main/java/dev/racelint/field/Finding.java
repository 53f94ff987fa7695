package dev.racelint.field;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** One finding of racelint's JSON report: its rule, where it is, the places its trace passes, and its level. */
record Finding(String rule, String file, int line, String method, String message, List<Place> trace, String level) {

    record Place(String file, int line) {}

    /** A warning. */
    Finding(String rule, String file, int line, String method, String message, List<Place> trace) {
        this(rule, file, line, method, message, trace, "warning");
    }

    /** Whether a default scan ({@code --min-level warning}) reports it: a warning or an error, not a note. */
    boolean reportedByDefault() {
        return !level.equals("note");
    }

    /** Whether the finding's own line or, when {@code alongTrace}, any step of its trace lies in the label. */
    boolean matches(Label label, boolean alongTrace) {
        if (!rule.equals(label.rule())) {
            return false;
        }
        if (label.covers(file, line)) {
            return true;
        }
        return alongTrace && trace.stream().anyMatch(p -> label.covers(p.file(), p.line()));
    }

    /** The findings of a report written by {@code racelint scan --format json}. */
    static List<Finding> readReport(Path json) throws IOException {
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<Finding> findings = new ArrayList<>();
        for (JsonNode f : report.path("findings")) {
            List<Place> trace = new ArrayList<>();
            for (String list : List.of("path", "related")) {
                for (JsonNode step : f.path(list)) {
                    trace.add(new Place(step.path("file").asText(), step.path("line").asInt()));
                }
            }
            findings.add(new Finding(f.path("ruleId").asText(), f.path("file").asText(), f.path("startLine").asInt(),
                    f.path("method").asText(""), f.path("message").asText(""), List.copyOf(trace),
                    f.path("level").asText("warning")));
        }
        return findings;
    }
}
