package dev.racelint.analyzer.baseline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.report.AtomicReplace;
import dev.racelint.analyzer.report.ReportPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Known findings, accepted for now: a reviewable JSON file of entries (rule, file, method,
 * fingerprint, message), sorted so that an update shows as a clean diff. A scan with a baseline
 * reports only findings whose fingerprint is not in it. The fingerprint is the rule, the enclosing
 * method's signature and the normalised statement, so moving code or adding lines above it keeps
 * the match; the file and message are there for the reader.
 */
public final class Baseline {

    public static final int FORMAT_VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** One accepted finding. */
    public record Entry(String ruleId, String file, String method, String fingerprint, String message) {}

    /**
     * What a baseline did to a run.
     *
     * @param fresh     findings not in the baseline: the ones to report
     * @param baselined findings the baseline accepts
     * @param fixed     baseline entries no finding matched any more (fixed, or the code is gone)
     */
    public record Outcome(List<Finding> fresh, List<Finding> baselined, List<Entry> fixed) {}

    private final List<Entry> entries;

    private Baseline(List<Entry> entries) {
        this.entries = entries.stream().sorted(ORDER).toList();
    }

    private static final Comparator<Entry> ORDER = Comparator.comparing(Entry::file).thenComparing(Entry::ruleId)
            .thenComparing(Entry::method).thenComparing(Entry::fingerprint).thenComparing(Entry::message);

    public static Baseline of(List<Finding> findings, Path root) {
        List<Entry> entries = new ArrayList<>();
        for (Finding f : findings) {
            entries.add(new Entry(f.ruleId(), ReportPaths.display(root, f.primary().file()), f.enclosingMethod(),
                    f.fingerprint(), f.message().plain()));
        }
        return new Baseline(entries);
    }

    public List<Entry> entries() {
        return entries;
    }

    /** Splits findings into new and baselined; each entry accepts as many findings as it was written for. */
    public Outcome apply(List<Finding> findings) {
        Map<String, Integer> remaining = new HashMap<>();
        for (Entry e : entries) {
            remaining.merge(key(e.ruleId(), e.fingerprint()), 1, Integer::sum);
        }
        List<Finding> fresh = new ArrayList<>();
        List<Finding> baselined = new ArrayList<>();
        for (Finding f : findings) {
            String key = key(f.ruleId(), f.fingerprint());
            Integer left = remaining.get(key);
            if (left != null && left > 0) {
                remaining.put(key, left - 1);
                baselined.add(f);
            } else {
                fresh.add(f);
            }
        }
        List<Entry> fixed = new ArrayList<>();
        Map<String, Integer> unmatched = new HashMap<>(remaining);
        for (Entry e : entries) {
            String key = key(e.ruleId(), e.fingerprint());
            int left = unmatched.getOrDefault(key, 0);
            if (left > 0) {
                fixed.add(e);
                unmatched.put(key, left - 1);
            }
        }
        return new Outcome(fresh, baselined, fixed);
    }

    private static String key(String rule, String fingerprint) {
        return rule + '\n' + fingerprint;
    }

    // ---- file format ---------------------------------------------------------------------------

    public String toJson() {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("racelintBaseline", FORMAT_VERSION);
        ArrayNode list = doc.putArray("findings");
        for (Entry e : entries) {
            ObjectNode n = list.addObject();
            n.put("rule", e.ruleId());
            n.put("file", e.file());
            n.put("method", e.method());
            n.put("fingerprint", e.fingerprint());
            n.put("message", e.message());
        }
        try {
            return JSON.writeValueAsString(doc).replace("\r\n", "\n") + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes through a temporary file and a rename, so an interrupted write leaves the old file whole. */
    public void write(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path temp = Files.createTempFile(parent, ".racelint-baseline", ".tmp");
        try {
            Files.writeString(temp, toJson(), StandardCharsets.UTF_8);
            AtomicReplace.move(temp, file);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** Reads a baseline file; a file that is not one fails with a message naming the problem. */
    public static Baseline read(Path file) throws IOException {
        JsonNode doc;
        try {
            doc = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new InvalidBaselineException(file + ":" + e.getLocation().getLineNr() + ": not valid JSON: "
                    + e.getOriginalMessage());
        }
        if (doc == null || !doc.isObject() || !doc.path("racelintBaseline").isInt()) {
            throw new InvalidBaselineException(file + ": not a racelint baseline (no \"racelintBaseline\" version)");
        }
        int version = doc.get("racelintBaseline").asInt();
        if (version != FORMAT_VERSION) {
            throw new InvalidBaselineException(file + ": baseline format " + version + " is not supported (this racelint reads "
                    + FORMAT_VERSION + ")");
        }
        List<Entry> entries = new ArrayList<>();
        int i = 0;
        for (JsonNode n : doc.path("findings")) {
            i++;
            String rule = n.path("rule").asText("");
            String fingerprint = n.path("fingerprint").asText("");
            if (rule.isEmpty() || fingerprint.isEmpty()) {
                throw new InvalidBaselineException(file + ": entry " + i + " has no rule or fingerprint");
            }
            entries.add(new Entry(rule, n.path("file").asText(""), n.path("method").asText(""), fingerprint,
                    n.path("message").asText("")));
        }
        return new Baseline(entries);
    }

    /** The file given as a baseline is not one. */
    public static final class InvalidBaselineException extends IOException {
        public InvalidBaselineException(String message) {
            super(message);
        }
    }
}
