package dev.racelint.analyzer.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.callgraph.CallGraphBuilder;
import dev.racelint.analyzer.callgraph.CallerClosure;
import dev.racelint.analyzer.effects.ApiCatalogue;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.parse.JavaSourceParser;
import dev.racelint.analyzer.resolve.CallResolver;
import dev.racelint.analyzer.resolve.ClasspathTypes;
import dev.racelint.analyzer.resolve.ExpressionTyper;
import dev.racelint.analyzer.source.SourceDiscovery;
import dev.racelint.analyzer.tx.Propagation;
import dev.racelint.analyzer.tx.ReachedEffect;
import dev.racelint.analyzer.tx.TransactionModel;
import dev.racelint.analyzer.tx.TransactionScope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Focused checks of resolution, the call graph and the transaction model on small programs. */
class EngineTest {

    @TempDir
    Path dir;

    private TransactionModel model;
    private ProgramIndex index;

    private void load(String... sources) throws IOException {
        for (int i = 0; i < sources.length; i++) {
            Files.writeString(dir.resolve("F" + i + ".java"), sources[i]);
        }
        var files = new SourceDiscovery(false, List.of(), Long.MAX_VALUE).discover(List.of(dir)).files();
        var parsed = new JavaSourceParser(2).parseAll(files, n -> { });
        assertThat(parsed.diagnostics()).isEmpty();
        index = ProgramIndex.build(parsed.files());
        CallResolver resolver = new CallResolver(index, new ExpressionTyper(index, ClasspathTypes.NONE), ApiCatalogue.builtIn());
        CallGraph graph = new CallGraphBuilder(index, resolver).build();
        model = new TransactionModel(index, graph);
    }

    /** Loads sources at the given paths under the temp folder (module layouts). */
    private void loadAt(String... pathsAndSources) throws IOException {
        for (int i = 0; i < pathsAndSources.length; i += 2) {
            Path file = dir.resolve(pathsAndSources[i]);
            Files.createDirectories(file.getParent());
            Files.writeString(file, pathsAndSources[i + 1]);
        }
        load();
    }

    private MethodInfo method(String type, String name) {
        return index.type(type).methods().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
    }

    private List<ReachedEffect> ioIn(String type, String name) {
        MethodInfo m = method(type, name);
        return model.scopesIn(m).stream()
                .flatMap(s -> model.effectsIn(s, Set.of(EffectKind.NETWORK, EffectKind.SLEEP)).stream())
                .toList();
    }

    private static final String GATEWAY = """
            package p;
            public interface Gateway { void charge(long cents); }
            """;
    private static final String HTTP_GATEWAY = """
            package p;
            import org.springframework.web.client.RestTemplate;
            public class HttpGateway implements Gateway {
                private final RestTemplate rest = new RestTemplate();
                public void charge(long cents) { rest.postForObject("https://pay", cents, String.class); }
            }
            """;

    @Test
    void aNameDeclaredInTwoModulesMeansTheCopyOfTheWritersModule() throws IOException {
        // Both modules declare p.Storage with different members; the one indexed first (admin) is not
        // the one the billing module compiles against.
        loadAt("admin/src/main/java/p/Storage.java", """
                package p;
                public interface Storage { String url(String key); }
                """,
                "billing/src/main/java/p/Storage.java", """
                package p;
                public interface Storage { void remove(String key); }
                """,
                "billing/src/main/java/p/CloudStorage.java", """
                package p;
                import org.springframework.web.client.RestTemplate;
                public class CloudStorage implements Storage {
                    private final RestTemplate rest = new RestTemplate();
                    public void remove(String key) { rest.delete("https://files/" + key); }
                }
                """,
                "billing/src/main/java/p/AttachmentService.java", """
                package p;
                import org.springframework.transaction.annotation.Transactional;
                public class AttachmentService {
                    private Storage storage;
                    @Transactional
                    public void purge(String key) { storage.remove(key); }
                }
                """);
        assertThat(ioIn("p.AttachmentService", "purge")).hasSize(1);
    }

