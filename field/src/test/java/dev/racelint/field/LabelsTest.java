package dev.racelint.field;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** labels.tsv and manifest.tsv are checked line by line, and a mistake names its line. */
class LabelsTest {
    private static final String HEADER = String.join("\t", Labels.COLUMNS) + "\n";
    private static final Set<String> REPOSITORIES = Set.of("acme/shop");
    private static final Set<String> RULES = Set.of("check-then-act", "lost-update");

    @TempDir
    Path dir;

    @Test
    void readsPositiveAndNegativeLabels() throws IOException {
        List<Label> labels = read(HEADER
                + "# a comment\n"
                + "acme/shop\tsrc/main/java/Shop.java\tShop.order\t10-20\tcheck-then-act\tTRUE\trecall\ttwo orders\n"
                + "\n"
                + "acme/shop\tsrc/main/java/Shop.java\tShop.pay\t30-40\t!lost-update\tFALSE\tprecision\tSET x = x - ?\n");

        assertThat(labels).hasSize(2);
        assertThat(labels.get(0)).extracting(Label::line, Label::start, Label::end, Label::rule, Label::negative,
                Label::verdict, Label::source).containsExactly(3, 10, 20, "check-then-act", false, Label.Verdict.TRUE,
                Label.Source.RECALL);
        assertThat(labels.get(1)).extracting(Label::rule, Label::negative, Label::verdict, Label::source)
                .containsExactly("lost-update", true, Label.Verdict.FALSE, Label.Source.PRECISION);
    }

    @Test
    void eachMistakeIsNamedWithItsLine() {
        String ok = "acme/shop\tShop.java\tShop.order\t10-20\tcheck-then-act\tTRUE\trecall\ttwo orders";
        assertRefused(ok.replace("acme/shop", "acme/other"), "labels.tsv:2: repository 'acme/other' is not in the manifest");
        assertRefused(ok.replace("10-20", "20-10"), "labels.tsv:2: lines '20-10'");
        assertRefused(ok.replace("10-20", "10"), "labels.tsv:2: lines '10' must be START-END");
        assertRefused(ok.replace("check-then-act", "check-then-acts"), "labels.tsv:2: rule 'check-then-acts' is not a rule id");
        assertRefused(ok.replace("TRUE", "FALSE"), "labels.tsv:2: a rule label's verdict is TRUE or TRUE-LOW");
        assertRefused(ok.replace("check-then-act", "!check-then-act"), "labels.tsv:2: a !rule label's verdict is FALSE");
        assertRefused(ok.replace("TRUE", "MAYBE"), "labels.tsv:2: verdict 'MAYBE'");
        assertRefused(ok.replace("recall", "author"), "labels.tsv:2: source 'author'");
        assertRefused(ok.replace("two orders", ""), "labels.tsv:2: a label needs its reason");
        assertRefused(ok.replace("Shop.java", "../etc/Shop.java"), "labels.tsv:2: file '../etc/Shop.java'");
        assertRefused(ok + "\textra", "labels.tsv:2: 9 fields, 8 expected");
        assertThatThrownBy(() -> Labels.read(write("repository\tfile\n" + ok + "\n"), REPOSITORIES, RULES))
                .isInstanceOf(FieldError.class).hasMessageStartingWith("labels.tsv:1: the header must be");
    }

    @Test
    void theManifestPinsFullCommitsAndRootsInsideTheRepository() throws IOException {
        String header = String.join("\t", Manifest.COLUMNS) + "\n";
        String commit = "0123456789abcdef0123456789abcdef01234567";
        Path manifest = dir.resolve("manifest.tsv");
        Files.writeString(manifest, header + "acme/shop\t" + commit + "\tservices/orders\tshop\tJPA\tKafka\n");
        assertThat(Manifest.read(manifest)).singleElement().satisfies(s -> {
            assertThat(s.folderName()).isEqualTo("acme+shop");
            assertThat(s.root()).isEqualTo("services/orders");
        });

        for (var bad : List.of(List.of("acme/shop\tmain\t.\tshop\tJPA\t-", "commit 'main' is not a full 40-digit commit id"),
                List.of("acme/shop\t" + commit + "\t../x\tshop\tJPA\t-", "root '../x' must be a folder inside the repository"),
                List.of("acme\t" + commit + "\t.\tshop\tJPA\t-", "repository 'acme' is not owner/name"))) {
            Files.writeString(manifest, header + bad.get(0) + "\n");
            assertThatThrownBy(() -> Manifest.read(manifest)).isInstanceOf(FieldError.class)
                    .hasMessage("manifest.tsv:2: " + bad.get(1));
        }
        Files.writeString(manifest, header + "acme/shop\t" + commit + "\t.\ta\tb\tc\nacme/shop\t" + commit + "\t.\ta\tb\tc\n");
        assertThatThrownBy(() -> Manifest.read(manifest)).hasMessage("manifest.tsv:3: acme/shop is listed twice");
    }

    private void assertRefused(String line, String message) {
        assertThatThrownBy(() -> read(HEADER + line + "\n")).isInstanceOf(FieldError.class).hasMessageStartingWith(message);
    }

    private List<Label> read(String text) throws IOException {
        return Labels.read(write(text), REPOSITORIES, RULES);
    }

    private Path write(String text) throws IOException {
        return Files.writeString(dir.resolve("labels.tsv"), text);
    }
}
