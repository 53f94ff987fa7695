package dev.racelint.analyzer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** racelint.yml comes from the scanned tree: bounded before it is parsed, never read from outside the tree. */
class ProjectConfigTest {

    private static final Path SHOWN = Path.of("racelint.yml");

    @TempDir
    Path tree;

    @TempDir
    Path elsewhere;

    @Test
    void aSixteenMillionCharacterScalarIsRefusedUnreadWithinASecond() throws IOException {
        Path file = tree.resolve("racelint.yml");
        Files.writeString(file, "exclude: \"" + "a".repeat(16_000_000) + "\"\n");

        ProjectConfig.ConfigException refused = assertTimeoutPreemptively(Duration.ofSeconds(1),
                () -> catchThrowableOfType(ProjectConfig.ConfigException.class,
                        () -> ProjectConfig.read(file, SHOWN, List.of(tree))));

        assertThat(refused).isNotNull();
        assertThat(refused.getMessage()).isEqualTo("racelint.yml: is larger than the 256 KiB a configuration file may "
                + "have (a real one needs a few hundred bytes), so it is not read");
    }

    @Test
    void aFileJustUnderTheLimitIsRead() throws IOException {
        Path file = tree.resolve("racelint.yml");
        String head = "exclude:\n  - \"**/generated/**\"\n#";
        Files.writeString(file, head + "x".repeat(ProjectConfig.MAX_FILE_BYTES - head.length() - 1) + "\n");

        assertThat(ProjectConfig.read(file, SHOWN, List.of(tree)).excludes()).containsExactly("**/generated/**");
    }

    @Test
    void aLinkOutOfTheTreeIsRefusedWithoutQuotingTheTarget() throws IOException {
        Path secret = Files.writeString(elsewhere.resolve("credentials"), "aws_secret_access_key: hunter2\n");
        Path link = Files.createSymbolicLink(tree.resolve("racelint.yml"), secret);

        ProjectConfig.ConfigException refused = catchThrowableOfType(ProjectConfig.ConfigException.class,
                () -> ProjectConfig.read(link, SHOWN, List.of(tree)));

        assertThat(refused.getMessage()).startsWith("racelint.yml: leads out of the scanned tree through a symbolic link")
                .doesNotContain("aws_secret_access_key").doesNotContain("hunter2").doesNotContain(elsewhere.toString())
                .doesNotContain("credentials");

        Files.delete(secret);
        assertThat(catchThrowableOfType(ProjectConfig.ConfigException.class,
                () -> ProjectConfig.read(link, SHOWN, List.of(tree))).getMessage())
                .as("a link to nothing says the same: the message tells nothing about the machine")
                .isEqualTo(refused.getMessage());
    }

    @Test
    void aLinkThroughAFolderOutOfTheTreeIsRefusedToo() throws IOException {
        Files.writeString(elsewhere.resolve("racelint.yml"), "rules: {}\n");
        Path folder = Files.createSymbolicLink(tree.resolve("ci"), elsewhere);

        assertThatThrownBy(() -> ProjectConfig.read(folder.resolve("racelint.yml"), Path.of("ci/racelint.yml"), List.of(tree)))
                .hasMessageStartingWith("ci/racelint.yml: leads out of the scanned tree");
    }

    @Test
    void aLinkThatStaysInTheTreeIsFollowed() throws IOException {
        Path shared = Files.createDirectories(tree.resolve("config"));
        Files.writeString(shared.resolve("racelint.yml"), "exclude: \"**/generated/**\"\n");
        Path link = Files.createSymbolicLink(tree.resolve("racelint.yml"), Path.of("config/racelint.yml"));

        assertThat(ProjectConfig.find(tree)).contains(link);
        assertThat(ProjectConfig.read(link, SHOWN, List.of(tree)).excludes()).containsExactly("**/generated/**");
    }

    @Test
    void aDanglingLinkIsFoundAndRefusedNotSkipped() throws IOException {
        Path link = Files.createSymbolicLink(tree.resolve(".racelint.yml"), elsewhere.resolve("gone.yml"));

        assertThat(ProjectConfig.find(tree)).contains(link);
        assertThatThrownBy(() -> ProjectConfig.read(link, Path.of(".racelint.yml"), List.of(tree)))
                .hasMessageStartingWith(".racelint.yml: leads out of the scanned tree");
    }

