package dev.racelint.cli;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.AnalysisResult;
import dev.racelint.analyzer.ScanSession;
import dev.racelint.analyzer.SourceRoots;
import dev.racelint.analyzer.cache.ScanCache;
import dev.racelint.analyzer.config.ProjectConfig;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.report.ReportPaths;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleRegistry;
import dev.racelint.analyzer.source.ExcludeGlobs;
import dev.racelint.analyzer.source.SourceDiscovery;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * What to analyse and how: the options {@code scan} and {@code baseline} share, checked before
 * any work starts (each problem is a usage error, exit 2).
 */
final class AnalysisInput {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Parameters(paramLabel = "PATH", arity = "0..*", showDefaultValue = Visibility.NEVER,
            description = "Files or folders to scan. Default: . (the current folder).")
    List<Path> paths = new ArrayList<>();

    @Option(names = "--rules", paramLabel = "ID", split = ",", showDefaultValue = Visibility.NEVER,
            description = "Run only these rules (comma-separated ids, see 'racelint rules'). "
                    + "Default: all rules.")
    List<String> ruleIds = new ArrayList<>();

    @Option(names = "--include-tests",
            description = "Also scan test sources: the source sets src/test, src/it, src/testFixtures, src/integrationTest and the other test-suite names listed in docs/configuration.md (by exact name: src/testcases is scanned anyway).")
    boolean includeTests;

