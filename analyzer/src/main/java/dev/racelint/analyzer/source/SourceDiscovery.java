package dev.racelint.analyzer.source;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.SourceRoots;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.persistence.MyBatisXml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Finds the .java files to analyse under the given paths: a repository root with Maven or Gradle
 * modules, or any folder of sources. Build output, VCS and IDE folders are skipped; test sources
 * are skipped unless asked for. Those name rules describe build layouts, not packages: inside a
 * source folder ({@code java}, {@code kotlin} or {@code groovy} right under {@code src/<set>/}, such
 * as {@code src/main/java}) no folder is skipped for its name, since javac compiles every package
 * there ({@code demo.out}, {@code demo.bin}, {@code .gen}, even one named {@code src/test}). Nor is a
 * module (a folder with a {@code pom.xml} or {@code build.gradle[.kts]}) skipped for its name.
 *
 * <p>A given path is followed when it is a symbolic link (as {@code find -H} does); whether it may
 * lead outside the source root is the caller's to decide. A symbolic link met during the walk is
 * followed only when its target's real path is in the source root or in the real path of the
 * scanned path it was found in; otherwise it is skipped with an {@code outside-root} diagnostic
 * naming the link, never its target, so no report shows a byte from outside the tree. Every file is
 * named by where its real path lies in the source root (a file reached through a link inside the
 * tree is reported, and analysed, once, under its real place: what git and javac see), and every
 * real folder is walked at most once, so link loops and link fans cannot trap or multiply the walk.
 */
public final class SourceDiscovery {

    /** Folders that never hold sources worth analysing. */
    private static final Set<String> SKIPPED_DIRS = Set.of(
            "target", "build", "out", "bin", "node_modules", ".git", ".hg", ".svn", ".idea",
            ".gradle", ".mvn", ".racelint", "generated-sources", "generated-test-sources");

    /** Folders right under {@code src/<set>/} that hold packages which javac compiles (Gradle compiles .java in the latter two too). */
    private static final Set<String> SOURCE_FOLDER_NAMES = Set.of("java", "kotlin", "groovy");

    /** Files that make a folder a Maven or Gradle module. */
    private static final List<String> BUILD_FILES = List.of("pom.xml", "build.gradle", "build.gradle.kts");

    private final boolean includeTests;
    /** {@code --exclude} (and the Maven plugin's {@code <excludes>}): relative to the scanned path a file is found in. */
    private final ExcludeGlobs excludes;
    private final List<String> excludeGlobs;
    /** racelint.yml's {@code exclude:}: relative to the folder holding it. */
    private final ConfigExcludes configExcludes;
    private final ExcludeGlobs configGlobs;
    private final long maxFileBytes;

    /** With exclude globs relative to the scanned paths only. */
    public SourceDiscovery(boolean includeTests, List<String> excludeGlobs, long maxFileBytes) {
        this(includeTests, excludeGlobs, ConfigExcludes.NONE, maxFileBytes);
    }

    /**
     * @param excludeGlobs   globs relative to the scanned path a file is found in
     * @param configExcludes racelint.yml's globs, relative to its folder (a file outside that folder is
     *                       matched relative to its scanned path instead)
     */
    public SourceDiscovery(boolean includeTests, List<String> excludeGlobs, ConfigExcludes configExcludes,
            long maxFileBytes) {
        this.includeTests = includeTests;
        this.excludeGlobs = List.copyOf(excludeGlobs);
        this.excludes = new ExcludeGlobs(excludeGlobs);
        this.configExcludes = configExcludes == null ? ConfigExcludes.NONE : configExcludes;
        this.configGlobs = new ExcludeGlobs(this.configExcludes.globs());
        this.maxFileBytes = maxFileBytes;
    }

    /** The discovery an analysis with these options runs: every front end finds its files this way. */
    public static SourceDiscovery of(AnalysisOptions options) {
        return new SourceDiscovery(options.includeTests(), options.excludes(), options.configExcludes(),
                options.maxFileBytes());
    }

    /**
     * @param files        the Java sources to analyse, sorted
     * @param mapperFiles  XML files that may be MyBatis mappers (named or placed like one), sorted
     * @param sqlFiles     {@code .sql} files (schema scripts, migrations, dumps) and Liquibase XML changelogs the schema
     *                     model reads DDL from, sorted
     */
    public record Result(List<SourceFile> files, List<Diagnostic> diagnostics, List<Path> mapperFiles,
            List<Path> sqlFiles) {

        public Result(List<SourceFile> files, List<Diagnostic> diagnostics, List<Path> mapperFiles) {
            this(files, diagnostics, mapperFiles, List.of());
        }
    }

