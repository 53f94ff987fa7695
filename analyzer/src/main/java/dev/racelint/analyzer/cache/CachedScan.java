package dev.racelint.analyzer.cache;

import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.suppress.SuppressedFinding;
import dev.racelint.analyzer.suppress.Suppression;
import java.nio.file.Path;
import java.util.List;

/**
 * What a scan computed from its inputs, as stored in a cache entry: findings, suppressed findings,
 * the diagnostics of parsing and analysis (discovery's are made anew on every scan, since they
 * describe files the inputs hash does not cover), and the counts. Plain records, so the stored
 * form is independent of the domain classes' shape.
 */
public record CachedScan(int format, String settings, String inputs, int filesAnalysed, int methodsAnalysed,
        List<StoredFinding> findings, List<StoredSuppressed> suppressed, List<StoredDiagnostic> diagnostics) {

    public record StoredLocation(String file, int startLine, int startColumn, int endLine, int endColumn,
            String label) {

        static StoredLocation of(CodeLocation l) {
            SourceRegion r = l.region();
            return new StoredLocation(l.file().toString(), r.startLine(), r.startColumn(), r.endLine(), r.endColumn(),
                    l.label());
        }

        CodeLocation restore() {
            return new CodeLocation(Path.of(file), new SourceRegion(startLine, startColumn, endLine, endColumn), label);
        }
    }

    public record StoredFinding(String ruleId, Level level, List<Message.Segment> message, StoredLocation primary,
            List<StoredLocation> related, List<StoredLocation> codeFlow, String fix, String fingerprint,
            String enclosingMethod, List<List<StoredLocation>> otherFlows) {

        static StoredFinding of(Finding f) {
            return new StoredFinding(f.ruleId(), f.level(), f.message().segments(), StoredLocation.of(f.primary()),
                    locations(f.related()), locations(f.codeFlow()), f.fix(), f.fingerprint(), f.enclosingMethod(),
                    f.otherFlows().stream().map(CachedScan::locations).toList());
        }

        Finding restore() {
            Message.Builder text = Message.builder();
            for (Message.Segment s : message) {
                if (s.relatedIndex() < 0) {
                    text.text(s.text());
                } else {
                    text.link(s.text(), s.relatedIndex());
                }
            }
            return new Finding(ruleId, level, text.build(), primary.restore(), restored(related), restored(codeFlow),
                    fix, fingerprint, enclosingMethod, otherFlows.stream().map(CachedScan::restored).toList());
        }
    }

    public record StoredSuppressed(StoredFinding finding, Suppression.Kind kind, String ruleId, String justification,
            StoredLocation location) {

        static StoredSuppressed of(SuppressedFinding s) {
            Suppression by = s.suppression();
            return new StoredSuppressed(StoredFinding.of(s.finding()), by.kind(), by.ruleId(), by.justification(),
                    StoredLocation.of(by.location()));
        }

        SuppressedFinding restore() {
            return new SuppressedFinding(finding.restore(), new Suppression(kind, ruleId, justification, location.restore()));
        }
    }

    public record StoredDiagnostic(String file, int line, int column, Level level, String code, String message) {

        static StoredDiagnostic of(Diagnostic d) {
            return new StoredDiagnostic(d.file() == null ? null : d.file().toString(), d.line(), d.column(), d.level(),
                    d.code(), d.message());
        }

        Diagnostic restore() {
            return new Diagnostic(file == null ? null : Path.of(file), line, column, level, code, message);
        }
    }

    public static CachedScan of(String settings, String inputs, int filesAnalysed, int methodsAnalysed,
            List<Finding> findings, List<SuppressedFinding> suppressed, List<Diagnostic> diagnostics) {
        return new CachedScan(CacheKey.FORMAT, settings, inputs, filesAnalysed, methodsAnalysed,
                findings.stream().map(StoredFinding::of).toList(),
                suppressed.stream().map(StoredSuppressed::of).toList(),
                diagnostics.stream().map(StoredDiagnostic::of).toList());
    }

    public List<Finding> restoredFindings() {
        return findings.stream().map(StoredFinding::restore).toList();
    }

    public List<SuppressedFinding> restoredSuppressed() {
        return suppressed.stream().map(StoredSuppressed::restore).toList();
    }

    public List<Diagnostic> restoredDiagnostics() {
        return diagnostics.stream().map(StoredDiagnostic::restore).toList();
    }

    private static List<StoredLocation> locations(List<CodeLocation> locations) {
        return locations.stream().map(StoredLocation::of).toList();
    }

    private static List<CodeLocation> restored(List<StoredLocation> locations) {
        return locations.stream().map(StoredLocation::restore).toList();
    }
}
