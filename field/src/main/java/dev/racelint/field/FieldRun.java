package dev.racelint.field;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code field/run SNAPSHOTS_DIR}: scans every service of the manifest from its root with the real
 * CLI and prints the score table (markdown) on stdout; progress and problems go to stderr.
 */
public final class FieldRun {

    /**
     * What one service's scan gave: {@code scores} over every finding (every level), {@code defaultScores}
     * over what a default scan reports (warnings and errors).
     */
    record ServiceRun(Manifest.Service service, String missing, int files, long sourceLines, double seconds,
            List<Scoring.Judged> judged, Map<String, Scoring.RuleScore> scores, String version,
            Map<String, Scoring.RuleScore> defaultScores) {
        boolean scanned() {
            return missing.isEmpty();
        }
    }

    private final Path fieldDir;
    private final Snapshots snapshots;
    private final Scanner scanner;
    private final Path workDir;
    private final PrintStream progress;
    /** When set, only the services whose repository this matches are scanned and scored (and only their labels). */
    java.util.regex.Pattern only;

    FieldRun(Path fieldDir, Snapshots snapshots, Scanner scanner, Path workDir, PrintStream progress) {
        this.fieldDir = fieldDir;
        this.snapshots = snapshots;
        this.scanner = scanner;
        this.workDir = workDir;
        this.progress = progress;
    }