    /**
     * What discovery saw, counted to say why a scan has nothing to analyse.
     *
     * @param javaFiles       .java files under the paths (build output, VCS, IDE and hidden folders
     *                        outside source folders aside), excluded and test ones included
     * @param excludedByGlob  how many of them each exclude glob relative to the scanned paths left out
     *                        (the first that matches), in the globs' order; globs that left out none are absent
     * @param inTestFolders   how many of them are in test source folders, left out without include-tests
     * @param linksOutside    symbolic links to sources outside the source root, not followed
     * @param excludedByConfigGlob as {@code excludedByGlob}, for racelint.yml's globs (matched after those)
     */
    public record Census(int javaFiles, Map<String, Integer> excludedByGlob, int inTestFolders, int linksOutside,
            Map<String, Integer> excludedByConfigGlob) {

        /** Without racelint.yml globs. */
        public Census(int javaFiles, Map<String, Integer> excludedByGlob, int inTestFolders, int linksOutside) {
            this(javaFiles, excludedByGlob, inTestFolders, linksOutside, Map.of());
        }
    }

    /** As {@link #discover(List, Path)} with the default source root: the git work tree of the first path, else that path. */
    public Result discover(List<Path> roots) {
        return discover(roots, defaultSourceRoot(roots));
    }

    /** The sources under {@code roots}; links are followed only within {@code sourceRoot} (or the root they are in). */
    public Result discover(List<Path> roots, Path sourceRoot) {
        Walk walk = new Walk(sourceRoot, false);
        walk.run(roots);
        return new Result(List.copyOf(walk.found.values()), walk.diagnostics, List.copyOf(walk.mappers),
                List.copyOf(walk.sqlFiles));
    }

    /**
     * Walks as {@link #discover(List, Path)} does, also into the excluded and test folders, counting
     * what each rule left out. Reads no file; meant for a scan that found nothing to analyse.
     */
    public Census census(List<Path> roots, Path sourceRoot) {
        Walk walk = new Walk(sourceRoot, true);
        walk.run(roots);
        Map<String, Integer> excluded = new LinkedHashMap<>();
        for (int i = 0; i < excludeGlobs.size(); i++) {
            if (walk.excluded[i] > 0) {
                excluded.merge(excludeGlobs.get(i), walk.excluded[i], Integer::sum);
            }
        }
        Map<String, Integer> excludedByConfig = new LinkedHashMap<>();
        List<String> fromConfig = configExcludes.globs();
        for (int i = 0; i < fromConfig.size(); i++) {
            int n = walk.excluded[excludeGlobs.size() + i];
            if (n > 0) {
                excludedByConfig.merge(fromConfig.get(i), n, Integer::sum);
            }
        }
        return new Census(walk.javaFiles, Collections.unmodifiableMap(excluded), walk.inTests, walk.linksOutside,
                Collections.unmodifiableMap(excludedByConfig));
    }

    private static Path defaultSourceRoot(List<Path> roots) {
        return roots.isEmpty() ? Path.of("").toAbsolutePath() : SourceRoots.forScannedPath(roots.get(0));
    }

    /** A folder's or file's standing: analysed, skipped outright, or (counted by a census) left out by a rule. */
    private static final int INCLUDED = -1;
    private static final int SKIPPED = -2;
    private static final int IN_TESTS = -3;
    private static final int EXCLUDED = -4;

    /**
     * A scanned path: {@code real} is its real path, {@code named} where it is named in reports (its
     * place in the source root, else the path as given); {@code sources} false for a resources folder
     * searched for mappers only; {@code inSourceFolder} when it is (or lies in) a source folder.
     */
    private record Tree(Path real, Path named, boolean sources, boolean inSourceFolder) {}

    /**
     * A folder to list: its real path, its path relative to the scanned path as walked, its standing,
     * and whether it is (or lies in) a source folder, where no folder is skipped for its name.
     */
    private record Folder(Path real, Path relative, int standing, boolean inSourceFolder) {}

    /** A symbolic link met in a folder: where it is (its folder's real path and its name), as walked. */
    private record Link(Tree tree, Path location, Path relative, int standing, boolean inSourceFolder) {}

