package dev.racelint.analyzer.source;

import dev.racelint.analyzer.config.Glob;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The {@code --exclude} and {@code racelint.yml} exclude globs, matched against '/'-separated
 * paths relative to the folder they apply to (the scanned folder for {@code --exclude}, the folder
 * holding racelint.yml for its own: see {@link ConfigExcludes}) by {@link Glob} (linear time: the
 * globs come from the scanned tree). A glob that starts with {@code **}{@code /} also matches at
 * the top level, so {@code **}{@code /generated/**} leaves out {@code generated/X.java} too.
 * Paths are matched with '/' whatever the platform's separator, and a glob must use '/' too: a
 * {@code \} in a glob quotes the next character, so one before a plain character (a Windows path,
 * {@code legacy\gen\**}) would silently match nothing, and is refused.
 */
public final class ExcludeGlobs {

    /** The characters a glob's {@code \} is there to quote: its own metacharacters. */
    private static final String QUOTABLE = "*?[]{},\\!-^";

    private final List<Glob> globs;

    /** @throws IllegalArgumentException when a glob is malformed (the message names it and says how) */
    public ExcludeGlobs(Collection<String> globs) {
        List<Glob> compiled = new ArrayList<>();
        for (String glob : globs) {
            try {
                compiled.add(compile(glob));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("exclude glob '" + glob + "': " + e.getMessage(), e);
            }
        }
        this.globs = List.copyOf(compiled);
    }

    /**
     * One exclude glob, checked: its syntax, and no {@code \} used as a folder separator.
     *
     * @throws IllegalArgumentException saying what is wrong (without the glob: the caller names it)
     */
    public static Glob compile(String glob) {
        for (int i = 0; i < glob.length(); i++) {
            if (glob.charAt(i) != '\\') {
                continue;
            }
            if (i + 1 < glob.length() && QUOTABLE.indexOf(glob.charAt(i + 1)) < 0) {
                throw new IllegalArgumentException("'\\' quotes the next character in a glob; separate folders with '/'"
                        + " (on Windows too)");
            }
            i++; // the quoted character
        }
        return Glob.path(glob);
    }

    /** Whether a path relative to the globs' folder (a file or a folder) is left out. */
    public boolean matches(Path relative) {
        return indexOfFirstMatching(relative) >= 0;
    }

    /** The first glob that leaves out this path relative to the globs' folder. */
    public Optional<String> firstMatching(Path relative) {
        int i = indexOfFirstMatching(relative);
        return i < 0 ? Optional.empty() : Optional.of(globs.get(i).text());
    }

    /** The position of the first glob that leaves out this path relative to the globs' folder, -1 for none. */
    public int indexOfFirstMatching(Path relative) {
        String unixLike = relative.toString().replace('\\', '/');
        // "**/generated/**" should also match a top-level "generated/x": retry with a leading dir.
        String prefixed = "_/" + unixLike;
        for (int i = 0; i < globs.size(); i++) {
            Glob glob = globs.get(i);
            if (glob.matches(unixLike) || glob.matches(prefixed)) {
                return i;
            }
        }
        return -1;
    }

    public boolean isEmpty() {
        return globs.isEmpty();
    }
}
