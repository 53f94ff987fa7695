package dev.racelint.analyzer.report;

import dev.racelint.analyzer.coverage.Coverage;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.suppress.SuppressedFinding;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Everything a writer needs: the rules that ran, the findings (already sorted), the diagnostics,
 * and the root that file URIs are made relative to.
 *
 * @param toolVersion    racelint's version, e.g. {@code 0.1.0-SNAPSHOT}
 * @param rules          the rules that ran, in stable (id) order
 * @param findings       findings in deterministic order (file, line, column, rule, fingerprint)
 * @param diagnostics    per-file problems in deterministic order; kept as {@link DiagnosticPaths#guard}
 *                       makes them (no path outside the source root, in the location or the message)
 * @param sourceRoot     absolute directory that URIs are relative to (the git work tree root
 *                       holding the scanned path, else the scanned folder, or --source-root)
 * @param sarifCategory  SARIF {@code automationDetails.id}, or null
 * @param filesAnalysed  number of source files analysed
 * @param sources        read access to the source lines, for excerpts
 * @param triage         what was left out of {@code findings} and why: suppressed in the source,
 *                       accepted by a baseline, outside a diff
 * @param coverage       what the analysis understood, or null when unknown (then no writer shows it)
 */
public record ScanReport(
        String toolVersion,
        List<RuleDescriptor> rules,
        List<Finding> findings,
        List<Diagnostic> diagnostics,
        Path sourceRoot,
        String sarifCategory,
        int filesAnalysed,
        SourceLines sources,
        Triage triage,
        Coverage coverage) {

    public ScanReport(String toolVersion, List<RuleDescriptor> rules, List<Finding> findings, List<Diagnostic> diagnostics,
            Path sourceRoot, String sarifCategory, int filesAnalysed, SourceLines sources) {
        this(toolVersion, rules, findings, diagnostics, sourceRoot, sarifCategory, filesAnalysed, sources, Triage.NONE);
    }

    /** A report without coverage. */
    public ScanReport(String toolVersion, List<RuleDescriptor> rules, List<Finding> findings, List<Diagnostic> diagnostics,
            Path sourceRoot, String sarifCategory, int filesAnalysed, SourceLines sources, Triage triage) {
        this(toolVersion, rules, findings, diagnostics, sourceRoot, sarifCategory, filesAnalysed, sources, triage, null);
    }

    /**
     * Findings left out of the report.
     *
     * @param suppressed         findings silenced in the source, with their suppression
     * @param includeSuppressed  write the suppressed findings too, marked as suppressed (SARIF
     *                           {@code suppressions}); otherwise they are only counted
     * @param baselined          findings a baseline accepts; -1 when no baseline was given
     * @param baselineFixed      baseline entries that matched nothing (fixed); -1 when no baseline
     * @param outsideDiff        findings that do not touch the changed lines; -1 when no diff was given
     * @param minLevel           the least severe level reported ({@code --min-level}); null: every level
     * @param belowMinLevel      findings left out because their level is below {@code minLevel}
     */
    public record Triage(List<SuppressedFinding> suppressed, boolean includeSuppressed, int baselined,
            int baselineFixed, int outsideDiff, Level minLevel, int belowMinLevel) {
        public static final Triage NONE = new Triage(List.of(), false, -1, -1, -1);

        public Triage {
            suppressed = List.copyOf(suppressed);
        }

        /** Every level reported. */
        public Triage(List<SuppressedFinding> suppressed, boolean includeSuppressed, int baselined,
                int baselineFixed, int outsideDiff) {
            this(suppressed, includeSuppressed, baselined, baselineFixed, outsideDiff, null, 0);
        }

        public Triage withSuppressed(List<SuppressedFinding> list, boolean include) {
            return new Triage(list, include, baselined, baselineFixed, outsideDiff, minLevel, belowMinLevel);
        }

        public Triage withBaseline(int accepted, int fixed) {
            return new Triage(suppressed, includeSuppressed, accepted, fixed, outsideDiff, minLevel, belowMinLevel);
        }

        public Triage withOutsideDiff(int count) {
            return new Triage(suppressed, includeSuppressed, baselined, baselineFixed, count, minLevel, belowMinLevel);
        }

        public Triage withMinLevel(Level level, int below) {
            return new Triage(suppressed, includeSuppressed, baselined, baselineFixed, outsideDiff, level, below);
        }

        /**
         * "3 notes not shown (below the minimum level warning; --min-level note shows them)", or empty when
         * nothing was left out for its level. {@code how} names the setting in the caller's terms
         * ({@code "--min-level "}, {@code "-Dracelint.minLevel="}), the level follows it.
         */
        public java.util.Optional<String> belowMinLevelText(String how) {
            if (minLevel == null || belowMinLevel <= 0) {
                return java.util.Optional.empty();
            }
            Level lowest = Level.values()[Level.values().length - 1];
            // below warning there are only notes; below error, warnings and notes
            String what = minLevel == Level.WARNING ? (belowMinLevel == 1 ? "note" : "notes")
                    : (belowMinLevel == 1 ? "finding" : "findings");
            return java.util.Optional.of(belowMinLevel + " " + what + " not shown (below the minimum level "
                    + minLevel.sarifName() + "; " + how + lowest.sarifName() + " shows them)");
        }
    }

    /** Read access to a scanned file's lines (1-based), without re-decoding it per call. */
    public interface SourceLines {
        Optional<String> line(Path file, int line);
    }

    public ScanReport {
        rules = List.copyOf(rules);
        findings = List.copyOf(findings);
        // the last guard: no diagnostic written in any format names a path outside the root
        diagnostics = List.copyOf(DiagnosticPaths.guard(sourceRoot, diagnostics));
        triage = triage == null ? Triage.NONE : triage;
    }
}
