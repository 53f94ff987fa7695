package dev.racelint.analyzer.report;

import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.rule.RuleDescriptor;
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
 * @param diagnostics    per-file problems in deterministic order
 * @param sourceRoot     absolute directory that URIs are relative to (the git work tree root
 *                       holding the scanned path, else the scanned folder, or --source-root)
 * @param sarifCategory  SARIF {@code automationDetails.id}, or null
 * @param filesAnalysed  number of source files analysed
 * @param sources        read access to the source lines, for excerpts
 */
public record ScanReport(
        String toolVersion,
        List<RuleDescriptor> rules,
        List<Finding> findings,
        List<Diagnostic> diagnostics,
        Path sourceRoot,
        String sarifCategory,
        int filesAnalysed,
        SourceLines sources) {

    /** Read access to a scanned file's lines (1-based), without re-decoding it per call. */
    public interface SourceLines {
        Optional<String> line(Path file, int line);
    }

    public ScanReport {
        rules = List.copyOf(rules);
        findings = List.copyOf(findings);
        diagnostics = List.copyOf(diagnostics);
    }
}