    @Option(names = "--exclude", paramLabel = "GLOB", showDefaultValue = Visibility.NEVER,
            description = "Leave out files and folders matching GLOB, relative to the scanned folder, "
                    + "'/'-separated, for example '**/generated/**'. Repeatable.")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--classpath", paramLabel = "CP", showDefaultValue = Visibility.NEVER,
            description = "Jars of the scanned code's dependencies, separated by '${sys:path.separator}'. "
                    + "Optional: it sharpens type resolution, racelint works without it. "
                    + "Default: none.")
    String classpath;

    @Option(names = "--source-root", paramLabel = "DIR", showDefaultValue = Visibility.NEVER,
            description = "Folder that report paths (and SARIF URIs) are relative to; every PATH must really "
                    + "lie in it (a PATH that is a symbolic link is followed into it, refused when it leads out). "
                    + "Default: the git work tree holding the first PATH, else that PATH, both as given, not where "
                    + "a link leads.")
    Path sourceRoot;

    @Option(names = "--threads", paramLabel = "N", showDefaultValue = Visibility.NEVER,
            description = "Worker threads for parsing. Default: the number of available processors.")
    Integer threads;

    @Option(names = "--max-file-size", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Skip (with a diagnostic) source files larger than this; k, m and g "
                    + "suffixes are accepted.")
    long maxFileSize = AnalysisOptions.DEFAULT_MAX_FILE_BYTES;

    @Option(names = "--file-time-limit", paramLabel = "SECONDS", showDefaultValue = Visibility.NEVER,
            description = "Give up a file (with a too-slow diagnostic; the scan goes on) whose parsing takes longer "
                    + "than this, or whose analysis after parsing does, all phases together. Default: 60.")
    long fileTimeLimitSeconds = AnalysisOptions.DEFAULT_FILE_TIME_LIMIT.toSeconds();

    @Option(names = "--config", paramLabel = "FILE", showDefaultValue = Visibility.NEVER,
            description = "Project configuration (rules, levels, excludes, your own API wrappers; see 'racelint "
                    + "init'). Default: racelint.yml or .racelint.yml in the first PATH or, the nearest first, in a "
                    + "folder above it up to the source root (a repository's root racelint.yml applies to a "
                    + "scan of one of its modules). Its exclude globs are relative to the folder holding it.")
    Path configFile;

    @Option(names = "--no-config", description = "Ignore racelint.yml.")
    boolean noConfig;

    @Option(names = "--cache-dir", paramLabel = "DIR", showDefaultValue = Visibility.NEVER,
            description = "Where results and syntax trees are kept between scans: a scan whose files, options and "
                    + "racelint are all unchanged reads its result from there instead of analysing again; after "
                    + "an edit, only the files whose contents changed are parsed, the others' trees are read "
                    + "from there. Safe to delete. Default: .racelint/cache in the source root (see --source-root). "
                    + "Entries are signed with a per-user key kept outside the tree (RACELINT_KEY_FILE, default "
                    + "~/.cache/racelint/cache-key), so a committed or foreign cache is ignored; a cache folder that "
                    + "is a symbolic link or another user's is not used.")
    Path cacheDir;

    @Option(names = "--no-cache", description = "Analyse without reading or writing the cache.")
    boolean noCache;

    @Option(names = "--allow-empty",
            description = "Accept a scan that analyses no file (no .java file under the PATHs, all of them excluded "
                    + "or skipped). Default: such a scan says why and exits with 2, so that a wrong path or an "
                    + "exclude: \"**\" cannot pass for a clean result.")
    boolean allowEmpty;

    /** The least severe level a report shows. */
    enum MinLevel {
        error(Level.ERROR), warning(Level.WARNING), note(Level.NOTE);

        final Level level;

        MinLevel(Level level) {
            this.level = level;
        }
    }

    /** What a default scan reports: findings worth a ticket; a rule shows the smaller harms it can prove as notes. */
    static final Level DEFAULT_MIN_LEVEL = Level.WARNING;

    @Option(names = "--min-level", paramLabel = "LEVEL", showDefaultValue = Visibility.NEVER,
            description = "Report only findings at this level or a more severe one: ${COMPLETION-CANDIDATES}. "
                    + "Notes are findings whose harm racelint can show to be small (only privileged callers reach "
                    + "them, ...) and rules whose catalogue level is note; the summary counts what was left out. "
                    + "Default: minLevel in racelint.yml, else warning.")
    MinLevel minLevel;

    /** The least severe level reported: --min-level, else racelint.yml's {@code minLevel:}, else warning. */
    Level minLevel(ProjectConfig config) {
        if (minLevel != null) {
            return minLevel.level;
        }
        return config == null ? DEFAULT_MIN_LEVEL : config.minLevel().orElse(DEFAULT_MIN_LEVEL);
    }

    /** The checked options, with what the project's configuration adds (null: none). */
    AnalysisOptions options(RuleRegistry registry, ProjectConfig config) {
        try {
            new ExcludeGlobs(excludes);
        } catch (IllegalArgumentException e) {
            throw usage("--exclude: " + e.getMessage());
        }
        Set<String> rules = checkedRuleIds(registry);
        if (config != null) {
            if (rules.isEmpty() && !config.disabledRules().isEmpty()) {
                rules = new LinkedHashSet<>();
                for (RuleDescriptor d : registry.descriptors()) {
                    if (!config.disabledRules().contains(d.id())) {
                        rules.add(d.id());
                    }
                }
            }
        }
        AnalysisOptions options = new AnalysisOptions(checkedPaths(), includeTests, excludes, checkedClasspath(),
                checkedThreads(), rules, checkedMaxFileSize(), checkedSourceRoot())
                .withFileTimeLimit(checkedFileTimeLimit());
        // racelint.yml's excludes, relative to its folder, and its limits: as every front end applies them
        options = ScanSession.withConfig(options, config);
        if (noCache) {
            return options;
        }
        return options.withCacheDirectory(cacheDir != null ? cacheDir
                : ScanCache.defaultDirectory(options.resolvedSourceRoot()));
    }

    /**
     * The project's configuration, read and checked (a problem is a usage error naming file:line), or null.
     * A file in the scanned tree (found there, or named with --config inside it) is read only when its real
     * path stays in the tree: the scanned folders and the source root. A --config file outside the tree is
     * the user's own and read as it is.
     */
    ProjectConfig config(RuleRegistry registry) {
        if (noConfig) {
            return null;
        }
        List<Path> scanned = checkedPaths();
        Path sourceRootFolder = checkedSourceRoot() != null ? checkedSourceRoot().toAbsolutePath().normalize()
                : SourceRoots.forScannedPath(scanned.get(0));
        List<Path> tree = new ArrayList<>();
        tree.add(sourceRootFolder);
        for (Path path : scanned) {
            Path absolute = path.toAbsolutePath().normalize();
            tree.add(Files.isDirectory(absolute) ? absolute : absolute.getParent());
        }
        Path file = configFile;
        if (file == null) {
            file = ProjectConfig.findUpwards(scanned.get(0), sourceRootFolder).orElse(null);
            if (file == null) {
                return null;
            }
        } else if (!Files.isRegularFile(file)) {
            throw usage("--config file does not exist: " + file);
        }
        Path absolute = file.toAbsolutePath().normalize();
        Path inTree = tree.stream().filter(absolute::startsWith).findFirst().orElse(null);
        try {
            ProjectConfig config = inTree == null ? ProjectConfig.read(file)
                    : ProjectConfig.read(file, inTree.relativize(absolute), tree);
            Set<String> known = new LinkedHashSet<>();
            registry.descriptors().forEach(d -> known.add(d.id()));
            config.checkRuleIds(known);
            return config;
        } catch (ProjectConfig.ConfigException e) {
            throw usage(e.getMessage());
        } catch (java.io.IOException e) {
            throw usage("cannot read " + file + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    /**
     * racelint.yml as it is at the diff's base revision, read from git (the work tree's copy, which
     * the change may have edited or deleted, is not looked at): the {@code --config} file's path, else
     * the first of {@link ProjectConfig#FILE_NAMES} the base has in the first PATH's folder or, the
     * nearest first, in a folder above it up to the source root. Null when the base has none.
     *
     * @throws ProjectConfig.ConfigException for a config that does not read, at file:line "at REF"
     * @throws java.io.IOException when git cannot show the file (outside the work tree, a link...)
     */
    ProjectConfig configAt(RuleRegistry registry, dev.racelint.analyzer.diff.ChangedLines base) throws java.io.IOException {
        if (noConfig) {
            return null;
        }
        List<Path> candidates = new ArrayList<>();
        if (configFile != null) {
            candidates.add(configFile.toAbsolutePath().normalize());
        } else {
            // the folders the work tree's lookup walks (ProjectConfig.findUpwards), nearest first
            Path dir = checkedPaths().get(0).toAbsolutePath().normalize();
            Path top = checkedSourceRoot() != null ? checkedSourceRoot().toAbsolutePath().normalize()
                    : SourceRoots.forScannedPath(checkedPaths().get(0));
            for (Path folder = Files.isDirectory(dir) ? dir : dir.getParent(); folder != null;
                    folder = folder.getParent()) {
                Path at = folder;
                ProjectConfig.FILE_NAMES.forEach(name -> candidates.add(at.resolve(name)));
                if (!folder.startsWith(top) || folder.equals(top)) {
                    break;
                }
            }
        }
        for (Path candidate : candidates) {
            java.util.Optional<byte[]> text = base.atBase(candidate,
                    dev.racelint.analyzer.review.CheckChanges.MAX_CONFIG_BYTES);
            if (text.isEmpty()) {
                continue;
            }
            // named as the file is in the repository, at the revision it was read from
            Path shown = Path.of(base.relative(candidate).orElse(candidate.getFileName().toString()) + " at " + base.ref());
            ProjectConfig config = ProjectConfig.read(candidate, shown,
                    new String(text.get(), java.nio.charset.StandardCharsets.UTF_8));
            Set<String> known = new LinkedHashSet<>();
            registry.descriptors().forEach(d -> known.add(d.id()));
            config.checkRuleIds(known);
            return config;
        }
        return null;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    List<Path> checkedPaths() {
        List<Path> given = paths.isEmpty() ? List.of(Path.of(".")) : paths;
        List<Path> checked = new ArrayList<>();
        for (Path path : given) {
            if (!Files.exists(path)) {
                throw usage("path does not exist: " + path);
            }
            if (!Files.isDirectory(path) && !path.getFileName().toString().endsWith(".java")) {
                throw usage("not a folder or a .java file: " + path);
            }
            if (!Files.isReadable(path)) {
                throw usage("cannot read: " + path);
            }
            checked.add(path);
        }
        checkWithinSourceRoot(checked);
        return checked;
    }

    /**
     * Every PATH must really lie in the source root: report paths are relative to it, and a PATH that
     * is (or lies under) a symbolic link leading out of it would show files from outside the tree. A
     * link within the root is followed, its files named where they really are. The default root is
     * the PATH's folder as given, not the folder a link there leads to: a PATH that is itself a link
     * out (a committed link in an unpacked tarball) would otherwise become its own root, its target
     * scanned and the cache written there. A --source-root the user gives is taken as it resolves.
     */
    private void checkWithinSourceRoot(List<Path> paths) {
        Path root = checkedSourceRoot();
        boolean given = root != null;
        if (root == null) {
            root = SourceRoots.forScannedPath(paths.get(0));
        }
        Path realRoot = given ? realPath(root) : realPlace(root);
        Path lexicalRoot = root.toAbsolutePath().normalize();
        String rootText = given ? "the source root " + sourceRoot
                : "the source root " + shown(lexicalRoot) + " (the git work tree of the first PATH, else that PATH)";
        for (Path path : paths) {
            if (realPath(path).startsWith(realRoot)) {
                continue;
            }
            if (path.toAbsolutePath().normalize().startsWith(lexicalRoot)) {
                throw usage(path + " is a symbolic link, or lies under one, that leads outside " + rootText
                        + ": it is not followed. Scan the folder it leads to, or pass --source-root with a folder "
                        + "that holds it to accept it.");
            }
            throw usage(path + " is outside " + rootText + ", which report paths are relative to; give "
                    + "--source-root a folder that holds every PATH.");
        }
    }

    /** Where {@code path} really is, its folders' links resolved but not a link that {@code path} itself is. */
    private static Path realPlace(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        return parent == null ? realPath(absolute) : realPath(parent).resolve(absolute.getFileName().toString());
    }

    private static Path realPath(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException | SecurityException e) {
            return path.toAbsolutePath().normalize();
        }
    }

    /** {@code path} relative to the current folder when it is in it, else whole. */
    private static String shown(Path path) {
        Path here = Path.of("").toAbsolutePath();
        if (path.equals(here)) {
            return ".";
        }
        return path.startsWith(here) ? here.relativize(path).toString() : path.toString();
    }

    /**
     * Why nothing was analysed, in one line (which PATHs, how many .java files each exclude and the
     * test-folder rule left out, and what was skipped), or empty when files were analysed.
     */
    Optional<String> nothingAnalysed(AnalysisOptions options, ProjectConfig config, AnalysisResult result) {
        return nothingAnalysed(options, config, result, false);
    }

    /**
     * As {@link #nothingAnalysed(AnalysisOptions, ProjectConfig, AnalysisResult)}; {@code inReport}
     * names the PATHs relative to the source root, as every report names files, instead of as typed.
     */
    Optional<String> nothingAnalysed(AnalysisOptions options, ProjectConfig config, AnalysisResult result,
            boolean inReport) {
        if (result.filesAnalysed() > 0) {
            return Optional.empty();
        }
        Path root = options.resolvedSourceRoot();
        SourceDiscovery.Census census = SourceDiscovery.of(options).census(options.paths(), root);
        String where = "under " + (paths.isEmpty() ? "." : inReport
                ? options.paths().stream().map(p -> reportName(root, p)).collect(Collectors.joining(", "))
                : paths.stream().map(Path::toString).collect(Collectors.joining(", ")));
        StringBuilder why = new StringBuilder("nothing analysed: ");
        int total = census.javaFiles();
        if (total == 0) {
            why.append("there is no .java file ").append(where)
                    .append(" (build output, VCS, IDE and hidden folders are not searched)");
        } else {
            List<String> parts = new ArrayList<>();
            int accounted = 0;
            for (var excluded : census.excludedByGlob().entrySet()) {
                parts.add(count(excluded.getValue(), "was", "were") + " excluded by --exclude '" + excluded.getKey() + "'");
                accounted += excluded.getValue();
            }
            for (var excluded : census.excludedByConfigGlob().entrySet()) {
                parts.add(count(excluded.getValue(), "was", "were") + " excluded by " + origin(excluded.getKey(), config, root)
                        + " '" + excluded.getKey() + "'");
                accounted += excluded.getValue();
            }
            if (census.inTestFolders() > 0) {
                parts.add(count(census.inTestFolders(), "is", "are") + " in test source folders (--include-tests scans them)");
                accounted += census.inTestFolders();
            }
            if (total > accounted) {
                parts.add(count(total - accounted, "was", "were") + " skipped: see the diagnostics");
            }
            if (parts.size() == 1) {
                why.append(total == 1 ? "the one .java file " + where + " " : "all " + total + " .java files " + where + " ")
                        .append(parts.get(0).substring(parts.get(0).indexOf(' ') + 1));
            } else {
                why.append("of the ").append(total).append(" .java files ").append(where).append(", ")
                        .append(String.join(", ", parts));
            }
        }
        if (census.linksOutside() > 0) {
            why.append("; ").append(census.linksOutside()).append(" symbolic link")
                    .append(census.linksOutside() == 1 ? " leads" : "s lead").append(" outside the source root, not followed");
        }
        return Optional.of(why.append('.').toString());
    }

    /** A scanned PATH as reports name it: relative to the source root ("." for the root itself). */
    private static String reportName(Path root, Path path) {
        String relative = ReportPaths.display(root, path);
        return relative == null || relative.isEmpty() ? "." : relative;
    }

    private static String count(int n, String singular, String plural) {
        return n + " " + (n == 1 ? singular : plural);
    }

    /** Where racelint.yml sets an exclude glob. */
    private static String origin(String glob, ProjectConfig config, Path root) {
        if (config == null) {
            return "racelint.yml exclude";
        }
        // "racelint.yml:4 exclude": the line that left the files out
        return config.whereExcluded(glob).map(at -> at + " exclude")
                .orElse(ReportPaths.display(root, config.file()) + " exclude");
    }

    private List<Path> checkedClasspath() {
        if (classpath == null || classpath.isBlank()) {
            return List.of();
        }
        List<Path> entries = new ArrayList<>();
        for (String entry : classpath.split(java.util.regex.Pattern.quote(File.pathSeparator))) {
            if (entry.isBlank()) {
                continue;
            }
            Path path;
            try {
                path = Path.of(entry.strip());
            } catch (InvalidPathException e) {
                throw usage("bad --classpath entry: " + entry);
            }
            if (!Files.exists(path)) {
                throw usage("--classpath entry does not exist: " + entry);
            }
            entries.add(path);
        }
        return entries;
    }

    private int checkedThreads() {
        if (threads == null) {
            return Runtime.getRuntime().availableProcessors();
        }
        if (threads < 1) {
            throw usage("--threads must be at least 1, not " + threads);
        }
        return threads;
    }

    private long checkedMaxFileSize() {
        if (maxFileSize < 1) {
            throw usage("--max-file-size must be a positive number of bytes, not " + maxFileSize);
        }
        return maxFileSize;
    }

    private java.time.Duration checkedFileTimeLimit() {
        if (fileTimeLimitSeconds < 1) {
            throw usage("--file-time-limit must be a positive number of seconds, not " + fileTimeLimitSeconds);
        }
        return java.time.Duration.ofSeconds(fileTimeLimitSeconds);
    }

    private Set<String> checkedRuleIds(RuleRegistry registry) {
        Set<String> wanted = new LinkedHashSet<>();
        for (String id : ruleIds) {
            if (!id.isBlank()) {
                wanted.add(id.strip());
            }
        }
        if (!ruleIds.isEmpty() && wanted.isEmpty()) {
            throw usage("--rules needs at least one rule id; valid ids: " + validIds(registry));
        }
        Set<String> known = registry.descriptors().stream().map(RuleDescriptor::id)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        List<String> unknown = wanted.stream().filter(id -> !known.contains(id)).toList();
        if (!unknown.isEmpty()) {
            throw usage((unknown.size() == 1 ? "unknown rule id '" + unknown.get(0) + "'"
                    + dev.racelint.analyzer.rule.RuleIds.didYouMean(unknown.get(0), known)
                    : "unknown rule ids " + unknown.stream().map(id -> "'" + id + "'")
                            .collect(Collectors.joining(", ")))
                    + " in --rules; valid ids: " + validIds(registry));
        }
        return wanted;
    }

    static String validIds(RuleRegistry registry) {
        List<String> ids = registry.descriptors().stream().map(RuleDescriptor::id).toList();
        return ids.isEmpty() ? "(none: no rules are installed)" : String.join(", ", ids);
    }

    private Path checkedSourceRoot() {
        if (sourceRoot == null) {
            return null;
        }
        if (!Files.isDirectory(sourceRoot)) {
            throw usage("--source-root is not a folder: " + sourceRoot);
        }
        return sourceRoot;
    }
}
