package dev.racelint.analyzer.report;

import dev.racelint.analyzer.finding.Diagnostic;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The last guard before a diagnostic is written, in every format: no absolute machine path and no
 * path that climbs out of the source root, whatever produced the diagnostic. A path inside the
 * root becomes root-relative; any other becomes {@value #OUTSIDE} followed by {@code /} and its
 * last name (e.g. {@code <outside source root>/guava.jar}), which says what it was without saying
 * where on the machine. {@link ScanReport} applies it to its diagnostics, so every writer gets the
 * guarded ones.
 */
public final class DiagnosticPaths {

    /** Stands for the source root itself in a message. */
    public static final String ROOT = "<source root>";
    /** Stands for the folders of a path outside the source root. */
    public static final String OUTSIDE = "<outside source root>";

    // A path in free text: Windows drive or UNC path, file: URI, Unix path of two or more
    // segments, ~/..., or a relative path with a ".." segment. Not inside a word (I/O, and/or).
    private static final String NAME = "[^\\s'\"`<>()\\[\\]{},;:|*?/\\\\]";
    private static final Pattern PATH = Pattern.compile(
            "(?<![\\w.~\\-/\\\\])(?:"
                    + "[A-Za-z]:[\\\\/]" + NAME + "*(?:[\\\\/]" + NAME + "*)*"
                    + "|\\\\\\\\" + NAME + "+(?:\\\\" + NAME + "*)*"
                    + "|file:/+" + NAME + "*(?:/" + NAME + "*)*"
                    + "|(?:/" + NAME + "+){2,}/?"
                    + "|~[\\\\/]" + NAME + "*(?:[\\\\/]" + NAME + "*)*"
                    + "|(?:" + NAME + "+[\\\\/])*\\.\\.(?:[\\\\/]" + NAME + "*)+"
                    + ")");

    private DiagnosticPaths() {}

    /** {@link #guard(Path, Diagnostic)} of each. */
    public static List<Diagnostic> guard(Path root, List<Diagnostic> diagnostics) {
        List<Diagnostic> out = new ArrayList<>(diagnostics.size());
        for (Diagnostic diagnostic : diagnostics) {
            out.add(guard(root, diagnostic));
        }
        return out;
    }

    /**
     * The diagnostic with the paths in its message made safe ({@link #relativize}); a file outside
     * the root is dropped from the location (with its line and column) and named at the start of
     * the message instead. The same diagnostic when nothing needed changing.
     */
    public static Diagnostic guard(Path root, Diagnostic diagnostic) {
        String message = diagnostic.message() == null ? null
                : relativize(root, ReportText.cut(diagnostic.message(), ReportText.MAX_TEXT_CHARS));
        Path file = diagnostic.file();
        if (file != null && inside(root, file).isEmpty()) {
            String where = outside(file);
            return new Diagnostic(null, 0, 0, diagnostic.level(), diagnostic.code(),
                    message == null || message.isEmpty() ? where : where + ": " + message);
        }
        if (message == null || message.equals(diagnostic.message())) {
            return diagnostic;
        }
        return new Diagnostic(file, diagnostic.line(), diagnostic.column(), diagnostic.level(), diagnostic.code(),
                message);
    }

    /**
     * {@code text} with every path in it that is absolute, a {@code file:} URI, under {@code ~} or
     * climbing with {@code ..} replaced: by its root-relative form when it lies inside
     * {@code root}, else by {@value #OUTSIDE}{@code /name}. Trailing sentence punctuation is not
     * taken as part of a path.
     */
    public static String relativize(Path root, String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        text = withoutRoot(root, text);
        Matcher m = PATH.matcher(text);
        StringBuilder out = null;
        int last = 0;
        while (m.find()) {
            String candidate = m.group();
            int end = candidate.length();
            while (end > 0 && ".!".indexOf(candidate.charAt(end - 1)) >= 0 && !candidate.endsWith("..")) {
                end--;
            }
            candidate = candidate.substring(0, end);
            if (candidate.isEmpty()) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length());
            }
            out.append(text, last, m.start()).append(replacement(root, candidate));
            last = m.start() + end;
        }
        if (out == null) {
            return text;
        }
        return out.append(text, last, text.length()).toString();
    }

    /**
     * {@code text} with the root's own absolute path taken off the paths under it ({@code ROOT/x}
     * becomes {@code x}, the root alone {@value #ROOT}), done on the text first because a root may
     * hold spaces, which the path pattern cannot see through.
     */
    private static String withoutRoot(Path root, String text) {
        if (root == null || root.toAbsolutePath().normalize().getFileName() == null) {
            return text;
        }
        Path absolute = root.toAbsolutePath().normalize();
        for (String form : new LinkedHashSet<>(List.of(absolute.toString(), ReportPaths.absolute(absolute)))) {
            if (!text.contains(form)) {
                continue;
            }
            String quoted = Pattern.quote(form);
            text = Pattern.compile("(?<![\\w.~\\-/\\\\])" + quoted + "[\\\\/]+").matcher(text).replaceAll("");
            text = Pattern.compile("(?<![\\w.~\\-/\\\\])" + quoted + "(?=$|[\\s'\"`<>()\\[\\]{},;:|*?.!])")
                    .matcher(text).replaceAll(Matcher.quoteReplacement(ROOT));
        }
        return text;
    }

    private static String replacement(Path root, String candidate) {
        Path path = toPath(root, candidate);
        if (path == null) {
            return OUTSIDE;
        }
        Optional<String> relative = inside(root, path);
        if (relative.isPresent()) {
            return relative.get().isEmpty() ? ROOT : relative.get();
        }
        return outside(path);
    }

    /** The path a piece of text names, resolved against the root when relative; null when it names none here. */
    private static Path toPath(Path root, String candidate) {
        try {
            if (candidate.startsWith("file:")) {
                return Path.of(URI.create(candidate));
            }
            if (candidate.startsWith("~")) {
                return null;
            }
            Path path = Path.of(candidate);
            if (path.isAbsolute()) {
                return path;
            }
            if (candidate.startsWith("/") || candidate.startsWith("\\")) {
                return null;        // rooted but not absolute (Windows without a drive): not resolvable here
            }
            // Only ".."-paths reach here as relative (a Windows path on Unix is no path of this machine).
            boolean windowsForm = candidate.length() > 1 && candidate.charAt(1) == ':' || candidate.startsWith("\\\\");
            return windowsForm || root == null ? null : root.resolve(path);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The root-relative path of {@code file} when it lies inside the root ("" for the root itself). */
    private static Optional<String> inside(Path root, Path file) {
        if (root == null) {
            return Optional.empty();
        }
        Optional<String> relative = ReportPaths.relative(root, file);
        if (relative.isEmpty()) {
            return relative;
        }
        String rel = relative.get();
        if (rel.equals("..") || rel.startsWith("../")) {
            return Optional.empty();
        }
        return relative;
    }

    private static String outside(Path file) {
        Path name = file.normalize().getFileName();
        String shown = name == null ? "" : name.toString();
        return shown.isEmpty() || shown.equals("..") ? OUTSIDE : OUTSIDE + "/" + shown;
    }
}
