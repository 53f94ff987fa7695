package dev.racelint.analyzer.report;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** The last step of writing a file through a temporary one beside it: readers see the old file or the new, never half. */
public final class AtomicReplace {
    private AtomicReplace() {}

    /** Moves {@code temp} over {@code target}, atomically where the file system can. */
    public static void move(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
