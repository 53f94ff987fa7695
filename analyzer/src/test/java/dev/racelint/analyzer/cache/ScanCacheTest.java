package dev.racelint.analyzer.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.suppress.SuppressedFinding;
import dev.racelint.analyzer.suppress.Suppression;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanCacheTest {

    @TempDir
    Path temp;

    private static final List<Class<?>> CODE = List.of(ScanCache.class);

    @Test
    void everySettingThatChangesTheAnalysisChangesTheSettingsHash() {
        Path root = temp.resolve("root");
        AnalysisOptions base = new AnalysisOptions(List.of(root), false, List.of(), List.of(), 2, Set.of(), 1000, null);
        String hash = settings(base, root, List.of("a"), "catalogue");

        assertThat(settings(base, root, List.of("a"), "catalogue")).isEqualTo(hash);
        assertThat(settings(new AnalysisOptions(List.of(root), false, List.of(), List.of(), 1, Set.of(), 1000, null),
                root, List.of("a"), "catalogue")).as("threads do not change results").isEqualTo(hash);
        assertThat(List.of(
                settings(base, temp.resolve("other"), List.of("a"), "catalogue"),
                settings(base, root, List.of("a", "b"), "catalogue"),
                settings(base, root, List.of("a"), "declared APIs"),
                settings(new AnalysisOptions(List.of(root), true, List.of(), List.of(), 2, Set.of(), 1000, null),
                        root, List.of("a"), "catalogue"),
                settings(new AnalysisOptions(List.of(root), false, List.of("**/gen/**"), List.of(), 2, Set.of(), 1000,
                        null), root, List.of("a"), "catalogue"),
                settings(new AnalysisOptions(List.of(root), false, List.of(), List.of(), 2, Set.of(), 999, null),
                        root, List.of("a"), "catalogue")))
                .doesNotContain(hash).doesNotHaveDuplicates();
    }

    @Test
    void theInputsHashFollowsContentsNotModificationTimes() throws Exception {
        Path a = Files.writeString(temp.resolve("A.java"), "class A {}");
        Path b = Files.writeString(temp.resolve("B.java"), "class B {}");
        String hash = CacheKey.inputs(List.of(a, b), 2).orElseThrow().hash();

        assertThat(CacheKey.inputs(List.of(b, a), 1).map(CacheKey.Inputs::hash)).as("order and threads do not matter").contains(hash);
        Files.setLastModifiedTime(a, FileTime.fromMillis(0));
        assertThat(CacheKey.inputs(List.of(a, b), 2).map(CacheKey.Inputs::hash)).contains(hash);
        Files.writeString(a, "class A { }");
        assertThat(CacheKey.inputs(List.of(a, b), 2).map(CacheKey.Inputs::hash)).isPresent().get().isNotEqualTo(hash);
        assertThat(CacheKey.inputs(List.of(a, temp.resolve("Gone.java")), 2)).as("unreadable file").isEmpty();
    }

    @Test
    void anEntryRoundTripsAndIsUsedOnlyForItsInputs() throws Exception {
        ScanCache cache = new ScanCache(temp.resolve("cache"));
        Path file = temp.resolve("src/Orders.java");
        CodeLocation at = new CodeLocation(file, new SourceRegion(3, 5, 3, 20), "the call");
        Finding finding = new Finding("io-in-transaction", Level.ERROR,
                Message.builder().text("calls ").link("Stripe", 0).text(" [sic]").build(), at, List.of(at),
                List.of(at, at.withLabel(null)), "move it out", "f1", "Orders.place()", List.of(List.of(at)));
        SuppressedFinding suppressed = new SuppressedFinding(finding,
                new Suppression(Suppression.Kind.COMMENT, "*", "reviewed", at));
        Diagnostic note = new Diagnostic(null, 0, 0, Level.NOTE, "sql-fallback", "SQL not understood");
        Diagnostic parse = new Diagnostic(file, 7, 1, Level.WARNING, "parse-error", "';' expected");
        cache.write(CachedScan.of("s1", "i1", 3, 9, List.of(finding), List.of(suppressed), List.of(note, parse)));

        CachedScan read = cache.read("s1", "i1").orElseThrow();
        // Message has no equals: compared field by field, as the writers read it
        assertThat(read.restoredFindings()).usingRecursiveFieldByFieldElementComparator().containsExactly(finding);
        assertThat(read.restoredFindings().get(0).message().sarif()).isEqualTo(finding.message().sarif());
        assertThat(read.restoredSuppressed()).usingRecursiveFieldByFieldElementComparator().containsExactly(suppressed);
        assertThat(read.restoredDiagnostics()).containsExactly(note, parse);
        assertThat(read.filesAnalysed()).isEqualTo(3);
        assertThat(read.methodsAnalysed()).isEqualTo(9);
        assertThat(cache.read("s1", "i2")).as("other inputs").isEmpty();
        assertThat(cache.read("s2", "i1")).as("other settings").isEmpty();
    }

    @Test
    void anEntryOfAnotherFormatIsNotRead() throws Exception {
        ScanCache cache = new ScanCache(temp.resolve("cache"));
        cache.write(CachedScan.of("s1", "i1", 0, 0, List.of(), List.of(), List.of()));
        Path entry = temp.resolve("cache/v" + CacheKey.FORMAT + "/s1.json");
        Files.writeString(entry, Files.readString(entry).replace("\"format\":" + CacheKey.FORMAT, "\"format\":0"));

        assertThat(cache.read("s1", "i1")).isEmpty();
    }

    @Test
    void theLeastRecentlyUsedEntriesArePruned() throws Exception {
        ScanCache cache = new ScanCache(temp.resolve("cache"));
        for (int i = 0; i < ScanCache.MAX_ENTRIES + 3; i++) {
            cache.write(CachedScan.of("s" + i, "i", 0, 0, List.of(), List.of(), List.of()));
            Files.setLastModifiedTime(temp.resolve("cache/v" + CacheKey.FORMAT + "/s" + i + ".json"),
                    FileTime.fromMillis(1_000_000L * (i + 1)));
        }
        try (Stream<Path> entries = Files.list(temp.resolve("cache/v" + CacheKey.FORMAT))) {
            assertThat(entries.filter(p -> p.toString().endsWith(".json")).count()).isEqualTo(ScanCache.MAX_ENTRIES);
        }
        assertThat(cache.read("s0", "i")).isEmpty();
        assertThat(cache.read("s" + (ScanCache.MAX_ENTRIES + 2), "i")).isPresent();
    }

    private static String settings(AnalysisOptions options, Path root, List<String> rules, String catalogue) {
        return CacheKey.settings(options, root, rules, catalogue, CODE).orElseThrow();
    }
}
