package dev.racelint.cli;

import dev.racelint.analyzer.rule.RuleDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Pattern;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code racelint --version}: the release, the commit it was built from, the rule set and the parser
 * versions, so that two reports can be told apart and a bug report says what produced it. Read from the
 * {@code racelint/racelint-version.properties} resource that Maven filters at build time (the commit
 * comes from git-commit-id-maven-plugin and is absent when the build had no git work tree), else the
 * jar manifest's {@code Implementation-Version}.
 */
public final class VersionProvider implements IVersionProvider {

    static final String RESOURCE = "racelint/racelint-version.properties";

    /** What a filtered value must look like to be shown; anything else (an unfiltered placeholder) is "unknown". */
    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{7,40}");
    private static final Pattern PLAIN_VALUE = Pattern.compile("[0-9A-Za-z.+:_-]{1,64}");

    private static volatile Properties cached;

    /** Picocli injects the command whose {@code --version} was asked; its root holds the rule registry. */
    @Spec
    CommandSpec spec;

    @Override
    public String[] getVersion() {
        List<String> lines = new ArrayList<>();
        lines.add("racelint " + version());
        lines.add("commit: " + commitLine());
        RacelintCommand root = spec == null ? null
                : spec.root().userObject() instanceof RacelintCommand command ? command : null;
        if (root != null) {
            List<RuleDescriptor> rules = root.registry().descriptors();
            lines.add("rules: " + rules.size() + " (rule set " + ruleSetDigest(rules) + ")");
        }
        lines.add("JavaParser " + property("javaparser") + ", JSqlParser " + property("jsqlparser"));
        lines.add("Java " + System.getProperty("java.version", "unknown") + " ("
                + System.getProperty("java.vendor", "unknown vendor") + ")");
        return lines.toArray(String[]::new);
    }

    /** The bare version, e.g. {@code 0.1.0-SNAPSHOT}; {@code unknown} when it cannot be found. */
    public static String version() {
        String v = property("version");
        if (!v.equals("unknown")) {
            return v;
        }
        String fromManifest = VersionProvider.class.getPackage().getImplementationVersion();
        return fromManifest == null || fromManifest.isBlank() ? "unknown" : fromManifest;
    }

    /** The abbreviated commit the build came from, or {@code unknown} (a build outside a git work tree). */
    public static String commit() {
        String commit = properties().getProperty("commit", "").trim();
        return COMMIT.matcher(commit).matches() ? commit : "unknown";
    }

    private static String commitLine() {
        String commit = commit();
        if (commit.equals("unknown")) {
            return "unknown (built outside a git work tree)";
        }
        String time = property("commitTime");
        boolean dirty = "true".equals(properties().getProperty("dirty", "").trim());
        return commit + (time.equals("unknown") ? "" : " (" + time + ")")
                + (dirty ? ", with uncommitted changes" : "");
    }

    /**
     * A short digest of what the rules are (id, level, precision), so that two installs with the same
     * version but another rule set - a plugin rule jar, a local build - print different values.
     */
    static String ruleSetDigest(List<RuleDescriptor> rules) {
        StringBuilder text = new StringBuilder();
        rules.stream().map(r -> r.id() + ":" + r.level() + ":" + r.precision() + "\n").sorted()
                .forEach(text::append);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6).toLowerCase(Locale.ROOT);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static String property(String key) {
        String v = properties().getProperty(key, "").trim();
        return PLAIN_VALUE.matcher(v).matches() ? v : "unknown";
    }

    private static Properties properties() {
        Properties p = cached;
        if (p == null) {
            p = new Properties();
            try (InputStream in = VersionProvider.class.getClassLoader().getResourceAsStream(RESOURCE)) {
                if (in != null) {
                    p.load(in);
                }
            } catch (IOException ignored) {
                // an unreadable resource leaves every value "unknown"
            }
            cached = p;
        }
        return p;
    }
}
