package dev.racelint.analyzer.rule;

import java.util.Locale;

/** How often a rule's findings are right, as GitHub code scanning's {@code precision} property. */
public enum Precision {
    VERY_HIGH, HIGH, MEDIUM, LOW;

    public String sarifName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
