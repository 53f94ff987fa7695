package dev.racelint.analyzer.report;

import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.rule.Precision;
import dev.racelint.analyzer.rule.RuleDescriptor;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Hand-built scan reports for the writer tests (no analysis involved). */
public final class ReportFixtures {

    /** A root with a space, so that the %SRCROOT% URI needs encoding too. */
    public static final Path ROOT = Path.of("/work/acme shop").toAbsolutePath();
    public static final Path ORDER_SERVICE = ROOT.resolve("src/main/java/com/acme/OrderService.java");
    public static final Path RISK_CLIENT = ROOT.resolve("src/main/java/com/acme/RiskClient.java");
    /** A path with a space and a non-ASCII character. */
    public static final Path CAFE = ROOT.resolve("src/main/java/com/acme/My Orders/Café.java");
    public static final Path BROKEN = ROOT.resolve("src/main/java/com/acme/Broken.java");
    public static final Path HUGE = ROOT.resolve("src/main/java/com/acme/Generated.java");

    public static final RuleDescriptor IO_IN_TRANSACTION = new RuleDescriptor(
            "io-in-transaction", "IoInTransaction", "transaction boundaries",
            "Remote call inside a database transaction",
            "Flags HTTP, messaging and other remote calls made while a database transaction is open."
                    + " The transaction holds its locks while waiting on the network, and the remote"
                    + " side effect cannot be rolled back.",
            Level.ERROR, Precision.HIGH, "362",
            List.of("concurrency", "external/cwe/cwe-362", "transactions"),
            "Move the remote call out of the transaction, or use an outbox.",
            "# Remote call inside a database transaction\n\nA remote call inside `@Transactional`...\n\n"
                    + "```java\n@Transactional\nvoid place() { http.send(req); }\n```\n");

    public static final RuleDescriptor RETRY_NOT_IDEMPOTENT = new RuleDescriptor(
            "retry-not-idempotent", "retry_not_idempotent", "retries",
            "Retried operation is not idempotent",
            "Flags retry loops and @Retryable methods whose body performs a non-idempotent write.",
            Level.WARNING, Precision.MEDIUM, "",
            List.of("concurrency", "retries"),
            "Make the write idempotent (unique key, upsert) before retrying it.",
            "# Retried operation is not idempotent\n\nRetries replay the write.\n");

    private ReportFixtures() {}

