package dev.racelint.analyzer;

import com.github.javaparser.JavaParser;
import dev.racelint.analyzer.cache.CacheKey;
import dev.racelint.analyzer.cache.CachedScan;
import dev.racelint.analyzer.cache.ScanCache;
import dev.racelint.analyzer.cache.TreePack;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.callgraph.CallGraphBuilder;
import dev.racelint.analyzer.coverage.Coverage;
import dev.racelint.analyzer.coverage.CoverageCatalogue;
import dev.racelint.analyzer.coverage.CoverageModel;
import dev.racelint.analyzer.handlers.UnfedQueues;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.SameDefectMerger;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.handlers.HandlerModel;
import dev.racelint.analyzer.handlers.JobFacts;
import dev.racelint.analyzer.handlers.Reachability;
import dev.racelint.analyzer.index.FileBudget;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.MethodTasks;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.locks.LockModel;
import dev.racelint.analyzer.locks.LockOrderGraph;
import dev.racelint.analyzer.parse.DiagnosticOrder;
import dev.racelint.analyzer.parse.JavaSourceParser;
import dev.racelint.analyzer.parse.ParsedFile;
import dev.racelint.analyzer.parse.TreeStore;
import dev.racelint.analyzer.persistence.DbOpClassifier;
import dev.racelint.analyzer.persistence.EntityModel;
import dev.racelint.analyzer.persistence.MyBatisXml;
import dev.racelint.analyzer.persistence.PersistenceModel;
import dev.racelint.analyzer.schema.DdlReader;
import dev.racelint.analyzer.persistence.SqlFactsSource;
import dev.racelint.analyzer.resolve.CallResolver;
import dev.racelint.analyzer.resolve.ClasspathTypes;
import dev.racelint.analyzer.resolve.ExpressionTyper;
import dev.racelint.analyzer.resolve.SymbolSolverTypes;
import dev.racelint.analyzer.retry.RetryFacts;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.source.SourceDiscovery;
import dev.racelint.analyzer.suppress.Suppressions;
import dev.racelint.analyzer.tx.TransactionModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;

/**
 * The pipeline: discover sources, parse them in parallel, index declarations, resolve calls and
 * build the call graph, model transactions, then run each rule on each method.
 */
public final class Analyzer {

    /** Deterministic finding order: file, position, rule, fingerprint. */
    public static final Comparator<Finding> FINDING_ORDER = Comparator
            .comparing((Finding f) -> f.primary().file().toString())
            .thenComparingInt(f -> f.primary().region().startLine())
            .thenComparingInt(f -> f.primary().region().startColumn())
            .thenComparing(Finding::ruleId)
            .thenComparing(Finding::fingerprint)
            .thenComparing(f -> f.message().plain())
            .thenComparing(f -> f.enclosingMethod());

    private final List<Rule> rules;
    private final ApiCatalogue catalogue;
    private final CoverageCatalogue coverageCatalogue;
    /** Times each file's work against its limit: {@link System#nanoTime()}, or a test's step counter. */
    private final LongSupplier clock;

    public Analyzer(List<Rule> rules, ApiCatalogue catalogue) {
        this(rules, catalogue, CoverageCatalogue.builtIn());
    }

    /** @param coverageCatalogue what the coverage summary takes as inert and as data access */
    public Analyzer(List<Rule> rules, ApiCatalogue catalogue, CoverageCatalogue coverageCatalogue) {
        this(rules, catalogue, coverageCatalogue, System::nanoTime);
    }

    Analyzer(List<Rule> rules, ApiCatalogue catalogue, LongSupplier clock) {
        this(rules, catalogue, CoverageCatalogue.builtIn(), clock);
    }

    private Analyzer(List<Rule> rules, ApiCatalogue catalogue, CoverageCatalogue coverageCatalogue, LongSupplier clock) {
        this.rules = List.copyOf(rules);
        this.catalogue = catalogue;
        this.coverageCatalogue = coverageCatalogue;
        this.clock = clock;
    }

