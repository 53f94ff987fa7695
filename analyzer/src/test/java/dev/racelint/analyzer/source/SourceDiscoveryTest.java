package dev.racelint.analyzer.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.report.ReportPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Symbolic links cannot carry the scan out of the source root, trap it or make it count a file
 * twice; a scanned path that is a link is followed; and what the walk left out can be counted.
 */
class SourceDiscoveryTest {

    @TempDir
    Path temp;

    private Path root;
    private Path secret;

    @BeforeEach
    void tree() throws IOException {
        root = Files.createDirectories(temp.resolve("repo"));
        Path outside = Files.createDirectories(temp.resolve("elsewhere/secret"));
        secret = Files.writeString(outside.resolve("Credentials.java"), "class Credentials { String key = \"s3cr3t\"; }");
        Files.writeString(outside.resolve("OrdersMapper.xml"), "<mapper namespace=\"demo.Orders\"/>");
        write("src/main/java/demo/A.java");
    }

    @Test
    void linksLeadingOutsideTheRootAreSkippedWithADiagnosticNamingTheLinkOnly() throws IOException {
        Path demo = root.resolve("src/main/java/demo");
        Files.createSymbolicLink(demo.resolve("Leak.java"), secret);
        Files.createSymbolicLink(demo.resolve("vendor"), secret.getParent());
        Files.createSymbolicLink(demo.resolve("OrdersMapper.xml"), secret.resolveSibling("OrdersMapper.xml"));

        SourceDiscovery.Result result = discover(root);

        assertThat(names(result.files())).containsExactly("src/main/java/demo/A.java");
        assertThat(result.mapperFiles()).isEmpty();
        assertThat(result.diagnostics()).extracting(Diagnostic::code).containsOnly("outside-root").hasSize(3);
        assertThat(result.diagnostics()).extracting(d -> ReportPaths.relative(root, d.file()).orElseThrow())
                .containsExactlyInAnyOrder("src/main/java/demo/Leak.java", "src/main/java/demo/vendor",
                        "src/main/java/demo/OrdersMapper.xml");
        assertThat(result.diagnostics()).extracting(Diagnostic::message)
                .allSatisfy(m -> assertThat(m).doesNotContain("elsewhere").doesNotContain(temp.toString()));
        assertThat(result.diagnostics()).allMatch(Diagnostic::fileSkipped);
    }