    /** What {@code writer} writes for {@code report}. */
    public static String render(ReportWriter writer, ScanReport report) {
        StringWriter out = new StringWriter();
        try {
            writer.write(report, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Source lines of the fixture files. */
    public static final class Sources implements ScanReport.SourceLines {
        private final Map<Path, Map<Integer, String>> lines = new HashMap<>();

        public Sources put(Path file, int line, String text) {
            lines.computeIfAbsent(file, f -> new HashMap<>()).put(line, text);
            return this;
        }

        @Override
        public Optional<String> line(Path file, int line) {
            return Optional.ofNullable(lines.getOrDefault(file, Map.of()).get(line));
        }
    }

    public static Sources sources() {
        return new Sources()
                .put(ORDER_SERVICE, 42, "    public Receipt placeOrder(OrderRequest request) {")
                .put(ORDER_SERVICE, 45, "        Risk risk = riskClient.assess(request);")
                .put(ORDER_SERVICE, 50, "        audit.send(event);")
                .put(ORDER_SERVICE, 60, "            audit.send(event);   ")
                .put(ORDER_SERVICE, 70, "        repository.save(order)")
                .put(RISK_CLIENT, 30, "        return http.send(request, BodyHandlers.ofString());")
                .put(CAFE, 12, "\t\tpayments.charge(order);\t// retried")
                .put(CAFE, 20, "\tcafé.brew(\"☕\", 𝄞note);");
    }

    /** The full report: two rules, four findings, three diagnostics, a SARIF category. */
    public static ScanReport report() {
        return new ScanReport("0.1.0-SNAPSHOT",
                List.of(IO_IN_TRANSACTION, RETRY_NOT_IDEMPOTENT),
                List.of(ioFinding(), cafeFinding(), auditFinding(50, 9, "a1"), auditFinding(60, 13, "a2"),
                        multiLineFinding()),
                List.of(new Diagnostic(BROKEN, 7, 13, Level.ERROR, "parse-error", "';' expected"),
                        new Diagnostic(HUGE, 0, 0, Level.WARNING, "file-too-large",
                                "skipped: 3 MB is over the 1 MB limit"),
                        new Diagnostic(null, 0, 0, Level.NOTE, "classpath",
                                "no classpath given: library types are resolved by name")),
                ROOT, "racelint", 41, sources());
    }

    /** No findings and no diagnostics. */
    public static ScanReport emptyReport() {
        return new ScanReport("0.1.0-SNAPSHOT", List.of(IO_IN_TRANSACTION, RETRY_NOT_IDEMPOTENT),
                List.of(), List.of(), ROOT, null, 41, sources());
    }

    public static Finding ioFinding() {
        CodeLocation http = new CodeLocation(RISK_CLIENT, new SourceRegion(30, 16, 30, 25),
                "HttpClient.send() (HTTP)");
        Message message = Message.builder()
                .text("placeOrder() runs inside a transaction and calls ")
                .link("HttpClient.send() (HTTP)", 0)
                .text(" via RiskClient.assess(): the transaction stays open while waiting.")
                .build();
        return new Finding("io-in-transaction", Level.ERROR, message,
                new CodeLocation(ORDER_SERVICE, new SourceRegion(42, 20, 42, 30), null),
                List.of(http),
                List.of(new CodeLocation(ORDER_SERVICE, new SourceRegion(42, 5, 42, 11),
                                "placeOrder() starts a transaction (@Transactional)"),
                        new CodeLocation(ORDER_SERVICE, new SourceRegion(45, 21, 45, 47),
                                "calls RiskClient.assess()"),
                        http.withLabel("calls HttpClient.send() (HTTP)")),
                "Move the remote call out of the transaction, or use an outbox.",
                "f3a1c0de00000001", "com.acme.OrderService.placeOrder(OrderRequest)");
    }

    /** In a file whose name has a space and a non-ASCII character; brackets in the message. */
    public static Finding cafeFinding() {
        Message message = Message.builder()
                .text("payments.charge(order) is retried by ")
                .link("@Retryable", 0)
                .text(" but writes items[0] each time; see also ")
                .link("the second write", 1)
                .text(".")
                .build();
        return new Finding("retry-not-idempotent", Level.WARNING, message,
                new CodeLocation(CAFE, new SourceRegion(12, 3, 12, 25), null),
                List.of(new CodeLocation(CAFE, new SourceRegion(5, 5, 5, 15), "@Retryable"),
                        new CodeLocation(CAFE, new SourceRegion(20, 2, 20, 10), "second write")),
                List.of(),
                "Make the write idempotent (unique key, upsert) before retrying it.",
                "c4fe000000000002", "com.acme.Café.order()");
    }

    /** Two of these (lines 50 and 60) have the same normalised line text. */
    public static Finding auditFinding(int line, int column, String fingerprint) {
        return new Finding("io-in-transaction", Level.NOTE,
                Message.of("audit.send() is a message publish inside the transaction."),
                new CodeLocation(ORDER_SERVICE, new SourceRegion(line, column, line, column + 10), null),
                List.of(), List.of(), "Publish after commit.", fingerprint,
                "com.acme.OrderService.placeOrder(OrderRequest)");
    }

    // ---- a report written by an attacker: every string from the scanned tree is hostile

    /**
     * What a pull request can put into file names, identifiers (Java allows the identifier-ignorable
     * controls), string literals and comments to turn a report against its reader: ESC sequences
     * (clear screen, an OSC 8 hyperlink ended by BEL), backspaces, a carriage return, DEL, the C1
     * controls NEL and CSI, a bidi override and isolate ("Trojan Source"), a line separator, and
     * a markdown link.
     */
    public static final String HOSTILE = "\u001b[2J\u001b]8;;https://evil.example/\u0007ok\u001b]8;;\u0007"
            + "\b\b\r\u007f\u0085\u009b31m\u202e\u2066\u2028[Click to approve](https://evil.example/phish)";
    /** The raw characters of {@link #HOSTILE} that must never reach a report as they are. */
    public static final List<String> HOSTILE_CHARACTERS = List.of("\u001b", "\u0007", "\b", "\r", "\u007f",
            "\u0085", "\u009b", "\u202e", "\u2066", "\u2028");
    /** A file whose name holds control and bidi characters (no {@code /}: one name). */
    public static final Path HOSTILE_FILE = ROOT.resolve(
            "src/main/java/com/acme/Evil\u001b[8m\u0007\b\r\u202eavaj.java");
    /** A file outside the source root, named by a diagnostic. */
    public static final Path SECRET = Path.of("/home/runner/.secret/credentials").toAbsolutePath();

    /** One finding and two diagnostics whose every string from the tree carries {@link #HOSTILE}. */
    public static ScanReport hostileReport() {
        CodeLocation call = new CodeLocation(HOSTILE_FILE, new SourceRegion(5, 3, 5, 9), "calls send" + HOSTILE + "()");
        Message message = Message.builder()
                .text("run" + HOSTILE + "() runs in a transaction and calls ")
                .link("send" + HOSTILE + "()", 0)
                .text(" " + HOSTILE)
                .build();
        Finding finding = new Finding("io-in-transaction", Level.ERROR, message,
                new CodeLocation(HOSTILE_FILE, new SourceRegion(3, 30, 3, 40), null),
                List.of(call),
                List.of(new CodeLocation(HOSTILE_FILE, new SourceRegion(3, 5, 3, 22), "run" + HOSTILE + "() starts"),
                        call),
                "fix " + HOSTILE, "ffff000000000001", "com.acme.Evil.run" + HOSTILE + "()");
        Sources sources = new Sources()
                .put(HOSTILE_FILE, 3, "    rest.postForObject(url, \"" + HOSTILE + "\", body);")
                .put(HOSTILE_FILE, 5, "\t\tsend" + HOSTILE + "();");
        List<Diagnostic> diagnostics = List.of(
                new Diagnostic(HOSTILE_FILE, 3, 1, Level.WARNING, "parse-error", "unexpected " + HOSTILE),
                new Diagnostic(SECRET, 0, 0, Level.WARNING, "unreadable", "cannot read " + SECRET
                        + ": AccessDeniedException; results not cached in " + ROOT.resolve(".racelint/cache")
                        + " (see ../../../../secret/credentials)."),
                // diff mode's notes quote the suppression's reason from the tree; SARIF makes them results
                new Diagnostic(HOSTILE_FILE, 4, 1, Level.NOTE, Diagnostic.SUPPRESSION_ADDED,
                        "// racelint:ignore added by this change; reason given: \"" + HOSTILE + "\""));
        return new ScanReport("0.1.0", List.of(IO_IN_TRANSACTION), List.of(finding), diagnostics, ROOT, null, 1, sources);
    }

    /** A finding at column 150,001 of a 200,000-character line of {@code HUGE}. */
    public static ScanReport longLineReport() {
        String line = "x".repeat(150_000) + "http.send(request)" + "y".repeat(200_000 - 150_018);
        CodeLocation send = new CodeLocation(HUGE, new SourceRegion(1, 150_001, 1, 150_019),
                "calls " + "z".repeat(100_000));
        Finding finding = new Finding("io-in-transaction", Level.ERROR,
                Message.builder().text("calls ").link("z".repeat(100_000), 0).build(),
                new CodeLocation(HUGE, new SourceRegion(1, 150_001, 1, 150_019), null), List.of(send), List.of(send),
                "fix", "1000000000000001", "com.acme.Generated.run()");
        return new ScanReport("0.1.0", List.of(IO_IN_TRANSACTION), List.of(finding), List.of(), ROOT, null, 1,
                new Sources().put(HUGE, 1, line));
    }

    public static Finding multiLineFinding() {
        return new Finding("io-in-transaction", Level.ERROR,
                Message.of("The save spans lines."),
                new CodeLocation(ORDER_SERVICE, new SourceRegion(70, 9, 72, 4), null),
                List.of(), List.of(), "", "m1", "com.acme.OrderService.save()");
    }
}