    public AnalysisResult analyze(AnalysisOptions options, ProgressListener progress) {
        LinkedHashMap<String, Long> timings = new LinkedHashMap<>();
        List<Diagnostic> diagnostics = new ArrayList<>();
        List<Rule> active = activeRules(options);

        long t0 = System.nanoTime();
        SourceDiscovery discovery = SourceDiscovery.of(options);
        SourceDiscovery.Result sources = discovery.discover(options.paths(), options.resolvedSourceRoot());
        diagnostics.addAll(sources.diagnostics());
        long t1 = lap(timings, "discover", t0);

        Path root = options.resolvedSourceRoot();
        List<RuleDescriptor> descriptors = active.stream().map(Rule::descriptor).toList();
        CacheEntryKey cacheKey = options.cacheDirectory() == null ? null
                : cacheKey(options, root, active, sources, diagnostics);
        if (cacheKey != null) {
            Optional<CachedScan> hit = cacheKey.cache().read(cacheKey.settings(), cacheKey.inputs().hash());
            t1 = lap(timings, "cache lookup", t1);
            if (hit.isPresent()) {
                diagnostics.addAll(hit.get().restoredDiagnostics(root));
                diagnostics.sort(DiagnosticOrder.INSTANCE);
                return new AnalysisResult(descriptors, hit.get().restoredFindings(root), diagnostics, root,
                        hit.get().filesAnalysed(), hit.get().methodsAnalysed(), timings,
                        hit.get().restoredSuppressed(root), true, 0, hit.get().coverage());
            }
        }
        int discoveryDiagnostics = diagnostics.size();

        int total = sources.files().size();
        AnalysisLimits limits = options.limits();
        JavaSourceParser parser = new JavaSourceParser(options.threads(), options.fileTimeLimit(),
                limits.get(AnalysisLimits.Limit.NESTING_DEPTH));
        // The trees of files unchanged since the last scan are read from the cache, the others parsed.
        // A cached tree passed the default nesting limit, not necessarily a lower one: then every file is parsed.
        boolean treesReusable = limits.get(AnalysisLimits.Limit.NESTING_DEPTH) == AnalysisLimits.Limit.NESTING_DEPTH.defaultValue();
        Optional<TreePack> trees = cacheKey == null || !treesReusable ? Optional.empty()
                : TreePack.open(cacheKey.cache(), root, cacheKey.inputs());
        JavaSourceParser.Result parsed;
        try {
            parsed = parser.parseAll(sources.files(), trees.isPresent() ? trees.get() : TreeStore.NONE,
                    done -> progress.filesParsed(done, total));
            if (trees.isPresent()) {
                commitTrees(cacheKey.cache(), trees.get(), diagnostics);
            }
        } finally {
            trees.ifPresent(TreePack::close);
        }
        int treesFromCache = trees.map(TreePack::reusedTrees).orElse(0);
        diagnostics.addAll(parsed.diagnostics());
        long t2 = lap(timings, "parse", t1);

        FileBudget budget = new FileBudget(parsed.files().stream().map(ParsedFile::path).toList(),
                options.fileTimeLimit(), clock);
        Analysed analysed = analyseTrees(parsed.files(), sources.mapperFiles(), sources.sqlFiles(), options, budget,
                progress, timings, diagnostics, t2);

        List<Finding> sorted = new ArrayList<>(analysed.findings());
        sorted.sort(FINDING_ORDER);
        Suppressions.Result suppression = Suppressions.apply(sorted, parsed.files());
        diagnostics.addAll(suppression.notes());
        // a file given up for time makes the result depend on the machine: the next scan tries again
        boolean givenUpForTime = diagnostics.stream().anyMatch(d -> FileBudget.TOO_SLOW.equals(d.code()));
        if (cacheKey != null) {
            if (!givenUpForTime) {
                List<Diagnostic> computed = diagnostics.subList(discoveryDiagnostics, diagnostics.size());
                store(cacheKey, root, parsed.files().size(), analysed.methods(), analysed.coverage(), suppression, computed,
                        diagnostics);
            }
            diagnostics.addAll(cacheKey.cache().notes());
        }
        diagnostics.sort(DiagnosticOrder.INSTANCE);
        return new AnalysisResult(descriptors, suppression.kept(), diagnostics, root, parsed.files().size(), analysed.methods(),
                timings, suppression.suppressed(), false, treesFromCache, analysed.coverage());
    }

    /** What the analysis of the parsed trees gave: the findings, unsorted, the number of methods, the coverage. */
    record Analysed(List<Finding> findings, int methods, Coverage coverage) {}

