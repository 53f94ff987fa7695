package dev.racelint.analyzer.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.parse.JavaSourceParser;
import dev.racelint.analyzer.parse.ParsedFile;
import dev.racelint.analyzer.parse.TreeStore;
import dev.racelint.analyzer.source.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreePackTest {

    @TempDir
    Path temp;

    private static final UserKey KEY = UserKey.of(new byte[32]);

    /** One scan's parse step through the pack; counts the files the parser had to parse. */
    private record Parse(List<ParsedFile> files, int parsed) {}

    private Parse parse(List<Path> files) throws IOException {
        return parse(files, temp.resolve("src"));
    }

    private Parse parse(List<Path> files, Path root) throws IOException {
        ScanCache cache = new ScanCache(temp.resolve("cache"), temp.resolve("src"), KEY);
        CacheKey.Inputs inputs = CacheKey.inputs(files, 2).orElseThrow();
        List<SourceFile> sources = files.stream().map(f -> new SourceFile(f, 0)).toList();
        try (TreePack pack = TreePack.open(cache, root, inputs).orElseThrow()) {
            AtomicInteger parsed = new AtomicInteger();
            TreeStore counting = new TreeStore() {
                @Override
                public ParsedFile load(SourceFile source) {
                    return pack.load(source);
                }

                @Override
                public void save(SourceFile source, ParsedFile file) {
                    parsed.incrementAndGet();
                    pack.save(source, file);
                }
            };
            List<ParsedFile> result = new JavaSourceParser(2).parseAll(sources, counting, n -> {}).files();
            pack.commit();
            assertThat(pack.reusedTrees() + parsed.get()).isEqualTo(files.size());
            return new Parse(result, parsed.get());
        }
    }

    private List<Path> write(int count) throws IOException {
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Path file = temp.resolve("src/C" + i + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, "class C" + i + " { void f() { g(" + i + "); } }\n", StandardCharsets.UTF_8);
            files.add(file.toAbsolutePath().normalize());
        }
        return files;
    }

    private List<Path> packs() throws IOException {
        try (Stream<Path> list = Files.list(temp.resolve("cache/v" + CacheKey.FORMAT))) {
            return list.filter(p -> p.getFileName().toString().startsWith("trees")).toList();
        }
    }

    @Test
    void aSecondScanParsesOnlyTheEditedFile() throws IOException {
        List<Path> files = write(5);
        Parse first = parse(files);
        assertThat(first.parsed()).isEqualTo(5);

        Parse unchanged = parse(files);
        assertThat(unchanged.parsed()).isZero();
        for (int i = 0; i < 5; i++) {
            assertThat(unchanged.files().get(i).unit()).isEqualTo(first.files().get(i).unit());
            assertThat(unchanged.files().get(i).path()).isEqualTo(files.get(i));
        }

        Files.writeString(files.get(2), "class C2 { void f() { h(); } }\n", StandardCharsets.UTF_8);
        Parse edited = parse(files);
        assertThat(edited.parsed()).as("only the edited file").isEqualTo(1);
        assertThat(edited.files().get(2).unit().toString()).contains("h()");
        assertThat(packs()).as("one pack, replaced").hasSize(1);
    }

    @Test
    void thePackHoldsOnlyTheCurrentFiles() throws IOException {
        List<Path> files = write(4);
        parse(files);
        long before = Files.size(packs().get(0));
        for (int round = 0; round < 5; round++) {
            Files.writeString(files.get(0), "class C0 { void f() { g(" + round + "); } }\n", StandardCharsets.UTF_8);
            parse(files);
        }
        assertThat(Files.size(packs().get(0))).as("edits do not make it grow").isBetween(before - 16, before + 16);
        assertThat(parse(files.subList(0, 2)).parsed()).isZero();
        assertThat(Files.size(packs().get(0))).as("files no longer scanned are dropped").isLessThan(before);
    }

    @Test
    void aDamagedOrForeignPackIsIgnored() throws IOException {
        List<Path> files = write(3);
        parse(files);
        Path pack = packs().get(0);
        Files.write(pack, new byte[] {1, 2, 3});
        assertThat(parse(files).parsed()).as("nothing read from a truncated pack").isEqualTo(3);
        assertThat(parse(files).parsed()).as("rewritten").isZero();

        String name = pack.getFileName().toString();
        Path older = pack.resolveSibling(name.substring(0, name.lastIndexOf('-') + 1) + "0000000000000000.bin");
        Files.writeString(older, "older racelint");
        Path killed = pack.resolveSibling("trees123.tmp");
        Files.writeString(killed, "half a pack");
        Files.setLastModifiedTime(killed, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 7_200_000L));
        Path writing = pack.resolveSibling("trees456.tmp");
        Files.writeString(writing, "another scan writing now");
        parse(files.subList(0, 1));
        assertThat(packs()).as("this root's packs of other versions and stale temporary packs are deleted on write")
                .containsExactlyInAnyOrder(pack, writing);
    }

    @Test
    void anotherRootHasItsOwnPack() throws IOException {
        List<Path> files = write(3);
        parse(files);
        Path other = temp.resolve("other-root");
        assertThat(parse(files, other).parsed()).as("nothing read from another root's pack").isEqualTo(3);
        assertThat(packs()).hasSize(2);
        assertThat(parse(files).parsed()).as("the first root's pack is still there").isZero();
    }

    @Test
    void aTreeOfferedAfterCloseLeavesNothingBehind() throws IOException {
        // a parser worker given up as too slow finishes on its own, after the scan has closed the pack
        List<Path> files = write(1);
        parse(files);
        Files.writeString(files.get(0), "class C0 { void f() { g(9); } }\n", StandardCharsets.UTF_8);
        CacheKey.Inputs inputs = CacheKey.inputs(files, 1).orElseThrow();
        SourceFile source = new SourceFile(files.get(0), 0);
        ParsedFile tree = new JavaSourceParser(1).parseAll(List.of(source), n -> {}).files().get(0);
        TreePack pack = TreePack.open(new ScanCache(temp.resolve("cache"), temp.resolve("src"), KEY), temp.resolve("src"), inputs).orElseThrow();
        pack.close();
        pack.save(source, tree);
        try (Stream<Path> list = Files.list(temp.resolve("cache/v" + CacheKey.FORMAT))) {
            assertThat(list.map(p -> p.getFileName().toString())).noneMatch(name -> name.endsWith(".tmp"));
        }
    }

    @Test
    void aPackSignedWithAnotherKeyIsNotRead() throws IOException {
        // another machine's pack maps the first file's contents to the second file's tree
        List<Path> files = write(2);
        ScanCache otherMachine = new ScanCache(temp.resolve("cache"), temp.resolve("src"), UserKey.of(new byte[] {
                9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}));
        CacheKey.Inputs inputs = CacheKey.inputs(files, 1).orElseThrow();
        ParsedFile harmless = new JavaSourceParser(1).parseAll(List.of(new SourceFile(files.get(1), 0)), n -> {})
                .files().get(0);
        try (TreePack forged = TreePack.open(otherMachine, temp.resolve("src"), inputs).orElseThrow()) {
            forged.save(new SourceFile(files.get(0), 0), harmless);
            forged.commit();
        }
        assertThat(packs()).hasSize(1);

        ScanCache mine = new ScanCache(temp.resolve("cache"), temp.resolve("src"), KEY);
        try (TreePack pack = TreePack.open(mine, temp.resolve("src"), inputs).orElseThrow()) {
            assertThat(pack.load(new SourceFile(files.get(0), 0))).isNull();
        }
        assertThat(mine.notes()).extracting(d -> d.code()).containsExactly(ScanCache.ENTRY_IGNORED);
        Parse parsed = parse(files);
        assertThat(parsed.parsed()).isEqualTo(2);
        assertThat(parsed.files().get(0).unit().toString()).contains("class C0");
    }

    @Test
    void theCleanUpNeverFollowsOrRemovesALink() throws IOException {
        List<Path> files = write(1);
        parse(files);
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Path target = Files.writeString(outside.resolve("trees1.tmp"), "not racelint's");
        Files.setLastModifiedTime(target, java.nio.file.attribute.FileTime.fromMillis(0));
        Path link = packs().get(0).resolveSibling("trees1.tmp");
        Files.createSymbolicLink(link, target);
        Files.writeString(files.get(0), "class C0 { void f() { g(7); } }\n", StandardCharsets.UTF_8);
        parse(files);
        assertThat(target).content().isEqualTo("not racelint's");
        assertThat(Files.isSymbolicLink(link)).isTrue();
    }

    @Test
    void identicalFilesShareOneEntry() throws IOException {
        List<Path> files = write(2);
        Files.writeString(files.get(1), Files.readString(files.get(0)));
        assertThat(parse(files).parsed()).isEqualTo(2);
        Parse again = parse(files);
        assertThat(again.parsed()).isZero();
        assertThat(again.files().get(1).path()).isEqualTo(files.get(1));
    }
}
