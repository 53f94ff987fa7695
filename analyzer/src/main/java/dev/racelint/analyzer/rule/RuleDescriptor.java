package dev.racelint.analyzer.rule;

import dev.racelint.analyzer.finding.Level;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A rule's metadata and help text, read once from its {@link RuleMetadata} and help resource. */
public record RuleDescriptor(
        String id,
        String name,
        String shape,
        String title,
        String description,
        Level level,
        Precision precision,
        String cwe,
        List<String> tags,
        String fix,
        String helpMarkdown) {

    public static final String HELP_RESOURCE_PREFIX = "racelint/rules/";

    private static final ClassValue<RuleDescriptor> CACHE = new ClassValue<>() {
        @Override
        protected RuleDescriptor computeValue(Class<?> type) {
            return read(type);
        }
    };

    /** The descriptor of a rule class (read once per class). */
    public static RuleDescriptor of(Class<?> ruleClass) {
        return CACHE.get(ruleClass);
    }

    private static RuleDescriptor read(Class<?> ruleClass) {
        RuleMetadata meta = ruleClass.getAnnotation(RuleMetadata.class);
        if (meta == null) {
            throw new IllegalArgumentException(ruleClass.getName() + " has no @RuleMetadata");
        }
        List<String> tags = new ArrayList<>();
        tags.add("concurrency");
        if (!meta.cwe().isEmpty()) {
            tags.add("external/cwe/cwe-" + meta.cwe());
        }
        for (String tag : meta.tags()) {
            if (!tags.contains(tag)) {
                tags.add(tag);
            }
        }
        return new RuleDescriptor(meta.id(), meta.name(), meta.shape(), meta.title(),
                meta.description(), meta.level(), meta.precision(), meta.cwe(), List.copyOf(tags),
                meta.fix(), readHelp(ruleClass, meta.id()));
    }

    private static String readHelp(Class<?> ruleClass, String id) {
        String resource = HELP_RESOURCE_PREFIX + id + ".md";
        ClassLoader loader = ruleClass.getClassLoader();
        try (InputStream in = loader == null ? null : loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("rule " + id + " has no help resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SARIF {@code problem.severity}: error, warning or recommendation. */
    /**
     * GitHub code scanning's {@code security-severity} (a CVSS-like score as text) for a rule with a
     * CWE, so its alerts are ranked high / medium / low by the rule's level; {@code null} for a rule
     * without a CWE, which GitHub then shows as a plain quality alert.
     */
    public String securitySeverity() {
        if (cwe == null || cwe.isEmpty()) {
            return null;
        }
        return switch (level) {
            case ERROR -> "7.0";
            case WARNING -> "5.0";
            case NOTE -> "3.0";
        };
    }

    public String problemSeverity() {
        return switch (level) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case NOTE -> "recommendation";
        };
    }
}
