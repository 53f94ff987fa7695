package dev.racelint.analyzer.baseline;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
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
        Map<String, Integer> remaining = counts(entries);
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
        return new Baseline(located(Files.readString(file, StandardCharsets.UTF_8), file.toString()).stream()
                .map(Located::entry).toList());
    }

    /** An entry and the line of the file it starts on. */
    public record Located(Entry entry, int line) {}

    /**
     * The entries of a baseline's text in file order, each with its line (diff mode points a reviewer
     * at the entries a change adds).
     *
     * @param shownAs the file's name for messages
     */
    public static List<Located> located(String text, String shownAs) throws InvalidBaselineException {
        List<Located> entries = new ArrayList<>();
        JsonNode version = null;
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw notBaseline(shownAs);
            }
            int i = 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("racelintBaseline")) {
                    version = p.readValueAsTree();
                } else if (name.equals("findings") && value == JsonToken.START_ARRAY) {
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        i++;
                        int line = p.currentTokenLocation().getLineNr();
                        JsonNode n = p.readValueAsTree();
                        String rule = n.path("rule").asText("");
                        String fingerprint = n.path("fingerprint").asText("");
                        if (rule.isEmpty() || fingerprint.isEmpty()) {
                            throw new InvalidBaselineException(shownAs + ": entry " + i + " has no rule or fingerprint");
                        }
                        entries.add(new Located(new Entry(rule, n.path("file").asText(""), n.path("method").asText(""),
                                fingerprint, n.path("message").asText("")), line));
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (JsonProcessingException e) {
            throw new InvalidBaselineException(shownAs + ":" + (e.getLocation() == null ? 0 : e.getLocation().getLineNr())
                    + ": not valid JSON: " + e.getOriginalMessage());
        } catch (InvalidBaselineException e) {
            throw e;
        } catch (IOException e) {
            throw new InvalidBaselineException(shownAs + ": " + e.getMessage());
        }
        if (version == null || !version.isInt()) {
            throw notBaseline(shownAs);
        }
        if (version.asInt() != FORMAT_VERSION) {
            throw new InvalidBaselineException(shownAs + ": baseline format " + version.asInt() + " is not supported (this "
                    + "racelint reads " + FORMAT_VERSION + ")");
        }
        return entries;
    }

    private static InvalidBaselineException notBaseline(String shownAs) {
        return new InvalidBaselineException(shownAs + ": not a racelint baseline (no \"racelintBaseline\" version)");
    }

    /** The number of entries per rule and fingerprint: how many findings each accepts. */
    public static Map<String, Integer> counts(List<Entry> entries) {
        Map<String, Integer> out = new HashMap<>();
        for (Entry e : entries) {
            out.merge(key(e.ruleId(), e.fingerprint()), 1, Integer::sum);
        }
        return out;
    }

    /** The key {@link #counts} uses for an entry or a finding. */
    public static String key(String rule, String fingerprint) {
        return rule + '\n' + fingerprint;
    }

    /** The file given as a baseline is not one. */
    public static final class InvalidBaselineException extends IOException {
        public InvalidBaselineException(String message) {
            super(message);
        }
    }
}
