package dev.racelint.analyzer.rule;

import dev.racelint.analyzer.finding.Finding;

/** Receives a rule's findings. */
@FunctionalInterface
public interface Reporter {
    void report(Finding finding);
}
