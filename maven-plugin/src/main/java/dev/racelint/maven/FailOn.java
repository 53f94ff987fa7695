package dev.racelint.maven;

import dev.racelint.analyzer.finding.Level;
import java.util.Locale;

/** The lowest finding level that fails {@code racelint:check}; {@code none} never fails. */
enum FailOn {
    ERROR(Level.ERROR), WARNING(Level.WARNING), NOTE(Level.NOTE), NONE(null);

    /** The threshold, or null for {@link #NONE}. */
    final Level threshold;

    FailOn(Level threshold) {
        this.threshold = threshold;
    }

    /** Parses {@code error|warning|note|none}, any case; null when the text is none of them. */
    static FailOn parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** True when a finding of {@code level} counts against this threshold. */
    boolean counts(Level level) {
        return threshold != null && level.isAtLeast(threshold);
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
