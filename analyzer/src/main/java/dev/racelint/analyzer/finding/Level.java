package dev.racelint.analyzer.finding;

import java.util.Locale;

/** Severity of a finding, ordered from most to least severe; names match SARIF levels. */
public enum Level {
    ERROR, WARNING, NOTE;

    public String sarifName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True when this level is at least as severe as {@code threshold}. */
    public boolean isAtLeast(Level threshold) {
        return ordinal() <= threshold.ordinal();
    }

    public static Level parse(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
}
