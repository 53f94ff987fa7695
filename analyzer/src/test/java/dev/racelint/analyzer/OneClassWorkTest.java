package dev.racelint.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.index.FileBudget;
import dev.racelint.analyzer.parse.JavaSourceParser;
import dev.racelint.analyzer.parse.ParsedFile;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.Reporter;
import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleDescriptor;
import dev.racelint.analyzer.tx.TransactionScope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The analysis of one class is near-linear in its methods, counted rather than timed: the class's own
 * node is stepped through (its child list or member list read) a fixed number of times, however many
 * methods it has. A look-up per method that steps over all members (a field by name, a local
 * variable's scope, a walk of the whole file per constant) makes that count grow with the methods,
 * which made a 10 MB one-class file take minutes.
 */
class OneClassWorkTest {

    @Test
    void theClassNodeIsSteppedThroughAFixedNumberOfTimesWhateverItsSize() {
        long small = classReads(100);
        long large = classReads(400);

        assertThat(small).isPositive();
        assertThat(large).as("reads of the class node with 400 method groups, against %d with 100", small)
                .isLessThanOrEqualTo(small + 2);
    }

    /** How often the analysis reads the child or member list of a class of {@code groups} groups of four methods. */
    private static long classReads(int groups) {
        Path file = Path.of("demo", "Big.java").toAbsolutePath();
        CompilationUnit unit = new JavaParser(JavaSourceParser.configuration()).parse(source(groups)).getResult()
                .orElseThrow();
        ClassOrInterfaceDeclaration parsed = unit.getClassByName("Big").orElseThrow();
        CountingClass counting = new CountingClass(parsed);
        unit.getTypes().set(0, counting);
        counting.reads.set(0);

        AnalysisOptions options = new AnalysisOptions(List.of(file), false, List.of(), List.of(), 2, Set.of(),
                AnalysisOptions.DEFAULT_MAX_FILE_BYTES, file.getParent());
        List<Diagnostic> diagnostics = new ArrayList<>();
        Analyzer.Analysed analysed = new Analyzer(List.of(new AskEverything()), ApiCatalogue.builtIn())
                .analyseTrees(List.of(new ParsedFile(file, unit, java.util.Map.of(), false)), List.of(), options,
                        FileBudget.UNLIMITED, ProgressListener.NONE, new LinkedHashMap<>(), diagnostics, System.nanoTime());

        assertThat(analysed.methods()).isEqualTo(4 * groups + 1);
        assertThat(diagnostics).extracting(Diagnostic::code).doesNotContain("rule-failure");
        // the models saw what the class does: each group's transaction reaches the database and the network
        assertThat(analysed.findings()).hasSize(groups);
        return counting.reads.get();
    }

    /** A class with SQL constants, a private field read as SQL, transactions, locks and calls between its methods. */
    private static String source(int groups) {
        StringBuilder text = new StringBuilder("""
                package demo;

                import java.util.List;
                import java.util.Optional;
                import java.util.concurrent.locks.ReentrantLock;
                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.transaction.annotation.Transactional;
                import org.springframework.web.client.RestTemplate;

                public class Big {
                    private final JdbcTemplate jdbc;
                    private final RestTemplate rest;
                    private final ReentrantLock lock = new ReentrantLock();
                    private int counter;
                    private String lastId;
                    private static final String TABLE = "stock";

                    Big(JdbcTemplate jdbc, RestTemplate rest) {
                        this.jdbc = jdbc;
                        this.rest = rest;
                    }
                """);
        for (int i = 0; i < groups; i++) {
            text.append("""

                        private static final String SELECT_{n} = "SELECT qty FROM " + TABLE + " WHERE id = ? AND shard = {n}";
                        private String update{n} = "UPDATE " + TABLE + " SET qty = ? WHERE id = ?";

                        @Transactional
                        public int reserve{n}(String id, int amount) {
                            Integer before = jdbc.queryForObject(SELECT_{n}, Integer.class, id);
                            if (before != null && before >= amount) {
                                jdbc.update(update{n}, before - amount, id);
                                notify{n}(id);
                            }
                            counter++;
                            lastId = id;
                            return Optional.ofNullable(before).map(b -> b + helper{n}(id)).orElse(0);
                        }

                        private void notify{n}(String id) {
                            lock.lock();
                            try {
                                rest.postForObject("https://svc.example.com/items/" + id, id, String.class);
                            } finally {
                                lock.unlock();
                            }
                        }

                        int helper{n}(String id) {
                            List<String> parts = List.of(id, lastId == null ? "" : lastId);
                            for (String p : parts) {
                                if (p.length() > {n}) {
                                    return this.helper{p}(p) + parts.size();
                                }
                            }
                            return id.length();
                        }

                        void handle{n}(String id) {
                            reserve{n}(id, counter);
                        }
                    """.replace("{p}", String.valueOf(Math.max(0, i - 1))).replace("{n}", String.valueOf(i)));
        }
        return text.append("}\n").toString();
    }

    /** The parsed class with the same children, counting the reads of its child and member lists. */
    private static final class CountingClass extends ClassOrInterfaceDeclaration {
        final AtomicLong reads = new AtomicLong();

        CountingClass(ClassOrInterfaceDeclaration parsed) {
            super(parsed.getTokenRange().orElse(null), parsed.getModifiers(), parsed.getAnnotations(), parsed.isInterface(),
                    parsed.getName(), parsed.getTypeParameters(), parsed.getExtendedTypes(), parsed.getImplementedTypes(),
                    parsed.getPermittedTypes(), parsed.getMembers());
        }

        @Override
        public List<Node> getChildNodes() {
            if (reads != null) {
                reads.incrementAndGet();
            }
            return super.getChildNodes();
        }

        @Override
        public NodeList<BodyDeclaration<?>> getMembers() {
            if (reads != null) {
                reads.incrementAndGet();
            }
            return super.getMembers();
        }
    }

    /**
     * Asks the method context everything the rules ask, and reports each transaction that reaches both a
     * database operation and network I/O, so that the models are seen to have done their work.
     */
    private static final class AskEverything implements Rule {
        @Override
        public RuleDescriptor descriptor() {
            return new RuleDescriptor("ask-everything", "AskEverything", "test", "ask-everything", "Test rule.",
                    Level.WARNING, Precision.HIGH, "", List.of(), "none", "");
        }

        @Override
        public void check(MethodContext context, Reporter reporter) {
            context.lockScopes().forEach(context::ioWhileHeld);
            context.lockOrderCycles();
            context.handler();
            context.cacheableSync();
            context.fixedTtlCacheWritesInLoops();
            context.transactionAttribute();
            context.dataFlow().ifPresent(flow -> flow.ops().forEach(op -> flow.controlling(op.call())));
            context.retries();
            context.jobs();
            context.bodyNodes();
            boolean network = false;
            for (TransactionScope scope : context.transactionScopes()) {
                context.effectsIn(scope, EnumSet.allOf(EffectKind.class));
                network |= !context.effectsIn(scope, Set.of(EffectKind.NETWORK)).isEmpty();
            }
            if (network && !context.databaseOperations().isEmpty()) {
                var method = context.method();
                reporter.report(new dev.racelint.analyzer.finding.Finding("ask-everything", Level.WARNING,
                        dev.racelint.analyzer.finding.Message.of(method.displayName()),
                        dev.racelint.analyzer.index.SourceLocations.of(method.declaringType().file().path(),
                                method.nameNode(), null),
                        List.of(), List.of(), "none",
                        dev.racelint.analyzer.finding.Fingerprints.of("ask-everything", method.signature(), "", ""),
                        method.signature()));
            }
        }
    }
}
