package dev.racelint.field;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.racelint.cli.RacelintCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * field/run end to end, with racelint's CLI run in-process: a pinned commit is extracted from a
 * git snapshot, scanned from its root, and its findings scored against the labels; a service
 * without a snapshot is reported, not fatal.
 */
class FieldRunTest {
    private static final String CHECKOUT = """
            package demo;

            import org.springframework.jdbc.core.JdbcTemplate;
            import org.springframework.stereotype.Service;
            import org.springframework.transaction.annotation.Transactional;
            import org.springframework.web.client.RestTemplate;

            @Service
            public class CheckoutService {
                private final JdbcTemplate jdbc;
                private final RestTemplate rest;

                public CheckoutService(JdbcTemplate jdbc, RestTemplate rest) {
                    this.jdbc = jdbc;
                    this.rest = rest;
                }

                @Transactional
                public void checkout(String orderId) {
                    jdbc.update("UPDATE orders SET status = 'PAYING' WHERE id = ?", orderId);
                    rest.postForObject("https://payments.example.com/charges", orderId, String.class);
                }

                @Transactional
                public void refund(String orderId) {
                    jdbc.update("UPDATE orders SET status = 'REFUNDING' WHERE id = ?", orderId);
                    rest.postForObject("https://payments.example.com/refunds", orderId, String.class);
                }
            }
            """;

    @TempDir
    Path temp;

    private Path field;
    private Path snapshots;
    private String commit;

