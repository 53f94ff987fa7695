package dev.racelint.cli;

import dev.racelint.analyzer.ProgressListener;
import java.io.PrintWriter;

/**
 * A single status line on stderr ({@code \r}-rewritten, at most about ten updates a second),
 * erased by {@link #close()}. Only used when stderr is a terminal.
 */
final class ConsoleProgress implements ProgressListener, AutoCloseable {

    private static final long INTERVAL_NANOS = 100_000_000L;

    private final PrintWriter err;
    // The first update comes after one interval, so that quick scans print nothing.
    private volatile long lastShown = System.nanoTime();
    private int shownLength;

    ConsoleProgress(PrintWriter err) {
        this.err = err;
    }

    @Override
    public void filesParsed(int done, int total) {
        update("parsed ", done, total, " files");
    }

    @Override
    public void methodsAnalysed(int done, int total) {
        update("analysed ", done, total, " methods");
    }

    private void update(String verb, int done, int total, String unit) {
        long now = System.nanoTime();
        if (now - lastShown < INTERVAL_NANOS) {
            return;
        }
        synchronized (this) {
            if (now - lastShown < INTERVAL_NANOS) {
                return;
            }
            lastShown = now;
            String text = "racelint: " + verb + done + "/" + total + unit;
            StringBuilder line = new StringBuilder("\r").append(text);
            if (text.length() < shownLength) {
                line.append(" ".repeat(shownLength - text.length()));
            }
            shownLength = text.length();
            err.print(line);
            err.flush();
        }
    }

    /** Erases the status line, leaving the cursor at the start of an empty line. */
    @Override
    public synchronized void close() {
        if (shownLength > 0) {
            err.print("\r" + " ".repeat(shownLength) + "\r");
            err.flush();
            shownLength = 0;
        }
        lastShown = Long.MAX_VALUE / 2; // late callbacks from worker threads stay silent
    }
}