    /** One discovery (or census) run. */
    private final class Walk {
        private final Path sourceRoot;
        private final Path realSourceRoot;
        /** A census, telling which glob left a path out, rather than a discovery. */
        private final boolean counting;
        /** racelint.yml's folder, named as the scanned paths are (its place in the source root); null without globs. */
        private final Path configFolder;
        final TreeMap<Path, SourceFile> found = new TreeMap<>();
        final TreeSet<Path> mappers = new TreeSet<>();
        final TreeSet<Path> sqlFiles = new TreeSet<>();
        final List<Diagnostic> diagnostics = new ArrayList<>();
        private final Set<Path> walked = new HashSet<>();
        private final Set<Path> seenFiles = new HashSet<>();
        private final ArrayDeque<Link> links = new ArrayDeque<>();
        int javaFiles;
        int inTests;
        int linksOutside;
        final int[] excluded;

        Walk(Path sourceRoot, boolean counting) {
            this.sourceRoot = sourceRoot.toAbsolutePath().normalize();
            Path real;
            try {
                real = this.sourceRoot.toRealPath();
            } catch (IOException | SecurityException e) {
                real = this.sourceRoot;
            }
            this.realSourceRoot = real;
            this.counting = counting;
            this.excluded = new int[counting ? excludeGlobs.size() + configExcludes.globs().size() : 0];
            this.configFolder = configExcludes.isEmpty() ? null : named(configExcludes.folder());
        }

        private boolean census() {
            return counting;
        }

        /**
         * A folder named as the walk names the scanned paths: its real path's place in the source root (so a
         * scanned path and racelint.yml's folder reached through different links still compare), else as given.
         */
        private Path named(Path folder) {
            try {
                Path place = inSourceRoot(folder.toRealPath());
                return place == null ? folder : place.normalize();
            } catch (IOException | SecurityException e) {
                return folder;
            }
        }

        void run(List<Path> roots) {
            List<Tree> trees = new ArrayList<>();
            for (Path given : roots) {
                Path path = given.toAbsolutePath().normalize();
                Path real;
                try {
                    real = path.toRealPath();
                } catch (NoSuchFileException e) {
                    diagnostics.add(new Diagnostic(path, 0, 0, Level.ERROR, "path-not-found", "path does not exist"));
                    continue;
                } catch (IOException | SecurityException e) {
                    diagnostics.add(new Diagnostic(path, 0, 0, Level.ERROR, "unreadable",
                            "cannot read: " + IoProblems.describe(e)));
                    continue;
                }
                Path named = inSourceRoot(real);
                Path shown = named == null ? path : named;
                Tree tree = new Tree(real, shown, true, inSourceFolder(shown));
                if (Files.isRegularFile(real)) {
                    explicitlyNamed(tree);
                } else if (Files.isDirectory(real)) {
                    trees.add(tree);
                    // Scanning a Maven/Gradle "src/main/java" folder: its MyBatis mappers live in the sibling "resources".
                    Path resources = real.getParent() == null ? null : real.getParent().resolve("resources");
                    if (real.getFileName() != null && real.getFileName().toString().equals("java")
                            && resources != null && Files.isDirectory(resources)) {
                        resourcesTree(resources, tree).ifPresent(trees::add);
                    }
                }
            }
            // every folder reached without a link first, so that those keep the relative path they have there
            for (Tree tree : trees) {
                walkTree(tree, tree.real(), Path.of(""), INCLUDED, tree.inSourceFolder());
            }
            followLinks();
        }

        private java.util.Optional<Tree> resourcesTree(Path resources, Tree scanned) {
            try {
                Path real = resources.toRealPath();
                Path named = placeOf(real, scanned);
                return named == null ? java.util.Optional.empty()
                        : java.util.Optional.of(new Tree(real, named, false, inSourceFolder(named)));
            } catch (IOException | SecurityException e) {
                return java.util.Optional.empty();
            }
        }

        /**
         * Whether the scanned path {@code named} is (or lies in) a source folder, such as a scan of
         * {@code src/main/java} itself (then the source root, outside a git work tree).
         */
        private boolean inSourceFolder(Path named) {
            for (int end = named.getNameCount(); end >= 3; end--) {
                if (isSourceFolder(named.subpath(0, end))) {
                    return true;
                }
            }
            return false;
        }