    @BeforeEach
    void corpus() throws Exception {
        field = Files.createDirectories(temp.resolve("project/field"));
        Files.copy(Path.of("extract"), field.resolve("extract"));
        Path rules = Files.createDirectories(temp.resolve("project/docs/rules"));
        for (String rule : List.of("io-in-transaction", "check-then-act")) {
            Files.writeString(rules.resolve(rule + ".md"), "# " + rule + "\n");
        }
        snapshots = Files.createDirectories(temp.resolve("snapshots"));
        Path work = Files.createDirectories(temp.resolve("checkout"));
        Path source = Files.createDirectories(work.resolve("services/orders/src/main/java/demo"));
        Files.writeString(source.resolve("CheckoutService.java"), CHECKOUT);
        git(work, "init", "-q");
        git(work, "add", ".");
        git(work, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "shop");
        commit = git(work, "rev-parse", "HEAD").strip();
        Files.writeString(source.resolve("CheckoutService.java"), "package demo; class CheckoutService {}\n");
        git(work, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-am", "later");
        Files.createDirectories(snapshots.resolve("acme+shop"));
        git(temp, "clone", "-q", "--bare", work.toString(), snapshots.resolve("acme+shop/repo").toString());

        Files.writeString(field.resolve("manifest.tsv"), String.join("\t", Manifest.COLUMNS) + "\n"
                + "acme/shop\t" + commit + "\tservices/orders\tshop\tJdbcTemplate\t-\n"
                + "acme/gone\t" + "0".repeat(40) + "\t.\tpayments\tJPA\tKafka\n");
        Files.writeString(field.resolve("labels.tsv"), String.join("\t", Labels.COLUMNS) + "\n"
                + "acme/shop\tservices/orders/src/main/java/demo/CheckoutService.java\tCheckoutService.checkout\t18-22"
                + "\tio-in-transaction\tTRUE\trecall\tthe charge is made inside the transaction\n"
                + "acme/shop\tservices/orders/src/main/java/demo/CheckoutService.java\tCheckoutService.checkout\t18-22"
                + "\t!check-then-act\tFALSE\trecall\tno read decides a write\n"
                + "acme/gone\tsrc/main/java/Pay.java\tPay.pay\t1-9\tcheck-then-act\tTRUE-LOW\trecall\tnot scanned here\n");
    }

    @Test
    void scoresThePinnedCommitAndListsWhatIsUnlabelledAndWhatIsMissing() throws Exception {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        FieldRun run = new FieldRun(field, new Snapshots(snapshots, temp.resolve("work"), field.resolve("extract")),
                FieldRunTest::inProcess, temp.resolve("work"), new PrintStream(progress, true, StandardCharsets.UTF_8));

        String report = run.report(run.runAll());

        assertThat(report).startsWith("racelint ").contains(" on 1 of 2 services (").contains("3 labels: 2 positive, 1 negative");
        assertThat(report).as("24 non-blank lines: 2 findings are 83.33 per kLOC")
                .contains("| `io-in-transaction` | 2 | 1 | 0 | 0 | 1 | 1.00 (1/1) | 1.00 (1/1) | - | 83.33 |");
        assertThat(report).contains("| `check-then-act` | 0 | 0 | 0 | 0 | 0 | - | - | 0/1 |");
        assertThat(report).containsPattern("\\| acme/shop \\| shop \\| 1 \\| 0\\.0 \\| [0-9.]+ \\| 2 \\| 1 \\| 0 \\| 0 \\| 1 \\| 1/1 \\|");
        assertThat(report).contains("| acme/gone | payments | not scanned: no snapshot acme+gone in snapshots |");
        assertThat(report).contains("### Unlabelled findings (1)")
                .contains("- acme/shop services/orders/src/main/java/demo/CheckoutService.java:25 `io-in-transaction` "
                        + "demo.CheckoutService#refund(String)");
        assertThat(progress.toString(StandardCharsets.UTF_8)).contains("acme/gone: no snapshot acme+gone");
    }

    /** One scan at every level; the default table counts warnings and errors only, the other one the notes too. */
    @Test
    void oneScanGivesTheDefaultTableAndTheTableWithEveryLevel() throws Exception {
        List<List<String>> arguments = new ArrayList<>();
        String finding = "{\"ruleId\": \"%s\", \"level\": \"%s\", \"file\": \"services/orders/src/main/java/demo/"
                + "CheckoutService.java\", \"startLine\": %d}";
        FieldRun run = new FieldRun(field, new Snapshots(snapshots, temp.resolve("work"), field.resolve("extract")),
                (repository, scanned, report) -> {
                    arguments.add(Scanner.arguments(repository, scanned, report));
                    Files.writeString(report, "{\"version\": \"t\", \"summary\": {\"files\": 1}, \"findings\": ["
                            + finding.formatted("io-in-transaction", "error", 20) + ", "
                            + finding.formatted("check-then-act", "note", 20) + "]}");
                    return new Scanner.Outcome(0, "");
                }, temp.resolve("work"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        String report = run.report(run.runAll());

        assertThat(arguments).singleElement().satisfies(a -> assertThat(String.join(" ", a)).contains("--min-level note"));
        String byDefault = report.substring(report.indexOf("Default scan"), report.indexOf("Every level"));
        String everything = report.substring(report.indexOf("Every level"), report.indexOf("Per service"));
        assertThat(byDefault).contains("| `check-then-act` | 0 | 0 | 0 | 0 | 0 | - | - | 0/1 |")
                .contains("| **all** | 1 |");
        assertThat(everything).as("the note sits on the !check-then-act label")
                .contains("| `check-then-act` | 1 | 0 | 0 | 1 | 0 | 0.00 (0/1) | - | 1/1 |").contains("| **all** | 2 |");
        assertThat(report).containsPattern("\\| acme/shop \\| shop \\| 1 \\| 0\\.0 \\| [0-9.]+ \\| 1 \\| 1 \\|");
    }

    /** --only keeps the chosen services and their labels; the verdict lines name each finding's outcome and label. */
    @Test
    void onlyScoresTheChosenServicesAndTheVerdictLinesNameEachOutcome() throws Exception {
        FieldRun run = new FieldRun(field, new Snapshots(snapshots, temp.resolve("work"), field.resolve("extract")),
                FieldRunTest::inProcess, temp.resolve("work"), new PrintStream(new ByteArrayOutputStream(), true,
                        StandardCharsets.UTF_8));
        run.only = java.util.regex.Pattern.compile("shop");

        FieldRun.Results results = run.runAll();
        String report = run.report(results);

        assertThat(report).contains(" on 1 of 1 services (").contains("2 labels: 1 positive, 1 negative")
                .doesNotContain("acme/gone");
        assertThat(FieldRun.verdictLines(results).lines()).first().isEqualTo(
                "repository\trule\tlevel\tfile\tline\toutcome\tlabel");
        assertThat(FieldRun.verdictLines(results)).contains("acme/shop\tio-in-transaction\t")
                .contains("\tTRUE\tthe charge is made inside the transaction\n")
                .contains("\tUNLABELLED\t\n");
    }

    @Test
    void aMistakeInTheLabelsStopsTheRunBeforeAnythingIsScanned() throws IOException {
        Files.writeString(field.resolve("labels.tsv"), String.join("\t", Labels.COLUMNS) + "\n"
                + "acme/shop\tA.java\tA.a\t1-2\tio-in-transaction\tFALSE\trecall\twrong verdict\n");
        FieldRun run = new FieldRun(field, new Snapshots(snapshots, temp.resolve("work"), field.resolve("extract")),
                (repository, scanned, report) -> {
                    throw new AssertionError("nothing is scanned");
                }, temp.resolve("work"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThatThrownBy(run::runAll).isInstanceOf(FieldError.class)
                .hasMessageStartingWith("labels.tsv:2: a rule label's verdict is TRUE or TRUE-LOW");
    }

    private static Scanner.Outcome inProcess(Path repository, Path scanned, Path report) {
        StringWriter err = new StringWriter();
        CommandLine commandLine = RacelintCommand.newCommandLine(new RacelintCommand());
        commandLine.setOut(new PrintWriter(new StringWriter(), true));
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute(Scanner.arguments(repository, scanned, report).toArray(String[]::new));
        return new Scanner.Outcome(code, err.toString());
    }

    private static String git(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        return out;
    }
}
