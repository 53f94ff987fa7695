package dev.racelint.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ReportPathsTest {

    private static final Path ROOT = Path.of("/repo/root");

    @Test
    void relativeSlashSeparated() {
        assertThat(ReportPaths.relative(ROOT, ROOT.resolve("src/main/java/A.java")))
                .hasValue("src/main/java/A.java");
        assertThat(ReportPaths.relative(ROOT, Path.of("/repo/root/./src/../src/B.java"))).hasValue("src/B.java");
        assertThat(ReportPaths.relative(ROOT, Path.of("/repo/other/C.java"))).hasValue("../other/C.java");
    }

    @Test
    void insideResolvesOnlyPathsThatStayUnderTheRoot() {
        assertThat(ReportPaths.inside(ROOT, "src/A.java")).contains(ROOT.resolve("src/A.java"));
        assertThat(ReportPaths.inside(ROOT, "src/./B.java")).contains(ROOT.resolve("src/B.java"));
        for (String leaving : new String[] {"../../../../secret/credentials", "src/../../x", "src/..", "..", "/etc/passwd",
                "\\server\\share", "src\\..\\..\\x", "", ".", "a\u0000b"}) {
            assertThat(ReportPaths.inside(ROOT, leaving)).as(leaving).isEmpty();
        }
        assertThat(ReportPaths.inside(ROOT, null)).isEmpty();
    }

    @Test
    void display() {
        assertThat(ReportPaths.display(ROOT, ROOT.resolve("My Orders/Café.java"))).isEqualTo("My Orders/Café.java");
        assertThat(ReportPaths.display(ROOT, null)).isNull();
        assertThat(ReportPaths.absolute(Path.of("/a/b/../c d"))).isEqualTo("/a/c d");
    }

    @Test
    void encodePath() {
        assertThat(ReportPaths.encodePath("src/My Orders/Café.java")).isEqualTo("src/My%20Orders/Caf%C3%A9.java");
        assertThat(ReportPaths.encodePath("a-b_c.d~e/F9")).isEqualTo("a-b_c.d~e/F9");
        assertThat(ReportPaths.encodePath("x:y/100%#?[]@!$&'()*+,;=\\"))
                .isEqualTo("x%3Ay/100%25%23%3F%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%5C");
        assertThat(ReportPaths.encodePath("日本/𝄞.java")).isEqualTo("%E6%97%A5%E6%9C%AC/%F0%9D%84%9E.java");
    }

    @Test
    void relativeUri() {
        assertThat(ReportPaths.relativeUri(ROOT, ROOT.resolve("My Orders/Café.java")))
                .hasValue("My%20Orders/Caf%C3%A9.java");
    }

    @Test
    void directoryUri() {
        assertThat(ReportPaths.directoryUri(Path.of("/work/acme shop"))).isEqualTo("file:///work/acme%20shop/");
        assertThat(ReportPaths.directoryUri(Path.of("/work/x/"))).isEqualTo("file:///work/x/");
        assertThat(ReportPaths.directoryUri(Path.of("/"))).isEqualTo("file:///");
        assertThat(ReportPaths.directoryUri(Path.of("/a/Café:1"))).isEqualTo("file:///a/Caf%C3%A9:1/");
        assertThat(ReportPaths.fileUri(Path.of("/a/b.java"))).isEqualTo("file:///a/b.java");
    }
}
