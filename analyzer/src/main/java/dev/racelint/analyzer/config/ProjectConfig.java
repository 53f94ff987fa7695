package dev.racelint.analyzer.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.racelint.analyzer.AnalysisLimits;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.finding.Level;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
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
 * limits:
 *   reach-depth: 10              # see AnalysisLimits
 * </pre>
 *
 * The file is read as a YAML token stream (no object is ever constructed from it), and every
 * problem is reported with its line: an unknown key, a value of the wrong type, an unknown rule
 * id or kind. The file usually comes from the scanned tree, which a pull request controls: it is
 * refused above {@link #MAX_FILE_BYTES} before it is parsed, and when it leads out of the tree
 * through a symbolic link; text quoted from it in a message is clipped and its control characters
 * escaped.
 */
public final class ProjectConfig {

    public static final List<String> FILE_NAMES = List.of("racelint.yml", ".racelint.yml", "racelint.yaml", ".racelint.yaml");

    /** A real configuration takes a few hundred bytes; a larger file is refused before it is parsed. */
    public static final int MAX_FILE_BYTES = 256 * 1024;

    /**
     * At most this many exclude globs, and this many declared APIs: matching is linear in each pattern,
     * but its cost multiplies with their number and the names matched, so a file from the tree must not
     * be able to declare thousands (a real one declares a handful).
     */
    public static final int MAX_PATTERNS = 500;

    /** The longest exclude glob or declared API target (type pattern and method). */
    public static final int MAX_PATTERN_CHARS = 256;

    /** The settings are two levels deep: YAML nested deeper than this is refused by the parser. */
    private static final int MAX_NESTING = 16;

    /** How much of a key or value from the file a message quotes. */
    private static final int MAX_QUOTED = 80;

    private static final YAMLFactory YAML = yamlFactory();

    /** What a declared API does, as the config spells it, and how it maps onto the catalogue. */
    public enum ApiKind {
        HTTP("NETWORK", "http", "HTTP"),
        /** A remote call with GET semantics: still I/O, but repeating it changes nothing remotely. */
        HTTP_READ("NETWORK", "http", "HTTP read"),
        PUBLISH("NETWORK", "publish", "broker publish"),
        MAIL("NETWORK", "mail", "mail"),
        RPC("NETWORK", "rpc", "RPC"),
        NETWORK("NETWORK", "network", "network call"),
        SLEEP("SLEEP", "sleep", "sleep"),
        ASYNC("HANDOFF", "async", "runs on another thread"),
        TRANSACTION("TRANSACTION_CALLBACK", "transaction", "runs in a transaction"),
        LOCK("LOCK", "lock", "lock"),
        UNLOCK("UNLOCK", "unlock", "unlock"),
        IDEMPOTENCY_STORE("IDEMPOTENCY_CLAIM", "idempotency-store", "idempotency key claim"),
        LEADERSHIP("OWNERSHIP_CHECK", "leadership", "leadership or ownership check"),
        EXCLUSIVE_CREATE("EXCLUSIVE_CREATE", "exclusive-create", "create that fails when the record exists"),
        WEBHOOK_SIGNATURE("SENDER_VERIFICATION", "webhook-signature", "webhook signature check");

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

    /** An {@code exclude} glob and the line it is on. */
    public record Exclude(String glob, int line) {}

    /** A {@code limits:} setting and the line it is on. */
    public record LimitSetting(AnalysisLimits.Limit limit, int value, int line) {}

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
    /** How messages name the file: relative to the source root when it is in the tree. */
    private final Path shown;
    private final Map<String, String> ruleSettings;
    private final Map<String, Integer> ruleLines;
    private final List<Exclude> excludes;
    private final List<Api> apis;
    /** {@code coverage: inert:} type patterns the coverage summary takes as inert (no blind spots). */
    private final List<String> inertTypes;
    private final List<LimitSetting> limitSettings;
    /** {@code minLevel:}, the least severe level reported, or null when the file does not set it. */
    private Level minLevel;
    private int minLevelLine;
    /** {@code authorization:} the team's own annotations that admit only callers holding an authority. */
    private List<String> authorizationAnnotations = List.of();

    private ProjectConfig(Path file, Path shown, Map<String, String> ruleSettings, Map<String, Integer> ruleLines,
            List<Exclude> excludes, List<Api> apis, List<String> inertTypes, List<LimitSetting> limitSettings) {
        this.file = file;
        this.shown = shown;
        this.ruleSettings = Collections.unmodifiableMap(ruleSettings);
        this.ruleLines = ruleLines;
        this.excludes = List.copyOf(excludes);
        this.apis = List.copyOf(apis);
        this.inertTypes = List.copyOf(inertTypes);
        this.limitSettings = List.copyOf(limitSettings);
    }

    /**
     * The config file at {@code root}, if there is one. A symbolic link by one of the names counts
     * even when it leads nowhere, so that {@link #read(Path, Path, List)} refuses it with a message
     * instead of the scan going on silently without it.
     */
    public static Optional<Path> find(Path root) {
        Path dir = root.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            dir = dir.getParent();
        }
        for (String name : FILE_NAMES) {
            Path candidate = dir.resolve(name);
            if (Files.isRegularFile(candidate) || Files.isSymbolicLink(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The config file for a scan of {@code start}: the first folder from {@code start} up to and
     * including {@code top} (the source root: the repository's root) that has one, so that a root
     * {@code racelint.yml} also applies when one module or subfolder is scanned. Nothing above
     * {@code top} is looked at (it lies outside the scanned tree); a {@code start} outside {@code top}
     * is looked at alone.
     */
    public static Optional<Path> findUpwards(Path start, Path top) {
        Path dir = start.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            dir = dir.getParent();
        }
        Path stop = top == null ? dir : top.toAbsolutePath().normalize();
        if (!dir.startsWith(stop)) {
            return find(dir);
        }
        for (Path folder = dir; folder != null && folder.startsWith(stop); folder = folder.getParent()) {
            Optional<Path> here = find(folder);
            if (here.isPresent()) {
                return here;
            }
        }
        return Optional.empty();
    }

    public Path file() {
        return file;
    }

    public List<String> excludes() {
        return excludes.stream().map(Exclude::glob).toList();
    }

    /** The exclude globs with their lines. */
    public List<Exclude> excludeEntries() {
        return excludes;
    }

    /** Where the file sets an exclude glob ({@code racelint.yml:4}), if it does. */
    public Optional<String> whereExcluded(String glob) {
        return excludes.stream().filter(e -> e.glob().equals(glob)).findFirst().map(e -> shown + ":" + e.line());
    }

    public List<Api> apis() {
        return apis;
    }

    /** The types ({@code coverage: inert:}, qualified names or globs) the coverage summary never counts as blind spots. */
    public List<String> inertTypes() {
        return inertTypes;
    }

    /** The least severe level the file asks to report ({@code minLevel:}), if it sets one. */
    public Optional<Level> minLevel() {
        return Optional.ofNullable(minLevel);
    }

    /** The line {@code minLevel:} is written on, 0 when the file does not set it. */
    public int minLevelLine() {
        return minLevelLine;
    }

    /** The annotation types ({@code authorization:}) the file declares as admitting only privileged callers. */
    public List<String> authorizationAnnotations() {
        return authorizationAnnotations;
    }

    /** The {@code limits:} the file sets, in file order. */
    public List<LimitSetting> limitSettings() {
        return limitSettings;
    }

    /** {@code base} with the limits this file sets. */
    public AnalysisLimits limits(AnalysisLimits base) {
        AnalysisLimits out = base;
        for (LimitSetting s : limitSettings) {
            out = out.with(s.limit(), s.value());
        }
        return out;
    }

    /** The line each of {@link #excludes()} is written on (0 when not known). */
    public List<Integer> excludeLines() {
        return excludes.stream().map(Exclude::line).toList();
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
                // the edit distance costs the id's length times each known one's: not worth it for a long one
                String nearest = e.getKey().length() > MAX_QUOTED ? ""
                        : dev.racelint.analyzer.rule.RuleIds.didYouMean(e.getKey(), known);
                throw new ConfigException(shown, ruleLines.getOrDefault(e.getKey(), 0), "unknown rule id '"
                        + quote(e.getKey()) + "' under rules" + nearest + "; valid ids: "
                        + String.join(", ", new TreeSet<>(known)));
            }
        }
    }

    /** Adds the declared APIs to a catalogue, in the built-in catalogue's format. */
    public void extend(ApiCatalogue catalogue) {
        if (apis.isEmpty() && authorizationAnnotations.isEmpty()) {
            return;
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode doc = json.createObjectNode();
        if (!authorizationAnnotations.isEmpty()) {
            // a team's annotation: its presence is the requirement, its string values (if any) name the authority
            ObjectNode entry = doc.putArray("authorization").addObject();
            authorizationAnnotations.forEach(entry.putArray("annotations")::add);
            entry.put("form", "marker");
        }
        ArrayNode list = doc.putArray("apis");
        for (Api api : apis) {
            ObjectNode n = list.addObject();
            n.putArray("types").add(api.type());
            n.putArray("methods").add(api.method());
            n.put("effect", api.kind().effect);
            if (api.kind() == ApiKind.HTTP_READ) {
                n.putArray("readMethods").add("*");
            }
            n.put("detail", api.kind().detail);
            n.put("label", api.kind().label + ", declared in " + file.getFileName());
        }
        catalogue.loadDeclared(doc);
    }

    /** The built-in API catalogue with the wrappers {@code config} declares (null: none). */
    public static ApiCatalogue catalogue(ProjectConfig config) {
        ApiCatalogue catalogue = ApiCatalogue.builtIn();
        if (config != null) {
            config.extend(catalogue);
        }
        return catalogue;
    }

    /** The coverage summary's data, with the {@code coverage: inert:} types of {@code config} (null: none). */
    public static dev.racelint.analyzer.coverage.CoverageCatalogue coverageCatalogue(ProjectConfig config) {
        return config == null ? dev.racelint.analyzer.coverage.CoverageCatalogue.builtIn()
                : dev.racelint.analyzer.coverage.CoverageCatalogue.withInert(config.inertTypes());
    }

    /** The result with the levels this file sets: on each finding and on the rule's metadata. */
    public dev.racelint.analyzer.AnalysisResult applyLevels(dev.racelint.analyzer.AnalysisResult result) {
        if (ruleSettings.values().stream().noneMatch(v -> v.equals("error") || v.equals("warning") || v.equals("note"))) {
            return result;
        }
        List<dev.racelint.analyzer.rule.RuleDescriptor> rules = new ArrayList<>();
        java.util.Map<String, Level> ownLevels = new java.util.HashMap<>();
        for (var d : result.rules()) {
            ownLevels.put(d.id(), d.level());
            Level level = levelOf(d.id()).orElse(d.level());
            rules.add(new dev.racelint.analyzer.rule.RuleDescriptor(d.id(), d.name(), d.shape(), d.title(), d.description(),
                    level, d.precision(), d.cwe(), d.tags(), d.fix(), d.helpMarkdown()));
        }
        List<dev.racelint.analyzer.finding.Finding> findings = new ArrayList<>();
        for (var f : result.findings()) {
            findings.add(withLevel(f, ownLevels.get(f.ruleId())));
        }
        List<dev.racelint.analyzer.suppress.SuppressedFinding> suppressed = new ArrayList<>();
        for (var s : result.suppressed()) {
            suppressed.add(new dev.racelint.analyzer.suppress.SuppressedFinding(
                    withLevel(s.finding(), ownLevels.get(s.finding().ruleId())), s.suppression()));
        }
        return new dev.racelint.analyzer.AnalysisResult(rules, findings, result.diagnostics(), result.sourceRoot(),
                result.filesAnalysed(), result.methodsAnalysed(), result.timingsMillis(), suppressed, result.fromCache(),
                result.treesFromCache(), result.coverage());
    }

    /**
     * {@code f} at the level this file sets for its rule. A finding the rule itself put below its own
     * level (a note whose message names the fact that makes its harm small) keeps that level: the
     * setting is the rule's severity, and the message must stay true ({@code --min-level note} shows them).
     */
    private dev.racelint.analyzer.finding.Finding withLevel(dev.racelint.analyzer.finding.Finding f, Level ruleOwnLevel) {
        if (ruleOwnLevel != null && !f.level().isAtLeast(ruleOwnLevel)) {
            return f;
        }
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
                + (apis.size() == 1 ? "" : "s")
                + (limitSettings.isEmpty() ? "" : ", " + limitSettings.size() + " limit" + (limitSettings.size() == 1 ? "" : "s"))
                + ")";
    }

    // ---- reading -------------------------------------------------------------------------------

    /** Reads a file the user named (not from the scanned tree), named in messages as given. */
    public static ProjectConfig read(Path file) throws IOException {
        return read(file, file, List.of());
    }

    /**
     * Reads {@code file}, naming it {@code shown} in every message. When {@code tree} is not empty,
     * the file comes from the scanned tree (those folders): it is then read only if its real path,
     * symbolic links followed, is inside one of them. Nothing of a refused file is read, and the
     * message is the same whether its link leads out of the tree or nowhere, so it tells nothing
     * about the machine either.
     */
    public static ProjectConfig read(Path file, Path shown, List<Path> tree) throws IOException {
        if (!tree.isEmpty()) {
            checkInside(file, shown, tree);
        }
        return parse(file, shown, readText(file, shown));
    }

    /**
     * Reads a config's text obtained elsewhere (diff mode: the file at the base revision, from git),
     * under the same size limit as a file.
     *
     * @param file where the file is in the work tree, for {@link #file()}
     * @param shown how messages name it
     */
    public static ProjectConfig read(Path file, Path shown, String text) throws IOException {
        if (text.length() > MAX_FILE_BYTES || text.getBytes(StandardCharsets.UTF_8).length > MAX_FILE_BYTES) {
            throw tooLarge(shown);
        }
        return parse(file, shown, text);
    }

    private static ProjectConfig parse(Path file, Path shown, String text) throws IOException {
        try (JsonParser p = YAML.createParser(text)) {
            Map<String, String> rules = new LinkedHashMap<>();
            Map<String, Integer> ruleLines = new LinkedHashMap<>();
            List<Exclude> excludes = new ArrayList<>();
            List<Api> apis = new ArrayList<>();
            List<String> inert = new ArrayList<>();
            List<LimitSetting> limits = new ArrayList<>();
            Level minLevel = null;
            int minLevelLine = 0;
            List<String> authorization = new ArrayList<>();
            JsonToken first = p.nextToken();
            if (first == null) {
                return new ProjectConfig(file, shown, rules, ruleLines, excludes, apis, inert, limits); // an empty file: all defaults
            }
            if (first != JsonToken.START_OBJECT) {
                throw error(p, shown, "expected a mapping of settings (rules, exclude, apis, limits) at the top level");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                int keyLine = line(p);
                JsonToken value = p.nextToken();
                switch (key) {
                    case "rules" -> readRules(p, shown, value, rules, ruleLines);
                    case "exclude", "excludes" -> readExcludes(p, shown, value, key, excludes);
                    case "apis" -> readApis(p, shown, value, apis);
                    case "coverage" -> readCoverage(p, shown, value, inert);
                    case "limits" -> readLimits(p, shown, value, limits);
                    case "minLevel", "min-level" -> {
                        minLevel = readMinLevel(p, shown, value, key);
                        minLevelLine = keyLine;
                    }
                    case "authorization" -> readAuthorization(p, shown, value, authorization);
                    case "version" -> {
                        if (value != JsonToken.VALUE_NUMBER_INT || p.getIntValue() != 1) {
                            throw error(p, shown, "version must be 1");
                        }
                    }
                    default -> throw new ConfigException(shown, keyLine, "unknown key '" + quote(key)
                            + "' (expected: version, rules, minLevel, exclude, apis, authorization, coverage, limits)");
                }
            }
            ProjectConfig config = new ProjectConfig(file, shown, rules, ruleLines, excludes, apis, inert, limits);
            config.minLevel = minLevel;
            config.minLevelLine = minLevelLine;
            config.authorizationAnnotations = List.copyOf(authorization);
            return config;
        } catch (StreamConstraintsException e) {
            JsonLocation at = e.getLocation();
            throw new ConfigException(shown, at == null ? 0 : at.getLineNr(), "YAML nested more than "
                    + MAX_NESTING + " levels deep");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new ConfigException(shown, at == null ? 0 : at.getLineNr(), "not valid YAML: "
                    + quote(String.valueOf(e.getOriginalMessage()), 4 * MAX_QUOTED));
        }
    }

    private static YAMLFactory yamlFactory() {
        // belt and braces: the size limit already bounds all of these, and the reader stops at the first wrong token
        org.yaml.snakeyaml.LoaderOptions loader = new org.yaml.snakeyaml.LoaderOptions();
        loader.setCodePointLimit(MAX_FILE_BYTES);
        loader.setNestingDepthLimit(MAX_NESTING);
        loader.setMaxAliasesForCollections(MAX_NESTING);
        return YAMLFactory.builder()
                .enable(com.fasterxml.jackson.dataformat.yaml.YAMLParser.Feature.EMPTY_STRING_AS_NULL) // the builder drops this default
                .loaderOptions(loader)
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING)
                        .maxStringLength(MAX_FILE_BYTES)
                        .maxNameLength(MAX_FILE_BYTES)
                        .build())
                .build();
    }

    /** Refuses a file from the tree whose real path is outside it, without reading a byte of it. */
    private static void checkInside(Path file, Path shown, List<Path> tree) throws ConfigException {
        Path real;
        try {
            real = file.toRealPath();
        } catch (IOException e) {
            real = null; // a link to nothing, or through a folder that cannot be read
        }
        boolean inside = false;
        for (Path root : tree) {
            try {
                inside |= real != null && real.startsWith(root.toRealPath());
            } catch (IOException e) {
                // a root that cannot be resolved holds nothing
            }
        }
        if (!inside) {
            throw new ConfigException(shown, 0, "leads out of the scanned tree through a symbolic link (or to nothing), "
                    + "so it is not read; name a configuration outside the tree with --config FILE, or scan without "
                    + "one with --no-config");
        }
        if (!Files.isRegularFile(real)) {
            throw new ConfigException(shown, 0, "is not a regular file, so it is not read");
        }
    }

    private static ConfigException tooLarge(Path shown) {
        return new ConfigException(shown, 0, "is larger than the " + MAX_FILE_BYTES / 1024 + " KiB a configuration "
                + "file may have (a real one needs a few hundred bytes), so it is not read");
    }

    /** The file's text: at most {@link #MAX_FILE_BYTES} read, strict UTF-8. */
    private static String readText(Path file, Path shown) throws ConfigException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        } catch (IOException e) {
            throw new ConfigException(shown, 0, "cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw tooLarge(shown);
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int line = 1;
            for (int i = 0; i < in.position(); i++) {
                line += bytes[i] == '\n' ? 1 : 0;
            }
            throw new ConfigException(shown, line, "not valid UTF-8");
        }
        return out.flip().toString();
    }

    /** Text from the file as a message may quote it: control characters escaped, clipped. */
    public static String quote(String text) {
        return quote(text, MAX_QUOTED);
    }

    private static String quote(String text, int max) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        for (; i < text.length() && out.length() < max; i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT) {
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return i < text.length() ? out + "..." : out.toString();
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
                default -> throw error(p, file, "rule '" + quote(id) + "' must be off, on, error, warning or note");
            };
            if (!Set.of("off", "on", "error", "warning", "note").contains(setting)) {
                throw error(p, file, "rule '" + quote(id) + "': '" + quote(p.getText())
                        + "' is not one of off, on, error, warning, note");
            }
            rules.put(id, setting);
            lines.put(id, at);
        }
    }

    private static void readExcludes(JsonParser p, Path file, JsonToken value, String key, List<Exclude> out)
            throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value == JsonToken.VALUE_STRING) {
            out.add(exclude(p, file, out.size()));
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
            out.add(exclude(p, file, out.size()));
        }
    }

    private static Exclude exclude(JsonParser p, Path file, int before) throws IOException {
        String glob = p.getText();
        checkPattern(file, line(p), "exclude glob", glob, before);
        try {
            dev.racelint.analyzer.source.ExcludeGlobs.compile(glob);
        } catch (IllegalArgumentException e) {
            throw error(p, file, "exclude '" + quote(glob) + "' is not a valid glob: " + e.getMessage());
        }
        return new Exclude(glob, line(p));
    }

    /** Refuses the {@code before + 1}-th pattern past {@link #MAX_PATTERNS}, or one longer than {@link #MAX_PATTERN_CHARS}. */
    private static void checkPattern(Path file, int line, String what, String pattern, int before) throws ConfigException {
        if (before >= MAX_PATTERNS) {
            throw new ConfigException(file, line, "more than " + MAX_PATTERNS + " " + what + "s (a real configuration "
                    + "needs a handful; each one is matched against every name)");
        }
        if (pattern.length() > MAX_PATTERN_CHARS) {
            throw new ConfigException(file, line, what + " '" + quote(pattern) + "' is longer than " + MAX_PATTERN_CHARS
                    + " characters");
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
            checkPattern(file, at, "declared API", target, out.size());
            JsonToken v = p.nextToken();
            if (v != JsonToken.VALUE_STRING) {
                throw error(p, file, "'" + quote(target) + "' must map to a kind (" + kinds() + ")");
            }
            ApiKind kind = ApiKind.parse(p.getText()).orElseThrow(() -> new ConfigException(file, at,
                    "unknown kind '" + quote(safeText(p)) + "' for " + quote(target) + " (expected one of " + kinds()
                    + ")"));
            int hash = target.indexOf('#');
            String type = hash < 0 ? target : target.substring(0, hash);
            String method = hash < 0 ? "*" : target.substring(hash + 1);
            if (type.isEmpty() || method.isEmpty() || !type.matches("[\\w.$*]+") || !method.matches("[\\w$*]+")) {
                throw new ConfigException(file, at, "'" + quote(target) + "' is not a qualified type name with an optional #method "
                        + "(for example com.acme.payments.PaymentsClient#charge or com.acme.payments.PaymentsClient#*)");
            }
            out.add(new Api(type, method, kind, at));
        }
    }

    /** {@code coverage: {inert: [com.acme.util.*, ...]}}: types whose calls are no blind spots. */
    private static void readCoverage(JsonParser p, Path file, JsonToken value, List<String> inert) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_OBJECT) {
            throw error(p, file, "'coverage' must be a mapping (inert: a list of type names or globs)");
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            int at = line(p);
            if (!key.equals("inert")) {
                throw new ConfigException(file, at, "unknown key 'coverage." + quote(key) + "' (expected: inert)");
            }
            JsonToken list = p.nextToken();
            if (list == JsonToken.VALUE_NULL) {
                continue;
            }
            if (list != JsonToken.START_ARRAY) {
                throw error(p, file, "'coverage.inert' must be a list of type names or globs (com.acme.util.*)");
            }
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                String type = t == JsonToken.VALUE_STRING ? p.getText().strip() : null;
                checkPattern(file, line(p), "inert type", type == null ? "" : type, inert.size());
                if (type == null || type.isEmpty() || !type.matches("[\\w.$*]+")) {
                    throw error(p, file, "'coverage.inert' entries must be qualified type names or globs"
                            + " (for example com.acme.util.* or com.acme.**.Dto)");
                }
                inert.add(type);
            }
        }
    }

    private static Level readMinLevel(JsonParser p, Path file, JsonToken value, String key) throws IOException {
        String text = value == JsonToken.VALUE_STRING ? p.getText().strip().toLowerCase(Locale.ROOT) : "";
        return switch (text) {
            case "error" -> Level.ERROR;
            case "warning" -> Level.WARNING;
            case "note" -> Level.NOTE;
            default -> throw error(p, file, "'" + key + "' must be error, warning or note, not '" + quote(safeText(p)) + "'");
        };
    }

    /** {@code authorization: [com.acme.security.AdminOnly, ...]}: qualified annotation type names. */
    private static void readAuthorization(JsonParser p, Path file, JsonToken value, List<String> out) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_ARRAY) {
            throw error(p, file, "'authorization' must be a list of qualified annotation type names");
        }
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            String type = t == JsonToken.VALUE_STRING ? p.getText().strip() : null;
            checkPattern(file, line(p), "authorization annotation", type == null ? "" : type, out.size());
            if (type == null || !type.matches("[\\w$]+(\\.[\\w$]+)+")) {
                throw error(p, file, "'authorization' entries must be qualified annotation type names"
                        + " (for example com.acme.security.AdminOnly)");
            }
            out.add(type);
        }
    }

    private static void readLimits(JsonParser p, Path file, JsonToken value, List<LimitSetting> out) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_OBJECT) {
            throw error(p, file, "'limits' must be a mapping of limit name to a whole number (" + limitNames() + ")");
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            int at = line(p);
            AnalysisLimits.Limit limit = AnalysisLimits.Limit.byKey(name).orElseThrow(() -> new ConfigException(file, at,
                    "unknown limit '" + quote(name) + "' (expected one of " + limitNames() + ")"));
            if (out.stream().anyMatch(s -> s.limit() == limit)) {
                throw new ConfigException(file, at, "limit '" + limit.key() + "' is set twice");
            }
            JsonToken v = p.nextToken();
            String range = " between " + limit.min() + " and " + limit.max() + " (default " + limit.defaultValue() + ")";
            if (v != JsonToken.VALUE_NUMBER_INT) {
                throw error(p, file, "limit '" + limit.key() + "' must be a whole number" + range + ", not '"
                        + quote(safeText(p)) + "'");
            }
            java.math.BigInteger n = p.getBigIntegerValue();
            if (n.compareTo(java.math.BigInteger.valueOf(limit.min())) < 0
                    || n.compareTo(java.math.BigInteger.valueOf(limit.max())) > 0) {
                throw error(p, file, "limit '" + limit.key() + "' must be" + range + ", not " + quote(n.toString()));
            }
            out.add(new LimitSetting(limit, n.intValueExact(), at));
        }
    }

    private static String limitNames() {
        List<String> names = new ArrayList<>();
        for (AnalysisLimits.Limit l : AnalysisLimits.Limit.values()) {
            names.add(l.key());
        }
        return String.join(", ", names);
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
