package dev.racelint.analyzer.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.ScanSession;
import dev.racelint.analyzer.cache.CacheKey;
import dev.racelint.analyzer.config.ProjectConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * racelint.yml's exclude globs are relative to the folder holding it, whichever folder is scanned: the
 * repository, one module, or one source folder (as the Maven plugin scans); --exclude stays relative
 * to the scanned folder.
 */
class ConfigExcludesDiscoveryTest {

    @TempDir
    Path repo;

    private void tree() throws IOException {
        write("module-a/src/main/java/gen/Generated.java");
        write("module-a/src/main/java/demo/Kept.java");
        write("module-a/legacy/Old.java");
        write("module-b/src/main/java/demo/Other.java");
    }

    private static final List<String> FROM_ROOT = List.of("module-a/src/main/java/gen/**", "module-a/legacy/**");

    @Test
    void aRootConfigsGlobsMeanTheSameFilesWhicheverFolderIsScanned() throws IOException {
        tree();
        ConfigExcludes rootConfig = new ConfigExcludes(repo, FROM_ROOT);

        assertThat(names(discover(rootConfig, repo))).containsExactly("module-a/src/main/java/demo/Kept.java",
                "module-b/src/main/java/demo/Other.java");
        assertThat(names(discover(rootConfig, repo.resolve("module-a"))))
                .as("a module scanned, the glob from the root still applies").containsExactly("module-a/src/main/java/demo/Kept.java");
        assertThat(names(discover(rootConfig, repo.resolve("module-a/src/main/java"))))
                .as("a source folder scanned, as the Maven plugin does").containsExactly("module-a/src/main/java/demo/Kept.java");
    }

    @Test
    void commandLineGlobsStayRelativeToTheScannedFolder() throws IOException {
        tree();

        SourceDiscovery discovery = new SourceDiscovery(false, List.of("src/main/java/gen/**"),
                new ConfigExcludes(repo, List.of("src/main/java/gen/**")), 1 << 20);

        assertThat(names(discovery.discover(List.of(repo.resolve("module-a")), repo)))
                .as("--exclude from module-a; the same text in the root's racelint.yml names nothing there")
                .containsExactly("module-a/legacy/Old.java", "module-a/src/main/java/demo/Kept.java");
        assertThat(names(discovery.discover(List.of(repo), repo))).as("scanning the root: neither matches")
                .contains("module-a/src/main/java/gen/Generated.java");
    }

    @Test
    void aFileOutsideTheConfigsFolderIsMatchedRelativeToItsScannedFolder() throws IOException {
        tree();
        Path elsewhere = Files.createDirectories(repo.resolve("shared/config"));

        SourceDiscovery discovery = new SourceDiscovery(false, List.of(),
                new ConfigExcludes(elsewhere, List.of("src/main/java/gen/**")), 1 << 20);

        assertThat(names(discovery.discover(List.of(repo.resolve("module-a")), repo)))
                .containsExactly("module-a/legacy/Old.java", "module-a/src/main/java/demo/Kept.java");
    }

    @Test
    void windowsSeparatorsInAPathAreMatchedAndRefusedInAGlob() throws IOException {
        ExcludeGlobs globs = new ExcludeGlobs(List.of("module-a/legacy/**", "gen/\\*.java"));

        assertThat(globs.firstMatching(Path.of("module-a", "legacy", "Old.java"))).contains("module-a/legacy/**");
        assertThat(globs.matches(Path.of("gen/*.java"))).as("a quoted metacharacter is still a quote").isTrue();
        assertThatThrownBy(() -> new ExcludeGlobs(List.of("module-a\\legacy\\**")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exclude glob 'module-a\\legacy\\**': '\\' quotes the next character in a glob; "
                        + "separate folders with '/'");
        write("racelint.yml", "exclude:\n  - 'module-a\\legacy\\**'\n");
        assertThatThrownBy(() -> ProjectConfig.read(repo.resolve("racelint.yml"), Path.of("racelint.yml"), List.of(repo)))
                .isInstanceOf(ProjectConfig.ConfigException.class)
                .hasMessageStartingWith("racelint.yml:2: exclude 'module-a\\legacy\\**' is not a valid glob: '\\' quotes");
    }

    @Test
    void theCensusCountsTheConfigsGlobsApartFromTheCommandLines() throws IOException {
        tree();
        SourceDiscovery discovery = new SourceDiscovery(false, List.of("**/gen/**"),
                new ConfigExcludes(repo, List.of("**/gen/**", "module-a/legacy/**", "none/**")), 1 << 20);

        SourceDiscovery.Census census = discovery.census(List.of(repo.resolve("module-a")), repo);

        assertThat(census.javaFiles()).isEqualTo(3);
        assertThat(census.excludedByGlob()).isEqualTo(Map.of("**/gen/**", 1));
        assertThat(census.excludedByConfigGlob()).as("the first glob that matches counts: --exclude's first")
                .isEqualTo(Map.of("module-a/legacy/**", 1));
    }

    @Test
    void scanSessionAnchorsTheGlobsAtTheConfigsFolderAndTheCacheKeyHoldsIt() throws IOException {
        tree();
        write("racelint.yml", "exclude:\n  - \"module-a/legacy/**\"\n");
        write("module-a/racelint.yml", "exclude:\n  - \"module-a/legacy/**\"\n");
        ProjectConfig atRoot = ProjectConfig.read(repo.resolve("racelint.yml"), Path.of("racelint.yml"), List.of(repo));
        ProjectConfig inModule = ProjectConfig.read(repo.resolve("module-a/racelint.yml"),
                Path.of("module-a/racelint.yml"), List.of(repo));
        AnalysisOptions plain = AnalysisOptions.of(repo.resolve("module-a"));

        AnalysisOptions fromRoot = ScanSession.withConfig(plain, atRoot);
        AnalysisOptions fromModule = ScanSession.withConfig(plain, inModule);

        assertThat(fromRoot.configExcludes()).isEqualTo(new ConfigExcludes(repo, List.of("module-a/legacy/**")));
        assertThat(fromRoot.excludes()).as("the scanned-folder globs are the command line's alone").isEmpty();
        assertThat(names(SourceDiscovery.of(fromRoot).discover(fromRoot.paths(), repo)))
                .containsExactly("module-a/src/main/java/demo/Kept.java", "module-a/src/main/java/gen/Generated.java");
        assertThat(names(SourceDiscovery.of(fromModule).discover(fromModule.paths(), repo)))
                .as("in module-a/racelint.yml the glob names module-a/module-a/legacy: nothing")
                .contains("module-a/legacy/Old.java");
        List<Class<?>> code = List.of(CacheKey.class);
        assertThat(CacheKey.settings(fromRoot, repo, List.of(), "c", code))
                .as("the same globs from another folder leave out other files: another cache entry")
                .isNotEqualTo(CacheKey.settings(fromModule, repo, List.of(), "c", code));
    }

    private SourceDiscovery.Result discover(ConfigExcludes config, Path scanned) {
        return new SourceDiscovery(false, List.of(), config, 1 << 20).discover(List.of(scanned), repo);
    }

    private void write(String relative) throws IOException {
        write(relative, "class X {}\n");
    }

    private void write(String relative, String text) throws IOException {
        Path file = repo.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private List<String> names(SourceDiscovery.Result result) {
        Path root = repo.toAbsolutePath().normalize();
        return result.files().stream().map(f -> root.relativize(f.path()).toString().replace('\\', '/')).sorted().toList();
    }
}
