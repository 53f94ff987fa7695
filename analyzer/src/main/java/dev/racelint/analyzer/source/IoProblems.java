package dev.racelint.analyzer.source;

/** What went wrong with a file, for a diagnostic: the kind and the reason, never a machine path. */
public final class IoProblems {
    private IoProblems() {}

    /**
     * E.g. {@code AccessDeniedException} or {@code FileSystemException: Too many levels of symbolic
     * links}. A file system exception's message is its file's absolute path, so only its reason is
     * kept; any other message is kept only when it names no path.
     */
    public static String describe(Exception e) {
        String detail = e instanceof java.nio.file.FileSystemException fs ? fs.getReason() : e.getMessage();
        if (detail == null || detail.isBlank() || detail.indexOf('/') >= 0 || detail.indexOf('\\') >= 0) {
            return e.getClass().getSimpleName();
        }
        return e.getClass().getSimpleName() + ": " + detail;
    }
}
