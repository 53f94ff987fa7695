package dev.racelint.analyzer.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.finding.Level;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A project's {@code racelint.yml} (or {@code .racelint.yml}) at the scanned root: which rules run
 * and at what level, what to leave out, and the team's own wrappers that racelint should treat as
 * network I/O, publishing, locks, transactions or idempotency stores.
 *
 * <pre>
 * rules:
 *   cache-stampede: off          # off | on | error | warning | note
 *   unjittered-retry: error
 * exclude:
 *   - "**&#47;generated/**"
 * apis:
 *   "com.acme.payments.PaymentsClient#*": http
 *   "com.acme.locks.ClusterLock#acquire": lock
 * </pre>
 *
 * The file is read as a YAML token stream (no object is ever constructed from it), and every
 * problem is reported with its line: an unknown key, a value of the wrong type, an unknown rule
 * id or kind.
 */
public final class ProjectConfig {

    public static final List<String> FILE_NAMES = List.of("racelint.yml", ".racelint.yml", "racelint.yaml", ".racelint.yaml");

    /** What a declared API does, as the config spells it, and how it maps onto the catalogue. */
    public enum ApiKind {
        HTTP("NETWORK", "http", "HTTP"),
        PUBLISH("NETWORK", "publish", "broker publish"),
        MAIL("NETWORK", "mail", "mail"),
        RPC("NETWORK", "rpc", "RPC"),
        NETWORK("NETWORK", "network", "network call"),
        SLEEP("SLEEP", "sleep", "sleep"),
        ASYNC("HANDOFF", "async", "runs on another thread"),
        TRANSACTION("TRANSACTION_CALLBACK", "transaction", "runs in a transaction"),
        LOCK("LOCK", "lock", "lock"),
        UNLOCK("UNLOCK", "unlock", "unlock"),
        IDEMPOTENCY_STORE("IDEMPOTENCY_CLAIM", "idempotency-store", "idempotency key claim");

        final String effect;
        final String detail;
        final String label;

        ApiKind(String effect, String detail, String label) {
            this.effect = effect;
            this.detail = detail;
            this.label = label;
        }

        public String spelling() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        static Optional<ApiKind> parse(String text) {
            for (ApiKind k : values()) {
                if (k.spelling().equals(text.strip().toLowerCase(Locale.ROOT))) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }
    }

    /** A declared API: {@code type#method} ({@code *} for every method) and what calling it does. */
    public record Api(String type, String method, ApiKind kind, int line) {}

    /** A problem in the file, with where it is. */
    public static final class ConfigException extends IOException {
        private final Path file;
        private final int line;

        public ConfigException(Path file, int line, String message) {
            super(file + (line > 0 ? ":" + line : "") + ": " + message);
            this.file = file;
            this.line = line;
        }

        public Path file() {
            return file;
        }

        public int line() {
            return line;
        }
    }

    private final Path file;
    private final Map<String, String> ruleSettings;
    private final Map<String, Integer> ruleLines;
    private final List<String> excludes;
    private final List<Integer> excludeLines;
    private final List<Api> apis;

    private ProjectConfig(Path file, Map<String, String> ruleSettings, Map<String, Integer> ruleLines,
            List<String> excludes, List<Integer> excludeLines, List<Api> apis) {
        this.file = file;
        this.ruleSettings = Collections.unmodifiableMap(ruleSettings);
        this.ruleLines = ruleLines;
        this.excludes = List.copyOf(excludes);
        this.excludeLines = List.copyOf(excludeLines);
        this.apis = List.copyOf(apis);
    }

