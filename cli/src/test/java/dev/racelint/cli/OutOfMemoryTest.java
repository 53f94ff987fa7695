package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A heap too small for the code: one clear message and exit code 3, not a stack trace per parser thread or a hang. */
class OutOfMemoryTest {

    @TempDir
    Path dir;

    @Test
    void aHeapTooSmallForTheCodeStopsTheScanWithAdvice() throws Exception {
        Sources.writeLarge(dir, 300);
        Path log = dir.resolve("log.txt");
        Process scan = Sources.racelintProcess(List.of("-Xmx48m"), log, "scan", dir.resolve("src").toString(), "--threads", "2")
                .start();
        assertThat(scan.waitFor(120, TimeUnit.SECONDS)).as("stops instead of thrashing").isTrue();
        String output = Files.readString(log);
        assertThat(scan.exitValue()).as(output).isEqualTo(ExitCodes.INTERNAL_ERROR);
        assertThat(output).contains("racelint: out of memory: the ").contains("-Xmx").doesNotContain("\tat ");
    }

    @Test
    void theAdviceDoublesTheHeap() {
        assertThat(RacelintCommand.outOfMemoryMessage(6L * 1024 * 1024 * 1024)).contains("6144 MB heap").contains("-Xmx12g");
        assertThat(RacelintCommand.outOfMemoryMessage(256L * 1024 * 1024)).contains("-Xmx2g");
    }
}
