package dev.racelint.analyzer;

import dev.racelint.analyzer.config.ProjectConfig;
import dev.racelint.analyzer.rule.Rule;
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
     * The analysis of {@code options} with the project's configuration (null: none): its declared APIs
     * and inert coverage types in the catalogues, its rule levels applied to the findings. The options
     * carry its excludes, rule selection and limits already.
     */
    public static AnalysisResult analyse(List<Rule> rules, ProjectConfig config, AnalysisOptions options,
            ProgressListener listener) {
        AnalysisResult result = new Analyzer(rules, ProjectConfig.catalogue(config), ProjectConfig.coverageCatalogue(config))
                .analyze(options, listener);
        return config == null ? result : config.applyLevels(result);
    }
}