    /** The config file at {@code root}, if there is one. */
    public static Optional<Path> find(Path root) {
        Path dir = root.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            dir = dir.getParent();
        }
        for (String name : FILE_NAMES) {
            Path candidate = dir.resolve(name);
            if (Files.isRegularFile(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    public Path file() {
        return file;
    }

    public List<String> excludes() {
        return excludes;
    }

    public List<Api> apis() {
        return apis;
    }

    /** The line each of {@link #excludes()} is written on (0 when not known). */
    public List<Integer> excludeLines() {
        return excludeLines;
    }

    /** The line a rule's setting is written on, or 0 when the file does not set the rule. */
    public int ruleLine(String ruleId) {
        return ruleLines.getOrDefault(ruleId, 0);
    }

    /** Rule id to "off", "on", or a level name, as written. */
    public Map<String, String> ruleSettings() {
        return ruleSettings;
    }

    /** The rules the file switches off. */
    public Set<String> disabledRules() {
        Set<String> out = new TreeSet<>();
        ruleSettings.forEach((id, v) -> {
            if (v.equals("off")) {
                out.add(id);
            }
        });
        return out;
    }

    /** The level the file sets for a rule, if it changes it. */
    public Optional<Level> levelOf(String ruleId) {
        String v = ruleSettings.get(ruleId);
        if (v == null) {
            return Optional.empty();
        }
        return switch (v) {
            case "error" -> Optional.of(Level.ERROR);
            case "warning" -> Optional.of(Level.WARNING);
            case "note" -> Optional.of(Level.NOTE);
            default -> Optional.empty();
        };
    }

    /** Checks the rule ids against the installed ones; an unknown id is an error at its line. */
    public void checkRuleIds(Set<String> known) throws ConfigException {
        for (Map.Entry<String, String> e : ruleSettings.entrySet()) {
            if (!known.contains(e.getKey())) {
                throw new ConfigException(file, ruleLines.getOrDefault(e.getKey(), 0), "unknown rule id '" + e.getKey()
                        + "' under rules" + dev.racelint.analyzer.rule.RuleIds.didYouMean(e.getKey(), known)
                        + "; valid ids: " + String.join(", ", new TreeSet<>(known)));
            }
        }
    }

    /** Adds the declared APIs to a catalogue, in the built-in catalogue's format. */
    public void extend(ApiCatalogue catalogue) {
        if (apis.isEmpty()) {
            return;
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode doc = json.createObjectNode();
        ArrayNode list = doc.putArray("apis");
        for (Api api : apis) {
            ObjectNode n = list.addObject();
            n.putArray("types").add(api.type());
            n.putArray("methods").add(api.method());
            n.put("effect", api.kind().effect);
            n.put("detail", api.kind().detail);
            n.put("label", api.kind().label + ", declared in " + file.getFileName());
        }
        catalogue.loadDeclared(doc);
    }

    /** The result with the levels this file sets: on each finding and on the rule's metadata. */
    public dev.racelint.analyzer.AnalysisResult applyLevels(dev.racelint.analyzer.AnalysisResult result) {
        if (ruleSettings.values().stream().noneMatch(v -> v.equals("error") || v.equals("warning") || v.equals("note"))) {
            return result;
        }
        List<dev.racelint.analyzer.rule.RuleDescriptor> rules = new ArrayList<>();
        for (var d : result.rules()) {
            Level level = levelOf(d.id()).orElse(d.level());
            rules.add(new dev.racelint.analyzer.rule.RuleDescriptor(d.id(), d.name(), d.shape(), d.title(), d.description(),
                    level, d.precision(), d.cwe(), d.tags(), d.fix(), d.helpMarkdown()));
        }
        List<dev.racelint.analyzer.finding.Finding> findings = new ArrayList<>();
        for (var f : result.findings()) {
            findings.add(withLevel(f));
        }
        List<dev.racelint.analyzer.suppress.SuppressedFinding> suppressed = new ArrayList<>();
        for (var s : result.suppressed()) {
            suppressed.add(new dev.racelint.analyzer.suppress.SuppressedFinding(withLevel(s.finding()), s.suppression()));
        }
        return new dev.racelint.analyzer.AnalysisResult(rules, findings, result.diagnostics(), result.sourceRoot(),
                result.filesAnalysed(), result.methodsAnalysed(), result.timingsMillis(), suppressed, result.fromCache(),
                result.treesFromCache());
    }

    private dev.racelint.analyzer.finding.Finding withLevel(dev.racelint.analyzer.finding.Finding f) {
        Level level = levelOf(f.ruleId()).orElse(f.level());
        return level == f.level() ? f : new dev.racelint.analyzer.finding.Finding(f.ruleId(), level, f.message(), f.primary(),
                f.related(), f.codeFlow(), f.fix(), f.fingerprint(), f.enclosingMethod(), f.otherFlows());
    }

    /** A short account for the scan's stderr: which file, and what it changes. */
    public String describe(Path root) {
        Path shown = file;
        try {
            shown = root.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize());
        } catch (IllegalArgumentException e) {
            // another drive: show it whole
        }
        return "config " + shown + " (" + ruleSettings.size() + " rule setting" + (ruleSettings.size() == 1 ? "" : "s")
                + ", " + excludes.size() + " exclude" + (excludes.size() == 1 ? "" : "s") + ", " + apis.size() + " declared API"
                + (apis.size() == 1 ? "" : "s") + ")";
    }

    // ---- reading -------------------------------------------------------------------------------

    public static ProjectConfig read(Path file) throws IOException {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(file, reader);
        }
    }

    /**
     * Reads a config's text obtained elsewhere (diff mode: the file at the base revision, from git).
     *
     * @param file where the file is in the work tree, for messages and {@link #file()}
     */
    public static ProjectConfig read(Path file, String text) throws IOException {
        return read(file, new java.io.StringReader(text));
    }

    private static ProjectConfig read(Path file, Reader reader) throws IOException {
        try (JsonParser p = new YAMLFactory().createParser(reader)) {
            Map<String, String> rules = new LinkedHashMap<>();
            Map<String, Integer> ruleLines = new LinkedHashMap<>();
            List<String> excludes = new ArrayList<>();
            List<Integer> excludeLines = new ArrayList<>();
            List<Api> apis = new ArrayList<>();
            JsonToken first = p.nextToken();
            if (first == null) {
                return new ProjectConfig(file, rules, ruleLines, excludes, excludeLines, apis); // an empty file: all defaults
            }
            if (first != JsonToken.START_OBJECT) {
                throw error(p, file, "expected a mapping of settings (rules, exclude, apis) at the top level");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                int keyLine = line(p);
                JsonToken value = p.nextToken();
                switch (key) {
                    case "rules" -> readRules(p, file, value, rules, ruleLines);
                    case "exclude", "excludes" -> readStrings(p, file, value, key, excludes, excludeLines);
                    case "apis" -> readApis(p, file, value, apis);
                    case "version" -> {
                        if (value != JsonToken.VALUE_NUMBER_INT || p.getIntValue() != 1) {
                            throw error(p, file, "version must be 1");
                        }
                    }
                    default -> throw new ConfigException(file, keyLine, "unknown key '" + key
                            + "' (expected: version, rules, exclude, apis)");
                }
            }
            return new ProjectConfig(file, rules, ruleLines, excludes, excludeLines, apis);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new ConfigException(file, at == null ? 0 : at.getLineNr(), "not valid YAML: " + e.getOriginalMessage());
        }
    }

    private static void readRules(JsonParser p, Path file, JsonToken value, Map<String, String> rules,
            Map<String, Integer> lines) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return; // "rules:" with everything below commented out
        }
        if (value != JsonToken.START_OBJECT) {
            throw error(p, file, "'rules' must be a mapping of rule id to off, on, error, warning or note");
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String id = p.currentName();
            int at = line(p);
            JsonToken v = p.nextToken();
            String setting = switch (v) {
                case VALUE_FALSE -> "off";
                case VALUE_TRUE -> "on";
                case VALUE_STRING -> p.getText().strip().toLowerCase(Locale.ROOT);
                default -> throw error(p, file, "rule '" + id + "' must be off, on, error, warning or note");
            };
            if (!Set.of("off", "on", "error", "warning", "note").contains(setting)) {
                throw error(p, file, "rule '" + id + "': '" + p.getText() + "' is not one of off, on, error, warning, note");
            }
            rules.put(id, setting);
            lines.put(id, at);
        }
    }

