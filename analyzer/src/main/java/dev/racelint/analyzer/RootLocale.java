package dev.racelint.analyzer;

import java.util.Locale;

/**
 * Makes {@link Locale#ROOT} the default locale while racelint works. Its own code names the locale at
 * every case conversion, but the libraries it uses do not: JavaParser spells primitive types with
 * {@code name().toLowerCase()} once, when the enum is first used, so under a Turkish locale {@code int}
 * becomes {@code ınt} in method signatures, and with it fingerprints and baselines.
 */
public final class RootLocale implements AutoCloseable {

    private final Locale general;
    private final Locale display;
    private final Locale format;

    private RootLocale() {
        general = Locale.getDefault();
        display = Locale.getDefault(Locale.Category.DISPLAY);
        format = Locale.getDefault(Locale.Category.FORMAT);
    }

    /** For a process that is racelint's alone (the command line): the root locale from now on. */
    public static void forProcess() {
        Locale.setDefault(Locale.ROOT);
    }

    /**
     * For a host process (a Maven build): the root locale until {@link #close()}, which restores the
     * host's. Nothing in the host should depend on the locale meanwhile; a parallel build's other
     * threads may see the root locale for that time.
     */
    public static RootLocale enter() {
        RootLocale previous = new RootLocale();
        Locale.setDefault(Locale.ROOT);
        return previous;
    }

    @Override
    public void close() {
        Locale.setDefault(general); // sets the categories too, so they are restored after it
        Locale.setDefault(Locale.Category.DISPLAY, display);
        Locale.setDefault(Locale.Category.FORMAT, format);
    }
}