        /** Where {@code real} is named in reports: its place under the source root; null when it is outside. */
        private Path inSourceRoot(Path real) {
            return real.startsWith(realSourceRoot) ? sourceRoot.resolve(realSourceRoot.relativize(real).toString())
                    : null;
        }

        /** As {@link #inSourceRoot}, also accepting a place in the scanned path {@code tree}; null when outside both. */
        private Path placeOf(Path real, Tree tree) {
            Path named = inSourceRoot(real);
            if (named == null && real.startsWith(tree.real())) {
                named = tree.named().resolve(tree.real().relativize(real).toString());
            }
            return named == null ? null : named.normalize();
        }

        private void explicitlyNamed(Tree file) {
            String name = file.real().getFileName().toString();
            if (census()) {
                javaFiles += name.endsWith(".java") ? 1 : 0;
                return;
            }
            try {
                source(file.named(), Files.size(file.real()));
            } catch (IOException | SecurityException e) {
                diagnostics.add(new Diagnostic(file.named(), 0, 0, Level.WARNING, "unreadable",
                        "cannot read: " + IoProblems.describe(e)));
            }
        }

        /** Lists {@code real} and the folders under it (not through links: those are queued), each real folder once. */
        private void walkTree(Tree tree, Path real, Path relative, int standing, boolean inSourceFolder) {
            if (!walked.add(real)) {
                return;
            }
            ArrayDeque<Folder> stack = new ArrayDeque<>();
            stack.push(new Folder(real, relative, standing, inSourceFolder));
            while (!stack.isEmpty()) {
                Folder folder = stack.pop();
                List<Path> entries = new ArrayList<>();
                try (DirectoryStream<Path> stream = Files.newDirectoryStream(folder.real())) {
                    stream.forEach(entries::add);
                } catch (IOException | DirectoryIteratorException | SecurityException e) {
                    Exception cause = e instanceof DirectoryIteratorException d ? d.getCause() : e;
                    if (!census()) {
                        diagnostics.add(new Diagnostic(placeOf(folder.real(), tree), 0, 0, Level.WARNING, "unreadable",
                                "cannot read: " + IoProblems.describe(cause)));
                    }
                    continue;
                }
                entries.sort(null);
                List<Folder> subfolders = new ArrayList<>();
                for (Path entry : entries) {
                    String name = entry.getFileName().toString();
                    Path entryRelative = folder.relative().resolve(name);
                    BasicFileAttributes attrs;
                    try {
                        attrs = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    } catch (IOException | SecurityException e) {
                        if (!census()) {
                            diagnostics.add(new Diagnostic(placeOf(entry, tree), 0, 0, Level.WARNING, "unreadable",
                                    "cannot read: " + IoProblems.describe(e)));
                        }
                        continue;
                    }
                    if (attrs.isSymbolicLink()) {
                        links.add(new Link(tree, entry, entryRelative, folder.standing(), folder.inSourceFolder()));
                    } else if (attrs.isDirectory()) {
                        int sub = folderStanding(tree, entry, name, entryRelative, folder.standing(),
                                folder.inSourceFolder());
                        if (sub != SKIPPED && walked.add(entry)) {
                            subfolders.add(new Folder(entry, entryRelative, sub,
                                    folder.inSourceFolder() || startsSourceFolder(tree, entryRelative)));
                        }
                    } else if (attrs.isRegularFile()) {
                        file(tree, entry, entryRelative, folder.standing(), attrs.size(), null);
                    }
                }
                for (int i = subfolders.size() - 1; i >= 0; i--) {
                    stack.push(subfolders.get(i));
                }
            }
        }