    public static void main(String[] args) throws Exception {
        Path racelint = null;
        Path field = null;
        Path work = Path.of(System.getProperty("java.io.tmpdir"), "racelint-field");
        Path snapshotsDir = null;
        java.util.regex.Pattern only = null;
        Path verdicts = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--only" -> only = java.util.regex.Pattern.compile(args[++i]);
                case "--verdicts" -> verdicts = Path.of(args[++i]);
                case "--racelint" -> racelint = Path.of(args[++i]);
                case "--field" -> field = Path.of(args[++i]);
                case "--work" -> work = Path.of(args[++i]);
                default -> {
                    if (args[i].startsWith("-") || snapshotsDir != null) {
                        usage("unknown argument '" + args[i] + "'");
                    }
                    snapshotsDir = Path.of(args[i]);
                }
            }
        }
        if (snapshotsDir == null || racelint == null || field == null) {
            usage("SNAPSHOTS_DIR, --racelint and --field are required");
        }
        if (!Files.isDirectory(snapshotsDir)) {
            usage("no folder " + snapshotsDir);
        }
        try {
            FieldRun run = new FieldRun(field, new Snapshots(snapshotsDir, work, field.resolve("extract")),
                    new ProcessScanner(racelint), work, System.err);
            run.only = only;
            Results results = run.runAll();
            if (verdicts != null) {
                Files.writeString(verdicts, verdictLines(results));
            }
            System.out.print(run.report(results));
        } catch (FieldError e) {
            System.err.println("field/run: " + e.getMessage());
            System.exit(2);
        }
    }

    private static void usage(String problem) {
        System.err.println("field/run: " + problem);
        System.err.println("usage: field/run SNAPSHOTS_DIR [--only REGEX] [--verdicts FILE]   (see field/README.md)");
        System.exit(2);
    }

    /** The manifest and labels, read and checked before anything is scanned. */
    record Corpus(List<Manifest.Service> services, List<Label> labels) {}

    Corpus corpus() throws IOException {
        List<Manifest.Service> services = Manifest.read(fieldDir.resolve("manifest.tsv"));
        Set<String> repositories = services.stream().map(Manifest.Service::repository).collect(Collectors.toSet());
        List<Label> labels = Labels.read(fieldDir.resolve("labels.tsv"), repositories, ruleIds());
        if (only != null) {
            services = services.stream().filter(s -> only.matcher(s.repository()).find()).toList();
            Set<String> kept = services.stream().map(Manifest.Service::repository).collect(Collectors.toSet());
            labels = labels.stream().filter(l -> kept.contains(l.repository())).toList();
        }
        return new Corpus(services, labels);
    }

    /** The rule ids: one help page each in docs/rules (the pages are generated from the rules). */
    private Set<String> ruleIds() throws IOException {
        try (Stream<Path> pages = Files.list(fieldDir.resolveSibling("docs").resolve("rules"))) {
            return pages.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".md"))
                    .map(n -> n.substring(0, n.length() - 3)).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    record Results(Corpus corpus, List<ServiceRun> runs) {}

    Results runAll() throws Exception {
        Corpus corpus = corpus();
        List<ServiceRun> runs = new ArrayList<>();
        Files.createDirectories(workDir);
        for (Manifest.Service service : corpus.services()) {
            runs.add(runOne(service, corpus.labels()));
        }
        return new Results(corpus, runs);
    }

    private ServiceRun runOne(Manifest.Service service, List<Label> labels) throws Exception {
        Snapshots.Result tree = snapshots.tree(service);
        if (tree.tree().isEmpty()) {
            progress.println("field/run: " + service.repository() + ": " + tree.missing());
            return new ServiceRun(service, tree.missing(), 0, 0, 0, List.of(), Map.of(), "", Map.of());
        }
        Path repository = tree.tree().get();
        Path scanned = repository.resolve(service.root()).normalize();
        if (!scanned.startsWith(repository) || !Files.isDirectory(scanned)) {
            return new ServiceRun(service, "no folder " + service.root() + " in the snapshot", 0, 0, 0, List.of(),
                    Map.of(), "", Map.of());
        }
        Path report = workDir.resolve(service.folderName() + ".json");
        Files.deleteIfExists(report);
        progress.println("field/run: scanning " + service.repository() + " ...");
        long start = System.nanoTime();
        Scanner.Outcome outcome = scanner.scan(repository, scanned, report);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (outcome.exitCode() > 1 || !Files.isRegularFile(report)) {
            String said = outcome.stderr().lines().filter(l -> !l.isBlank()).findFirst().orElse("");
            return new ServiceRun(service, "scan failed (exit " + outcome.exitCode() + "): " + said, 0, 0, seconds,
                    List.of(), Map.of(), "", Map.of());
        }
        List<Finding> findings = Finding.readReport(report);
        var summary = new ObjectMapper().readTree(report.toFile());
        List<Scoring.Judged> judged = Scoring.judge(service.repository(), findings, labels);
        List<Scoring.Judged> reported = judged.stream().filter(j -> j.finding().reportedByDefault()).toList();
        return new ServiceRun(service, "", summary.path("summary").path("files").asInt(),
                summary.path("coverage").path("sourceLines").asLong(), seconds, judged,
                Scoring.score(service.repository(), judged, labels), summary.path("version").asText(""),
                Scoring.score(service.repository(), reported, labels));
    }

    /** One line a finding (every level): repository, rule, level, file, line, outcome, the matched label's reason. */
    static String verdictLines(Results results) {
        StringBuilder out = new StringBuilder("repository\trule\tlevel\tfile\tline\toutcome\tlabel\n");
        for (ServiceRun run : results.runs()) {
            for (Scoring.Judged j : run.judged()) {
                Finding f = j.finding();
                out.append(j.repository()).append('\t').append(f.rule()).append('\t').append(f.level()).append('\t')
                        .append(f.file()).append('\t').append(f.line()).append('\t').append(j.outcome()).append('\t')
                        .append(j.label().map(Label::reason).orElse("")).append('\n');
            }
        }
        return out.toString();
    }

    /** The markdown report: the per-rule table, the per-service table, then what needs reading. */
    String report(Results results) {
        StringBuilder out = new StringBuilder();
        List<ServiceRun> runs = results.runs();
        List<Label> labels = results.corpus().labels();
        long positives = labels.stream().filter(Label::positive).count();
        String version = runs.stream().map(ServiceRun::version).filter(v -> !v.isEmpty()).findFirst().orElse("?");
        long scanned = runs.stream().filter(ServiceRun::scanned).count();
        double kloc = runs.stream().mapToLong(ServiceRun::sourceLines).sum() / 1000.0;
        out.append("racelint ").append(version).append(" on ").append(scanned).append(" of ").append(runs.size())
                .append(" services (").append(String.format(Locale.ROOT, "%.1f", kloc)).append(" kLOC); ")
                .append(labels.size()).append(" labels: ").append(positives).append(" positive, ")
                .append(labels.size() - positives).append(" negative (!rule).\n\n");

        out.append("Default scan (`--min-level warning`: the warnings and errors a user sees):\n\n");
        ruleTable(out, runs, ServiceRun::defaultScores, kloc);
        out.append("Every level (`--min-level note`: the notes too):\n\n");
        ruleTable(out, runs, ServiceRun::scores, kloc);

        out.append("Per service (default scan):\n\n");
        out.append("| repository | kind | files | kLOC | seconds | findings | TRUE | TRUE-LOW | FALSE | unlabelled "
                + "| labels (+/-) |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (ServiceRun run : runs) {
            long plus = labels.stream().filter(l -> l.repository().equals(run.service().repository()) && l.positive())
                    .count();
            long minus = labels.stream().filter(l -> l.repository().equals(run.service().repository()) && l.negative())
                    .count();
            if (!run.scanned()) {
                out.append("| ").append(run.service().repository()).append(" | ").append(run.service().kind())
                        .append(" | not scanned: ").append(run.missing()).append(" |||||||| ").append(plus).append('/')
                        .append(minus).append(" |\n");
                continue;
            }
            Scoring.RuleScore s = new Scoring.RuleScore();
            run.defaultScores().values().forEach(s::add);
            out.append(String.format(Locale.ROOT, "| %s | %s | %d | %.1f | %.1f | %d | %d | %d | %d | %d | %d/%d |%n",
                    run.service().repository(), run.service().kind(), run.files(), run.sourceLines() / 1000.0,
                    run.seconds(), s.findings, s.truePositives, s.trueLow, s.falsePositives, s.unlabelled, plus, minus));
        }

        List<Scoring.Judged> unlabelled = runs.stream().flatMap(r -> r.judged().stream())
                .filter(j -> j.outcome() == Scoring.Outcome.UNLABELLED).toList();
        out.append("\n### Unlabelled findings (").append(unlabelled.size()).append("): judge them blind before a rule change is done\n\n");
        for (Scoring.Judged j : unlabelled) {
            out.append("- ").append(j.repository()).append(' ').append(j.finding().file()).append(':')
                    .append(j.finding().line()).append(" `").append(j.finding().rule()).append("` ")
                    .append(j.finding().method()).append('\n');
        }
        List<Scoring.Dispute> disputes = Scoring.disputes(labels);
        out.append("\n### Disputed labels (").append(disputes.size()).append("): a third reader settles them (`reread`)\n\n");
        for (Scoring.Dispute d : disputes) {
            out.append("- ").append(d.first().where()).append(' ').append(d.first().rule()).append(": labels.tsv:")
                    .append(d.first().line()).append(" (").append(d.first().source().name().toLowerCase(Locale.ROOT))
                    .append(", ").append(d.first().negative() ? "!" : "").append("rule) against labels.tsv:")
                    .append(d.second().line()).append(" (").append(d.second().source().name().toLowerCase(Locale.ROOT))
                    .append(", ").append(d.second().negative() ? "!" : "").append("rule)\n");
        }
        return out.toString();
    }

    /** One per-rule table, over the scores {@code which} picks from each run. */
    private static void ruleTable(StringBuilder out, List<ServiceRun> runs,
            java.util.function.Function<ServiceRun, Map<String, Scoring.RuleScore>> which, double kloc) {
        Map<String, Scoring.RuleScore> byRule = new TreeMap<>();
        for (ServiceRun run : runs) {
            which.apply(run).forEach((rule, score) -> byRule.computeIfAbsent(rule, r -> new Scoring.RuleScore()).add(score));
        }
        Scoring.RuleScore total = new Scoring.RuleScore();
        byRule.values().forEach(total::add);
        out.append("| rule | findings | TRUE | TRUE-LOW | FALSE | unlabelled | strict precision | recall (blind labels) "
                + "| negatives hit | per kLOC |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        byRule.forEach((rule, s) -> out.append(ruleRow("`" + rule + "`", s, kloc)));
        out.append(ruleRow("**all**", total, kloc)).append('\n');
    }

    private static String ruleRow(String name, Scoring.RuleScore s, double kloc) {
        return "| " + name + " | " + s.findings + " | " + s.truePositives + " | " + s.trueLow + " | " + s.falsePositives
                + " | " + s.unlabelled + " | " + s.strictPrecision().map(p -> ratio(p, s.truePositives, s.labelled())).orElse("-")
                + " | " + s.recall().map(r -> ratio(r, s.positiveLabelsFound, s.positiveLabels)).orElse("-")
                + " | " + (s.negativeLabels == 0 ? "-" : s.negativeLabelsHit + "/" + s.negativeLabels)
                + " | " + (kloc == 0 ? "-" : String.format(Locale.ROOT, "%.2f", s.findings / kloc)) + " |\n";
    }

    private static String ratio(double value, int part, int whole) {
        return String.format(Locale.ROOT, "%.2f (%d/%d)", value, part, whole);
    }
}