    @Test
    void interfaceCallsDispatchToProjectImplementations() throws IOException {
        load(GATEWAY, HTTP_GATEWAY, """
                package p;
                import org.springframework.transaction.annotation.Transactional;
                public class Checkout {
                    private final Gateway gateway;
                    Checkout(Gateway g) { this.gateway = g; }
                    @Transactional public void pay() { gateway.charge(5); }
                }
                """);
        List<ReachedEffect> io = ioIn("p.Checkout", "pay");
        assertThat(io).hasSize(1);
        assertThat(io.get(0).site().effect().api()).isEqualTo("RestTemplate.postForObject()");
        assertThat(io.get(0).calls()).extracting(CallEdge::callee).extracting(MethodInfo::displayName)
                .containsExactly("HttpGateway.charge()");
    }

    /** A chain of {@code hops} helper classes, the last calling the HTTP gateway, called from a transaction. */
    private void loadChain(int hops) throws IOException {
        List<String> sources = new java.util.ArrayList<>(List.of(GATEWAY, HTTP_GATEWAY));
        for (int i = 0; i < hops; i++) {
            String next = i + 1 < hops ? "private final Hop" + (i + 1) + " next = new Hop" + (i + 1) + "(); public void run() { next.run(); }"
                    : "private final Gateway gateway = new HttpGateway(); public void run() { gateway.charge(1); }";
            sources.add("package p; public class Hop" + i + " { " + next + " }");
        }
        sources.add("""
                package p;
                import org.springframework.transaction.annotation.Transactional;
                public class Tx {
                    private final Hop0 first = new Hop0();
                    @Transactional public void work() { first.run(); }
                }
                """);
        load(sources.toArray(String[]::new));
    }

    @Test
    void effectsAreFollowedThroughABoundedNumberOfCalls() throws IOException {
        // work -> Hop0 .. Hop3 -> HttpGateway.charge: the transaction's own call, then four more
        loadChain(4);
        assertThat(ioIn("p.Tx", "work")).singleElement()
                .satisfies(e -> assertThat(e.calls()).hasSize(1 + CallerClosure.MAX_WITNESS_CALLS));
        // one hop more: past the bound, a chain that context-insensitive dispatch mostly makes up
        loadChain(5);
        assertThat(ioIn("p.Tx", "work")).isEmpty();
    }

    @Test
    void propagationAndProxyRules() throws IOException {
        load(GATEWAY, HTTP_GATEWAY, """
                package p;
                import org.springframework.transaction.annotation.*;
                public class Svc {
                    private final Gateway gateway; private final Other other;
                    Svc(Gateway g, Other o) { gateway = g; other = o; }
                    @Transactional public void outer() { other.suspended(); other.ownTx(); selfCall(); }
                    @Transactional(propagation = Propagation.NOT_SUPPORTED) public void selfCall() { gateway.charge(1); }
                    @Transactional private void hidden() { gateway.charge(2); }
                    @Transactional public final void finalOne() { gateway.charge(3); }
                }
                """, """
                package p;
                import org.springframework.transaction.annotation.*;
                public class Other {
                    private final Gateway gateway;
                    Other(Gateway g) { gateway = g; }
                    @Transactional(propagation = Propagation.NOT_SUPPORTED) public void suspended() { gateway.charge(4); }
                    @Transactional(propagation = Propagation.REQUIRES_NEW) public void ownTx() { gateway.charge(5); }
                }
                """);
        // selfCall() is invoked on this: its NOT_SUPPORTED is ignored, so its I/O is in outer's transaction.
        assertThat(ioIn("p.Svc", "outer")).hasSize(1);
        assertThat(ioIn("p.Svc", "outer").get(0).calls()).extracting(e -> e.callee().name())
                .containsExactly("selfCall", "charge");
        assertThat(model.attribute(method("p.Svc", "hidden"))).isEmpty();
        assertThat(model.attribute(method("p.Svc", "finalOne"))).isEmpty();
        assertThat(model.attribute(method("p.Other", "ownTx")).orElseThrow().propagation()).isEqualTo(Propagation.REQUIRES_NEW);
        assertThat(ioIn("p.Other", "ownTx")).hasSize(1);
        assertThat(ioIn("p.Other", "suspended")).isEmpty();
    }

