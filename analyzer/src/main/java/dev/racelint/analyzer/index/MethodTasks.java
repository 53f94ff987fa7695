package dev.racelint.analyzer.index;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;

/** Runs a per-method (or per-file) task on a pool of its own, so a phase uses exactly the threads it was given. */
public final class MethodTasks {

    private MethodTasks() {}

    /** Runs {@code task} once per item on {@code threads} threads; the task handles its own failures. */
    public static <T> void forEach(List<T> items, int threads, Consumer<? super T> task) {
        ForkJoinPool pool = new ForkJoinPool(Math.max(1, threads));
        try {
            pool.submit(() -> items.parallelStream().forEach(task)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("analysis interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error; // out of memory, above all: the caller says what to do about it
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdown();
        }
    }
}
