package dev.racelint.cli;

/** The process exit codes of every racelint command. */
public final class ExitCodes {
    private ExitCodes() {}

    /** Success; for {@code scan}: no finding at or above the {@code --fail-on} level. */
    public static final int OK = 0;

    /** {@code scan} found at least one problem at or above the {@code --fail-on} level. */
    public static final int FINDINGS = 1;

    /**
     * Bad command line: unknown option, bad value, missing path, unknown rule id; also a scan (or
     * baseline) that analysed no file, unless {@code --allow-empty}.
     */
    public static final int USAGE = 2;

    /** racelint itself failed (a bug, out of memory, an unwritable output file). */
    public static final int INTERNAL_ERROR = 3;
}
