package dev.racelint.analyzer.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test support: checks that a SARIF log is valid SARIF 2.1.0 and fit for GitHub code scanning.
 *
 * <p>{@link #assertValidForGitHub(String)} validates against the official OASIS schema
 * (errata 01, draft-04) in {@code shared/sarif/sarif-schema-2.1.0.json}, then checks what the
 * schema cannot express:
 * <ul>
 *   <li>{@code version} is 2.1.0 and there is exactly one run;</li>
 *   <li>{@code run.results} is present (also when empty) and {@code run.columnKind} is
 *       {@code utf16CodeUnits};</li>
 *   <li>rule ids are unique; every result's {@code ruleId} names a rule of the driver and its
 *       {@code ruleIndex}, when given, points at that rule;</li>
 *   <li>every result has a location with an artifact URI and a region with a start line;</li>
 *   <li>every {@code artifactLocation.uri} (results, related locations, code flows,
 *       notifications) is relative: no scheme, no leading {@code /}, no {@code \}, and its
 *       {@code uriBaseId} is {@code %SRCROOT%}; {@code originalUriBaseIds["%SRCROOT%"]} exists and,
 *       when it has a {@code uri}, that is an absolute {@code file:} URI ending with {@code /}
 *       (racelint writes none: reports carry no machine paths);</li>
 *   <li>related location ids are unique, and every {@code [text](n)} link in a result's
 *       {@code message.text} names one of them;</li>
 *   <li>no other message (related locations, code-flow steps, suppressions, notifications) holds
 *       an embedded link, escapes honoured, so text from the scanned tree such as
 *       {@code [Click](https://evil.example)} can never become one; and no message text holds a
 *       control, bidi or separator character ({@link ReportText#isUnsafe}).</li>
 * </ul>
 *
 * <p>The schema is the bundled copy {@value #SCHEMA_RESOURCE} (identical to the project's
 * {@code shared/sarif/sarif-schema-2.1.0.json}, checked by its SHA-256), or the file named by the
 * system property {@value #SCHEMA_PROPERTY} when set.
 *
 * <p>Other modules use it through the analyzer's test-jar; they need jackson-databind,
 * com.networknt:json-schema-validator and JUnit/AssertJ on their own test classpath.
 */
public final class SarifAssertions {

    /** System property overriding where the SARIF schema file is. */
    public static final String SCHEMA_PROPERTY = "racelint.sarif.schema";
    public static final String DEFAULT_SCHEMA_PATH = "../../shared/sarif/sarif-schema-2.1.0.json";
    public static final String SRCROOT = "%SRCROOT%";
    /** The bundled byte-for-byte copy of the official schema (test resources). */
    public static final String SCHEMA_RESOURCE = "sarif/sarif-schema-2.1.0.json";
    /** SHA-256 of the official SARIF 2.1.0 errata 01 schema file. */
    public static final String SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern LINK = Pattern.compile("\\[[^\\[\\]]*]\\(([^)]*)\\)");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    private static Schema schema;

    private SarifAssertions() {}

    /** Fails with every problem found, schema errors first, when the log is not fit for GitHub. */
    public static void assertValidForGitHub(String sarifJson) {
        List<String> problems = new ArrayList<>(schemaErrors(sarifJson));
        problems.addAll(gitHubProblems(sarifJson));
        if (!problems.isEmpty()) {
            throw new AssertionError("SARIF log is not valid for GitHub code scanning ("
                    + problems.size() + " problem(s)):\n  - " + String.join("\n  - ", problems));
        }
    }

    /** Fails when the log does not validate against the SARIF 2.1.0 schema. */
    public static void assertSchemaValid(String sarifJson) {
        List<String> errors = schemaErrors(sarifJson);
        if (!errors.isEmpty()) {
            throw new AssertionError("SARIF log does not match the SARIF 2.1.0 schema:\n  - "
                    + String.join("\n  - ", errors));
        }
    }

    /** The schema's complaints, as "instance location: message" lines; empty when valid. */
    public static List<String> schemaErrors(String sarifJson) {
        List<Error> errors = schema().validate(sarifJson, InputFormat.JSON);
        List<String> out = new ArrayList<>();
        for (Error error : errors) {
            out.add("schema: " + error.getInstanceLocation() + ": " + error.getMessage());
        }
        return out;
    }

    /** The project's shared copy of the schema, compared with the bundled one when present. */
    public static Path sharedSchemaPath() {
        return Path.of(DEFAULT_SCHEMA_PATH).toAbsolutePath().normalize();
    }

    /** The schema bytes in use: the file named by {@value #SCHEMA_PROPERTY}, else the bundled copy. */
    public static byte[] schemaBytes() {
        String override = System.getProperty(SCHEMA_PROPERTY);
        try {
            if (override != null && !override.isBlank()) {
                return Files.readAllBytes(Path.of(override));
            }
            try (InputStream in = SarifAssertions.class.getClassLoader().getResourceAsStream(SCHEMA_RESOURCE)) {
                if (in == null) {
                    throw new AssertionError("SARIF schema resource " + SCHEMA_RESOURCE + " is missing");
                }
                return in.readAllBytes();
            }
        } catch (IOException e) {
            throw new AssertionError("cannot read the SARIF schema: " + e, e);
        }
    }

    private static synchronized Schema schema() {
        if (schema == null) {
            byte[] bytes = schemaBytes();
            String sha = sha256(bytes);
            if (!sha.equals(SCHEMA_SHA256)) {
                throw new AssertionError("the SARIF schema in use is not the official 2.1.0 errata 01 file"
                        + " (SHA-256 " + sha + ", expected " + SCHEMA_SHA256 + ")");
            }
            SchemaRegistryConfig config = SchemaRegistryConfig.builder()
                    .formatAssertionsEnabled(true)
                    .build();
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4,
                    builder -> builder.schemaRegistryConfig(config));
            try (InputStream in = new java.io.ByteArrayInputStream(bytes)) {
                schema = registry.getSchema(in, InputFormat.JSON);
            } catch (IOException e) {
                throw new AssertionError("cannot read SARIF schema: " + e, e);
            }
        }
        return schema;
    }

    static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The GitHub-specific problems (everything but the schema), one line each; empty when fine. */
    public static List<String> gitHubProblems(String sarifJson) {
        JsonNode log;
        try {
            log = MAPPER.readTree(sarifJson);
        } catch (JsonProcessingException e) {
            return List.of("not JSON: " + e.getOriginalMessage());
        }
        List<String> problems = new ArrayList<>();
        if (!"2.1.0".equals(log.path("version").asText())) {
            problems.add("version must be \"2.1.0\" but is " + log.path("version"));
        }
        JsonNode runs = log.path("runs");
        if (!runs.isArray() || runs.size() != 1) {
            problems.add("expected exactly one run, found "
                    + (runs.isArray() ? runs.size() : "no runs array"));
        }
        for (int r = 0; r < runs.size(); r++) {
            checkRun(runs.get(r), "runs[" + r + "]", problems);
        }
        return problems;
    }

    private static void checkRun(JsonNode run, String at, List<String> problems) {
        if (!"utf16CodeUnits".equals(run.path("columnKind").asText())) {
            problems.add(at + ".columnKind must be \"utf16CodeUnits\" but is " + run.path("columnKind"));
        }

        JsonNode srcRoot = run.path("originalUriBaseIds").path(SRCROOT);
        String rootUri = srcRoot.path("uri").asText("");
        if (srcRoot.isMissingNode()) {
            problems.add(at + ".originalUriBaseIds has no \"" + SRCROOT + "\" entry");
        } else if (srcRoot.has("uri") && (!rootUri.startsWith("file:/") || !rootUri.endsWith("/"))) {
            problems.add(at + ".originalUriBaseIds[\"" + SRCROOT
                    + "\"].uri must be an absolute file: URI ending with '/' but is " + srcRoot.path("uri"));
        }

        JsonNode rules = run.path("tool").path("driver").path("rules");
        List<String> ruleIds = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < rules.size(); i++) {
            String id = rules.get(i).path("id").asText(null);
            ruleIds.add(id);
            if (id == null || id.isEmpty()) {
                problems.add(at + ".tool.driver.rules[" + i + "] has no id");
            } else if (!seen.add(id)) {
                problems.add(at + ".tool.driver.rules[" + i + "]: duplicate rule id " + id);
            }
        }

        JsonNode results = run.get("results");
        if (results == null || !results.isArray()) {
            problems.add(at + ".results must be present (an array, [] when there are no results)");
            results = MAPPER.createArrayNode();
        }
        for (int i = 0; i < results.size(); i++) {
            checkResult(results.get(i), at + ".results[" + i + "]", ruleIds, problems);
        }

        checkArtifactLocations(run, at, problems);
        checkMessages(run.path("invocations"), at + ".invocations", problems);
    }

    /** Every {@code message.text} under {@code node}: no embedded link, no unsafe character. */
    private static void checkMessages(JsonNode node, String at, List<String> problems) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String here = at + "." + field.getKey();
                JsonNode value = field.getValue();
                if (field.getKey().equals("message") && value.has("text")) {
                    String text = value.path("text").asText();
                    if (!linkTargets(text).isEmpty()) {
                        problems.add(here + ".text holds an embedded link: " + text);
                    }
                    checkCharacters(here + ".text", text, problems);
                }
                checkMessages(value, here, problems);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                checkMessages(node.get(i), at + "[" + i + "]", problems);
            }
        }
    }

    private static void checkCharacters(String at, String text, List<String> problems) {
        for (int i = 0; i < text.length(); i++) {
            if (ReportText.isUnsafe(text.charAt(i))) {
                problems.add(at + " holds the raw character U+" + String.format(java.util.Locale.ROOT, "%04X",
                        (int) text.charAt(i)) + " at " + i);
                return;
            }
        }
    }

    private static void checkResult(JsonNode result, String at, List<String> ruleIds,
                                    List<String> problems) {
        String ruleId = result.path("ruleId").asText(null);
        if (ruleId == null) {
            problems.add(at + " has no ruleId");
        } else if (!ruleIds.contains(ruleId)) {
            problems.add(at + ".ruleId " + ruleId + " is not a rule of tool.driver.rules");
        }
        JsonNode ruleIndex = result.get("ruleIndex");
        if (ruleIndex != null) {
            int index = ruleIndex.asInt(-1);
            if (index < 0 || index >= ruleIds.size()) {
                problems.add(at + ".ruleIndex " + ruleIndex + " is outside tool.driver.rules (size "
                        + ruleIds.size() + ")");
            } else if (ruleId != null && !ruleId.equals(ruleIds.get(index))) {
                problems.add(at + ".ruleIndex " + index + " names rule " + ruleIds.get(index)
                        + " but ruleId is " + ruleId);
            }
        }

        JsonNode locations = result.path("locations");
        if (!locations.isArray() || locations.isEmpty()) {
            problems.add(at + " has no locations (GitHub needs one)");
        } else {
            JsonNode physical = locations.get(0).path("physicalLocation");
            if (physical.path("artifactLocation").path("uri").asText("").isEmpty()) {
                problems.add(at + ".locations[0] has no physicalLocation.artifactLocation.uri");
            }
            if (!physical.path("region").path("startLine").canConvertToInt()) {
                problems.add(at + ".locations[0] has no physicalLocation.region.startLine");
            }
        }

        Set<Integer> relatedIds = new HashSet<>();
        JsonNode related = result.path("relatedLocations");
        for (int i = 0; i < related.size(); i++) {
            JsonNode id = related.get(i).get("id");
            if (id != null && id.canConvertToInt() && !relatedIds.add(id.asInt())) {
                problems.add(at + ".relatedLocations[" + i + "]: duplicate id " + id);
            }
        }
        for (Map.Entry<String, JsonNode> field : result.properties()) {
            if (!field.getKey().equals("message")) {
                checkMessages(field.getValue(), at + "." + field.getKey(), problems);
            }
        }
        String text = result.path("message").path("text").asText(null);
        if (text == null) {
            problems.add(at + ".message.text is missing");
        } else {
            checkCharacters(at + ".message.text", text, problems);
            for (String target : linkTargets(text)) {
                if (!target.matches("\\d{1,9}")) {
                    problems.add(at + ".message.text holds an embedded link to " + target
                            + " (racelint links only to related locations): " + text);
                } else if (!relatedIds.contains(Integer.parseInt(target))) {
                    problems.add(at + ".message.text links to (" + target
                            + ") but no relatedLocation has that id: " + text);
                }
            }
        }
    }

    /** The targets of the {@code [text](target)} links in a SARIF message, escapes honoured. */
    static List<String> linkTargets(String text) {
        // Blank out escaped characters (\[ \] \\) so they cannot open or close a link.
        StringBuilder plain = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                plain.append("__");
                i++;
            } else {
                plain.append(c);
            }
        }
        List<String> targets = new ArrayList<>();
        Matcher m = LINK.matcher(plain);
        while (m.find()) {
            targets.add(m.group(1));
        }
        return targets;
    }

    private static void checkArtifactLocations(JsonNode run, String at, List<String> problems) {
        Map<String, JsonNode> found = new HashMap<>();
        collectArtifactLocations(run, at, found);
        found.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            JsonNode location = e.getValue();
            String uri = location.path("uri").asText(null);
            if (uri == null) {
                problems.add(e.getKey() + " has no uri");
                return;
            }
            if (SCHEME.matcher(uri).find() || uri.startsWith("/") || uri.contains("\\")) {
                problems.add(e.getKey() + ".uri must be relative (no scheme, no leading '/', no '\\') but is "
                        + uri);
            }
            if (!SRCROOT.equals(location.path("uriBaseId").asText(null))) {
                problems.add(e.getKey() + ".uriBaseId must be " + SRCROOT + " but is "
                        + location.path("uriBaseId"));
            }
        });
    }

    private static void collectArtifactLocations(JsonNode node, String at, Map<String, JsonNode> found) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String name = field.getKey();
                String here = at + "." + name;
                if (name.equals("originalUriBaseIds")) {
                    continue;   // the one place where an absolute URI belongs
                }
                if (name.equals("artifactLocation") && field.getValue().isObject()) {
                    found.put(here, field.getValue());
                }
                collectArtifactLocations(field.getValue(), here, found);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectArtifactLocations(node.get(i), at + "[" + i + "]", found);
            }
        }
    }
}
