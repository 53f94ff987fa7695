package dev.racelint.cli;

import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.cache.ScanCache;
import dev.racelint.analyzer.config.ProjectConfig;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
            description = "Also scan test sources (src/test, src/it, src/*Test*...).")
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
            description = "Folder that report paths (and SARIF URIs) are relative to. Default: the "
                    + "git work tree holding the first PATH, else that PATH.")
    Path sourceRoot;

    @Option(names = "--threads", paramLabel = "N", showDefaultValue = Visibility.NEVER,
            description = "Worker threads for parsing. Default: the number of available processors.")
    Integer threads;

    @Option(names = "--max-file-size", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Skip (with a diagnostic) source files larger than this; k, m and g "
                    + "suffixes are accepted.")
    long maxFileSize = AnalysisOptions.DEFAULT_MAX_FILE_BYTES;

    @Option(names = "--file-time-limit", paramLabel = "SECONDS",
            description = "Give up a file (with a too-slow diagnostic; the scan goes on) whose parsing takes longer "
                    + "than this, or whose analysis after parsing does, all phases together. Default: 60.")
    long fileTimeLimitSeconds = AnalysisOptions.DEFAULT_FILE_TIME_LIMIT.toSeconds();

    @Option(names = "--config", paramLabel = "FILE", showDefaultValue = Visibility.NEVER,
            description = "Project configuration (rules, levels, excludes, your own API wrappers; see 'racelint "
                    + "init'). Default: racelint.yml or .racelint.yml in the first PATH, if there is one.")
    Path configFile;

    @Option(names = "--no-config", description = "Ignore racelint.yml.")
    boolean noConfig;

    @Option(names = "--cache-dir", paramLabel = "DIR", showDefaultValue = Visibility.NEVER,
            description = "Where results and syntax trees are kept between scans: a scan whose files, options and "
                    + "racelint are all unchanged reads its result from there instead of analysing again; after "
                    + "an edit, only the files whose contents changed are parsed, the others' trees are read "
                    + "from there. Safe to delete. Default: .racelint/cache in the source root (see --source-root).")
    Path cacheDir;

    @Option(names = "--no-cache", description = "Analyse without reading or writing the cache.")
    boolean noCache;

    /** The checked options, with what the project's configuration adds (null: none). */
    AnalysisOptions options(RuleRegistry registry, ProjectConfig config) {
        List<String> allExcludes = new ArrayList<>(excludes);
        Set<String> rules = checkedRuleIds(registry);
        if (config != null) {
            allExcludes.addAll(config.excludes());
            if (rules.isEmpty() && !config.disabledRules().isEmpty()) {
                rules = new LinkedHashSet<>();
                for (RuleDescriptor d : registry.descriptors()) {
                    if (!config.disabledRules().contains(d.id())) {
                        rules.add(d.id());
                    }
                }
            }
        }
        AnalysisOptions options = new AnalysisOptions(checkedPaths(), includeTests, allExcludes, checkedClasspath(),
                checkedThreads(), rules, checkedMaxFileSize(), checkedSourceRoot())
                .withFileTimeLimit(checkedFileTimeLimit());
        if (noCache) {
            return options;
        }
        return options.withCacheDirectory(cacheDir != null ? cacheDir
                : ScanCache.defaultDirectory(options.resolvedSourceRoot()));
    }

    /** The project's configuration, read and checked (a problem is a usage error naming file:line), or null. */
    ProjectConfig config(RuleRegistry registry) {
        if (noConfig) {
            return null;
        }
        Path file = configFile;
        if (file == null) {
            List<Path> roots = checkedPaths();
            file = ProjectConfig.find(roots.get(0)).orElse(null);
            if (file == null) {
                return null;
            }
        } else if (!Files.isRegularFile(file)) {
            throw usage("--config file does not exist: " + file);
        }
        try {
            ProjectConfig config = ProjectConfig.read(file);
            Set<String> known = new LinkedHashSet<>();
            registry.descriptors().forEach(d -> known.add(d.id()));
            config.checkRuleIds(known);
            return config;
        } catch (ProjectConfig.ConfigException e) {
            throw usage(e.getMessage());
        } catch (java.io.IOException e) {
            throw usage("cannot read " + file + ": " + e.getMessage());
        }
    }

    /** The API catalogue with the project's declared wrappers added. */
    static ApiCatalogue catalogue(ProjectConfig config) {
        ApiCatalogue catalogue = ApiCatalogue.builtIn();
        if (config != null) {
            config.extend(catalogue);
        }
        return catalogue;
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
        return checked;
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
