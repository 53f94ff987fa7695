package dev.racelint.analyzer.source;

import dev.racelint.analyzer.config.Glob;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The {@code --exclude} and {@code racelint.yml} exclude globs, matched against '/'-separated
 * paths relative to a scanned folder by {@link Glob} (linear time: the globs come from the
 * scanned tree). A glob that starts with {@code **}{@code /} also matches at the top level, so
 * {@code **}{@code /generated/**} leaves out {@code generated/X.java} too.
 */
public final class ExcludeGlobs {

    private final List<Glob> globs;

    /** @throws IllegalArgumentException when a glob is malformed (the message names it and says how) */
    public ExcludeGlobs(Collection<String> globs) {
        List<Glob> compiled = new ArrayList<>();
        for (String glob : globs) {
            try {
                compiled.add(Glob.path(glob));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("exclude glob '" + glob + "': " + e.getMessage(), e);
            }
        }
        this.globs = List.copyOf(compiled);
    }

    /** Whether a path relative to the scanned folder (a file or a folder) is left out. */
    public boolean matches(Path relative) {
        return firstMatching(relative).isPresent();
    }

    /** The first glob that leaves out this path relative to the scanned folder. */
    public Optional<String> firstMatching(Path relative) {
        String unixLike = relative.toString().replace('\\', '/');
        // "**/generated/**" should also match a top-level "generated/x": retry with a leading dir.
        String prefixed = "_/" + unixLike;
        for (Glob glob : globs) {
            if (glob.matches(unixLike) || glob.matches(prefixed)) {
                return Optional.of(glob.text());
            }
        }
        return Optional.empty();
    }
}
