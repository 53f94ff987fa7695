package dev.racelint.cli;

import static dev.racelint.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** racelint.yml end to end: rules and levels, excludes, declared APIs, errors with file:line, init. */
class ProjectConfigScanTest {

    /** A team's payments wrapper: its transport is an in-house library racelint cannot see. */
    private static final String PAYMENTS_CLIENT = """
            package com.acme.payments;

            public class PaymentsClient {
                private final com.acme.transport.Channel channel;

                public PaymentsClient(com.acme.transport.Channel channel) {
                    this.channel = channel;
                }

                public String charge(String orderId, long cents) {
                    return channel.call("charge", orderId + ":" + cents);
                }
            }
            """;

    private static final String CHECKOUT = """
            package com.acme.orders;

            import com.acme.payments.PaymentsClient;
            import org.springframework.jdbc.core.JdbcTemplate;
            import org.springframework.stereotype.Service;
            import org.springframework.transaction.annotation.Transactional;

            @Service
            public class CheckoutService {
                private final JdbcTemplate jdbc;
                private final PaymentsClient payments;

                public CheckoutService(JdbcTemplate jdbc, PaymentsClient payments) {
                    this.jdbc = jdbc;
                    this.payments = payments;
                }

                @Transactional
                public void checkout(String orderId, long cents) {
                    jdbc.update("UPDATE orders SET status = 'PAYING' WHERE id = ?", orderId);
                    String charge = payments.charge(orderId, cents);
                    jdbc.update("UPDATE orders SET status = 'PAID', charge = ? WHERE id = ?", charge, orderId);
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void aDeclaredWrapperMakesTheHiddenHttpCallVisible() {
        Sources.write(dir, "src/main/java/com/acme/payments/PaymentsClient.java", PAYMENTS_CLIENT);
        Sources.write(dir, "src/main/java/com/acme/orders/CheckoutService.java", CHECKOUT);

        Cli.Run without = run("scan", dir.toString());
        assertThat(without.exitCode()).as(without.toString()).isZero();
        assertThat(without.report()).isEqualTo("No findings in 2 files.\n");

        Sources.write(dir, "racelint.yml", """
                apis:
                  "com.acme.payments.PaymentsClient#*": http
                """);
        Cli.Run with = run("scan", dir.toString());
        assertThat(with.exitCode()).as(with.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(with.out()).contains("CheckoutService.java:19:17: error [io-in-transaction] checkout()")
                .contains("calls PaymentsClient.charge() (HTTP, declared in racelint.yml)");
        assertThat(with.err()).contains("racelint: config racelint.yml (0 rule settings, 0 excludes, 1 declared API)");
    }

    @Test
    void rulesCanBeSwitchedOffOrChangeLevelAndFilesExcluded() {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Sources.write(dir, "src/main/java/demo/generated/RefundService.java", Sources.IO_IN_TRANSACTION
                .replace("package demo;", "package demo.generated;").replace("CheckoutService", "RefundService"));

        Sources.write(dir, ".racelint.yml", """
                rules:
                  io-in-transaction: warning
                exclude:
                  - "**/generated/**"
                """);
        Cli.Run lowered = run("scan", dir.toString());
        assertThat(lowered.exitCode()).as("a warning does not fail --fail-on error: " + lowered).isZero();
        assertThat(lowered.out()).contains("CheckoutService.java:19:17: warning [io-in-transaction]")
                .doesNotContain("RefundService").endsWith("1 finding (0 errors, 1 warning, 0 notes) in 1 file.\n");

        Sources.write(dir, ".racelint.yml", "rules:\n  io-in-transaction: off\n");
        Cli.Run off = run("scan", dir.toString());
        assertThat(off.report()).isEqualTo("No findings in 2 files.\n");

        Cli.Run ignored = run("scan", dir.toString(), "--no-config");
        assertThat(ignored.out()).contains("2 findings");
    }

    @Test
    void mistakesAreReportedWithFileAndLineAndExitCodeTwo() {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);

        Sources.write(dir, "racelint.yml", "rules:\n  io-in-transaction: warning\nexcludes:\n  - x\nruls:\n  a: off\n");
        Cli.Run unknownKey = run("scan", dir.toString());
        assertThat(unknownKey.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknownKey.err()).contains("racelint.yml:5: unknown key 'ruls' (expected: version, rules, minLevel, exclude, apis, authorization, coverage, limits)");

        Sources.write(dir, "racelint.yml", "rules:\n  io-in-transactoin: off\n");
        assertThat(run("scan", dir.toString()).err()).contains("racelint.yml:2: unknown rule id 'io-in-transactoin'");

        Sources.write(dir, "racelint.yml", "exclude: 3\n");
        assertThat(run("scan", dir.toString()).err()).contains("racelint.yml:1: 'exclude' must be a list of glob patterns");

        Sources.write(dir, "racelint.yml", "apis:\n  \"com.acme.X#y\": telepathy\n");
        assertThat(run("scan", dir.toString()).err()).contains("racelint.yml:2: unknown kind 'telepathy'");

        Sources.write(dir, "racelint.yml", "rules:\n  io-in-transaction: \"off\n");
        Cli.Run broken = run("scan", dir.toString());
        assertThat(broken.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(broken.err()).contains("racelint.yml:").contains("not valid YAML");
    }

    @Test
    void aDeclaredLockIsALockScope() {
        Sources.write(dir, "src/main/java/com/acme/locks/ClusterLock.java", """
                package com.acme.locks;

