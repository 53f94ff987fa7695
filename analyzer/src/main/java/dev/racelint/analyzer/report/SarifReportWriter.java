package dev.racelint.analyzer.report;

import com.contrastsecurity.sarif.ArtifactLocation;
import com.contrastsecurity.sarif.CodeFlow;
import com.contrastsecurity.sarif.Invocation;
import com.contrastsecurity.sarif.Location;
import com.contrastsecurity.sarif.Message;
import com.contrastsecurity.sarif.MultiformatMessageString;
import com.contrastsecurity.sarif.Notification;
import com.contrastsecurity.sarif.OriginalUriBaseIds;
import com.contrastsecurity.sarif.PartialFingerprints;
import com.contrastsecurity.sarif.PhysicalLocation;
import com.contrastsecurity.sarif.PropertyBag;
import com.contrastsecurity.sarif.Region;
import com.contrastsecurity.sarif.ReportingConfiguration;
import com.contrastsecurity.sarif.ReportingDescriptor;
import com.contrastsecurity.sarif.ReportingDescriptorReference;
import com.contrastsecurity.sarif.Result;
import com.contrastsecurity.sarif.Run;
import com.contrastsecurity.sarif.Suppression;
import com.contrastsecurity.sarif.RunAutomationDetails;
import com.contrastsecurity.sarif.SarifSchema210;
import com.contrastsecurity.sarif.ThreadFlow;
import com.contrastsecurity.sarif.ThreadFlowLocation;
import com.contrastsecurity.sarif.Tool;
import com.contrastsecurity.sarif.ToolComponent;
import com.contrastsecurity.sarif.VersionControlDetails;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.rule.RuleDescriptor;
import java.io.IOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Writes a {@link ScanReport} as SARIF 2.1.0 that GitHub code scanning accepts: one run, the rules
 * that ran as {@code tool.driver.rules}, one result per finding with relative URIs under
 * {@value #SRCROOT}, related locations, a code flow, partial fingerprints, and the diagnostics as
 * tool execution notifications. Diff mode's check-change notes ({@link Diagnostic#checkChange()}) are
 * results instead, of rules named by their codes, added after the race rules when there are any.
 *
 * <p>Every message text (results, related locations, code-flow steps, notifications) is plain
 * text escaped by {@link ReportText#sarif}: text from the scanned tree can form no embedded link
 * (SARIF 2.1.0 §3.11.6) and carries no control or bidi character, and the only links are
 * racelint's own {@code [text](id)} links to related locations. No message has arguments, so
 * braces are literal. No source text is copied into the log ({@code snippet} is not written).
 *
 * <p>The output is deterministic: the same report gives the same bytes (no timestamps, no
 * GUIDs, map keys sorted, {@code \n} line ends). The only absolute path is the
 * {@value #SRCROOT} entry of {@code run.originalUriBaseIds}.
 *
 * <p>Mapping of the report fields:
 * <ul>
 *   <li>{@code run.automationDetails.id} is {@link ScanReport#sarifCategory()} when it is neither
 *       null nor blank. GitHub reads the part up to the last {@code /} as the analysis category and
 *       the rest as a run id, so a category without any {@code /} (e.g. {@code racelint}) gets a
 *       {@code /} appended ({@code racelint/}) to make the whole value the category; a value that
 *       already contains a {@code /} is written as given.</li>
 *   <li>{@code partialFingerprints.primaryLocationLineHash} is the first 16 hex digits of the
 *       SHA-256 of the primary line with its whitespace normalised (trimmed, runs collapsed to one
 *       space), then {@code :} and the 1-based occurrence of that hash among the results in the
 *       same file, e.g. {@code 39fa2ee980eb94b0:1}. It is left out when the line cannot be read,
 *       so that GitHub's upload computes its own. {@code partialFingerprints["racelint/v1"]} is
 *       {@link Finding#fingerprint()}.</li>
 *   <li>A file that has no relative path from the source root (another drive on Windows) gets an
 *       absolute {@code file:} URI without {@code uriBaseId}.</li>
 * </ul>
 */
public final class SarifReportWriter implements ReportWriter {

    public static final String SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";
    public static final String TOOL_NAME = "racelint";
    public static final String INFORMATION_URI = "https://github.com/racelint/racelint";
    public static final String HELP_URI_PREFIX = INFORMATION_URI + "/blob/main/docs/rules/";
    public static final String SRCROOT = "%SRCROOT%";
    public static final String LINE_HASH_KEY = "primaryLocationLineHash";
    public static final String FINGERPRINT_KEY = "racelint/v1";

    private static final ObjectMapper MAPPER = newSarifMapper();
    private static final ObjectWriter WRITER = JsonSupport.prettyWriter(MAPPER);

    @Override
    public void write(ScanReport report, Writer out) throws IOException {
        JsonSupport.write(WRITER, toSarif(report), out);
    }

    /** The commit the scan read, mapped to the source root (GitHub links results to it). */
    private static LinkedHashSet<VersionControlDetails> provenance(GitProvenance.Provenance git) {
        VersionControlDetails details = new VersionControlDetails();
        details.setRepositoryUri(git.repository());
        details.setRevisionId(git.revision());
        if (git.branch() != null) {
            details.setBranch(git.branch());
        }
        ArtifactLocation mappedTo = new ArtifactLocation();
        mappedTo.setUriBaseId(SRCROOT);
        details.setMappedTo(mappedTo);
        return new LinkedHashSet<>(List.of(details));
    }

    /** The SARIF log as java-sarif objects, before serialisation. */
    public SarifSchema210 toSarif(ScanReport report) {
        Path root = report.sourceRoot();

        List<RuleDescriptor> rules = uniqueRules(report.rules());
        Map<String, Integer> ruleIndex = new HashMap<>();
        LinkedHashSet<ReportingDescriptor> sarifRules = new LinkedHashSet<>();
        for (RuleDescriptor rule : rules) {
            ruleIndex.put(rule.id(), ruleIndex.size());
            sarifRules.add(rule(rule));
        }
        // diff mode's notes on suppressions, baseline entries and config the change adds are results, not
        // notifications: GitHub shows results to the pull request's reviewer, notifications it does not
        // (one without a file in the tree, which a result could not point at, stays a notification)
        List<Diagnostic> checkChanges = report.diagnostics().stream().filter(SarifReportWriter::isResult).toList();
        for (String code : Diagnostic.CHECK_CHANGES) {
            if (checkChanges.stream().anyMatch(d -> d.code().equals(code)) && !ruleIndex.containsKey(code)) {
                ruleIndex.put(code, ruleIndex.size());
                sarifRules.add(checkChangeRule(code));
            }
        }

        ToolComponent driver = new ToolComponent();
        driver.setName(TOOL_NAME);
        driver.setSemanticVersion(report.toolVersion());
        driver.setVersion(report.toolVersion());
        driver.setInformationUri(URI.create(INFORMATION_URI));
        driver.setRules(sarifRules);
        Tool tool = new Tool();
        tool.setDriver(driver);

        List<Result> results = new ArrayList<>();
        Map<String, Integer> lineHashCounts = new HashMap<>();
        ScanReport.Triage triage = report.triage();
        if (!triage.includeSuppressed()) {
            for (Finding finding : report.findings()) {
                results.add(result(report, finding, ruleIndex, lineHashCounts));
            }
        } else {
            // GitHub reads suppressions all-or-none: every result carries the property, empty when not suppressed.
            Map<Finding, dev.racelint.analyzer.suppress.Suppression> suppressions = new java.util.IdentityHashMap<>();
            List<Finding> all = new ArrayList<>(report.findings());
            for (var s : triage.suppressed()) {
                suppressions.put(s.finding(), s.suppression());
                all.add(s.finding());
            }
            all.sort(dev.racelint.analyzer.Analyzer.FINDING_ORDER);
            for (Finding finding : all) {
                Result result = result(report, finding, ruleIndex, lineHashCounts);
                java.util.Set<Suppression> marks = new java.util.LinkedHashSet<>();
                var by = suppressions.get(finding);
                if (by != null) {
                    Suppression mark = new Suppression();
                    mark.setKind(Suppression.Kind.IN_SOURCE);
                    mark.setStatus(Suppression.Status.ACCEPTED);
                    if (by.hasJustification()) {
                        mark.setJustification(ReportText.terminal(by.justification()));
                    }
                    mark.setLocation(location(root, by.location()));
                    marks.add(mark);
                }
                result.setSuppressions(marks);
                results.add(result);
            }
        }

        for (Diagnostic change : checkChanges) {
            results.add(checkChangeResult(root, change, ruleIndex));
        }

        Invocation invocation = new Invocation();
        invocation.setExecutionSuccessful(true);
        List<Notification> notifications = new ArrayList<>();
        for (Diagnostic diagnostic : report.diagnostics()) {
            if (!isResult(diagnostic)) {
                notifications.add(notification(root, diagnostic));
            }
        }
        if (!notifications.isEmpty()) {
            invocation.setToolExecutionNotifications(notifications);
        }

        ArtifactLocation srcRoot = new ArtifactLocation();
        // No uri: the report names no machine path; consumers (GitHub) resolve %SRCROOT% to their checkout.
        srcRoot.setDescription(message("The folder the scan's paths are relative to (the repository root when it is a git work tree)."));
        OriginalUriBaseIds baseIds = new OriginalUriBaseIds();
        baseIds.setAdditionalProperty(SRCROOT, srcRoot);

        Run run = new Run();
        run.setTool(tool);
        run.setInvocations(new ArrayList<>(List.of(invocation)));
        run.setOriginalUriBaseIds(baseIds);
        GitProvenance.of(root).ifPresent(git -> run.setVersionControlProvenance(provenance(git)));
        run.setResults(results);
        String category = automationId(report.sarifCategory());
        if (category != null) {
            RunAutomationDetails details = new RunAutomationDetails();
            details.setId(category);
            run.setAutomationDetails(details);
        }
        run.setColumnKind(Run.ColumnKind.UTF_16_CODE_UNITS);
        if (report.coverage() != null) {
            PropertyBag runProperties = new PropertyBag();
            runProperties.setAdditionalProperty(CoverageReport.SARIF_PROPERTY, CoverageReport.tree(report.coverage()));
            run.setProperties(runProperties);
        }

        SarifSchema210 log = new SarifSchema210();
        log.set$schema(URI.create(SCHEMA_URI));
        log.setVersion(SarifSchema210.Version._2_1_0);
        log.setRuns(new ArrayList<>(List.of(run)));
        return log;
    }

    /** {@code automationDetails.id} for a category: null/blank gives null; no {@code /} gets one. */
    static String automationId(String category) {
        if (category == null || category.isBlank()) {
            return null;
        }
        return category.contains("/") ? category : category + "/";
    }

    private static List<RuleDescriptor> uniqueRules(List<RuleDescriptor> rules) {
        Map<String, RuleDescriptor> byId = new LinkedHashMap<>();
        for (RuleDescriptor rule : rules) {
            byId.putIfAbsent(rule.id(), rule);
        }
        return new ArrayList<>(byId.values());
    }

    private static ReportingDescriptor rule(RuleDescriptor rule) {
        ReportingDescriptor d = new ReportingDescriptor();
        d.setId(rule.id());
        d.setName(pascalCase(rule.name() != null ? rule.name() : rule.id()));
        if (rule.title() != null) {
            d.setShortDescription(text(rule.title()));
        }
        if (rule.description() != null) {
            d.setFullDescription(text(rule.description()));
        }
        if (rule.helpMarkdown() != null) {
            MultiformatMessageString help = new MultiformatMessageString();
            help.setText(rule.helpMarkdown());
            help.setMarkdown(rule.helpMarkdown());
            d.setHelp(help);
        }
        d.setHelpUri(URI.create(HELP_URI_PREFIX + ReportPaths.encodePath(rule.id()) + ".md"));
        ReportingConfiguration config = new ReportingConfiguration();
        config.setLevel(configLevel(rule.level()));
        d.setDefaultConfiguration(config);

        PropertyBag properties = new PropertyBag();
        LinkedHashSet<String> tags = new LinkedHashSet<>(rule.tags() == null ? List.of() : rule.tags());
        String securitySeverity = rule.level() == null ? null : rule.securitySeverity();
        if (securitySeverity != null) {
            // GitHub reads security-severity only on rules tagged "security".
            tags.add("security");
            properties.setAdditionalProperty("security-severity", securitySeverity);
        }
        properties.setTags(tags);
        if (rule.precision() != null) {
            properties.setAdditionalProperty("precision", rule.precision().sarifName());
        }
        if (rule.level() != null) {
            properties.setAdditionalProperty("problem.severity", rule.problemSeverity());
        }
        d.setProperties(properties);
        return d;
    }

    /**
     * PascalCase for {@code rules[].name}: {@code io-in-transaction}, {@code io_in_transaction} and
     * {@code io in transaction} all give {@code IoInTransaction}; a name that is already PascalCase
     * is kept.
     */
    static String pascalCase(String name) {
        StringBuilder out = new StringBuilder(name.length());
        boolean upperNext = true;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!Character.isLetterOrDigit(c)) {
                upperNext = true;
                continue;
            }
            out.append(upperNext ? Character.toUpperCase(c) : c);
            upperNext = false;
        }
        return out.toString();
    }

    private static Result result(ScanReport report, Finding finding, Map<String, Integer> ruleIndex,
                                 Map<String, Integer> lineHashCounts) {
        Path root = report.sourceRoot();
        Result result = new Result();
        result.setRuleId(finding.ruleId());
        Integer index = ruleIndex.get(finding.ruleId());
        if (index != null) {
            result.setRuleIndex(index);
        }
        result.setLevel(resultLevel(finding.level()));
        result.setMessage(message(withFix(ReportText.sarif(finding.message()), finding.fix())));

        Location primary = new Location();
        primary.setPhysicalLocation(physicalLocation(root, finding.primary()));
        result.setLocations(new ArrayList<>(List.of(primary)));

        if (!finding.related().isEmpty()) {
            LinkedHashSet<Location> related = new LinkedHashSet<>();
            for (int i = 0; i < finding.related().size(); i++) {
                Location location = location(root, finding.related().get(i));
                location.setId(i + 1);
                related.add(location);
            }
            result.setRelatedLocations(related);
        }

        if (!finding.codeFlow().isEmpty()) {
            // One code flow; a finding about concurrent paths (a deadlock) has one thread flow per path.
            List<ThreadFlow> threadFlows = new ArrayList<>();
            threadFlows.add(threadFlow(root, finding.codeFlow()));
            for (List<CodeLocation> other : finding.otherFlows()) {
                if (!other.isEmpty()) {
                    threadFlows.add(threadFlow(root, other));
                }
            }
            CodeFlow codeFlow = new CodeFlow();
            codeFlow.setThreadFlows(threadFlows);
            result.setCodeFlows(new ArrayList<>(List.of(codeFlow)));
        }

        PartialFingerprints fingerprints = new PartialFingerprints();
        Optional<String> line = sourceLine(report, finding.primary());
        if (line.isPresent()) {
            String hash = lineHash(line.get());
            String key = artifactKey(root, finding.primary().file()) + '\n' + hash;
            int occurrence = lineHashCounts.merge(key, 1, Integer::sum);
            fingerprints.setAdditionalProperty(LINE_HASH_KEY, hash + ":" + occurrence);
        }
        fingerprints.setAdditionalProperty(FINGERPRINT_KEY, finding.fingerprint());
        result.setPartialFingerprints(fingerprints);
        return result;
    }

    private static ThreadFlow threadFlow(Path root, List<CodeLocation> path) {
        List<ThreadFlowLocation> steps = new ArrayList<>();
        for (CodeLocation step : path) {
            ThreadFlowLocation tfl = new ThreadFlowLocation();
            tfl.setLocation(location(root, step));
            steps.add(tfl);
        }
        ThreadFlow threadFlow = new ThreadFlow();
        threadFlow.setLocations(steps);
        return threadFlow;
    }

    private static Optional<String> sourceLine(ScanReport report, CodeLocation location) {
        if (report.sources() == null || location.file() == null || location.region() == null) {
            return Optional.empty();
        }
        return report.sources().line(location.file(), location.region().startLine());
    }

    /**
     * The line part of {@code primaryLocationLineHash}: 16 lowercase hex digits of the SHA-256 of
     * the line with leading/trailing whitespace removed and inner whitespace runs collapsed to one
     * space, so re-indenting a line keeps its hash.
     */
    static String lineHash(String line) {
        String normalised = line.strip().replaceAll("\\s+", " ");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(normalised.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(16);
            for (int i = 0; i < 8; i++) {
                hex.append(String.format(Locale.ROOT, "%02x", digest[i] & 0xFF));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 not available", e);
        }
    }

    /** Where the check-change rules are explained. */
    public static final String CHECK_CHANGES_HELP_URI = INFORMATION_URI + "/blob/main/docs/github.md#what-a-pull-request-can-change";

    /**
     * The rule of a check-change note: not one of racelint's race rules, a note for the reviewer that
     * the change itself makes findings go away (see {@link Diagnostic#CHECK_CHANGES}).
     */
    private static ReportingDescriptor checkChangeRule(String code) {
        String title = switch (code) {
            case Diagnostic.SUPPRESSION_ADDED -> "The change adds a racelint suppression";
            case Diagnostic.SUPPRESSED_IN_DIFF -> "An older racelint suppression hides a finding in the change";
            case Diagnostic.BASELINE_ENTRY_ADDED -> "The change adds a baseline entry";
            default -> "The change alters racelint.yml";
        };
        String description = switch (code) {
            case Diagnostic.SUPPRESSION_ADDED -> "A @SuppressWarnings(\"racelint...\") or // racelint:ignore on a line the "
                    + "change adds. The findings it covers are not reported, so the reviewer should see it and its reason.";
            case Diagnostic.SUPPRESSED_IN_DIFF -> "A finding on lines the change touches that a suppression written before "
                    + "the change hides: the change is not reported, so the reviewer should see where and why.";
            case Diagnostic.BASELINE_ENTRY_ADDED -> "An entry the change adds to the baseline file given with --baseline. The "
                    + "finding it matches is not reported, so the reviewer should see it.";
            default -> "A racelint.yml setting the change adds, alters or removes: a rule switched off or its level "
                    + "changed, an exclude, a declared API. Each changes what the scan reports.";
        };
        ReportingDescriptor d = new ReportingDescriptor();
        d.setId(code);
        d.setName(pascalCase(code));
        d.setShortDescription(text(title));
        d.setFullDescription(text(description + " Reported by diff mode (--diff); never fails the scan."));
        MultiformatMessageString help = new MultiformatMessageString();
        help.setText(description);
        help.setMarkdown(description);
        d.setHelp(help);
        d.setHelpUri(URI.create(CHECK_CHANGES_HELP_URI));
        ReportingConfiguration config = new ReportingConfiguration();
        config.setLevel(ReportingConfiguration.Level.NOTE);
        d.setDefaultConfiguration(config);
        PropertyBag properties = new PropertyBag();
        properties.setTags(new LinkedHashSet<>(List.of("racelint-check-change")));
        d.setProperties(properties);
        return d;
    }

    private static boolean isResult(Diagnostic diagnostic) {
        return diagnostic.checkChange() && diagnostic.file() != null;
    }

    private static Result checkChangeResult(Path root, Diagnostic change, Map<String, Integer> ruleIndex) {
        Result result = new Result();
        result.setRuleId(change.code());
        result.setRuleIndex(ruleIndex.get(change.code()));
        result.setLevel(Result.Level.NOTE);
        result.setMessage(message(ReportText.sarif(change.message()))); // quotes reasons and globs from the tree
        PhysicalLocation physical = new PhysicalLocation();
        physical.setArtifactLocation(artifactLocation(root, change.file()));
        // a note about the whole file (one the change adds or deletes) points at its first line:
        // code scanning wants a region on every result
        Region region = new Region();
        region.setStartLine(Math.max(1, change.line()));
        if (change.line() > 0 && change.column() > 0) {
            region.setStartColumn(change.column());
        }
        physical.setRegion(region);
        Location location = new Location();
        location.setPhysicalLocation(physical);
        result.setLocations(new ArrayList<>(List.of(location)));
        PartialFingerprints fingerprints = new PartialFingerprints();
        fingerprints.setAdditionalProperty(FINGERPRINT_KEY, dev.racelint.analyzer.finding.Fingerprints.sha256(change.code()
                + "\n" + artifactKey(root, change.file()) + "\n" + change.message()).substring(0, 32));
        result.setPartialFingerprints(fingerprints);
        return result;
    }

    private static Notification notification(Path root, Diagnostic diagnostic) {
        Notification n = new Notification();
        n.setLevel(notificationLevel(diagnostic.level()));
        n.setMessage(message(diagnostic.message() == null ? "" : ReportText.sarif(diagnostic.message())));
        if (diagnostic.code() != null) {
            ReportingDescriptorReference descriptor = new ReportingDescriptorReference();
            descriptor.setId(diagnostic.code());
            n.setDescriptor(descriptor);
        }
        if (diagnostic.file() != null) {
            PhysicalLocation physical = new PhysicalLocation();
            physical.setArtifactLocation(artifactLocation(root, diagnostic.file()));
            if (diagnostic.line() > 0) {
                Region region = new Region();
                region.setStartLine(diagnostic.line());
                if (diagnostic.column() > 0) {
                    region.setStartColumn(diagnostic.column());
                }
                physical.setRegion(region);
            }
            Location location = new Location();
            location.setPhysicalLocation(physical);
            LinkedHashSet<Location> locations = new LinkedHashSet<>();
            locations.add(location);
            n.setLocations(locations);
        }
        return n;
    }

    private static Location location(Path root, CodeLocation code) {
        Location location = new Location();
        location.setPhysicalLocation(physicalLocation(root, code));
        if (code.label() != null && !code.label().isBlank()) {
            location.setMessage(message(ReportText.sarif(code.label())));
        }
        return location;
    }

    private static PhysicalLocation physicalLocation(Path root, CodeLocation code) {
        PhysicalLocation physical = new PhysicalLocation();
        physical.setArtifactLocation(artifactLocation(root, code.file()));
        if (code.region() != null) {
            physical.setRegion(region(code.region()));
        }
        return physical;
    }

    private static ArtifactLocation artifactLocation(Path root, Path file) {
        ArtifactLocation artifact = new ArtifactLocation();
        Optional<String> uri = ReportPaths.relativeUri(root, file);
        if (uri.isPresent()) {
            artifact.setUri(uri.get());
            artifact.setUriBaseId(SRCROOT);
        } else {
            artifact.setUri(ReportPaths.fileUri(file));
        }
        return artifact;
    }

    private static String artifactKey(Path root, Path file) {
        return ReportPaths.relativeUri(root, file).orElseGet(() -> ReportPaths.fileUri(file));
    }

    private static Region region(SourceRegion source) {
        Region region = new Region();
        region.setStartLine(source.startLine());
        region.setStartColumn(source.startColumn());
        region.setEndLine(source.endLine());
        region.setEndColumn(source.endColumn());
        return region;
    }

    /**
     * The message with the finding's own fix after it: a code-scanning alert shows a result's message,
     * not the JSON report's separate fix, and the rule's help is generic where the fix names the
     * statement at hand.
     */
    private static String withFix(String sarifMessage, String fix) {
        if (fix == null || fix.isBlank()) {
            return sarifMessage;
        }
        return sarifMessage + " Fix: " + ReportText.sarif(fix.strip());
    }

    private static Message message(String text) {
        Message message = new Message();
        message.setText(text);
        return message;
    }

    private static MultiformatMessageString text(String text) {
        MultiformatMessageString message = new MultiformatMessageString();
        message.setText(text);
        return message;
    }

    private static Result.Level resultLevel(Level level) {
        return switch (level) {
            case ERROR -> Result.Level.ERROR;
            case WARNING -> Result.Level.WARNING;
            case NOTE -> Result.Level.NOTE;
        };
    }

    private static ReportingConfiguration.Level configLevel(Level level) {
        if (level == null) {
            return ReportingConfiguration.Level.WARNING;
        }
        return switch (level) {
            case ERROR -> ReportingConfiguration.Level.ERROR;
            case WARNING -> ReportingConfiguration.Level.WARNING;
            case NOTE -> ReportingConfiguration.Level.NOTE;
        };
    }

    private static Notification.Level notificationLevel(Level level) {
        if (level == null) {
            return Notification.Level.WARNING;
        }
        return switch (level) {
            case ERROR -> Notification.Level.ERROR;
            case WARNING -> Notification.Level.WARNING;
            case NOTE -> Notification.Level.NOTE;
        };
    }

    // java-sarif annotates every class with @JsonInclude(NON_DEFAULT): a property equal to the
    // schema default of a new instance is left out. That drops "level": "warning" from results,
    // notifications and rule configurations, and "results": [] from an empty run, all of which we
    // want written. These mix-ins override the inclusion of those properties only.

    private static ObjectMapper newSarifMapper() {
        ObjectMapper mapper = JsonSupport.newMapper();
        mapper.addMixIn(Result.class, ResultMixIn.class);
        mapper.addMixIn(Notification.class, NotificationMixIn.class);
        mapper.addMixIn(ReportingConfiguration.class, ReportingConfigurationMixIn.class);
        mapper.addMixIn(Run.class, RunMixIn.class);
        return mapper;
    }

    private abstract static class ResultMixIn {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        private Result.Level level;
    }

    private abstract static class NotificationMixIn {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        private Notification.Level level;
    }

    private abstract static class ReportingConfigurationMixIn {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        private ReportingConfiguration.Level level;
    }

    private abstract static class RunMixIn {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        private List<Result> results;
    }
}