        /** Follows the queued links, in the order met; the folders they lead to may queue more. */
        private void followLinks() {
            while (!links.isEmpty()) {
                Link link = links.poll();
                Path at = placeOf(link.location(), link.tree());
                String name = link.location().getFileName().toString();
                Path target;
                BasicFileAttributes attrs;
                try {
                    target = link.location().toRealPath();
                    attrs = Files.readAttributes(target, BasicFileAttributes.class);
                } catch (IOException | SecurityException e) {
                    // a dangling link or a loop of links: worth a word only where a source was expected
                    if (!census() && name.endsWith(".java") && link.standing() == INCLUDED
                            && standingOf(link.tree(), link.relative()) == INCLUDED) {
                        diagnostics.add(new Diagnostic(at, 0, 0, Level.WARNING, "unreadable",
                                "cannot follow the symbolic link: " + IoProblems.describe(e)));
                    }
                    continue;
                }
                boolean outside = placeOf(target, link.tree()) == null;
                if (attrs.isDirectory()) {
                    int standing = folderStanding(link.tree(), target, name, link.relative(), link.standing(),
                            link.inSourceFolder());
                    if (standing == SKIPPED) {
                        continue;
                    }
                    if (outside) {
                        if (standing == INCLUDED) {
                            outsideRoot(at, "folder");
                        }
                        continue;
                    }
                    // a folder walked already (an ancestor: a loop; or reached another way) is not walked again
                    walkTree(link.tree(), target, link.relative(), standing,
                            link.inSourceFolder() || startsSourceFolder(link.tree(), link.relative()));
                } else if (attrs.isRegularFile()) {
                    file(link.tree(), target, link.relative(), link.standing(), attrs.size(), outside ? at : null);
                }
            }
        }

        private void outsideRoot(Path at, String what) {
            if (census()) {
                linksOutside++;
            } else {
                diagnostics.add(new Diagnostic(at, 0, 0, Level.WARNING, "outside-root",
                        "skipped: a symbolic link to a " + what + " outside the source root is not followed"));
            }
        }

        /**
         * A regular file: a source or a mapper is kept, named by its place in the source root.
         * {@code outsideLink} is where a link to it outside the root is, else null.
         */
        private void file(Tree tree, Path real, Path relative, int folderStanding, long size, Path outsideLink) {
            String name = relative.getFileName().toString();
            boolean java = tree.sources() && name.endsWith(".java");
            boolean xml = !java && name.endsWith(".xml");
            boolean sql = !java && name.toLowerCase(Locale.ROOT).endsWith(".sql");
            if (!java && ((!xml && !sql) || census())) {
                return;
            }
            int standing = folderStanding == INCLUDED ? standingOf(tree, relative) : folderStanding;
            if (standing == INCLUDED && outsideLink != null) {
                // Not opened to see whether it is a mapper: nothing outside the root is read.
                outsideRoot(outsideLink, "file");
                return;
            }
            boolean mapper = xml && standing == INCLUDED && declaresMapper(real, size);
            // a Liquibase changelog declares tables and keys: the schema model reads it with the .sql files
            boolean changelog = xml && !mapper && standing == INCLUDED && declaresChangelog(real, size);
            sql = sql || changelog;
            if (!java && !mapper && !sql) {
                return;
            }
            if (census()) {
                if (java) {
                    javaFiles++;
                    if (standing == IN_TESTS) {
                        inTests++;
                    } else if (standing >= 0) {
                        excluded[standing]++;
                    }
                }
                return;
            }
            if (standing != INCLUDED) {
                return;
            }
            Path named = placeOf(real, tree);
            if (named == null || !seenFiles.add(named)) {
                return;
            }
            if (mapper) {
                mappers.add(named);
            } else if (sql) {
                if (size > maxFileBytes) {
                    diagnostics.add(new Diagnostic(named, 0, 0, Level.WARNING, "file-too-large",
                            "SQL file not read for the schema: " + size + " bytes is over the " + maxFileBytes
                                    + "-byte limit"));
                } else {
                    sqlFiles.add(named);
                }
            } else {
                source(named, size);
            }
        }

        private void source(Path named, long size) {
            if (size > maxFileBytes) {
                diagnostics.add(new Diagnostic(named, 0, 0, Level.WARNING, "file-too-large",
                        "skipped: " + size + " bytes is over the " + maxFileBytes + "-byte limit"));
                return;
            }
            found.put(named, new SourceFile(named, size));
        }

        /** Whether the folder at {@code relative} in {@code tree}, as walked, is a source folder ({@code src/<set>/java}). */
        private boolean startsSourceFolder(Tree tree, Path relative) {
            return isSourceFolder(tree.named().resolve(relative.toString()));
        }

        /**
         * A folder's standing: skipped by name, or inheriting its parent's, or left out by the test rule
         * or an exclude. In a source folder names mean packages, not layouts, so only the excludes apply;
         * and a folder holding a build file is a module (one may be called {@code build} or {@code out}).
         */
        private int folderStanding(Tree tree, Path real, String name, Path relative, int parent, boolean inSourceFolder) {
            if (!inSourceFolder && (SKIPPED_DIRS.contains(name) || (name.startsWith(".") && name.length() > 1))
                    && !isModule(real)) {
                return SKIPPED;
            }
            if (parent != INCLUDED) {
                return parent;
            }
            if (!inSourceFolder && !includeTests && isTestSourceDir(relative)) {
                return census() ? IN_TESTS : SKIPPED;
            }
            int standing = standingOf(tree, relative);
            return standing == INCLUDED || census() ? standing : SKIPPED;
        }

