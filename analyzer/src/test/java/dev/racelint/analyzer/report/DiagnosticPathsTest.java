package dev.racelint.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DiagnosticPathsTest {

    private static final Path ROOT = ReportFixtures.ROOT;

    private static String relativize(String text) {
        return DiagnosticPaths.relativize(ROOT, text);
    }

    @Test
    void pathsUnderTheRootBecomeRelative() {
        // the root holds a space: "/work/acme shop"
        assertThat(relativize("results not cached in " + ROOT + "/.racelint/cache: AccessDeniedException "
                + ROOT + "/.racelint/cache/x.tmp")).isEqualTo(
                "results not cached in .racelint/cache: AccessDeniedException .racelint/cache/x.tmp");
        assertThat(relativize("scanned " + ROOT + ".")).isEqualTo("scanned <source root>.");
        assertThat(relativize("see src/a/../B.java")).isEqualTo("see src/B.java");
    }

    @Test
    void pathsOutsideTheRootKeepOnlyTheirName() {
        assertThat(relativize("cannot read /home/runner/.secret/credentials: denied."))
                .isEqualTo("cannot read <outside source root>/credentials: denied.");
        assertThat(relativize("(../../../../secret/credentials)")).isEqualTo("(<outside source root>/credentials)");
        assertThat(relativize("src/../../other/x.java")).isEqualTo("<outside source root>/x.java");
        assertThat(relativize("file:///home/me/.m2/guava.jar")).isEqualTo("<outside source root>/guava.jar");
        assertThat(relativize("--cache-dir=/var/tmp/cache")).isEqualTo("--cache-dir=<outside source root>/cache");
        assertThat(relativize("in ~/secrets/key")).isEqualTo("in <outside source root>");
        // a Windows path is no path of this machine here (on Windows it is resolved like any other)
        if (!System.getProperty("os.name").startsWith("Windows")) {
            assertThat(relativize("C:\\Users\\me\\key and \\\\server\\share\\x"))
                    .isEqualTo("<outside source root> and <outside source root>");
        }
        // a sibling folder whose name starts like the root's is outside
        assertThat(relativize(ROOT + "ping/x/y.java")).doesNotContain("/work/");
    }

    @Test
    void textThatIsNoPathIsLeftAlone() {
        for (String text : new String[] {"I/O and/or 1/2, a / b, x /2", "expected ';' ... got '/'",
                "skipped: 3 MB is over the 1 MB limit", "SELECT a/b FROM t", "src/main/java/A.java:3", ""}) {
            assertThat(relativize(text)).isSameAs(text);
        }
    }

    @Test
    void aDiagnosticOutsideTheRootLosesItsLocation() {
        Diagnostic outside = new Diagnostic(Path.of("/home/runner/.m2/guava.jar").toAbsolutePath(), 3, 4, Level.NOTE,
                "classpath", "classpath entry skipped");
        Diagnostic guarded = DiagnosticPaths.guard(ROOT, outside);
        assertThat(guarded).isEqualTo(new Diagnostic(null, 0, 0, Level.NOTE, "classpath",
                "<outside source root>/guava.jar: classpath entry skipped"));

        Diagnostic climbing = new Diagnostic(ROOT.resolve("../../../secret/credentials"), 1, 1, Level.WARNING,
                "unreadable", "");
        assertThat(DiagnosticPaths.guard(ROOT, climbing).file()).isNull();
        assertThat(DiagnosticPaths.guard(ROOT, climbing).message()).isEqualTo("<outside source root>/credentials");

        Diagnostic inside = new Diagnostic(ReportFixtures.BROKEN, 7, 13, Level.ERROR, "parse-error", "';' expected");
        assertThat(DiagnosticPaths.guard(ROOT, inside)).isSameAs(inside);
    }

    @Test
    void everyReportGetsTheGuardedDiagnostics() {
        ScanReport report = ReportFixtures.hostileReport();
        assertThat(report.diagnostics().get(1).file()).isNull();
        assertThat(report.diagnostics().get(1).message()).startsWith("<outside source root>/credentials: ")
                .doesNotContain("/home/").doesNotContain(ROOT.toString());
    }
}
