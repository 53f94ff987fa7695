package dev.racelint.analyzer;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where report URIs are made relative to. */
public final class SourceRoots {
    private SourceRoots() {}

    /** The git work tree holding {@code scanned} (a folder with {@code .git}), else the folder itself. */
    public static Path forScannedPath(Path scanned) {
        Path start = scanned.toAbsolutePath().normalize();
        Path folder = Files.isDirectory(start) ? start : start.getParent();
        for (Path p = folder; p != null; p = p.getParent()) {
            if (Files.exists(p.resolve(".git"))) {
                return p;
            }
        }
        return folder;
    }
}
