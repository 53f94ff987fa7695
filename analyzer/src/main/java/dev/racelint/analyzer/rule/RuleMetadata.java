package dev.racelint.analyzer.rule;

import dev.racelint.analyzer.finding.Level;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Metadata on every rule class. The id is public contract (SARIF ruleId, suppressions, baselines).
 * The rule's help is the markdown resource {@code racelint/rules/<id>.md} beside the class.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RuleMetadata {
    /** Public id, kebab-case, e.g. {@code io-in-transaction}. */
    String id();

    /** PascalCase name for SARIF {@code rules[].name}, e.g. {@code IoInTransaction}. */
    String name();

    /** Race shape 1-7, or the family name ("transaction boundaries", "retries"...). */
    String shape();

    /** One-line title: what the rule flags. */
    String title();

    /** A few sentences: what it flags and why it matters. */
    String description();

    Level level();

    Precision precision();

    /** CWE number without prefix ("362"), or empty when none fits. */
    String cwe() default "";

    /** Extra tags beyond {@code concurrency} and the CWE tag. */
    String[] tags() default {};

    /** The default one-line fix, shown under each finding. */
    String fix();
}
