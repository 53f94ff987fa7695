package dev.racelint.analyzer.source;

import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;

/**
 * Finds the .java files to analyse under the given paths: a repository root with Maven or Gradle
 * modules, or any folder of sources. Build output, VCS and IDE folders are skipped; test sources
 * are skipped unless asked for. Symbolic links are not followed, so link loops cannot trap the walk.
 */
public final class SourceDiscovery {

    /** Folders that never hold sources worth analysing. */
    private static final Set<String> SKIPPED_DIRS = Set.of(
            "target", "build", "out", "bin", "node_modules", ".git", ".hg", ".svn", ".idea",
            ".gradle", ".mvn", ".racelint", "generated-sources", "generated-test-sources");

    private final boolean includeTests;
    private final ExcludeGlobs excludes;
    private final List<String> excludeGlobs;
    private final long maxFileBytes;

    public SourceDiscovery(boolean includeTests, List<String> excludeGlobs, long maxFileBytes) {
        this.includeTests = includeTests;
        this.excludeGlobs = List.copyOf(excludeGlobs);
        this.excludes = new ExcludeGlobs(excludeGlobs);
        this.maxFileBytes = maxFileBytes;
    }

    /**
     * @param files        the Java sources to analyse, sorted
     * @param mapperFiles  XML files that may be MyBatis mappers (named or placed like one), sorted
     */
    public record Result(List<SourceFile> files, List<Diagnostic> diagnostics, List<Path> mapperFiles) {}

    public Result discover(List<Path> roots) {
        TreeMap<Path, SourceFile> found = new TreeMap<>();
        java.util.TreeSet<Path> mappers = new java.util.TreeSet<>();
        List<Diagnostic> diagnostics = new ArrayList<>();
        for (Path given : roots) {
            Path root = given.toAbsolutePath().normalize();
            if (!Files.exists(root)) {
                diagnostics.add(new Diagnostic(root, 0, 0, Level.ERROR, "path-not-found",
                        "path does not exist: " + root));
                continue;
            }
            if (Files.isRegularFile(root)) {
                consider(root, root.getParent(), found, diagnostics, true);
                continue;
            }
            walk(root, found, mappers, diagnostics);
            // Scanning a Maven/Gradle "src/main/java" folder: its MyBatis mappers live in the sibling "resources".
            Path resources = root.getParent() == null ? null : root.getParent().resolve("resources");
            if (root.getFileName() != null && root.getFileName().toString().equals("java")
                    && resources != null && Files.isDirectory(resources)) {
                TreeMap<Path, SourceFile> ignored = new TreeMap<>();
                walk(resources, ignored, mappers, diagnostics);
            }
        }
        return new Result(List.copyOf(found.values()), diagnostics, List.copyOf(mappers));
    }

    private void walk(Path root, TreeMap<Path, SourceFile> found, java.util.TreeSet<Path> mappers,
            List<Diagnostic> diagnostics) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (!dir.equals(root)) {
                        String name = dir.getFileName().toString();
                        if (SKIPPED_DIRS.contains(name) || (name.startsWith(".") && name.length() > 1)) {
                            return FileVisitResult.SKIP_SUBTREE;
                        }
                        Path relative = root.relativize(dir);
                        if (!includeTests && isTestSourceDir(relative)) {
                            return FileVisitResult.SKIP_SUBTREE;
                        }
                        if (isExcluded(relative)) {
                            return FileVisitResult.SKIP_SUBTREE;
                        }
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    String name = file.getFileName().toString();
                    if (attrs.isRegularFile() && name.endsWith(".java")) {
                        consider(file, root, found, diagnostics, false);
                    } else if (attrs.isRegularFile() && name.endsWith(".xml") && looksLikeMapper(root.relativize(file))
                            && !isExcluded(root.relativize(file))) {
                        mappers.add(file.toAbsolutePath().normalize());
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    diagnostics.add(new Diagnostic(file.toAbsolutePath().normalize(), 0, 0, Level.WARNING,
                            "unreadable", "cannot read: " + describe(e)));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            diagnostics.add(new Diagnostic(root, 0, 0, Level.ERROR, "unreadable",
                    "cannot walk: " + describe(e)));
        }
    }

    private void consider(Path file, Path root, TreeMap<Path, SourceFile> found,
            List<Diagnostic> diagnostics, boolean explicitlyNamed) {
        Path normal = file.toAbsolutePath().normalize();
        if (!explicitlyNamed && isExcluded(root.relativize(normal))) {
            return;
        }
        long size;
        try {
            size = Files.size(normal);
        } catch (IOException e) {
            diagnostics.add(new Diagnostic(normal, 0, 0, Level.WARNING, "unreadable",
                    "cannot read: " + describe(e)));
            return;
        }
        if (size > maxFileBytes) {
            diagnostics.add(new Diagnostic(normal, 0, 0, Level.WARNING, "file-too-large",
                    "skipped: " + size + " bytes is over the " + maxFileBytes + "-byte limit"));
            return;
        }
        found.put(normal, new SourceFile(normal, size));
    }

    /** MyBatis mapper XML is conventionally named *Mapper.xml / *Dao.xml or kept under mapper(s)/ or mybatis/. */
    private static boolean looksLikeMapper(Path relative) {
        String path = relative.toString().replace('\\', '/').toLowerCase(Locale.ROOT);
        return path.contains("mapper") || path.contains("mybatis") || path.endsWith("dao.xml");
    }

    private boolean isExcluded(Path relative) {
        return excludes.matches(relative);
    }

    /**
     * A test source folder in the Maven/Gradle layouts: {@code src/test}, {@code src/it},
     * {@code src/testFixtures}, {@code src/integrationTest} and the like.
     */
    static boolean isTestSourceDir(Path relative) {
        int n = relative.getNameCount();
        for (int i = 0; i + 1 < n; i++) {
            if (relative.getName(i).toString().equals("src")) {
                String next = relative.getName(i + 1).toString().toLowerCase(Locale.ROOT);
                if (next.equals("it") || next.contains("test")) {
                    return true;
                }
            }
        }
        return false;
    }

    public List<String> excludeGlobs() {
        return excludeGlobs;
    }

    private static String describe(IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