    @Test
    void linksInsideTheRootAreFollowedAndEachFileIsNamedOnceByItsRealPlace() throws IOException {
        write("shared/src/main/java/demo/Shared.java");
        Path demo = root.resolve("src/main/java/demo");
        Files.createSymbolicLink(demo.resolve("SameA.java"), demo.resolve("A.java"));
        Files.createSymbolicLink(demo.resolve("shared"), root.resolve("shared/src/main/java/demo"));
        Files.createSymbolicLink(demo.resolve("loop"), root.resolve("src"));
        Files.createSymbolicLink(demo.resolve("Gone.java"), root.resolve("no-such-file.java"));

        SourceDiscovery.Result result = discover(root.resolve("src/main/java"));

        assertThat(names(result.files())).containsExactly("shared/src/main/java/demo/Shared.java",
                "src/main/java/demo/A.java");
        assertThat(result.diagnostics()).extracting(Diagnostic::code, d -> ReportPaths.relative(root, d.file()).orElseThrow())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("unreadable", "src/main/java/demo/Gone.java"));
        assertThat(result.diagnostics().get(0).message()).isEqualTo("cannot follow the symbolic link: NoSuchFileException");
    }

    @Test
    void aLinkedFolderIsWalkedOnceHoweverManyLinksLeadToIt() throws IOException {
        // each level links twice to the next: 2^16 paths to one file if links were walked as paths
        Path level = Files.createDirectories(root.resolve("fan/l16"));
        Files.writeString(level.resolve("Leaf.java"), "class Leaf {}");
        for (int i = 15; i >= 0; i--) {
            Path up = Files.createDirectories(root.resolve("fan/l" + i));
            Files.createSymbolicLink(up.resolve("left"), level);
            Files.createSymbolicLink(up.resolve("right"), level);
            level = up;
        }

        SourceDiscovery.Result result = discover(root.resolve("fan/l0"));

        assertThat(names(result.files())).containsExactly("fan/l16/Leaf.java");
    }

    @Test
    void aScannedPathThatIsALinkIsFollowedAndItsFilesNamedWhereTheyAre() throws IOException {
        Path link = Files.createSymbolicLink(root.resolve("current"), root.resolve("src"));

        SourceDiscovery.Result result = discover(link);

        assertThat(names(result.files())).containsExactly("src/main/java/demo/A.java");
        assertThat(result.diagnostics()).isEmpty();
    }

    @Test
    void excludesAndTestFoldersApplyToPathsAsWalkedThroughLinks() throws IOException {
        write("generated/demo/G.java");
        Files.createSymbolicLink(root.resolve("src/main/java/gen"), root.resolve("generated"));

        SourceDiscovery.Result result = new SourceDiscovery(false, List.of("**/gen/**"), Long.MAX_VALUE)
                .discover(List.of(root.resolve("src")), root);

        assertThat(names(result.files())).containsExactly("src/main/java/demo/A.java");
    }

    @Test
    void aCensusCountsWhatEachRuleLeftOut() throws IOException {
        write("src/main/java/demo/B.java");
        write("src/main/java/gen/G.java");
        write("src/test/java/demo/ATest.java");
        write("target/classes/Built.java");
        Files.createSymbolicLink(root.resolve("src/main/java/demo/Leak.java"), secret);

        SourceDiscovery.Census census = new SourceDiscovery(false, List.of("**/gen/**", "**/demo/B.java", "**/none/**"),
                Long.MAX_VALUE).census(List.of(root), root);

        assertThat(census.javaFiles()).as("build output is not counted, nor the link out").isEqualTo(4);
        assertThat(census.excludedByGlob()).containsExactly(Map.entry("**/gen/**", 1), Map.entry("**/demo/B.java", 1));
        assertThat(census.inTestFolders()).isEqualTo(1);
        assertThat(census.linksOutside()).isEqualTo(1);
        SourceDiscovery.Census everything = new SourceDiscovery(false, List.of("**"), Long.MAX_VALUE)
                .census(List.of(root), root);
        assertThat(everything.excludedByGlob()).as("the top folder is excluded, and all under it").containsExactly(
                Map.entry("**", 5));
    }

    @Test
    void inASourceFolderNoPackageIsSkippedForItsName() throws IOException {
        // ordinary packages that javac compiles as main code, named like build output, VCS, IDE or test folders
        List<String> hidden = List.of("src/main/java/demo/out/O.java", "src/main/java/demo/bin/B.java",
                "src/main/java/demo/.gen/G.java", "src/main/java/demo/src/test/T.java",
                "src/main/java/demo/target/Tg.java", "src/main/java/demo/build/Bd.java",
                "src/main/java/demo/node_modules/N.java", "src/main/java/demo/generated-sources/Gs.java",
                "src/main/java/.git/Vcs.java", "src/main/java/demo/.idea/Ide.java", "src/main/java/demo/src/it/It.java",
                "src/main/kotlin/demo/out/K.java", "app/src/main/java/demo/out/M.java");
        for (String file : hidden) {
            write(file);
        }

        SourceDiscovery.Result result = discover(root);
        SourceDiscovery.Result fromTheSourceFolder = new SourceDiscovery(false, List.of(), Long.MAX_VALUE)
                .discover(List.of(root.resolve("src/main/java")), root.resolve("src/main/java"));
        SourceDiscovery.Census census = new SourceDiscovery(false, List.of(), Long.MAX_VALUE).census(List.of(root), root);

        assertThat(names(result.files())).containsAll(hidden).hasSize(hidden.size() + 1);
        assertThat(names(fromTheSourceFolder.files())).as("a scan of the source folder itself, as the source root")
                .containsAll(hidden.stream().filter(f -> f.startsWith("src/main/java/")).toList());
        assertThat(census.javaFiles()).as("the census agrees").isEqualTo(hidden.size() + 1);
        assertThat(census.inTestFolders()).isZero();
    }

    @Test
    void outsideSourceFoldersBuildOutputHiddenAndTestFoldersAreStillSkipped() throws IOException {
        for (String file : List.of("target/generated-sources/demo/T.java", "build/demo/B.java", "out/demo/O.java",
                "bin/demo/Bn.java", "node_modules/pkg/N.java", ".idea/I.java", "app/target/demo/T2.java",
                "src/test/java/demo/ATest.java", "app/src/it/java/demo/AIT.java", "src/main/.gen/G.java")) {
            write(file);
        }

        SourceDiscovery.Result result = discover(root);
        SourceDiscovery.Result withTests = new SourceDiscovery(true, List.of(), Long.MAX_VALUE)
                .discover(List.of(root), root);

        assertThat(names(result.files())).containsExactly("src/main/java/demo/A.java");
        assertThat(names(withTests.files())).containsExactly("app/src/it/java/demo/AIT.java",
                "src/main/java/demo/A.java", "src/test/java/demo/ATest.java");
    }

    @Test
    void onlyTheTestSourceSetsOfTheBuildLayoutsAreTestFolders() throws IOException {
        List<String> tests = List.of("src/test/java/demo/T.java", "src/it/java/demo/I.java",
                "src/testFixtures/java/demo/F.java", "src/integrationTest/java/demo/G.java",
                "app/src/functionalTest/java/demo/H.java", "acceptance/src/acceptance-test/java/demo/K.java");
        List<String> sources = List.of("src/testcases/java/demo/Case.java", "src/latest/java/demo/Latest.java",
                "src/contest/java/demo/Contest.java", "src/Test/java/demo/Upper.java", "src/itinerary/java/demo/Trip.java",
                "attest/src/main/java/demo/Attest.java");
        for (String file : tests) {
            write(file);
        }
        for (String file : sources) {
            write(file);
        }

        SourceDiscovery.Result result = discover(root);
        SourceDiscovery.Census census = new SourceDiscovery(false, List.of(), Long.MAX_VALUE).census(List.of(root), root);

        assertThat(names(result.files())).containsExactlyInAnyOrderElementsOf(
                Stream.concat(sources.stream(), Stream.of("src/main/java/demo/A.java")).toList());
        assertThat(census.inTestFolders()).isEqualTo(tests.size());
    }

    @Test
    void theConfigurationPageListsExactlyTheTestSourceSets() throws IOException {
        String page = Files.readString(Path.of("..", "docs", "configuration.md"));
        String section = page.substring(page.indexOf("recognised by their exact folder names under"));
        section = section.substring(0, section.indexOf("Any other source"));

        java.util.Set<String> listed = new java.util.TreeSet<>();
        java.util.regex.Matcher name = java.util.regex.Pattern.compile("`([A-Za-z0-9-]+)`").matcher(section);
        while (name.find()) {
            listed.add(name.group(1));
        }
        listed.remove("src");

        assertThat(listed).isEqualTo(new java.util.TreeSet<>(SourceDiscovery.TEST_SOURCE_SETS));
    }

    @Test
    void mapperXmlIsKnownByItsMapperElementWhateverItIsCalled() throws IOException {
        Path resources = Files.createDirectories(root.resolve("src/main/resources"));
        Files.writeString(resources.resolve("queries.xml"), "<?xml version=\"1.0\"?>\n<mapper namespace=\"demo.Orders\"></mapper>\n");
        Files.writeString(resources.resolve("OrderMapper.xml"), "<beans><bean id=\"orderMapper\"/></beans>\n");
        Files.writeString(resources.resolve("logback.xml"), "<configuration/>\n");
        Files.writeString(root.resolve("pom.xml"), "<project/>\n");

        SourceDiscovery.Result result = discover(root);

        assertThat(result.mapperFiles()).extracting(p -> ReportPaths.relative(root, p).orElseThrow())
                .containsExactly("src/main/resources/queries.xml");
    }

    @Test
    void sqlFilesAreHandedOnForTheSchemaUnderTheSameRulesAsSources() throws IOException {
        write("src/main/resources/db/migration/V1__init.sql");
        write("src/main/resources/schema.SQL");
        write("src/test/resources/test-data.sql");
        write("generated/dump.sql");
        Path big = root.resolve("src/main/resources/huge.sql");
        Files.writeString(big, "x".repeat(200));
        Files.createSymbolicLink(root.resolve("src/main/resources/leak.sql"), secret);

        SourceDiscovery.Result result = new SourceDiscovery(false, List.of("generated/**"), 100).discover(List.of(root), root);

        assertThat(result.sqlFiles()).extracting(p -> ReportPaths.relative(root, p).orElseThrow())
                .containsExactly("src/main/resources/db/migration/V1__init.sql", "src/main/resources/schema.SQL");
        assertThat(result.diagnostics()).extracting(Diagnostic::code)
                .containsExactlyInAnyOrder("file-too-large", "outside-root");
    }

    @Test
    void aModuleNamedLikeBuildOutputIsWalked() throws IOException {
        write("build/pom.xml");
        write("build/src/main/java/demo/Tool.java");
        write("out/build.gradle.kts");
        write("out/src/main/java/demo/Out.java");
        write("bin/src/main/java/demo/NotAModule.java");

        SourceDiscovery.Result result = discover(root);

        assertThat(names(result.files())).containsExactly("build/src/main/java/demo/Tool.java",
                "out/src/main/java/demo/Out.java", "src/main/java/demo/A.java");
    }

    @Test
    void excludesStillApplyInASourceFolder() throws IOException {
        write("src/main/java/demo/out/O.java");

        SourceDiscovery.Result result = new SourceDiscovery(false, List.of("**/out/**"), Long.MAX_VALUE)
                .discover(List.of(root), root);

        assertThat(names(result.files())).containsExactly("src/main/java/demo/A.java");
    }

    private SourceDiscovery.Result discover(Path path) {
        return new SourceDiscovery(false, List.of(), Long.MAX_VALUE).discover(List.of(path), root);
    }

    private void write(String relative) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        String name = file.getFileName().toString().replace(".java", "");
        Files.writeString(file, "package demo;\nclass " + name + " {}\n");
    }

    private List<String> names(List<SourceFile> files) {
        return files.stream().map(f -> ReportPaths.relative(root, f.path()).orElseThrow()).toList();
    }
}