    /**
     * Everything after parsing, up to the rules' findings: index, call graph, models, per-method facts
     * and rules, each file's share charged to {@code budget}. The diagnostics it makes (rule failures,
     * SQL fallbacks, files given up for time) are added to {@code diagnostics}.
     */
    Analysed analyseTrees(List<ParsedFile> files, List<Path> mapperFiles, AnalysisOptions options, FileBudget budget,
            ProgressListener progress, LinkedHashMap<String, Long> timings, List<Diagnostic> diagnostics, long since) {
        return analyseTrees(files, mapperFiles, List.of(), options, budget, progress, timings, diagnostics, since);
    }

    /** As above, with the {@code .sql} files the schema model reads DDL from. */
    Analysed analyseTrees(List<ParsedFile> files, List<Path> mapperFiles, List<Path> sqlFiles, AnalysisOptions options,
            FileBudget budget, ProgressListener progress, LinkedHashMap<String, Long> timings,
            List<Diagnostic> diagnostics, long since) {
        List<Rule> active = activeRules(options);
        ProgramIndex index = ProgramIndex.build(files, options.threads(), budget);
        long t3 = lap(timings, "index", since);

        ClasspathTypes classpath = options.classpath().isEmpty() ? ClasspathTypes.NONE
                : SymbolSolverTypes.create(index, options.classpath(), diagnostics);
        CallResolver resolver = new CallResolver(index, new ExpressionTyper(index, classpath), catalogue);
        CallGraph graph = new CallGraphBuilder(index, resolver).build(options.threads(), budget);
        long t4 = lap(timings, "callgraph", t3);

        AnalysisLimits limits = options.limits();
        TransactionModel transactions = new TransactionModel(index, graph, limits);
        MyBatisXml mappers = MyBatisXml.read(mapperFiles, diagnostics, limits);
        SqlFactsSource sql = new SqlFactsSource(index, limits);
        DbOpClassifier classifier = new DbOpClassifier(index, resolver, new EntityModel(index), sql, mappers);
        DdlReader ddl = DdlReader.read(sqlFiles, diagnostics, limits);
        PersistenceModel persistence = new PersistenceModel(index, resolver, classifier, limits, ddl);
        HandlerModel handlers = new HandlerModel(index);
        Reachability reachability = new Reachability(graph, persistence, transactions);
        handlers.usePrivileges(new dev.racelint.analyzer.handlers.PrivilegedEntryPoints(index, handlers, reachability,
                catalogue.authorization()));
        LockModel locks = new LockModel(graph, resolver.typer(), persistence, transactions);
        RetryFacts retries = new RetryFacts(index, resolver.typer(), graph);
        JobFacts jobs = new JobFacts(index, reachability);
        UnfedQueues unfed = new UnfedQueues(index, resolver.typer(), graph, handlers, reachability, catalogue.lists());
        dev.racelint.analyzer.handlers.CommandLineTools tools = new dev.racelint.analyzer.handlers.CommandLineTools(handlers,
                reachability);
        long t5 = lap(timings, "models", t4);
        List<MethodInfo> methods = index.methods();
        // Per-method facts that several rules and the whole-program lock graph read, computed on all
        // cores up front (SQL parsing dominates); each is memoised, so the rule pass only looks them up.
        // A file that has run out of time skips them here; what another file's rules need of them is
        // still computed then, the same as it would have been here.
        forEachMethod(methods, options.threads(), m -> budget.run(fileOf(m), PHASE_DB_OPERATIONS, () -> persistence.ops(m)));
        long t6 = lap(timings, "db operations", t5);
        forEachMethod(methods, options.threads(), m -> budget.run(fileOf(m), PHASE_LOCK_SCOPES, () -> locks.scopesIn(m)));
        long t7 = lap(timings, "lock scopes", t6);
        LockOrderGraph lockOrder = LockOrderGraph.build(graph, locks, limits);
        long t8 = lap(timings, "lock-order graph", t7);
        // Rules run per method on all threads; every model they read is memoised in concurrent maps, and
        // the findings are sorted afterwards, so the result does not depend on the interleaving. What a
        // method reports is kept apart until the end: a file that runs out of time keeps none of it,
        // whichever of its methods happened to be done first.
        AtomicReferenceArray<List<Finding>> reported = new AtomicReferenceArray<>(methods.size());
        AtomicReferenceArray<List<Diagnostic>> failed = new AtomicReferenceArray<>(methods.size());
        AtomicInteger done = new AtomicInteger();
        forEachMethod(methods, options.threads(), method -> {
            try {
                budget.run(fileOf(method), PHASE_RULES, () -> {
                    List<Finding> found = new ArrayList<>();
                    List<Diagnostic> failures = new ArrayList<>();
                    MethodContext context = new MethodContext(method, transactions, persistence, handlers, reachability,
                            locks, lockOrder, retries, jobs);
                    for (Rule rule : active) {
                        try {
                            rule.check(context, found::add);
                        } catch (RuntimeException | StackOverflowError e) {
                            failures.add(new Diagnostic(method.declaringType().file().path(),
                                    method.nameNode().getBegin().map(p -> p.line).orElse(0), 0, Level.WARNING,
                                    "rule-failure", "rule " + rule.descriptor().id() + " failed on " + method.displayName()
                                            + ": " + e.getClass().getSimpleName()));
                        }
                    }
                    if (!found.isEmpty()) {
                        unfed.onlyFromUnfed(method).ifPresent(u -> found.replaceAll(f -> UnfedQueues.asNote(f, u)));
                        tools.onlyFromLauncher(method).ifPresent(t -> found.replaceAll(
                                f -> dev.racelint.analyzer.handlers.CommandLineTools.asNote(f, t)));
                    }
                    reported.set(method.id(), found);
                    failed.set(method.id(), failures);
                });
            } finally {
                progress.methodsAnalysed(done.incrementAndGet(), methods.size());
            }
        });
        Set<Finding> findings = new java.util.HashSet<>();
        dev.racelint.analyzer.handlers.MigrationCode migrations = new dev.racelint.analyzer.handlers.MigrationCode(index);
        int inMigrations = 0;
        for (MethodInfo method : methods) {
            if (reported.get(method.id()) != null && !budget.ranOut(fileOf(method))) {
                if (!reported.get(method.id()).isEmpty() && migrations.contains(method)) {
                    inMigrations += reported.get(method.id()).size();
                } else {
                    findings.addAll(reported.get(method.id()));
                }
                diagnostics.addAll(failed.get(method.id()));
            }
        }
        if (inMigrations > 0) {
            diagnostics.add(new Diagnostic(null, 0, 0, Level.NOTE, Diagnostic.NOT_AN_ENTRY_POINT, inMigrations
                    + (inMigrations == 1 ? " finding" : " findings") + " in Flyway / Liquibase Java migrations left out: a "
                    + "migration runs once per database, under the migration tool's lock, not on users' or messages' requests"));
        }
        long t9 = lap(timings, "rules", t8);
        // after the rules: the per-method facts it counts are memoised by then
        Coverage coverage = new CoverageModel(index, graph, resolver, catalogue, coverageCatalogue, handlers, transactions,
                persistence, classifier).compute(files.stream().map(ParsedFile::path).toList(), sql.stats(),
                mappers.mapperFiles());
        CoverageModel.dataAccessWarning(coverage).ifPresent(diagnostics::add);
        lap(timings, "coverage", t9);
        for (String text : sql.stats().fallbackExamples()) {
            String oneLine = text.replaceAll("\\s+", " ").trim();
            diagnostics.add(new Diagnostic(null, 0, 0, Level.NOTE, Diagnostic.SQL_FALLBACK,
                    "SQL not understood by JSqlParser, read with the token model: "
                            + (oneLine.length() > 160 ? oneLine.substring(0, 160) + "..." : oneLine)));
        }
        diagnostics.addAll(budget.diagnostics());
        return new Analysed(SameDefectMerger.merge(findings, FINDING_ORDER), methods.size(), coverage);
    }

