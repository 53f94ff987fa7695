package dev.racelint.analyzer.review;

import dev.racelint.analyzer.AnalysisResult;
import dev.racelint.analyzer.baseline.Baseline;
import dev.racelint.analyzer.diff.ChangedLines;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.report.ScanReport;
import java.util.List;

/**
 * From an analysis to what a team wants to see: findings suppressed in the source are set aside,
 * then (optionally) those a baseline accepts, then (optionally) those that do not touch the lines
 * a change made, and last those below the minimum level ({@code --min-level}: notes by default). What
 * is left is reported and decides the exit code; the rest is counted.
 * The CLI and the Maven plugin both go through here, so they agree.
 *
 * @param findings the findings to report
 * @param triage   what was set aside, for the summary and the SARIF suppressions
 */
public record Review(List<Finding> findings, ScanReport.Triage triage) {

    public static Review of(AnalysisResult result, Baseline baseline, ChangedLines diff, boolean includeSuppressed) {
        return of(result, baseline, diff, includeSuppressed, null);
    }

    /**
     * As {@link #of(AnalysisResult, Baseline, ChangedLines, boolean)}, reporting only findings at
     * {@code minLevel} or more severe (null: every level). The level filter comes last, so that a
     * baseline still matches (and does not call fixed) the entries of findings below it.
     */
    public static Review of(AnalysisResult result, Baseline baseline, ChangedLines diff, boolean includeSuppressed,
            Level minLevel) {
        List<Finding> findings = result.findings();
        ScanReport.Triage triage = ScanReport.Triage.NONE.withSuppressed(result.suppressed(), includeSuppressed);
        if (baseline != null) {
            Baseline.Outcome outcome = baseline.apply(findings);
            findings = outcome.fresh();
            triage = triage.withBaseline(outcome.baselined().size(), outcome.fixed().size());
        }
        if (diff != null) {
            List<Finding> touching = diff.filter(findings);
            triage = triage.withOutsideDiff(findings.size() - touching.size());
            findings = touching;
        }
        if (minLevel != null) {
            List<Finding> atLevel = findings.stream().filter(f -> f.level().isAtLeast(minLevel)).toList();
            triage = triage.withMinLevel(minLevel, findings.size() - atLevel.size());
            findings = atLevel;
        }
        return new Review(List.copyOf(findings), triage);
    }
}
