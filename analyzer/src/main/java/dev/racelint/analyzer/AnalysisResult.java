package dev.racelint.analyzer;

import dev.racelint.analyzer.coverage.Coverage;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.rule.RuleDescriptor;
import java.nio.file.Path;
import java.util.List;

/**
 * The outcome of a scan: findings and diagnostics in deterministic order.
 *
 * @param timingsMillis wall time per phase, in pipeline order (discover, parse, index, call graph, rules)
 * @param fromCache     true when the scan cache answered: no file, setting or racelint changed since
 *                      the scan that computed this result
 * @param treesFromCache files whose syntax tree was read from the cache rather than parsed, because
 *                      their contents had not changed since the last scan (0 when {@code fromCache})
 * @param coverage      what the analysis understood (the same on a cache hit as on the scan that
 *                      computed it); null only for results made without analysing (tests)
 */
public record AnalysisResult(
        List<RuleDescriptor> rules,
        List<Finding> findings,
        List<Diagnostic> diagnostics,
        Path sourceRoot,
        int filesAnalysed,
        int methodsAnalysed,
        java.util.LinkedHashMap<String, Long> timingsMillis,
        List<dev.racelint.analyzer.suppress.SuppressedFinding> suppressed,
        boolean fromCache,
        int treesFromCache,
        Coverage coverage) {

    /** A result computed by this scan. */
    public AnalysisResult(List<RuleDescriptor> rules, List<Finding> findings, List<Diagnostic> diagnostics,
            Path sourceRoot, int filesAnalysed, int methodsAnalysed, java.util.LinkedHashMap<String, Long> timingsMillis,
            List<dev.racelint.analyzer.suppress.SuppressedFinding> suppressed) {
        this(rules, findings, diagnostics, sourceRoot, filesAnalysed, methodsAnalysed, timingsMillis, suppressed, false, 0,
                null);
    }

    /** A result without coverage. */
    public AnalysisResult(List<RuleDescriptor> rules, List<Finding> findings, List<Diagnostic> diagnostics,
            Path sourceRoot, int filesAnalysed, int methodsAnalysed, java.util.LinkedHashMap<String, Long> timingsMillis,
            List<dev.racelint.analyzer.suppress.SuppressedFinding> suppressed, boolean fromCache, int treesFromCache) {
        this(rules, findings, diagnostics, sourceRoot, filesAnalysed, methodsAnalysed, timingsMillis, suppressed, fromCache,
                treesFromCache, null);
    }

    public AnalysisResult {
        findings = List.copyOf(findings);
        suppressed = List.copyOf(suppressed);
    }
}
