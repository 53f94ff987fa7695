package dev.racelint.maven;

import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** The rules to run, from the {@code rules} and {@code disabledRules} parameters. */
final class RuleSelection {

    private RuleSelection() {}

    /**
     * The ids to run: {@code rules} (all rules when empty) less {@code disabledRules}. Entries may
     * themselves be comma-separated lists; blanks are ignored.
     *
     * @return a non-empty set of known rule ids
     * @throws IllegalArgumentException when an id is unknown (the message lists the valid ids) or
     *                                  when no rule is left to run
     */
    static Set<String> resolve(RuleRegistry registry, Collection<String> rules, Collection<String> disabledRules) {
        Set<String> known = registry.descriptors().stream().map(RuleDescriptor::id)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        if (known.isEmpty()) {
            throw new IllegalArgumentException("no racelint rules are installed (racelint-rules is missing from the plugin's classpath)");
        }
        Set<String> wanted = ids(rules);
        Set<String> disabled = ids(disabledRules);
        checkKnown(known, wanted, "rules", "racelint.rules");
        checkKnown(known, disabled, "disabledRules", "racelint.disabledRules");

        Set<String> selected = new LinkedHashSet<>(wanted.isEmpty() ? known : wanted);
        selected.removeAll(disabled);
        if (selected.isEmpty()) {
            throw new IllegalArgumentException("rules and disabledRules leave no rule to run; valid ids: "
                    + String.join(", ", known));
        }
        return selected;
    }

    /** The ids in the given entries, each split at commas, trimmed, blanks dropped, in order. */
    static Set<String> ids(Collection<String> entries) {
        Set<String> ids = new LinkedHashSet<>();
        if (entries == null) {
            return ids;
        }
        for (String entry : entries) {
            if (entry == null) {
                continue;
            }
            for (String part : entry.split(",")) {
                if (!part.isBlank()) {
                    ids.add(part.strip());
                }
            }
        }
        return ids;
    }

    private static void checkKnown(Set<String> known, Set<String> given, String parameter, String property) {
        List<String> unknown = new ArrayList<>();
        for (String id : given) {
            if (!known.contains(id)) {
                unknown.add(id);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException((unknown.size() == 1 ? "unknown rule id '" + unknown.get(0) + "'"
                    : "unknown rule ids " + unknown.stream().map(id -> "'" + id + "'").collect(Collectors.joining(", ")))
                    + " in " + parameter + " (" + property + "); valid ids: " + String.join(", ", known));
        }
    }
}