    @Test
    void handOffsLeaveTheTransactionButInlineLambdasStay() throws IOException {
        load("""
                package p;
                import java.util.List;
                import java.util.concurrent.*;
                import org.springframework.kafka.core.KafkaTemplate;
                import org.springframework.transaction.annotation.Transactional;
                public class Events {
                    private final ExecutorService executor = Executors.newFixedThreadPool(2);
                    private final KafkaTemplate<String, String> kafka;
                    Events(KafkaTemplate<String, String> k) { kafka = k; }
                    @Transactional public void async(List<String> ids) {
                        executor.submit(() -> kafka.send("t", "x"));
                        CompletableFuture.runAsync(() -> kafka.send("t", "y"));
                    }
                    @Transactional public void inline(List<String> ids) {
                        ids.forEach(id -> kafka.send("t", id));
                    }
                }
                """);
        assertThat(ioIn("p.Events", "async")).isEmpty();
        assertThat(ioIn("p.Events", "inline")).extracting(r -> r.site().effect().api())
                .containsExactly("KafkaTemplate.send()");
    }

    @Test
    void programmaticScopesCoverOnlyTheirRegion() throws IOException {
        load("""
                package p;
                import java.net.http.*;
                import java.sql.Connection;
                import org.springframework.transaction.support.TransactionTemplate;
                public class Jobs {
                    private final TransactionTemplate tx; private final HttpClient http = HttpClient.newHttpClient();
                    Jobs(TransactionTemplate t) { tx = t; }
                    public void template(HttpRequest r) throws Exception {
                        http.send(r, HttpResponse.BodyHandlers.discarding());
                        tx.executeWithoutResult(status -> sleepABit());
                    }
                    void sleepABit() { try { Thread.sleep(10); } catch (InterruptedException e) { } }
                    public void jdbc(Connection c, HttpRequest r) throws Exception {
                        c.setAutoCommit(false);
                        c.commit();
                        http.send(r, HttpResponse.BodyHandlers.discarding());
                    }
                }
                """);
        List<TransactionScope> scopes = model.scopesIn(method("p.Jobs", "template"));
        assertThat(scopes).extracting(TransactionScope::kind).containsExactly(TransactionScope.Kind.CALLBACK);
        assertThat(ioIn("p.Jobs", "template")).extracting(r -> r.site().effect().api()).containsExactly("Thread.sleep()");
        assertThat(model.scopesIn(method("p.Jobs", "jdbc"))).extracting(TransactionScope::kind)
                .containsExactly(TransactionScope.Kind.JDBC);
        assertThat(ioIn("p.Jobs", "jdbc")).isEmpty();
    }

    @Test
    void discoveryLeavesOutTestsAndBuildOutputAndSurvivesLinkLoops() throws IOException {
        Path main = Files.createDirectories(dir.resolve("svc/src/main/java/p"));
        Path test = Files.createDirectories(dir.resolve("svc/src/test/java/p"));
        Path target = Files.createDirectories(dir.resolve("svc/target/generated-sources"));
        Files.writeString(main.resolve("A.java"), "package p; class A {}");
        Files.writeString(test.resolve("ATest.java"), "package p; class ATest {}");
        Files.writeString(target.resolve("G.java"), "class G {}");
        try {
            Files.createSymbolicLink(main.resolve("loop"), dir.resolve("svc"));
        } catch (UnsupportedOperationException | IOException e) {
            // no symlinks on this file system: the rest of the test still applies
        }
        var found = new SourceDiscovery(false, List.of(), Long.MAX_VALUE).discover(List.of(dir)).files();
        assertThat(found).extracting(f -> f.path().getFileName().toString()).containsExactly("A.java");
        var withTests = new SourceDiscovery(true, List.of(), Long.MAX_VALUE).discover(List.of(dir)).files();
        assertThat(withTests).hasSize(2);
        var excluded = new SourceDiscovery(true, List.of("**/test/**"), Long.MAX_VALUE).discover(List.of(dir)).files();
        assertThat(excluded).hasSize(1);
    }
}
