package dev.racelint.analyzer.source;

import java.nio.file.Path;
import java.util.List;

/**
 * The {@code exclude:} globs of one racelint.yml, and the folder they are relative to: the one that
 * holds the file. A root racelint.yml then means the same files whichever folder is scanned and
 * whichever front end scans it (the command line at the root or in a module, the Maven plugin in
 * each source folder). A file outside that folder (a {@code --config} file kept elsewhere) is
 * matched relative to the scanned folder it was found in instead.
 *
 * @param folder the folder holding racelint.yml, absolute and normalised; null when there are no globs
 * @param globs  '/'-separated globs, in file order
 */
public record ConfigExcludes(Path folder, List<String> globs) {

    /** No racelint.yml, or one without excludes. */
    public static final ConfigExcludes NONE = new ConfigExcludes(null, List.of());

    public ConfigExcludes {
        globs = List.copyOf(globs);
        folder = folder == null ? null : folder.toAbsolutePath().normalize();
        if (folder == null && !globs.isEmpty()) {
            throw new IllegalArgumentException("exclude globs from racelint.yml need the folder they are relative to");
        }
    }

    public boolean isEmpty() {
        return globs.isEmpty();
    }
}
