package dev.racelint.analyzer.index;

import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;

/**
 * The per-file time limit over the analysis that follows parsing. The work done for a file - its
 * share of the index, and the call-graph walk, database operations, lock scopes and rules of each
 * of its methods - is timed and summed over the threads that did it; once the sum passes the limit,
 * the rest of that file's work is skipped (a step already running finishes) and the file gets one
 * {@code too-slow} diagnostic naming the phase. The other files go on as before.
 *
 * <p>Where a file runs out depends on the machine's speed and load, so a scan in which one does can
 * give different results elsewhere; the diagnostic says so. Whole-program steps (effect closures,
 * the lock-order graph) are not charged to a file.
 */
public final class FileBudget {

    /** The diagnostic code of a file given up for time, while parsing or after. */
    public static final String TOO_SLOW = "too-slow";

    /** No limit: every file's work runs. */
    public static final FileBudget UNLIMITED = new FileBudget(List.of(), Duration.ZERO, () -> 0L);

    private final Duration limit;
    private final long limitNanos;
    private final LongSupplier clock;
    private final List<Path> files;
    private final Map<Path, Integer> slots = new HashMap<>();
    private final AtomicLongArray spent;
    private final AtomicReferenceArray<String> ranOutIn;

    /** A budget of {@code limit} for each of {@code files}, timed by {@link System#nanoTime()}. */
    public FileBudget(List<Path> files, Duration limit) {
        this(files, limit, System::nanoTime);
    }

    /** As {@link #FileBudget(List, Duration)} with another clock (nanoseconds; a test's clock counts steps). */
    public FileBudget(List<Path> files, Duration limit, LongSupplier clock) {
        this.files = List.copyOf(files);
        this.limit = limit;
        this.limitNanos = limit.toNanos();
        this.clock = clock;
        for (int i = 0; i < this.files.size(); i++) {
            slots.putIfAbsent(this.files.get(i), i);
        }
        this.spent = new AtomicLongArray(this.files.size());
        this.ranOutIn = new AtomicReferenceArray<>(this.files.size());
    }

    /**
     * Runs {@code work} for {@code file} in {@code phase} and charges its time to the file, unless the
     * file has used its budget already. A file the budget does not know is never limited.
     *
     * @return whether the work ran
     */
    public boolean run(Path file, String phase, Runnable work) {
        Integer slot = slots.get(file);
        if (slot != null && ranOutIn.get(slot) != null) {
            return false;
        }
        charge(file, phase, work);
        return true;
    }

    /** Runs {@code work} whatever the file has used (work the rest of the scan needs) and charges its time. */
    public void charge(Path file, String phase, Runnable work) {
        Integer slot = slots.get(file);
        if (slot == null) {
            work.run();
            return;
        }
        long start = clock.getAsLong();
        try {
            work.run();
        } finally {
            if (spent.addAndGet(slot, clock.getAsLong() - start) > limitNanos) {
                ranOutIn.compareAndSet(slot, null, phase);
            }
        }
    }

    /** True once {@code file} has used its budget: its remaining work is skipped. */
    public boolean ranOut(Path file) {
        Integer slot = slots.get(file);
        return slot != null && ranOutIn.get(slot) != null;
    }

    /** True when any file has used its budget. */
    public boolean anyRanOut() {
        for (int i = 0; i < ranOutIn.length(); i++) {
            if (ranOutIn.get(i) != null) {
                return true;
            }
        }
        return false;
    }

    /** The time charged to {@code file} so far, in the clock's nanoseconds. */
    public long spentNanos(Path file) {
        Integer slot = slots.get(file);
        return slot == null ? 0 : spent.get(slot);
    }

    /** One {@code too-slow} warning per file that used its budget, in file order. */
    public List<Diagnostic> diagnostics() {
        List<Diagnostic> out = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            String phase = ranOutIn.get(i);
            if (phase != null) {
                out.add(new Diagnostic(files.get(i), 0, 0, Level.WARNING, TOO_SLOW,
                        "analysis given up in the " + phase + " phase: the file's analysis took longer than the "
                                + "per-file limit of " + describe(limit) + ", so its remaining "
                                + "methods were not analysed and no finding is reported in it; where the limit is "
                                + "reached depends on the machine, so other machines may report differently"));
            }
        }
        return out;
    }

    /** {@code 60 s}, {@code 1.5 s}, {@code 20 ms}: as the limit was given. */
    public static String describe(Duration limit) {
        long millis = limit.toMillis();
        if (millis % 1000 == 0) {
            return String.format(Locale.ROOT, "%d s", millis / 1000);
        }
        return millis >= 1000 ? String.format(Locale.ROOT, "%.3f s", millis / 1000.0).replaceAll("0+ s$", " s")
                : String.format(Locale.ROOT, "%d ms", millis);
    }
}
