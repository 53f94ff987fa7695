package dev.racelint.analyzer;

/** Told how far a scan has got; called from worker threads, so implementations must be thread-safe. */
public interface ProgressListener {
    void filesParsed(int done, int total);

    void methodsAnalysed(int done, int total);

    ProgressListener NONE = new ProgressListener() {
        @Override
        public void filesParsed(int done, int total) {}

        @Override
        public void methodsAnalysed(int done, int total) {}
    };
}
