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
        ScanCache cache = cache();
        Path file = root().resolve("src/Orders.java");
        CodeLocation at = new CodeLocation(file, new SourceRegion(3, 5, 3, 20), "the call");
        Finding finding = new Finding("io-in-transaction", Level.ERROR,
                Message.builder().text("calls ").link("Stripe", 0).text(" [sic]").build(), at, List.of(at),
                List.of(at, at.withLabel(null)), "move it out", "f1", "Orders.place()", List.of(List.of(at)));
        SuppressedFinding suppressed = new SuppressedFinding(finding,
                new Suppression(Suppression.Kind.COMMENT, "*", "reviewed", at));
        Diagnostic note = new Diagnostic(null, 0, 0, Level.NOTE, "sql-fallback", "SQL not understood");
        Diagnostic parse = new Diagnostic(file, 7, 1, Level.WARNING, "parse-error", "';' expected");
        cache.write(CachedScan.of(root(), "s1", "i1", 3, 9, null, List.of(finding), List.of(suppressed), List.of(note, parse)));

        CachedScan read = cache.read("s1", "i1").orElseThrow();
        // Message has no equals: compared field by field, as the writers read it
        assertThat(read.restoredFindings(root())).usingRecursiveFieldByFieldElementComparator().containsExactly(finding);
        assertThat(read.restoredFindings(root()).get(0).message().sarif()).isEqualTo(finding.message().sarif());
        assertThat(read.restoredSuppressed(root())).usingRecursiveFieldByFieldElementComparator().containsExactly(suppressed);
        assertThat(read.restoredDiagnostics(root())).containsExactly(note, parse);
        assertThat(read.filesAnalysed()).isEqualTo(3);
        assertThat(read.methodsAnalysed()).isEqualTo(9);
        assertThat(cache.read("s1", "i2")).as("other inputs").isEmpty();
        assertThat(cache.read("s2", "i1")).as("other settings").isEmpty();
    }

    @Test
    void anEntryOfAnotherFormatIsNotRead() throws Exception {
        ScanCache cache = cache();
        cache.write(CachedScan.of(root(), "s1", "i1", 0, 0, null, List.of(), List.of(), List.of()));
        Path entry = temp.resolve("cache/v" + CacheKey.FORMAT + "/s1.json");
        Files.writeString(entry, Files.readString(entry).replace("\"format\":" + CacheKey.FORMAT, "\"format\":0"));

        assertThat(cache.read("s1", "i1")).isEmpty();
    }

    @Test
    void theLeastRecentlyUsedEntriesArePruned() throws Exception {
        ScanCache cache = cache();
        for (int i = 0; i < ScanCache.MAX_ENTRIES + 3; i++) {
            cache.write(CachedScan.of(root(), "s" + i, "i", 0, 0, null, List.of(), List.of(), List.of()));
            Files.setLastModifiedTime(temp.resolve("cache/v" + CacheKey.FORMAT + "/s" + i + ".json"),
                    FileTime.fromMillis(1_000_000L * (i + 1)));
        }
        try (Stream<Path> entries = Files.list(temp.resolve("cache/v" + CacheKey.FORMAT))) {
            assertThat(entries.filter(p -> p.toString().endsWith(".json")).count()).isEqualTo(ScanCache.MAX_ENTRIES);
        }
        assertThat(cache.read("s0", "i")).isEmpty();
        assertThat(cache.read("s" + (ScanCache.MAX_ENTRIES + 2), "i")).isPresent();
    }

    @Test
    void anEntryNotSignedWithTheUsersKeyIsIgnoredWithOneNote() throws Exception {
        ScanCache otherMachine = new ScanCache(temp.resolve("cache"), root(), UserKey.of(new byte[] {
                1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                29, 30, 31, 32}));
        otherMachine.write(CachedScan.of(root(), "s1", "i1", 0, 0, null, List.of(), List.of(), List.of()));
        Path entry = temp.resolve("cache/v" + CacheKey.FORMAT + "/s1.json");
        ScanCache mine = cache();
        assertThat(mine.read("s1", "i1")).as("another key").isEmpty();

        String signed = Files.readString(entry);
        Files.writeString(entry, signed.substring(signed.indexOf('\n') + 1));
        assertThat(mine.read("s1", "i1")).as("no MAC at all").isEmpty();
        assertThat(mine.notes()).as("one note for the scan, however many entries failed").hasSize(1)
                .allSatisfy(d -> assertThat(d.code()).isEqualTo(ScanCache.ENTRY_IGNORED));

        mine.write(CachedScan.of(root(), "s1", "i1", 0, 0, null, List.of(), List.of(), List.of()));
        ScanCache nextScan = cache();
        assertThat(nextScan.read("s1", "i1")).as("the user's own entry").isPresent();
        assertThat(nextScan.notes()).isEmpty();
    }

    @Test
    void aSignedEntryWithAPathThatLeavesTheRootIsNotUsed() throws Exception {
        ScanCache cache = cache();
        for (String bad : List.of("../../../../secret/credentials", "src/../../secret", "/etc/passwd",
                root().resolve("src/A.java").toString(), "", "..", "src\\..\\..\\x", "a\u0000b")) {
            CachedScan.StoredLocation at = new CachedScan.StoredLocation(bad, 1, 1, 1, 2, null);
            CachedScan.StoredFinding finding = new CachedScan.StoredFinding("r", Level.ERROR, List.of(), at, List.of(),
                    List.of(), "fix", "f", "m()", List.of());
            CachedScan.StoredLocation good = new CachedScan.StoredLocation("src/A.java", 1, 1, 1, 2, null);
            CachedScan.StoredFinding inFlow = new CachedScan.StoredFinding("r", Level.ERROR, List.of(), good, List.of(),
                    List.of(good, at), "fix", "f", "m()", List.of());
            CachedScan.StoredFinding inOtherFlow = new CachedScan.StoredFinding("r", Level.ERROR, List.of(), good,
                    List.of(), List.of(), "fix", "f", "m()", List.of(List.of(at)));
            CachedScan.StoredFinding clean = new CachedScan.StoredFinding("r", Level.ERROR, List.of(), good, List.of(),
                    List.of(), "fix", "f", "m()", List.of());
            CachedScan.StoredFinding inRelated = new CachedScan.StoredFinding("r", Level.ERROR, List.of(), good,
                    List.of(at), List.of(), "fix", "f", "m()", List.of());
            List<CachedScan> crafted = List.of(
                    scan(List.of(finding), List.of(), List.of()),
                    scan(List.of(inFlow), List.of(), List.of()),
                    scan(List.of(inOtherFlow), List.of(), List.of()),
                    scan(List.of(inRelated), List.of(), List.of()),
                    scan(List.of(), List.of(new CachedScan.StoredSuppressed(inFlow, Suppression.Kind.COMMENT, "*", "",
                            good)), List.of()),
                    scan(List.of(), List.of(new CachedScan.StoredSuppressed(clean,
                            Suppression.Kind.COMMENT, "*", "", at)), List.of()),
                    scan(List.of(), List.of(), List.of(new CachedScan.StoredDiagnostic(bad, 1, 1, Level.WARNING, "x", "y"))));
            for (CachedScan entry : crafted) {
                cache.write(entry);
                assertThat(cache.read("s1", "i1")).as(bad + " in " + entry).isEmpty();
            }
        }
        cache.write(scan(List.of(new CachedScan.StoredFinding("r", Level.ERROR, List.of(),
                new CachedScan.StoredLocation("src/./A.java", 1, 1, 1, 2, null), List.of(), List.of(), "fix", "f", "m()",
                List.of())), List.of(), List.of()));
        assertThat(cache.read("s1", "i1").orElseThrow().restoredFindings(root()).get(0).primary().file())
                .isEqualTo(root().resolve("src/A.java"));
    }

    private static CachedScan scan(List<CachedScan.StoredFinding> findings, List<CachedScan.StoredSuppressed> suppressed,
            List<CachedScan.StoredDiagnostic> diagnostics) {
        return new CachedScan(CacheKey.FORMAT, "s1", "i1", 1, 1, null, findings, suppressed, diagnostics);
    }

    @Test
    void pathsAreStoredRelativeToTheRootAndAResultWithAFileOutsideItIsNotStorable() {
        CodeLocation inside = new CodeLocation(root().resolve("src/A.java"), new SourceRegion(1, 1, 1, 2), null);
        Finding finding = new Finding("r", Level.ERROR, Message.builder().text("x").build(), inside, List.of(), List.of(),
                "fix", "f", "m()", List.of());
        CachedScan scan = CachedScan.of(root(), "s", "i", 1, 1, null, List.of(finding), List.of(), List.of());
        assertThat(scan.findings().get(0).primary().file()).isEqualTo("src/A.java");

        CodeLocation outside = new CodeLocation(temp.resolve("elsewhere/B.java"), new SourceRegion(1, 1, 1, 2), null);
        Finding away = new Finding("r", Level.ERROR, Message.builder().text("x").build(), inside, List.of(outside),
                List.of(), "fix", "f", "m()", List.of());
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> CachedScan.of(root(), "s", "i", 1, 1, null, List.of(away), List.of(), List.of()))
                .isInstanceOf(CachedScan.NotStorable.class);
    }

    @Test
    void notesAboutTheMachineAreNeverStored() throws Exception {
        Diagnostic full = new Diagnostic(null, 0, 0, Level.NOTE, Diagnostic.CACHE_NOT_WRITTEN,
                "syntax trees not cached: FileSystemException (No space left on device)");
        Diagnostic refused = new Diagnostic(null, 0, 0, Level.WARNING, ScanCache.REFUSED, "refused");
        Diagnostic foreign = new Diagnostic(null, 0, 0, Level.NOTE, ScanCache.ENTRY_IGNORED, "ignored");
        Diagnostic input = new Diagnostic(root().resolve("src/A.java"), 3, 0, Level.WARNING, "parse-error", "';' expected");
        ScanCache cache = cache();
        cache.write(CachedScan.of(root(), "s1", "i1", 1, 1, null, List.of(), List.of(), List.of(full, refused, input, foreign)));

        assertThat(cache.read("s1", "i1").orElseThrow().restoredDiagnostics(root())).containsExactly(input);
    }

    @Test
    void aCacheFolderThatIsALinkIsRefusedAndNothingIsMadeThroughIt() throws Exception {
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Files.createDirectories(root());
        Files.createSymbolicLink(root().resolve(".racelint"), outside);
        Path cacheDir = ScanCache.defaultDirectory(root());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScanCache.open(cacheDir, root()))
                .isInstanceOf(ScanCache.Refused.class).hasMessageContaining(".racelint is a symbolic link")
                .hasMessageNotContaining(temp.toString());
        ScanCache unchecked = new ScanCache(cacheDir, root(), KEY);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> unchecked.write(CachedScan.of(root(), "s", "i", 0, 0, null, List.of(), List.of(), List.of())))
                .isInstanceOf(ScanCache.Refused.class);
        try (Stream<Path> made = Files.list(outside)) {
            assertThat(made).as("nothing made in the link's target").isEmpty();
        }

        Files.delete(root().resolve(".racelint"));
        Files.createDirectories(root().resolve(".racelint"));
        Files.createSymbolicLink(cacheDir, outside);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScanCache.open(cacheDir, root()))
                .isInstanceOf(ScanCache.Refused.class).hasMessageContaining(".racelint/cache is a symbolic link");

        Path outsideCache = temp.resolve("linked-cache");
        Files.createSymbolicLink(outsideCache, outside);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScanCache.open(outsideCache, root()))
                .as("a --cache-dir outside the tree that is a link").isInstanceOf(ScanCache.Refused.class)
                .hasMessageContaining("the cache folder is a symbolic link");
    }

    @Test
    void aCacheFolderOfAnotherUserIsRefused() throws Exception {
        Path cacheDir = Files.createDirectories(ScanCache.defaultDirectory(root()));
        java.nio.file.attribute.UserPrincipal me = Files.getOwner(cacheDir);
        java.nio.file.attribute.UserPrincipal other;
        if (me.getName().equals("root")) {
            other = cacheDir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
            Files.setOwner(root().resolve(".racelint"), other);
        } else {
            // not root: a folder root owns stands for another user's
            Path rootOwned = Path.of("/");
            org.junit.jupiter.api.Assumptions.assumeFalse(Files.getOwner(rootOwned).equals(me));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScanCache.open(rootOwned, root()))
                    .isInstanceOf(ScanCache.Refused.class).hasMessageContaining("not owned by the user");
            return;
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScanCache.open(cacheDir, root()))
                .isInstanceOf(ScanCache.Refused.class)
                .hasMessageContaining(".racelint is not owned by the user running racelint");
    }

    @Test
    void pruningAndMarkingNeverGoThroughALink() throws Exception {
        ScanCache cache = cache();
        cache.write(CachedScan.of(root(), "s0", "i", 0, 0, null, List.of(), List.of(), List.of()));
        Path entries = temp.resolve("cache/v" + CacheKey.FORMAT);
        Path outsideEntry = Files.writeString(Files.createDirectories(temp.resolve("outside")).resolve("old.json"), "keep");
        Files.setLastModifiedTime(outsideEntry, FileTime.fromMillis(0));
        Files.createSymbolicLink(entries.resolve("linked.json"), outsideEntry);
        for (int i = 1; i < ScanCache.MAX_ENTRIES + 3; i++) {
            cache.write(CachedScan.of(root(), "s" + i, "i", 0, 0, null, List.of(), List.of(), List.of()));
        }
        assertThat(cache.read("linked", "i")).isEmpty();
        assertThat(outsideEntry).content().isEqualTo("keep");
        assertThat(Files.getLastModifiedTime(outsideEntry).toMillis()).isZero();
        assertThat(Files.isSymbolicLink(entries.resolve("linked.json"))).as("not pruned either").isTrue();
    }

    @Test
    void theMarksAreNotWrittenThroughADanglingLink() throws Exception {
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Path cacheDir = Files.createDirectories(temp.resolve("cache"));
        Files.createSymbolicLink(cacheDir.resolve(".gitignore"), outside.resolve("gitignore"));
        Files.createSymbolicLink(cacheDir.resolve("CACHEDIR.TAG"), outside.resolve("tag"));
        cache().write(CachedScan.of(root(), "s", "i", 0, 0, null, List.of(), List.of(), List.of()));
        try (Stream<Path> made = Files.list(outside)) {
            assertThat(made).isEmpty();
        }
    }

    private static final UserKey KEY = UserKey.of(new byte[32]);

    private Path root() {
        return temp.resolve("root");
    }

    private ScanCache cache() {
        return new ScanCache(temp.resolve("cache"), root(), KEY);
    }

    private static String settings(AnalysisOptions options, Path root, List<String> rules, String catalogue) {
        return CacheKey.settings(options, root, rules, catalogue, CODE).orElseThrow();
    }
}
