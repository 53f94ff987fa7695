package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C during a scan: the process stops promptly with 130 and leaves no report, whole or partial. */
class InterruptTest {

    @TempDir
    Path dir;

    @Test
    void sigintStopsTheScanWith130AndLeavesNoReportBehind() throws Exception {
        // A build started as a background job without job control ignores SIGINT, and the scan's JVM
        // inherits that (the JVM keeps an ignored SIGINT ignored): Ctrl-C cannot reach it there.
        Assumptions.assumeFalse(sigintIgnored(), "SIGINT is ignored in this process (a background job), so the "
                + "child scan would ignore it too; run the build in the foreground to test Ctrl-C");
        Sources.writeLarge(dir, 400);
        Path out = dir.resolve("racelint.sarif");
        Process scan = Sources.racelintProcess(List.of(), dir.resolve("log.txt"),
                "scan", dir.toString(), "--format", "sarif", "--output", out.toString()).start();
        // wait until the scan is well under way (it reports progress only on a terminal, so just wait)
        Thread.sleep(2500);
        assertThat(scan.isAlive()).as("the scan should still be running; log: " + Files.readString(dir.resolve("log.txt")))
                .isTrue();
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(scan.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();

        assertThat(scan.waitFor(10, TimeUnit.SECONDS)).as("stops within 10 s of Ctrl-C").isTrue();
        assertThat(scan.exitValue()).isEqualTo(130);
        assertThat(out).doesNotExist();
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(p -> p.getFileName().toString()).toList();
            assertThat(names).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    /** Linux: bit 2 (SIGINT) of the ignored-signal mask in /proc/self/status; elsewhere, assume not. */
    private static boolean sigintIgnored() throws java.io.IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & 0x2L) != 0;
            }
        }
        return false;
    }
}
