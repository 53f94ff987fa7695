package dev.racelint.analyzer.cache;

import dev.racelint.analyzer.coverage.Coverage;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.suppress.SuppressedFinding;
import dev.racelint.analyzer.suppress.Suppression;
import dev.racelint.analyzer.report.ReportPaths;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What a scan computed from its inputs, as stored in a cache entry: findings, suppressed findings,
 * the diagnostics of parsing and analysis (discovery's are made anew on every scan, since they
 * describe files the inputs hash does not cover), the counts and the coverage (plain records too). Plain records, so the stored
 * form is independent of the domain classes' shape.
 *
 * <p>Every path is stored relative to the scanned root, {@code /}-separated, and is read back only
 * if it stays inside the root ({@link #staysInside}). Notes about the machine rather than the
 * inputs (the cache's own, see {@link #ENVIRONMENT_CODES}) are never stored, so a hit never
 * replays them.
 */
public record CachedScan(int format, String settings, String inputs, int filesAnalysed, int methodsAnalysed,
        Coverage coverage, List<StoredFinding> findings, List<StoredSuppressed> suppressed, List<StoredDiagnostic> diagnostics) {

    /** Codes of diagnostics that describe this machine's cache, not the inputs: never stored. */
    static final Set<String> ENVIRONMENT_CODES = Set.of(Diagnostic.CACHE_NOT_WRITTEN, ScanCache.REFUSED,
            ScanCache.ENTRY_IGNORED);

    /** A result with a path that cannot be written relative to the root (a file outside it): not cached. */
    public static final class NotStorable extends RuntimeException {
        NotStorable() {
            super("a path outside the source root", null, false, false);
        }
    }

    public record StoredLocation(String file, int startLine, int startColumn, int endLine, int endColumn,
            String label) {

        static StoredLocation of(Path root, CodeLocation l) {
            SourceRegion r = l.region();
            return new StoredLocation(stored(root, l.file()), r.startLine(), r.startColumn(), r.endLine(), r.endColumn(),
                    l.label());
        }

        CodeLocation restore(Path root) {
            return new CodeLocation(restored(root, file), new SourceRegion(startLine, startColumn, endLine, endColumn),
                    label);
        }
    }

    public record StoredFinding(String ruleId, Level level, List<Message.Segment> message, StoredLocation primary,
            List<StoredLocation> related, List<StoredLocation> codeFlow, String fix, String fingerprint,
            String enclosingMethod, List<List<StoredLocation>> otherFlows) {

        static StoredFinding of(Path root, Finding f) {
            return new StoredFinding(f.ruleId(), f.level(), f.message().segments(), StoredLocation.of(root, f.primary()),
                    locations(root, f.related()), locations(root, f.codeFlow()), f.fix(), f.fingerprint(),
                    f.enclosingMethod(), f.otherFlows().stream().map(flow -> locations(root, flow)).toList());
        }

        Finding restore(Path root) {
            Message.Builder text = Message.builder();
            for (Message.Segment s : message) {
                if (s.relatedIndex() < 0) {
                    text.text(s.text());
                } else {
                    text.link(s.text(), s.relatedIndex());
                }
            }
            return new Finding(ruleId, level, text.build(), primary.restore(root), restored(root, related),
                    restored(root, codeFlow), fix, fingerprint, enclosingMethod,
                    otherFlows.stream().map(flow -> restored(root, flow)).toList());
        }

        Stream<StoredLocation> allLocations() {
            return Stream.of(Stream.of(primary), related.stream(), codeFlow.stream(),
                    otherFlows.stream().flatMap(List::stream)).flatMap(s -> s);
        }
    }

    public record StoredSuppressed(StoredFinding finding, Suppression.Kind kind, String ruleId, String justification,
            StoredLocation location) {

        static StoredSuppressed of(Path root, SuppressedFinding s) {
            Suppression by = s.suppression();
            return new StoredSuppressed(StoredFinding.of(root, s.finding()), by.kind(), by.ruleId(), by.justification(),
                    StoredLocation.of(root, by.location()));
        }

        SuppressedFinding restore(Path root) {
            return new SuppressedFinding(finding.restore(root),
                    new Suppression(kind, ruleId, justification, location.restore(root)));
        }
    }

    public record StoredDiagnostic(String file, int line, int column, Level level, String code, String message) {

        static StoredDiagnostic of(Path root, Diagnostic d) {
            return new StoredDiagnostic(d.file() == null ? null : stored(root, d.file()), d.line(), d.column(), d.level(),
                    d.code(), d.message());
        }

        Diagnostic restore(Path root) {
            return new Diagnostic(file == null ? null : restored(root, file), line, column, level, code, message);
        }
    }

    /**
     * The entry for a scan of {@code root}; its environment notes left out.
     *
     * @throws NotStorable when a path is outside {@code root}
     */
    public static CachedScan of(Path root, String settings, String inputs, int filesAnalysed, int methodsAnalysed,
            Coverage coverage, List<Finding> findings, List<SuppressedFinding> suppressed, List<Diagnostic> diagnostics) {
        return new CachedScan(CacheKey.FORMAT, settings, inputs, filesAnalysed, methodsAnalysed, coverage,
                findings.stream().map(f -> StoredFinding.of(root, f)).toList(),
                suppressed.stream().map(s -> StoredSuppressed.of(root, s)).toList(),
                diagnostics.stream().filter(d -> !ENVIRONMENT_CODES.contains(d.code()))
                        .map(d -> StoredDiagnostic.of(root, d)).toList());
    }

    /**
     * Whether every stored path is a relative path that stays inside {@code root}: none absolute,
     * none with a {@code ..} segment. An entry failing this is never used.
     */
    public boolean staysInside(Path root) {
        Stream<String> files = Stream.of(
                findings.stream().flatMap(StoredFinding::allLocations).map(StoredLocation::file),
                suppressed.stream().flatMap(s -> Stream.concat(s.finding().allLocations(), Stream.of(s.location())))
                        .map(StoredLocation::file),
                diagnostics.stream().map(StoredDiagnostic::file).filter(Objects::nonNull)).flatMap(s -> s);
        return files.allMatch(file -> ReportPaths.inside(root, file).isPresent());
    }

    public List<Finding> restoredFindings(Path root) {
        return findings.stream().map(f -> f.restore(root)).toList();
    }

    public List<SuppressedFinding> restoredSuppressed(Path root) {
        return suppressed.stream().map(s -> s.restore(root)).toList();
    }

    public List<Diagnostic> restoredDiagnostics(Path root) {
        return diagnostics.stream().map(d -> d.restore(root)).toList();
    }

    private static List<StoredLocation> locations(Path root, List<CodeLocation> locations) {
        return locations.stream().map(l -> StoredLocation.of(root, l)).toList();
    }

    private static List<CodeLocation> restored(Path root, List<StoredLocation> locations) {
        return locations.stream().map(l -> l.restore(root)).toList();
    }

    private static String stored(Path root, Path file) {
        String relative = ReportPaths.relative(root, file).orElseThrow(NotStorable::new);
        if (ReportPaths.inside(root, relative).isEmpty()) {
            throw new NotStorable();
        }
        return relative;
    }

    private static Path restored(Path root, String file) {
        return ReportPaths.inside(root, file)
                .orElseThrow(() -> new IllegalArgumentException("a cached path leaves the source root"));
    }
}