    /** The name of the per-method database-operations step in {@code too-slow} diagnostics. */
    static final String PHASE_DB_OPERATIONS = "database operations";
    /** The name of the per-method lock-scopes step in {@code too-slow} diagnostics. */
    static final String PHASE_LOCK_SCOPES = "lock scopes";
    /** The name of the rule pass in {@code too-slow} diagnostics. */
    static final String PHASE_RULES = "rules";

    private static Path fileOf(MethodInfo method) {
        return method.declaringType().file().path();
    }

    private List<Rule> activeRules(AnalysisOptions options) {
        return rules.stream()
                .filter(r -> options.ruleIds().isEmpty() || options.ruleIds().contains(r.descriptor().id()))
                .toList();
    }

    /**
     * Where and under which hashes this scan's result is cached; null when it cannot be (code or a
     * file unreadable, or the cache refused: then with a warning).
     */
    private CacheEntryKey cacheKey(AnalysisOptions options, Path root, List<Rule> active, SourceDiscovery.Result sources,
            List<Diagnostic> diagnostics) {
        List<Class<?>> code = new ArrayList<>(List.of(Analyzer.class, JavaParser.class, CCJSqlParserUtil.class));
        active.forEach(rule -> code.add(rule.getClass()));
        Optional<String> settings = CacheKey.settings(options, root,
                active.stream().map(r -> r.descriptor().id()).toList(),
                catalogue.fingerprint() + " " + coverageCatalogue.fingerprint(), code);
        if (settings.isEmpty()) {
            return null;
        }
        List<Path> inputFiles = new ArrayList<>(sources.mapperFiles());
        inputFiles.addAll(sources.sqlFiles());
        sources.files().forEach(f -> inputFiles.add(f.path()));
        Optional<CacheKey.Inputs> inputs = CacheKey.inputs(inputFiles, options.threads());
        if (inputs.isEmpty()) {
            return null;
        }
        ScanCache cache;
        try {
            cache = ScanCache.open(options.cacheDirectory(), root);
        } catch (ScanCache.Refused e) {
            diagnostics.add(new Diagnostic(null, 0, 0, Level.WARNING, ScanCache.REFUSED, e.getMessage()));
            return null;
        }
        return new CacheEntryKey(cache, settings.get(), inputs.get());
    }

