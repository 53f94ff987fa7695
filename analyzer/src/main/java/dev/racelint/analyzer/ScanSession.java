package dev.racelint.analyzer;

import dev.racelint.analyzer.config.ProjectConfig;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.source.ConfigExcludes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How every front end (scan, baseline, explain, the Maven plugin) turns a project's racelint.yml and
 * its options into an analysis, so that one tree gives the same findings whichever of them runs it:
 * the config found the same way, its declared APIs and coverage types in the catalogues, its rule
 * levels on the result. (Each front end still reads its own options and writes its own reports.)
 */
public final class ScanSession {

    private ScanSession() {}

    /**
     * racelint.yml for a scan of {@code start}: {@code explicit} when given, else the nearest one from
     * {@code start} up to {@code top} (the source root, or the reactor's root), read - a file in the tree
     * only when its real path stays there - and checked against the installed rule ids. Null when there
     * is none.
     *
     * @throws IOException a {@link ProjectConfig.ConfigException} (file:line) for a file that does not read
     */
    public static ProjectConfig config(Path start, Path top, Path explicit, List<Rule> rules) throws IOException {
        Path file = explicit != null ? explicit : ProjectConfig.findUpwards(start, top).orElse(null);
        if (file == null) {
            return null;
        }
        Path absolute = file.toAbsolutePath().normalize();
        Path root = top.toAbsolutePath().normalize();
        ProjectConfig config = absolute.startsWith(root)
                ? ProjectConfig.read(file, root.relativize(absolute), List.of(root)) : ProjectConfig.read(file);
        Set<String> known = new LinkedHashSet<>();
        rules.forEach(r -> known.add(r.descriptor().id()));
        config.checkRuleIds(known);
        return config;
    }

    /**
     * {@code options} with what the project's configuration (null: none) sets for discovery and the
     * analysis: its exclude globs, relative to the folder holding the file ({@link #excludes}), and its
     * limits. The options' own excludes stay relative to each scanned path.
     */
    public static AnalysisOptions withConfig(AnalysisOptions options, ProjectConfig config) {
        if (config == null) {
            return options;
        }
        return options.withConfigExcludes(excludes(config)).withLimits(config.limits(options.limits()));
    }

    /**
     * racelint.yml's exclude globs, relative to the folder holding it: so a root racelint.yml means the
     * same files in a scan of the root, of one module, and in the Maven plugin's scan of each source
     * folder. (A file outside that folder, as with a {@code --config} kept elsewhere, is matched relative
     * to its scanned path: see {@link ConfigExcludes}.)
     */
    public static ConfigExcludes excludes(ProjectConfig config) {
        if (config == null || config.excludes().isEmpty()) {
            return ConfigExcludes.NONE;
        }
        return new ConfigExcludes(folderOf(config), config.excludes());
    }

    /**
     * What the scan says about its racelint.yml ({@link ProjectConfig#describe}), and, when it has excludes
     * and a scanned path lies outside its folder, that they are matched relative to that path there.
     */
    public static String describe(ProjectConfig config, Path root, List<Path> scanned) {
        String text = config.describe(root);
        if (config.excludes().isEmpty()) {
            return text;
        }
        Path folder = folderOf(config);
        boolean outside = scanned.stream().anyMatch(p -> !p.toAbsolutePath().normalize().startsWith(folder));
        return outside ? text + "; its excludes are matched relative to the scanned folder for files outside the"
                + " folder holding it" : text;
    }

    private static Path folderOf(ProjectConfig config) {
        Path folder = config.file().toAbsolutePath().normalize().getParent();
        return folder == null ? Path.of("").toAbsolutePath() : folder;
    }

    /**
     * The analysis of {@code options} with the project's configuration (null: none): its declared APIs
     * and inert coverage types in the catalogues, its rule levels applied to the findings. The options
     * carry its excludes, rule selection and limits already ({@link #withConfig}).
     */
    public static AnalysisResult analyse(List<Rule> rules, ProjectConfig config, AnalysisOptions options,
            ProgressListener listener) {
        AnalysisResult result = new Analyzer(rules, ProjectConfig.catalogue(config), ProjectConfig.coverageCatalogue(config))
                .analyze(options, listener);
        return config == null ? result : config.applyLevels(result);
    }
}
