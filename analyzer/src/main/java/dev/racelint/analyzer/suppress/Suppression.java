package dev.racelint.analyzer.suppress;

import dev.racelint.analyzer.finding.CodeLocation;

/**
 * A request in the source to leave findings out.
 *
 * @param kind          {@code @SuppressWarnings} on a declaration, or a {@code // racelint:ignore} comment
 * @param ruleId        the rule it silences, or {@code *} for every rule ({@code @SuppressWarnings("racelint")})
 * @param justification why the code is safe, as written next to it; empty when none was given
 * @param location      where the suppression is written
 */
public record Suppression(Kind kind, String ruleId, String justification, CodeLocation location) {

    public static final String ALL_RULES = "*";

    public enum Kind { ANNOTATION, COMMENT }

    public boolean covers(String rule) {
        return ruleId.equals(ALL_RULES) || ruleId.equals(rule);
    }

    public boolean hasJustification() {
        return !justification.isBlank();
    }
}
