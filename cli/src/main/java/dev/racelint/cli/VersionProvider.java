package dev.racelint.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code racelint <version>}, from the {@code racelint/racelint-version.properties} resource that
 * Maven filters at build time, else the jar manifest's {@code Implementation-Version}.
 */
public final class VersionProvider implements IVersionProvider {

    static final String RESOURCE = "racelint/racelint-version.properties";

    private static volatile String cached;

    @Override
    public String[] getVersion() {
        return new String[] {"racelint " + version()};
    }

    /** The bare version, e.g. {@code 0.1.0-SNAPSHOT}; {@code unknown} when it cannot be found. */
    public static String version() {
        String v = cached;
        if (v == null) {
            v = read();
            cached = v;
        }
        return v;
    }

    private static String read() {
        try (InputStream in = VersionProvider.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String v = properties.getProperty("version", "").trim();
                if (!v.isEmpty() && !v.startsWith("${")) {
                    return v;
                }
            }
        } catch (IOException ignored) {
            // fall through to the manifest
        }
        String fromManifest = VersionProvider.class.getPackage().getImplementationVersion();
        return fromManifest == null || fromManifest.isBlank() ? "unknown" : fromManifest;
    }
}
