package dev.racelint.analyzer.review;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.baseline.Baseline;
import dev.racelint.analyzer.config.ProjectConfig;
import dev.racelint.analyzer.diff.ChangedLines;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.parse.DiagnosticOrder;
import dev.racelint.analyzer.parse.JavaSourceParser;
import dev.racelint.analyzer.parse.ParsedFile;
import dev.racelint.analyzer.source.SourceDiscovery;
import dev.racelint.analyzer.source.SourceFile;
import dev.racelint.analyzer.suppress.SuppressedFinding;
import dev.racelint.analyzer.suppress.Suppression;
import dev.racelint.analyzer.suppress.Suppressions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Diff mode's account of what a change does to the check itself: the suppressions it writes, the
 * baseline entries it adds, the racelint.yml settings it alters. Each of these makes findings go
 * away without touching the code they are about, so each is reported to the reviewer as a note
 * ({@link Diagnostic#checkChange()}) with its file, line and effect, and counted in the summary.
 * Notes never change the exit code: the reviewer decides.
 */
public final class CheckChanges {

    /** racelint.yml at the base is read from git with the limit of a file in the work tree. */
    public static final long MAX_CONFIG_BYTES = ProjectConfig.MAX_FILE_BYTES;
    private static final long MAX_BASELINE_BYTES = 64L << 20;
    private static final int MAX_QUOTED = 160;

    private CheckChanges() {}

    // ---- suppressions ----------------------------------------------------------------------------

    /**
     * The suppressions written on lines the change adds, in the files the scan analysed, each with
     * the findings of this scan it hides.
     *
     * <p>The changed files are parsed again here, by the scan's parser, rather than taken from the
     * analysis: a scan answered from the cache parses nothing, and the analysis keeps only the
     * suppressions that matched a finding.
     */
    public static List<Diagnostic> suppressions(ChangedLines diff, AnalysisOptions options, List<SuppressedFinding> suppressed) {
        List<Diagnostic> notes = hiddenInChange(diff, suppressed);
        Set<Path> changed = diff.filesWithAddedLines();
        if (changed.isEmpty()) {
            return notes;
        }
        List<SourceFile> sources = new ArrayList<>();
        for (SourceFile file : SourceDiscovery.of(options).discover(options.paths()).files()) {
            if (changed.contains(file.path().toAbsolutePath().normalize())) {
                sources.add(file);
            }
        }
        if (sources.isEmpty()) {
            return notes;
        }
        Map<String, List<Finding>> hidden = new HashMap<>();
        for (SuppressedFinding s : suppressed) {
            hidden.computeIfAbsent(key(s.suppression()), k -> new ArrayList<>()).add(s.finding());
        }
        for (ParsedFile file : new JavaSourceParser(options.threads()).parseAll(sources, done -> {}).files()) {
            for (Suppression s : Suppressions.in(file)) {
                SourceRegion at = s.location().region();
                if (at != null && diff.adds(file.path(), at.startLine(), at.endLine())) {
                    notes.add(new Diagnostic(file.path(), at.startLine(), at.startColumn(), Level.NOTE,
                            Diagnostic.SUPPRESSION_ADDED, describe(s, hidden.getOrDefault(key(s), List.of()))));
                }
            }
        }
        notes.sort(DiagnosticOrder.INSTANCE);
        return notes;
    }

    /**
     * The findings on lines the change touches that a suppression the change did not write hides:
     * a suppression already in the base (a comment over a method with no I/O, a class-level
     * annotation) would otherwise silence what the change brings in. A suppression the change adds
     * is left to its own note. Each note sits on the finding's first changed line, where a reviewer
     * of the diff sees it.
     */
    private static List<Diagnostic> hiddenInChange(ChangedLines diff, List<SuppressedFinding> suppressed) {
        List<Diagnostic> notes = new ArrayList<>();
        for (SuppressedFinding s : suppressed) {
            SourceRegion by = s.suppression().location().region();
            Path file = s.suppression().location().file();
            if (file != null && by != null && diff.adds(file, by.startLine(), by.endLine())) {
                continue;
            }
            Optional<CodeLocation> where = diff.firstTouched(s.finding());
            if (where.isEmpty() || where.get().file() == null) {
                continue;
            }
            SourceRegion at = where.get().region();
            Finding f = s.finding();
            String rules = s.suppression().ruleId().equals(Suppression.ALL_RULES) ? "all racelint rules"
                    : s.suppression().ruleId();
            String what = s.suppression().kind() == Suppression.Kind.COMMENT ? "// racelint:ignore for " + rules
                    : "@SuppressWarnings for " + rules;
            boolean sameFile = file != null && file.toAbsolutePath().normalize().equals(f.primary().file() == null ? null
                    : f.primary().file().toAbsolutePath().normalize());
            String place = by == null ? "" : (sameFile ? " at line " : " at " + quoted(diff.relative(file).orElse("?")) + ":")
                    + by.startLine();
            int findingLine = f.primary().region() == null ? 0 : f.primary().region().startLine();
            notes.add(new Diagnostic(where.get().file(), at == null ? 0 : at.startLine(), at == null ? 0 : at.startColumn(),
                    Level.NOTE, Diagnostic.SUPPRESSED_IN_DIFF, "the " + f.ruleId() + " finding at line " + findingLine
                    + ", on lines this change touches, is hidden by the " + what + place + ", which this change did not add"
                    + (s.suppression().hasJustification() ? "; reason given: " + quoted(s.suppression().justification())
                            : "; no reason given") + "."));
        }
        notes.sort(DiagnosticOrder.INSTANCE);
        return notes;
    }

    private static String key(Suppression s) {
        SourceRegion at = s.location().region();
        return s.kind() + "\n" + s.ruleId() + "\n" + s.location().file().toAbsolutePath().normalize() + "\n"
                + (at == null ? 0 : at.startLine());
    }

    private static String describe(Suppression s, List<Finding> hides) {
        String rules = s.ruleId().equals(Suppression.ALL_RULES) ? "all racelint rules" : s.ruleId();
        String what = s.kind() == Suppression.Kind.COMMENT ? "// racelint:ignore for " + rules
                : "@SuppressWarnings for " + rules;
        StringBuilder text = new StringBuilder(what).append(" added by this change: ");
        if (hides.isEmpty()) {
            text.append("it hides no finding of this scan");
        } else {
            Map<String, TreeSet<Integer>> byRule = new TreeMap<>();
            for (Finding f : hides) {
                byRule.computeIfAbsent(f.ruleId(), k -> new TreeSet<>())
                        .add(f.primary().region() == null ? 0 : f.primary().region().startLine());
            }
            List<String> parts = new ArrayList<>();
            byRule.forEach((rule, lines) -> parts.add(rule + " at line" + (lines.size() == 1 ? " " : "s ")
                    + String.join(", ", lines.stream().map(String::valueOf).toList())));
            text.append("it hides ").append(count(hides.size(), "finding")).append(" (")
                    .append(String.join("; ", parts)).append(')');
        }
        text.append(s.hasJustification() ? "; reason given: " + quoted(s.justification()) : "; no reason given");
        return text.append('.').toString();
    }

    // ---- baseline --------------------------------------------------------------------------------

    /**
     * The entries the change adds to the baseline file: those in the work tree's file beyond what
     * the file held at the base (per rule and fingerprint, so a duplicate counts); every entry when
     * the base has no such file. A baseline outside the work tree is no part of the change.
     *
     * @param findings this scan's findings before the baseline was applied
     */
    public static List<Diagnostic> baseline(ChangedLines diff, Path file, List<Finding> findings) throws IOException {
        if (diff.relative(file).isEmpty()) {
            return List.of();
        }
        String shown = diff.relative(file).get();
        List<Baseline.Located> now = Baseline.located(Files.readString(file, StandardCharsets.UTF_8), shown);
        List<Diagnostic> notes = new ArrayList<>();
        Map<String, Integer> before = new HashMap<>();
        Optional<byte[]> atBase;
        try {
            atBase = diff.atBase(file, MAX_BASELINE_BYTES);
        } catch (ChangedLines.DiffException e) {
            atBase = Optional.empty();
            notes.add(note(file, 0, Diagnostic.BASELINE_ENTRY_ADDED, "the baseline at " + diff.ref()
                    + " cannot be read (" + e.getMessage() + "): every entry is counted as added."));
        }
        if (atBase.isPresent()) {
            try {
                before = Baseline.counts(Baseline.located(new String(atBase.get(), StandardCharsets.UTF_8),
                        shown + " at " + diff.ref()).stream().map(Baseline.Located::entry).toList());
            } catch (Baseline.InvalidBaselineException e) {
                notes.add(note(file, 0, Diagnostic.BASELINE_ENTRY_ADDED, "the baseline at " + diff.ref()
                        + " is not one (" + e.getMessage() + "): every entry is counted as added."));
            }
        }
        Map<String, Integer> matching = new HashMap<>();
        for (Finding f : findings) {
            matching.merge(Baseline.key(f.ruleId(), f.fingerprint()), 1, Integer::sum);
        }
        Map<String, Integer> seen = new HashMap<>();
        for (Baseline.Located located : now) {
            Baseline.Entry e = located.entry();
            String key = Baseline.key(e.ruleId(), e.fingerprint());
            int n = seen.merge(key, 1, Integer::sum);
            if (n <= before.getOrDefault(key, 0)) {
                continue;
            }
            boolean accepts = n <= matching.getOrDefault(key, 0);
            notes.add(note(file, located.line(), Diagnostic.BASELINE_ENTRY_ADDED, "baseline entry added by this change: "
                    + e.ruleId() + (e.file().isEmpty() ? "" : " in " + quoted(e.file()))
                    + (e.method().isEmpty() ? "" : ", " + quoted(e.method()))
                    + (accepts ? ": it accepts a finding of this scan, which is not reported."
                            : ": it matches no finding of this scan.")));
        }
        return notes;
    }

    // ---- racelint.yml ----------------------------------------------------------------------------

    /**
     * The settings that differ between racelint.yml at the base and in the work tree: rules switched
     * off, levels changed, excludes and declared APIs added or removed, the file added or deleted.
     *
     * @param base          the config at the base revision, or null when it had none
     * @param head          the config in the work tree, or null when it has none
     * @param defaultLevels each rule's level when racelint.yml does not set it
     * @param baseApplies   the scan reads the base's config (the change's settings are shown, not applied)
     */
    public static List<Diagnostic> config(ChangedLines diff, ProjectConfig base, ProjectConfig head,
            Map<String, Level> defaultLevels, boolean baseApplies) {
        if (base == null && head == null) {
            return List.of();
        }
        Path file = head != null ? head.file() : base.file();
        String ref = diff.ref();
        String tail = baseApplies ? " (not applied: this scan reads racelint.yml from " + ref + ")" : "";
        List<Diagnostic> notes = new ArrayList<>();
        if (head == null) {
            notes.add(note(file, 0, Diagnostic.CONFIG_CHANGED, "deleted by this change: the settings it had at " + ref
                    + " no longer apply" + tail + "."));
        } else if (base == null) {
            notes.add(note(file, 0, Diagnostic.CONFIG_CHANGED, "added by this change (" + ref + " has no racelint config)"
                    + tail + "."));
        } else if (!Objects.equals(diff.relative(base.file()), diff.relative(head.file()))) {
            notes.add(note(file, 0, Diagnostic.CONFIG_CHANGED, "replaces " + diff.relative(base.file()).orElse("?")
                    + " as the racelint config with this change" + tail + "."));
        }

        Map<String, String> before = base == null ? Map.of() : base.ruleSettings();
        Map<String, String> after = head == null ? Map.of() : head.ruleSettings();
        for (String rule : new TreeSet<>(union(before.keySet(), after.keySet()))) {
            String was = before.get(rule);
            String now = after.get(rule);
            if (Objects.equals(effective(was), effective(now))) {
                continue;
            }
            int line = head == null ? 0 : head.ruleLine(rule);
            notes.add(note(file, line, Diagnostic.CONFIG_CHANGED, "rules: " + rule + " is " + setting(now) + " (at " + ref
                    + ": " + setting(was) + ")" + ruleEffect(was, now, defaultLevels.get(rule)) + tail + "."));
        }

        Level minBefore = base == null ? null : base.minLevel().orElse(null);
        Level minAfter = head == null ? null : head.minLevel().orElse(null);
        if (!Objects.equals(minBefore, minAfter)) {
            notes.add(note(file, head == null ? 0 : head.minLevelLine(), Diagnostic.CONFIG_CHANGED, "minLevel: "
                    + (minAfter == null ? "not set" : minAfter.sarifName()) + " (at " + ref + ": "
                    + (minBefore == null ? "not set" : minBefore.sarifName())
                    + "): findings below the minimum level are not reported" + tail + "."));
        }
        List<String> authorizationBefore = base == null ? List.of() : base.authorizationAnnotations();
        for (String annotation : head == null ? List.<String>of() : head.authorizationAnnotations()) {
            if (!authorizationBefore.contains(annotation)) {
                notes.add(note(file, 0, Diagnostic.CONFIG_CHANGED, "authorization: " + quoted(annotation)
                        + " added by this change: findings only its holders reach are reported as notes" + tail + "."));
            }
        }

        List<String> excludesBefore = base == null ? List.of() : base.excludes();
        Map<String, Integer> remaining = multiset(excludesBefore);
        // racelint.yml's globs are relative to its folder: moved to another folder, the same glob leaves out other files
        Optional<String> folderBefore = base == null ? Optional.empty() : folderOf(diff, base);
        Optional<String> folderAfter = head == null ? Optional.empty() : folderOf(diff, head);
        boolean moved = folderBefore.isPresent() && folderAfter.isPresent() && !folderBefore.equals(folderAfter);
        if (head != null) {
            for (int i = 0; i < head.excludes().size(); i++) {
                String glob = head.excludes().get(i);
                int line = i < head.excludeLines().size() ? head.excludeLines().get(i) : 0;
                if (remaining.getOrDefault(glob, 0) > 0) {
                    remaining.merge(glob, -1, Integer::sum);
                    if (moved) {
                        notes.add(note(file, line, Diagnostic.CONFIG_CHANGED, "exclude: " + quoted(glob)
                                + " is relative to " + folderAfter.get() + " (at " + ref + ": to " + folderBefore.get()
                                + "), where racelint.yml now is: the files it leaves out are not the same" + tail + "."));
                    }
                    continue;
                }
                notes.add(note(file, line, Diagnostic.CONFIG_CHANGED, "exclude: " + quoted(glob)
                        + " added by this change: files it matches are no longer scanned" + tail + "."));
            }
        }
        for (Map.Entry<String, Integer> left : new TreeMap<>(remaining).entrySet()) {
            for (int i = 0; i < left.getValue(); i++) {
                notes.add(note(file, 0, Diagnostic.CONFIG_CHANGED, "exclude: " + quoted(left.getKey())
                        + " removed by this change: files it matched are scanned again" + tail + "."));
            }
        }

        Map<String, ProjectConfig.Api> apisBefore = apis(base);
        Map<String, ProjectConfig.Api> apisAfter = apis(head);
        for (Map.Entry<String, ProjectConfig.Api> api : apisAfter.entrySet()) {
            ProjectConfig.Api was = apisBefore.get(api.getKey());
            ProjectConfig.ApiKind kind = api.getValue().kind();
            if (was != null && was.kind() == kind) {
                continue;
            }
            notes.add(note(file, api.getValue().line(), Diagnostic.CONFIG_CHANGED, "apis: " + quoted(api.getKey()) + " is "
                    + kind.spelling() + (was == null ? ", added by this change" : " (at " + ref + ": " + was.kind().spelling() + ")")
                    + ": racelint now takes every call to it for " + kind.spelling() + apiEffect(kind) + tail + "."));
        }
        for (Map.Entry<String, ProjectConfig.Api> api : apisBefore.entrySet()) {
            if (!apisAfter.containsKey(api.getKey())) {
                notes.add(note(file, 0, Diagnostic.CONFIG_CHANGED, "apis: " + quoted(api.getKey()) + " ("
                        + api.getValue().kind().spelling() + ") removed by this change" + tail + "."));
            }
        }

        // a lower limit makes the analysis look less far: findings past it go away without a line of code changing
        dev.racelint.analyzer.AnalysisLimits limitsBefore = base == null ? dev.racelint.analyzer.AnalysisLimits.DEFAULT
                : base.limits(dev.racelint.analyzer.AnalysisLimits.DEFAULT);
        dev.racelint.analyzer.AnalysisLimits limitsAfter = head == null ? dev.racelint.analyzer.AnalysisLimits.DEFAULT
                : head.limits(dev.racelint.analyzer.AnalysisLimits.DEFAULT);
        for (dev.racelint.analyzer.AnalysisLimits.Limit limit : dev.racelint.analyzer.AnalysisLimits.Limit.values()) {
            int was = limitsBefore.get(limit);
            int now = limitsAfter.get(limit);
            if (was == now) {
                continue;
            }
            int line = head == null ? 0 : head.limitSettings().stream().filter(s -> s.limit() == limit)
                    .mapToInt(ProjectConfig.LimitSetting::line).findFirst().orElse(0);
            notes.add(note(file, line, Diagnostic.CONFIG_CHANGED, "limits: " + limit.key() + " is " + now + " (at " + ref
                    + ": " + was + (was == limit.defaultValue() ? ", the default" : "") + ")"
                    + (now < was ? ": the analysis looks less far, so findings past the new bound can go away"
                            : ": the analysis looks further") + tail + "."));
        }
        notes.sort(DiagnosticOrder.INSTANCE);
        return notes;
    }

    /** "on" and no setting both run the rule at its default level. */
    private static String effective(String setting) {
        return setting == null ? "on" : setting;
    }

    private static String setting(String setting) {
        return setting == null ? "not set" : setting;
    }

    private static String ruleEffect(String was, String now, Level defaultLevel) {
        String after = effective(now);
        if (after.equals("off")) {
            return ": the rule no longer runs";
        }
        if (effective(was).equals("off")) {
            return ": the rule runs again";
        }
        Level from = levelOf(effective(was), defaultLevel);
        Level to = levelOf(after, defaultLevel);
        if (from != null && to != null && from != to) {
            return to.isAtLeast(from) ? ": its findings are reported at a higher level"
                    : ": its findings are reported at a lower level, which may no longer fail the build";
        }
        return "";
    }

    private static Level levelOf(String setting, Level defaultLevel) {
        return switch (setting) {
            case "error" -> Level.ERROR;
            case "warning" -> Level.WARNING;
            case "note" -> Level.NOTE;
            default -> defaultLevel;
        };
    }

    /** Kinds that make racelint take code as guarded: declaring one can make findings go away. */
    private static String apiEffect(ProjectConfig.ApiKind kind) {
        return switch (kind) {
            case LOCK, IDEMPOTENCY_STORE, TRANSACTION, EXCLUSIVE_CREATE ->
                    ", so code that calls it counts as guarded and findings there can go away";
            case UNLOCK -> ", so a lock held before the call counts as released there";
            default -> "";
        };
    }

    private static Map<String, ProjectConfig.Api> apis(ProjectConfig config) {
        Map<String, ProjectConfig.Api> out = new LinkedHashMap<>();
        if (config != null) {
            for (ProjectConfig.Api api : config.apis()) {
                out.put(api.type() + "#" + api.method(), api);
            }
        }
        return out;
    }

    /** The repository folder holding a racelint.yml, as messages name it ({@code ./} for the root). */
    private static Optional<String> folderOf(ChangedLines diff, ProjectConfig config) {
        return diff.relative(config.file()).map(name -> {
            int slash = name.lastIndexOf('/');
            return slash < 0 ? "./" : name.substring(0, slash + 1);
        });
    }

    private static Map<String, Integer> multiset(List<String> values) {
        Map<String, Integer> out = new HashMap<>();
        values.forEach(v -> out.merge(v, 1, Integer::sum));
        return out;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.addAll(b);
        return out;
    }

    // ---- shared ----------------------------------------------------------------------------------

    private static Diagnostic note(Path file, int line, String code, String message) {
        return new Diagnostic(file, Math.max(0, line), 0, Level.NOTE, code, message);
    }

    /** Text from the scanned tree, quoted, clipped, without control characters. */
    static String quoted(String text) {
        StringBuilder out = new StringBuilder("\"");
        int[] codePoints = text.codePoints().toArray();
        for (int i = 0; i < codePoints.length && i < MAX_QUOTED; i++) {
            int c = codePoints[i];
            out.appendCodePoint(Character.isISOControl(c) ? '?' : c);
        }
        if (codePoints.length > MAX_QUOTED) {
            out.append("...");
        }
        return out.append('"').toString();
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