        /**
         * INCLUDED, or the exclude that leaves {@code relative} (in the scanned path {@code tree}) out: its index
         * in a census (the scanned-path globs first, then racelint.yml's), else EXCLUDED.
         */
        private int standingOf(Tree tree, Path relative) {
            int i = excludes.indexOfFirstMatching(relative);
            if (i < 0 && configFolder != null) {
                int j = configGlobs.indexOfFirstMatching(fromConfigFolder(tree, relative));
                i = j < 0 ? -1 : excludeGlobs.size() + j;
            }
            return i < 0 ? INCLUDED : census() ? i : EXCLUDED;
        }

        /** {@code relative} (in {@code tree}, as walked) relative to racelint.yml's folder; as it is when outside that folder. */
        private Path fromConfigFolder(Tree tree, Path relative) {
            Path at = tree.named().resolve(relative.toString()).normalize();
            return at.startsWith(configFolder) ? configFolder.relativize(at) : relative;
        }
    }

    /**
     * Whether an XML file is a MyBatis mapper, from what it declares (a {@code <mapper namespace=...>}
     * element), never from its name or folder: a mapper may be called anything. A file too large to be
     * read as a mapper, or unreadable, is passed on, so the mapper reader reports it.
     */
    private static boolean declaresMapper(Path file, long size) {
        if (size > MyBatisXml.MAX_MAPPER_BYTES) {
            return true;
        }
        try {
            // Tags are ASCII, so any encoding of the file shows them; this decoding never fails.
            return MyBatisXml.declaresMapper(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    private static boolean declaresChangelog(Path file, long size) {
        if (size > MyBatisXml.MAX_MAPPER_BYTES) {
            return false; // reported as too large by the schema reader if it were read; not opened here
        }
        try {
            return dev.racelint.analyzer.schema.LiquibaseXml.isChangelog(
                    new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** A folder with a Maven or Gradle build file: its sources are compiled whatever the folder is called. */
    private static boolean isModule(Path folder) {
        for (String buildFile : BUILD_FILES) {
            if (Files.isRegularFile(folder.resolve(buildFile))) {
                return true;
            }
        }
        return false;
    }

    /** {@code src/<set>/java} (or {@code kotlin}, {@code groovy}) at the end of {@code path}: a Maven/Gradle source folder. */
    static boolean isSourceFolder(Path path) {
        int n = path.getNameCount();
        return n >= 3 && path.getName(n - 3).toString().equals("src")
                && SOURCE_FOLDER_NAMES.contains(path.getName(n - 1).toString());
    }

    /**
     * The source sets of the Maven and Gradle test layouts, by their exact names: Maven's
     * {@code src/test} and {@code src/it} (invoker and failsafe), the Gradle test-fixtures plugin's
     * {@code src/testFixtures}, and the names Gradle's test-suite and integration-test conventions
     * use. Any other {@code src/<set>} ({@code src/testcases}, {@code src/latest}) is a source set
     * of its own and is scanned: a folder is not a test folder for containing "test".
     */
    static final Set<String> TEST_SOURCE_SETS = Set.of(
            "test", "it", "testFixtures", "integrationTest", "intTest", "functionalTest", "acceptanceTest",
            "e2eTest", "componentTest", "systemTest", "contractTest", "integration-test", "int-test",
            "functional-test", "acceptance-test", "e2e-test", "component-test", "system-test", "contract-test");

    /** A test source folder: {@code src/<set>} where {@code <set>} is one of {@link #TEST_SOURCE_SETS}. */
    static boolean isTestSourceDir(Path relative) {
        int n = relative.getNameCount();
        for (int i = 0; i + 1 < n; i++) {
            if (relative.getName(i).toString().equals("src")
                    && TEST_SOURCE_SETS.contains(relative.getName(i + 1).toString())) {
                return true;
            }
        }
        return false;
    }

    public List<String> excludeGlobs() {
        return excludeGlobs;
    }

    public ConfigExcludes configExcludes() {
        return configExcludes;
    }
}