    /**
     * Writes the entry; a cache that cannot be written leaves a note and the scan's result unchanged.
     * A result with a file outside the root is not cached (a path read back must stay inside it).
     */
    private static void store(CacheEntryKey key, Path root, int files, int methods, Coverage coverage,
            Suppressions.Result suppression, List<Diagnostic> computed, List<Diagnostic> diagnostics) {
        CachedScan scan;
        try {
            scan = CachedScan.of(root, key.settings(), key.inputs().hash(), files, methods, coverage, suppression.kept(),
                    suppression.suppressed(), computed);
        } catch (CachedScan.NotStorable e) {
            return;
        }
        try {
            key.cache().write(scan);
        } catch (IOException | RuntimeException e) {
            diagnostics.add(new Diagnostic(null, 0, 0, Level.NOTE, Diagnostic.CACHE_NOT_WRITTEN,
                    "results not cached in " + key.cache().shownDirectory() + ": " + ScanCache.reason(e)));
        }
    }

    /** Writes this scan's trees for the next; a pack that cannot be written leaves a note, nothing else. */
    private static void commitTrees(ScanCache cache, TreePack trees, List<Diagnostic> diagnostics) {
        try {
            trees.commit();
        } catch (IOException | RuntimeException e) {
            diagnostics.add(new Diagnostic(null, 0, 0, Level.NOTE, Diagnostic.CACHE_NOT_WRITTEN,
                    "syntax trees not cached in " + cache.shownDirectory() + ": " + ScanCache.reason(e)));
        }
    }

    private record CacheEntryKey(ScanCache cache, String settings, CacheKey.Inputs inputs) {}

    /** Runs a memoising per-method computation on {@code threads} threads; failures surface later, in the rule pass. */
    private static void forEachMethod(List<MethodInfo> methods, int threads, java.util.function.Consumer<MethodInfo> task) {
        MethodTasks.forEach(methods, threads, m -> {
            try {
                task.accept(m);
            } catch (RuntimeException | StackOverflowError e) {
                // reported by the rule that needs the fact, with the method's location
            }
        });
    }

    private static long lap(LinkedHashMap<String, Long> timings, String phase, long since) {
        long now = System.nanoTime();
        timings.put(phase, (now - since) / 1_000_000);
        return now;
    }
}
