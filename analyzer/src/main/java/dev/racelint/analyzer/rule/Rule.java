package dev.racelint.analyzer.rule;

/**
 * A check. Implementations carry {@link RuleMetadata}, are listed in
 * {@code META-INF/services/dev.racelint.analyzer.rule.Rule}, and never parse, resolve or read
 * files: everything they need comes from the {@link MethodContext}.
 */
public interface Rule {
    /** Examines one method and reports what it finds. Called concurrently for different methods. */
    void check(MethodContext context, Reporter reporter);

    default RuleDescriptor descriptor() {
        return RuleDescriptor.of(getClass());
    }
}
