package dev.racelint.analyzer.suppress;

import dev.racelint.analyzer.finding.Finding;

/** A finding left out of the results by a suppression in the source, kept for counts and for {@code --include-suppressed}. */
public record SuppressedFinding(Finding finding, Suppression suppression) {}
