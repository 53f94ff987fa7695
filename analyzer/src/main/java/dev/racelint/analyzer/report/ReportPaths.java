package dev.racelint.analyzer.report;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Paths as the writers print them: relative to the report's source root, {@code /}-separated on
 * every platform, and percent-encoded when they go into a URI.
 *
 * <p>All methods are pure functions of their arguments, so every writer renders a given file the
 * same way.
 */
public final class ReportPaths {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private ReportPaths() {}

    /**
     * {@code file} relative to {@code root}, {@code /}-separated, e.g.
     * {@code src/main/java/com/acme/OrderService.java}. A file outside the root gets a relative path
     * with {@code ..} segments. Empty when no relative path exists (a different drive or a
     * different kind of root on Windows).
     */
    public static Optional<String> relative(Path root, Path file) {
        Path base = root.toAbsolutePath().normalize();
        Path target = file.toAbsolutePath().normalize();
        Path rel;
        try {
            rel = base.relativize(target);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (rel.isAbsolute() || rel.getRoot() != null) {
            return Optional.empty();
        }
        return Optional.of(joinNames(rel));
    }

    /**
     * {@code relative}, a {@code /}-separated path read back from a file (a cache entry, say),
     * resolved against {@code root}; empty unless it names something strictly inside the root: not
     * absolute, no drive or root component, no {@code ..} segment, nothing that normalises outside.
     */
    public static Optional<Path> inside(Path root, String relative) {
        if (relative == null || relative.isEmpty() || relative.startsWith("/") || relative.startsWith("\\")) {
            return Optional.empty();
        }
        for (String segment : relative.split("[/\\\\]", -1)) {
            if (segment.equals("..")) {
                return Optional.empty();
            }
        }
        try {
            Path path = Path.of(relative);
            if (path.isAbsolute() || path.getRoot() != null) {
                return Optional.empty();
            }
            Path base = root.toAbsolutePath().normalize();
            Path resolved = base.resolve(path).normalize();
            if (!resolved.startsWith(base) || resolved.equals(base)) {
                return Optional.empty();
            }
            return Optional.of(resolved);
        } catch (java.nio.file.InvalidPathException e) {
            return Optional.empty();
        }
    }

    /**
     * The path to show people (terminal and JSON output): relative to {@code root} when possible,
     * else the absolute path; {@code /}-separated either way. A null file gives null.
     */
    public static String display(Path root, Path file) {
        if (file == null) {
            return null;
        }
        return relative(root, file).orElseGet(() -> absolute(file));
    }

    /** The absolute, normalised path, {@code /}-separated ({@code C:/x/y} on Windows). */
    public static String absolute(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        Path root = abs.getRoot();
        String rootText = root == null ? "" : root.toString().replace('\\', '/');
        String names = joinNames(abs);
        if (rootText.isEmpty() || rootText.endsWith("/") || names.isEmpty()) {
            return rootText + names;
        }
        return rootText + "/" + names;
    }

    /**
     * The file's relative URI reference under {@code root}: {@link #relative} percent-encoded with
     * {@link #encodePath}, e.g. {@code src/My%20Files/Caf%C3%A9.java}.
     */
    public static Optional<String> relativeUri(Path root, Path file) {
        return relative(root, file).map(ReportPaths::encodePath);
    }

    /**
     * An absolute {@code file:} URI for a directory, ending with {@code /}, e.g.
     * {@code file:///home/me/repo/} or {@code file:///C:/work/repo/}.
     */
    public static String directoryUri(Path dir) {
        String uri = fileUri(dir);
        return uri.endsWith("/") ? uri : uri + "/";
    }

    /** An absolute {@code file:} URI for a file, e.g. {@code file:///home/me/repo/A.java}. */
    public static String fileUri(Path file) {
        String abs = absolute(file);
        String encoded = encode(abs, true);
        if (abs.startsWith("//")) {          // UNC: //server/share/... -> file://server/share/...
            return "file:" + encoded;
        }
        if (abs.startsWith("/")) {
            return "file://" + encoded;
        }
        return "file:///" + encoded;         // C:/x -> file:///C:/x
    }

    /**
     * Percent-encodes a {@code /}-separated relative path for a URI reference (RFC 3986): every
     * byte of the UTF-8 form is written as {@code %XX} except the unreserved characters
     * ({@code A-Z a-z 0-9 - . _ ~}) and {@code /}. Encoding {@code :} too keeps a first segment such
     * as {@code a:b} from being read as a scheme.
     */
    public static String encodePath(String path) {
        return encode(path, false);
    }

    private static String encode(String path, boolean keepColon) {
        byte[] bytes = path.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length + 16);
        for (byte b : bytes) {
            int c = b & 0xFF;
            if (isUnreserved(c) || c == '/' || (keepColon && c == ':')) {
                out.append((char) c);
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        return out.toString();
    }

    private static boolean isUnreserved(int c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~';
    }

    private static String joinNames(Path path) {
        StringBuilder out = new StringBuilder();
        for (Path name : path) {
            if (out.length() > 0) {
                out.append('/');
            }
            out.append(name.toString());
        }
        return out.toString();
    }
}
