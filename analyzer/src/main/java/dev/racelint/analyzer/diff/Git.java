package dev.racelint.analyzer.diff;

import dev.racelint.analyzer.diff.ChangedLines.DiffException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code git} for diff mode: an argument array (no shell), with the scanned repository's means
 * of running programs switched off (fsmonitor, hooks, external diff), pathspecs read literally, no
 * terminal prompt, a time limit and a cap on the output it reads. Its output is data from the
 * scanned repository and is checked by the callers like any other input.
 */
final class Git {

    static final long TIMEOUT_SECONDS = 120;

    private Git() {}

    /** The command's standard output; a failure or more than {@code maxBytes} of output is a {@link DiffException}. */
    static byte[] run(Path dir, long maxBytes, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
                "-c", "diff.external=", "-c", "core.quotePath=true", "--literal-pathspecs", "-C", dir.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(false);
        builder.environment().put("GIT_TERMINAL_PROMPT", "0");
        builder.environment().remove("GIT_EXTERNAL_DIFF");
        builder.environment().remove("GIT_DIFF_OPTS");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new DiffException("cannot run git (is it installed and on the PATH?): " + e.getMessage());
        }
        Drain out = new Drain(process.getInputStream(), maxBytes, process);
        Drain err = new Drain(process.getErrorStream(), 64 * 1024, null);
        // both streams are drained at once, so a chatty stderr cannot block a large diff on stdout,
        // and on threads, so that a git that never closes its output still meets the time limit
        Thread outReader = start(out, "racelint-git-stdout");
        Thread errReader = start(err, "racelint-git-stderr");
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new DiffException("git " + args[0] + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
            outReader.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            errReader.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new DiffException("interrupted while running git");
        }
        if (out.overflowed) {
            throw new DiffException("git " + args[0] + " wrote more than " + maxBytes + " bytes");
        }
        if (process.exitValue() != 0) {
            String message;
            synchronized (err) {
                message = err.bytes.toString(StandardCharsets.UTF_8).strip();
            }
            throw new DiffException(message.isEmpty() ? "git " + args[0] + " failed (exit " + process.exitValue() + ")"
                    : printable(message.lines().findFirst().orElse(message)));
        }
        synchronized (out) {
            return out.bytes.toByteArray();
        }
    }

    /** git's message may quote names from the repository: no control character reaches the terminal. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), 500));
        text.codePoints().limit(500).forEach(c -> out.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return out.toString();
    }

    private static Thread start(Runnable drain, String name) {
        Thread thread = new Thread(drain, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Reads a stream to its end, keeping at most {@code cap} bytes; past the cap it stops {@code process}. */
    private static final class Drain implements Runnable {
        private final InputStream in;
        private final long cap;
        private final Process process;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        volatile boolean overflowed;

        Drain(InputStream in, long cap, Process process) {
            this.in = in;
            this.cap = cap;
            this.process = process;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    synchronized (this) {
                        if (bytes.size() + (long) n > cap) {
                            overflowed = true;
                            if (process != null) {
                                process.destroyForcibly();
                                return;
                            }
                            continue; // stderr: keep draining, stop keeping
                        }
                        bytes.write(buffer, 0, n);
                    }
                }
            } catch (IOException ignored) {
                // the exit code still tells failure
            }
        }
    }
}
