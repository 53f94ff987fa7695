package dev.racelint.analyzer.report;

import static dev.racelint.analyzer.report.ReportFixtures.render;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitProvenanceTest {

    private static final String SHA = "0123456789abcdef0123456789abcdef01234567";

    @TempDir
    Path root;

    private void git(String file, String text) throws Exception {
        Path path = root.resolve(".git").resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text, StandardCharsets.UTF_8);
    }

    private void origin(String url) throws Exception {
        git("config", "[core]\n\tbare = false\n[remote \"upstream\"]\n\turl = https://example.org/up.git\n"
                + "[remote \"origin\"]\n\turl = " + url + "\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n");
    }

    @Test
    void aBranchCheckedOutGivesItsCommitAndTheOriginRemote() throws Exception {
        git("HEAD", "ref: refs/heads/main\n");
        git("refs/heads/main", SHA + "\n");
        origin("https://github.com/acme/shop.git");

        assertThat(GitProvenance.of(root)).contains(
                new GitProvenance.Provenance(URI.create("https://github.com/acme/shop.git"), SHA, "main"));
    }

    @Test
    void aPackedRefAndADetachedHeadAreRead() throws Exception {
        git("HEAD", "ref: refs/heads/release/1.2\n");
        git("packed-refs", "# pack-refs with: peeled fully-peeled sorted\n" + SHA + " refs/heads/release/1.2\n");
        origin("git@github.com:acme/shop.git");
        assertThat(GitProvenance.of(root)).contains(
                new GitProvenance.Provenance(URI.create("ssh://github.com/acme/shop.git"), SHA, "release/1.2"));

        git("HEAD", SHA.toUpperCase(java.util.Locale.ROOT) + "\n");
        assertThat(GitProvenance.of(root).orElseThrow().branch()).isNull();
        assertThat(GitProvenance.of(root).orElseThrow().revision()).isEqualTo(SHA);
    }

    @Test
    void credentialsInTheRemoteUrlAreNeverReported() throws Exception {
        git("HEAD", SHA + "\n");
        origin("https://x-access-token:ghs_secret@github.com/acme/shop.git?token=1#x");
        assertThat(GitProvenance.of(root).orElseThrow().repository())
                .isEqualTo(URI.create("https://github.com/acme/shop.git"));
    }

    @Test
    void anythingOddGivesNoProvenanceRatherThanAFailure() throws Exception {
        assertThat(GitProvenance.of(root)).as("not a work tree").isEmpty();

        git("HEAD", "ref: refs/heads/../../../etc/passwd\n");
        origin("https://github.com/acme/shop.git");
        assertThat(GitProvenance.of(root)).as("a ref leaving .git").isEmpty();

        git("HEAD", "not a revision\n");
        assertThat(GitProvenance.of(root)).as("garbage in HEAD").isEmpty();

        git("HEAD", SHA + "\n");
        origin("file:///home/runner/secret");
        assertThat(GitProvenance.of(root)).as("a local remote").isEmpty();
        git("config", "[core]\n");
        assertThat(GitProvenance.of(root)).as("no remote").isEmpty();
    }

    @Test
    void aGitFilePointingOutOfTheSourceRootIsNotFollowed(@TempDir Path elsewhere) throws Exception {
        Path outside = elsewhere.resolve("repo.git");
        Files.createDirectories(outside.resolve("refs/heads"));
        Files.writeString(outside.resolve("HEAD"), SHA + "\n");
        Files.writeString(outside.resolve("config"), "[remote \"origin\"]\n\turl = https://github.com/a/b\n");
        Files.writeString(root.resolve(".git"), "gitdir: " + outside + "\n");
        assertThat(GitProvenance.of(root)).as("a linked work tree's .git file").isEmpty();

        Files.delete(root.resolve(".git"));
        Files.createSymbolicLink(root.resolve(".git"), outside);
        assertThat(GitProvenance.of(root)).as("a .git link out of the tree").isEmpty();
    }

    @Test
    void aHugePackedRefsFileIsReadOnlyUpToTheLimit() throws Exception {
        git("HEAD", "ref: refs/heads/main\n");
        origin("https://github.com/acme/shop.git");
        String filler = (SHA + " refs/tags/t\n").repeat(GitProvenance.LARGE_FILE_LIMIT / 50 + 10);
        git("packed-refs", filler + SHA + " refs/heads/main\n");
        assertThat(GitProvenance.of(root)).as("the ref lies past the read limit").isEmpty();
    }

    @Test
    void sarifCarriesTheProvenanceMappedToTheSourceRoot() throws Exception {
        git("HEAD", "ref: refs/heads/main\n");
        git("refs/heads/main", SHA + "\n");
        origin("https://github.com/acme/shop.git");
        ScanReport report = new ScanReport("0.1.0-SNAPSHOT", List.of(ReportFixtures.IO_IN_TRANSACTION), List.of(),
                List.of(), root, null, 1, ReportFixtures.sources());

        String sarif = render(new SarifReportWriter(), report);

        JsonNode details = new ObjectMapper().readTree(sarif).get("runs").get(0).get("versionControlProvenance");
        assertThat(details).hasSize(1);
        assertThat(details.get(0).get("repositoryUri").asText()).isEqualTo("https://github.com/acme/shop.git");
        assertThat(details.get(0).get("revisionId").asText()).isEqualTo(SHA);
        assertThat(details.get(0).get("branch").asText()).isEqualTo("main");
        assertThat(details.get(0).get("mappedTo").get("uriBaseId").asText()).isEqualTo(SarifReportWriter.SRCROOT);
        SarifAssertions.assertValidForGitHub(sarif);
    }
}