    private static void readStrings(JsonParser p, Path file, JsonToken value, String key, List<String> out,
            List<Integer> lines) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value == JsonToken.VALUE_STRING) {
            out.add(p.getText());
            lines.add(line(p));
            return;
        }
        if (value != JsonToken.START_ARRAY) {
            throw error(p, file, "'" + key + "' must be a list of glob patterns");
        }
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.VALUE_STRING) {
                throw error(p, file, "'" + key + "' entries must be strings (glob patterns)");
            }
            out.add(p.getText());
            lines.add(line(p));
        }
    }

    private static void readApis(JsonParser p, Path file, JsonToken value, List<Api> out) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_OBJECT) {
            throw error(p, file, "'apis' must be a mapping of \"com.acme.Type#method\" to a kind ("
                    + kinds() + ")");
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String target = p.currentName().strip();
            int at = line(p);
            JsonToken v = p.nextToken();
            if (v != JsonToken.VALUE_STRING) {
                throw error(p, file, "'" + target + "' must map to a kind (" + kinds() + ")");
            }
            ApiKind kind = ApiKind.parse(p.getText()).orElseThrow(() -> new ConfigException(file, at,
                    "unknown kind '" + safeText(p) + "' for " + target + " (expected one of " + kinds() + ")"));
            int hash = target.indexOf('#');
            String type = hash < 0 ? target : target.substring(0, hash);
            String method = hash < 0 ? "*" : target.substring(hash + 1);
            if (type.isEmpty() || method.isEmpty() || !type.matches("[\\w.$*]+") || !method.matches("[\\w$*]+")) {
                throw new ConfigException(file, at, "'" + target + "' is not a qualified type name with an optional #method "
                        + "(for example com.acme.payments.PaymentsClient#charge or com.acme.payments.PaymentsClient#*)");
            }
            out.add(new Api(type, method, kind, at));
        }
    }

    private static String safeText(JsonParser p) {
        try {
            return p.getText();
        } catch (IOException e) {
            return "?";
        }
    }

    private static String kinds() {
        List<String> names = new ArrayList<>();
        for (ApiKind k : ApiKind.values()) {
            names.add(k.spelling());
        }
        return String.join(", ", names);
    }

    private static int line(JsonParser p) {
        JsonLocation at = p.currentTokenLocation();
        return at == null ? 0 : at.getLineNr();
    }

    private static ConfigException error(JsonParser p, Path file, String message) {
        return new ConfigException(file, line(p), message);
    }
}