                public class ClusterLock {
                    public void acquire(String name) { }
                    public void release(String name) { }
                }
                """);
        Sources.write(dir, "src/main/java/com/acme/stock/StockSync.java", """
                package com.acme.stock;

                import com.acme.locks.ClusterLock;
                import org.springframework.web.client.RestTemplate;

                public class StockSync {
                    private final ClusterLock lock;
                    private final RestTemplate rest;

                    public StockSync(ClusterLock lock, RestTemplate rest) {
                        this.lock = lock;
                        this.rest = rest;
                    }

                    public void push(String sku) {
                        lock.acquire("stock");
                        rest.postForObject("https://partner.example.com/stock", sku, String.class);
                        lock.release("stock");
                    }
                }
                """);
        Sources.write(dir, "racelint.yml", """
                apis:
                  "com.acme.locks.ClusterLock#acquire": lock
                  "com.acme.locks.ClusterLock#release": unlock
                """);

        Cli.Run run = run("scan", dir.toString());

        assertThat(run.out()).contains("StockSync.java:16:9: error [lock-across-io] StockSync.push() holds ClusterLock.acquire(\"stock\") while it calls RestTemplate.postForObject()");
    }

    @Test
    void aDeclaredIdempotencyStoreMakesAConsumerIdempotent() {
        Sources.write(dir, "src/main/java/com/acme/idem/KeyStore.java", """
                package com.acme.idem;

                public class KeyStore {
                    public boolean claim(String key) {
                        return true;
                    }
                }
                """);
        Sources.write(dir, "src/main/java/com/acme/billing/PaymentEvents.java", """
                package com.acme.billing;

                import com.acme.idem.KeyStore;
                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.kafka.annotation.KafkaListener;

                public class PaymentEvents {
                    private final JdbcTemplate jdbc;
                    private final KeyStore keys;

                    public PaymentEvents(JdbcTemplate jdbc, KeyStore keys) {
                        this.jdbc = jdbc;
                        this.keys = keys;
                    }

                    @KafkaListener(topics = "payments")
                    public void onPayment(String paymentId) {
                        if (!keys.claim(paymentId)) {
                            return;
                        }
                        jdbc.update("INSERT INTO ledger_entries (payment_id) VALUES (?)", paymentId);
                    }
                }
                """);
        Cli.Run without = run("scan", dir.toString(), "--fail-on", "none");
        assertThat(without.out()).contains("[non-idempotent-consumer] ");

        Sources.write(dir, "racelint.yml", "apis:\n  \"com.acme.idem.KeyStore#claim\": idempotency-store\n");
        Cli.Run with = run("scan", dir.toString(), "--fail-on", "none");
        assertThat(with.report()).isEqualTo("No findings in 2 files.\n");
    }

    @Test
    void aDeclaredTransactionBoundaryPutsItsCallbackInATransaction() {
        Sources.write(dir, "src/main/java/com/acme/tx/UnitOfWork.java", """
                package com.acme.tx;

                import java.util.function.Supplier;

                public class UnitOfWork {
                    public <T> T run(Supplier<T> work) {
                        return work.get();
                    }
                }
                """);
        Sources.write(dir, "src/main/java/com/acme/booking/BookingService.java", """
                package com.acme.booking;

                import com.acme.tx.UnitOfWork;
                import org.springframework.jdbc.core.JdbcTemplate;
                import org.springframework.web.client.RestTemplate;

                public class BookingService {
                    private final UnitOfWork unitOfWork;
                    private final JdbcTemplate jdbc;
                    private final RestTemplate rest;

                    public BookingService(UnitOfWork unitOfWork, JdbcTemplate jdbc, RestTemplate rest) {
                        this.unitOfWork = unitOfWork;
                        this.jdbc = jdbc;
                        this.rest = rest;
                    }

                    public String book(String roomId) {
                        return unitOfWork.run(() -> {
                            jdbc.update("UPDATE rooms SET booked = true WHERE id = ?", roomId);
                            return rest.postForObject("https://channel.example.com/bookings", roomId, String.class);
                        });
                    }
                }
                """);
        assertThat(run("scan", dir.toString()).report()).isEqualTo("No findings in 2 files.\n");

        Sources.write(dir, "racelint.yml", "apis:\n  \"com.acme.tx.UnitOfWork#run\": transaction\n");
        Cli.Run with = run("scan", dir.toString());
        assertThat(with.out()).contains("BookingService.java:").contains("[io-in-transaction]")
                .contains("RestTemplate.postForObject()");
    }

    @Test
    void initWritesAStarterThatScansAsIsAndRefusesToOverwrite() throws Exception {
        Sources.write(dir, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);

        Cli.Run init = run("init", dir.toString());
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(Files.readString(dir.resolve("racelint.yml"))).contains("apis:").contains("idempotency-store");

        Cli.Run scan = run("scan", dir.toString());
        assertThat(scan.exitCode()).as(scan.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(scan.err()).contains("config racelint.yml (0 rule settings, 0 excludes, 0 declared APIs)");

        assertThat(run("init", dir.toString()).exitCode()).isEqualTo(ExitCodes.USAGE);
    }
}