    @Test
    void aFileTheUserNamesIsReadWhereverItIs() throws IOException {
        Path outside = Files.writeString(elsewhere.resolve("shared.yml"), "exclude: \"**/generated/**\"\n");
        Path link = Files.createSymbolicLink(tree.resolve("shared.yml"), outside);

        assertThat(ProjectConfig.read(link).excludes()).containsExactly("**/generated/**");
    }

    @Test
    void excludesKeepTheirLines() throws IOException {
        Path file = Files.writeString(tree.resolve("racelint.yml"), "rules: {}\nexclude:\n  - \"**/generated/**\"\n  - \"**\"\n");

        ProjectConfig config = ProjectConfig.read(file, SHOWN, List.of(tree));

        assertThat(config.excludeEntries()).containsExactly(new ProjectConfig.Exclude("**/generated/**", 3),
                new ProjectConfig.Exclude("**", 4));
        assertThat(config.whereExcluded("**")).contains("racelint.yml:4");
        assertThat(config.whereExcluded("other/**")).isEmpty();
    }

    @Test
    void aMalformedExcludeGlobIsAnErrorAtItsLine() throws IOException {
        Path file = Files.writeString(tree.resolve("racelint.yml"), "exclude:\n  - \"**/gen/**\"\n  - \"src/[main\"\n");

        assertThatThrownBy(() -> ProjectConfig.read(file, SHOWN, List.of(tree)))
                .hasMessage("racelint.yml:3: exclude 'src/[main' is not a valid glob: a [class] is not closed with ']'");
    }

    @Test
    void quotedTextHasItsControlCharactersEscapedAndIsClipped() throws IOException {
        Path file = Files.writeString(tree.resolve("racelint.yml"), "\"ru\\eles\\u202e\": 1\n");
        assertThatThrownBy(() -> ProjectConfig.read(file, SHOWN, List.of(tree)))
                .hasMessage("racelint.yml:1: unknown key 'ru\\u001bles\\u202e' (expected: version, rules, minLevel, exclude, apis, authorization, coverage, limits)");

        Path longKey = Files.writeString(tree.resolve("racelint.yml"), "rules:\n  ? " + "x".repeat(200_000) + "\n  : off\n");
        ProjectConfig config = ProjectConfig.read(longKey, SHOWN, List.of(tree));
        ProjectConfig.ConfigException unknown = assertTimeoutPreemptively(Duration.ofSeconds(1),
                () -> catchThrowableOfType(ProjectConfig.ConfigException.class,
                        () -> config.checkRuleIds(Set.of("io-in-transaction"))));
        assertThat(unknown.getMessage()).startsWith("racelint.yml:2: unknown rule id '" + "x".repeat(80) + "...' under rules;")
                .hasSizeLessThan(200);
    }

    @Test
    void bytesThatAreNotUtf8AreAnErrorAtTheirLine() throws IOException {
        Path file = tree.resolve("racelint.yml");
        Files.write(file, new byte[] {'r', 'u', 'l', 'e', 's', ':', '\n', ' ', ' ', 'a', (byte) 0xC3, ':', ' ', '1', '\n'});

        assertThatThrownBy(() -> ProjectConfig.read(file, SHOWN, List.of(tree)))
                .hasMessage("racelint.yml:2: not valid UTF-8");
    }

    @Test
    void theNearestConfigFromTheScannedFolderUpToTheSourceRootIsFoundAndNothingAboveIt(@TempDir Path top) throws Exception {
        Path repo = Files.createDirectories(top.resolve("repo"));
        Path module = Files.createDirectories(repo.resolve("shop/api/src/main/java"));
        Files.writeString(top.resolve("racelint.yml"), "rules: {}\n");
        assertThat(ProjectConfig.findUpwards(module, repo)).as("above the source root: outside the tree").isEmpty();

        Files.writeString(repo.resolve("racelint.yml"), "rules: {}\n");
        assertThat(ProjectConfig.findUpwards(module, repo)).contains(repo.resolve("racelint.yml"));
        Files.writeString(repo.resolve("shop/.racelint.yml"), "rules: {}\n");
        assertThat(ProjectConfig.findUpwards(module, repo)).as("the nearest wins").contains(repo.resolve("shop/.racelint.yml"));
        assertThat(ProjectConfig.findUpwards(repo.resolve("shop/api"), repo.resolve("shop/api")))
                .as("the source root itself bounds the walk").isEmpty();
        assertThat(ProjectConfig.findUpwards(top, repo)).as("a folder outside the source root is looked at alone")
                .contains(top.resolve("racelint.yml"));
    }
}
