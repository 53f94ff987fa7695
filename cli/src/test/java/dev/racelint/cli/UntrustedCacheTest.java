package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.racelint.analyzer.cache.CacheKey;
import dev.racelint.analyzer.cache.CachedScan;
import dev.racelint.analyzer.cache.ScanCache;
import dev.racelint.analyzer.cache.TreePack;
import dev.racelint.analyzer.cache.UserKey;
import dev.racelint.analyzer.parse.JavaSourceParser;
import dev.racelint.analyzer.parse.ParsedFile;
import dev.racelint.analyzer.source.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pull request controls every byte of the scanned tree, its {@code .racelint/cache} included:
 * what it commits there can neither change the findings, nor show a file from outside the tree,
 * nor make the scan write or delete anything outside it; and what the cache says about this
 * machine (a write that failed) is never replayed.
 */
class UntrustedCacheTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MARKER = "SECRET-7f3a9c-credentials";
    private static final UserKey OTHER_MACHINE = UserKey.of("another machine's key, 32 bytes!".getBytes(StandardCharsets.UTF_8));

    @TempDir
    Path temp;

    private Path project;
    private Path racy;
    private Path harmless;

    @BeforeEach
    void writeProject() {
        // deep enough that ../../../../ from the root lands in temp, where the secret is
        project = temp.resolve("a/b/c/project");
        racy = Sources.write(project, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        harmless = Sources.write(project, "src/main/java/demo/Clean.java", Sources.CLEAN);
    }

    @Test
    void aForeignResultEntrySayingNoFindingsChangesNothing() throws Exception {
        JsonNode cold = findings(scan("--no-cache"));
        assertThat(cold).isNotEmpty();
        scan();
        Path entry = onlyEntry();

        // as a racelint without this user's key writes it: the right settings and inputs, no MAC
        ObjectNode noFindings = entryJson(entry);
        noFindings.putArray("findings");
        Files.write(entry, JSON.writeValueAsBytes(noFindings));
        Cli.Run unsigned = scan();
        assertThat(findings(unsigned)).isEqualTo(cold);
        assertThat(codes(unsigned)).containsOnlyOnce(ScanCache.ENTRY_IGNORED);

        // as another machine's racelint writes it, signed with that machine's key
        new ScanCache(cacheDir(), project, OTHER_MACHINE).write(JSON.treeToValue(noFindings, CachedScan.class));
        Cli.Run otherKey = scan();
        assertThat(findings(otherKey)).isEqualTo(cold);
        assertThat(codes(otherKey)).containsOnlyOnce(ScanCache.ENTRY_IGNORED);

        Cli.Run own = scan();
        assertThat(own.err()).as("the entry this scan's racelint rewrote is used").contains("results from");
        assertThat(findings(own)).isEqualTo(cold);
        assertThat(codes(own)).doesNotContain(ScanCache.ENTRY_IGNORED);
    }

    @Test
    void aForeignTreePackMappingTheRacyFileToAHarmlessTreeChangesNothing() throws Exception {
        JsonNode cold = findings(scan("--no-cache"));
        assertThat(cold).isNotEmpty();
        scan();

        Path root = project.toAbsolutePath().normalize();
        List<Path> files = List.of(racy.toAbsolutePath().normalize(), harmless.toAbsolutePath().normalize());
        CacheKey.Inputs inputs = CacheKey.inputs(files, 1).orElseThrow();
        ParsedFile harmlessTree = new JavaSourceParser(1).parseAll(List.of(new SourceFile(files.get(1), 0)), n -> {})
                .files().get(0);
        try (TreePack forged = TreePack.open(new ScanCache(cacheDir(), root, OTHER_MACHINE), root, inputs).orElseThrow()) {
            forged.save(new SourceFile(files.get(0), 0), harmlessTree);
            forged.save(new SourceFile(files.get(1), 0), harmlessTree);
            forged.commit();
        }
        // without a result entry the scan reads the trees
        for (Path entry : cacheFiles(".json")) {
            Files.delete(entry);
        }

        Cli.Run run = scan();
        assertThat(run.err()).doesNotContain("syntax trees read from");
        assertThat(findings(run)).isEqualTo(cold);
        assertThat(codes(run)).containsOnlyOnce(ScanCache.ENTRY_IGNORED);
    }

    @Test
    void aCraftedEntryCannotShowAFileFromOutsideTheTree() throws Exception {
        StringBuilder secret = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            secret.append(MARKER).append(" line ").append(i + 1).append('\n');
        }
        Sources.write(temp, "secret/credentials", secret.toString());
        assertThat(temp.resolve("a/b/c/project/../../../../secret/credentials").normalize())
                .isEqualTo(temp.resolve("secret/credentials"));
        JsonNode cold = findings(scan("--no-cache"));
        scan();
        Path entry = onlyEntry();
        ObjectNode genuine = entryJson(entry);

        for (String path : List.of("../../../../secret/credentials",
                project.toAbsolutePath() + "/../../../../secret/credentials",
                temp.resolve("secret/credentials").toAbsolutePath().toString())) {
            ObjectNode crafted = genuine.deepCopy();
            pointAt(crafted, path);
            for (String format : List.of("text", "json", "sarif", "html")) {
                // signed with this user's own key, so that only the path check stands in the way
                ScanCache.open(cacheDir(), project).write(JSON.treeToValue(crafted, CachedScan.class));
                Cli.Run run = scan("--format", format);
                assertThat(run.out() + run.err()).as(format + " with " + path).doesNotContain(MARKER);
                if (format.equals("json")) {
                    assertThat(findings(run)).isEqualTo(cold);
                }
            }
        }
    }

    @Test
    void aCacheFolderLinkedOutOfTheTreeIsRefusedAndNothingOutsideChanges() throws Exception {
        JsonNode cold = findings(scan("--no-cache"));
        for (String linked : List.of(".racelint/cache", ".racelint")) {
            Path outside = Files.createDirectories(temp.resolve("outside-" + linked.replace('/', '-')));
            Path entries = Files.createDirectories(
                    (linked.equals(".racelint") ? outside.resolve("cache") : outside).resolve("v" + CacheKey.FORMAT));
            Path stalePack = Files.writeString(entries.resolve("trees12345.tmp"), "a stale temporary pack");
            Files.setLastModifiedTime(stalePack, FileTime.fromMillis(System.currentTimeMillis() - 7_200_000L));
            for (int i = 0; i < 16; i++) {
                Path old = Files.writeString(entries.resolve("old" + i + ".json"), "{}");
                Files.setLastModifiedTime(old, FileTime.fromMillis(1_000_000L * (i + 1)));
            }
            deleteTree(project.resolve(".racelint"));
            Path link = project.resolve(linked);
            Files.createDirectories(link.getParent());
            Files.createSymbolicLink(link, outside);
            Map<String, String> before = snapshot(outside);

            Cli.Run run = scan();
            assertThat(snapshot(outside)).as("nothing written or deleted through " + linked).isEqualTo(before);
            assertThat(findings(run)).isEqualTo(cold);
            assertThat(codes(run)).containsOnlyOnce(ScanCache.REFUSED);
            assertThat(run.out()).contains(linked + " is a symbolic link").doesNotContain(temp.toString());
        }
    }

    @Test
    void aCacheWithoutAUserKeyIsNotUsedAndSaysSoOnce() throws Exception {
        Path blocked = Files.writeString(temp.resolve("not-a-folder"), "in the way");
        String before = System.getProperty(UserKey.PROPERTY);
        System.setProperty(UserKey.PROPERTY, blocked.resolve("cache-key").toString());
        try {
            Cli.Run run = scan();
            assertThat(codes(run)).containsOnlyOnce(ScanCache.REFUSED);
            assertThat(run.out()).contains("per-user cache key").doesNotContain(temp.toString());
            assertThat(findings(run)).isEqualTo(findings(scan("--no-cache")));
            assertThat(project.resolve(".racelint")).doesNotExist();
        } finally {
            if (before == null) {
                System.clearProperty(UserKey.PROPERTY);
            } else {
                System.setProperty(UserKey.PROPERTY, before);
            }
        }
    }

    @Test
    void aNoteAboutAFailedCacheWriteIsNotReplayedByLaterHits() throws Exception {
        scan();
        Path pack = cacheFiles(".bin").get(0);
        for (Path entry : cacheFiles(".json")) {
            Files.delete(entry);
        }
        // a folder in the pack's place: writing the trees fails, as on a full disk; the result is still cached
        Files.delete(pack);
        Sources.write(pack, "in-the-way", "x");
        Cli.Run failed = scan();
        assertThat(codes(failed)).contains("cache-not-written");
        assertThat(failed.out()).doesNotContain(temp.toString());

        deleteTree(pack);
        Cli.Run hit = scan();
        assertThat(hit.err()).contains("results from");
        assertThat(codes(hit)).doesNotContain("cache-not-written");
        assertThat(findings(hit)).isEqualTo(findings(failed));
    }

    private Cli.Run scan(String... extra) {
        List<String> args = new ArrayList<>(List.of("scan", project.toString(), "--fail-on", "none"));
        if (!List.of(extra).contains("--format")) {
            args.addAll(List.of("--format", "json"));
        }
        args.addAll(List.of(extra));
        Cli.Run run = Cli.run(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return run;
    }

    private Path cacheDir() {
        return project.resolve(ScanCache.DEFAULT_DIRECTORY);
    }

    private static JsonNode findings(Cli.Run run) throws IOException {
        return JSON.readTree(run.out()).path("findings");
    }

    private static List<String> codes(Cli.Run run) throws IOException {
        List<String> codes = new ArrayList<>();
        JSON.readTree(run.out()).path("diagnostics").forEach(d -> codes.add(d.path("code").asText()));
        return codes;
    }

    private List<Path> cacheFiles(String suffix) throws IOException {
        try (Stream<Path> files = Files.walk(cacheDir())) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    private Path onlyEntry() throws IOException {
        List<Path> entries = cacheFiles(".json");
        assertThat(entries).hasSize(1);
        return entries.get(0);
    }

    /** The JSON of an entry, whatever comes before it. */
    private static ObjectNode entryJson(Path entry) throws IOException {
        String text = Files.readString(entry, StandardCharsets.UTF_8);
        return (ObjectNode) JSON.readTree(text.substring(text.indexOf('{')));
    }

    /** Every location's file in the entry set to {@code path}. */
    private static void pointAt(JsonNode node, String path) {
        if (node instanceof ObjectNode object) {
            if (object.has("file") && object.has("startLine")) {
                object.set("file", TextNode.valueOf(path));
            }
        }
        node.forEach(child -> pointAt(child, path));
    }

    /** Each file and folder under {@code dir}, not following links, with its size and modification time. */
    private static Map<String, String> snapshot(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.toList()) {
                BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                out.put(dir.relativize(file).toString(), a.isDirectory() ? "folder"
                        : a.size() + " bytes, " + a.lastModifiedTime().toMillis());
            }
        }
        return out;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir)) {
            Files.delete(dir);
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
