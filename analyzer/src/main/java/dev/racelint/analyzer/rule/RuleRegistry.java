package dev.racelint.analyzer.rule;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

/** The rules on the classpath, found with {@link ServiceLoader}, in id order. */
public final class RuleRegistry {
    private final List<Rule> rules;

    private RuleRegistry(List<Rule> rules) {
        this.rules = rules;
    }

    public static RuleRegistry load(ClassLoader loader) {
        List<Rule> found = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Rule rule : ServiceLoader.load(Rule.class, loader)) {
            String id = rule.descriptor().id();
            if (!ids.add(id)) {
                throw new IllegalStateException("two rules share the id " + id);
            }
            found.add(rule);
        }
        found.sort(Comparator.comparing(r -> r.descriptor().id()));
        return new RuleRegistry(List.copyOf(found));
    }

    public List<Rule> rules() {
        return rules;
    }

    public List<RuleDescriptor> descriptors() {
        return rules.stream().map(Rule::descriptor).toList();
    }

    public Rule find(String id) {
        return rules.stream().filter(r -> r.descriptor().id().equals(id)).findFirst().orElse(null);
    }
}
