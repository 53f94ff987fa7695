package dev.racelint.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small source trees for the tests. */
final class Sources {
    private Sources() {}

    /** A clean class: nothing for any rule. */
    static final String CLEAN = """
            package demo;

            public class Clean {
                private int count;

                public int next() {
                    return ++count;
                }
            }
            """;

    /** A class with one racy* method (test-racy-method, error) and one shaky* (test-shaky-method, warning). */
    static final String NAMED = """
            package demo;

            public class Named {
                public void racyUpdate() {
                }

                public void shakyRead() {
                }
            }
            """;

    /** Only a shaky* method: a warning from test-shaky-method. */
    static final String SHAKY_ONLY = """
            package demo;

            public class ShakyOnly {
                public void shakyRead() {
                }
            }
            """;

    /** An HTTP call inside a @Transactional method: io-in-transaction. */
    static final String IO_IN_TRANSACTION = """
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
                    String charge = rest.postForObject("https://payments.example.com/charges", orderId, String.class);
                    jdbc.update("UPDATE orders SET status = 'PAID', charge = ? WHERE id = ?", charge, orderId);
                }
            }
            """;

    static Path write(Path root, String relative, String text) {
        return write(root, relative, text, StandardCharsets.UTF_8);
    }

    static Path write(Path root, String relative, String text, Charset charset) {
        return writeBytes(root, relative, text.getBytes(charset));
    }

    static Path writeBytes(Path root, String relative, byte[] bytes) {
        try {
            Path file = root.resolve(relative);
            Files.createDirectories(file.getParent());
            Files.write(file, bytes);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A valid Java file of at least {@code bytes} bytes: one class with many small methods. No
     * comment per method: the parser's comment handling is far slower than its parsing (a 5 MB
     * file with a comment on each method takes over a minute), which this test is not about.
     */
    static String large(String className, int bytes) {
        StringBuilder text = new StringBuilder(bytes + 4096);
        text.append("package demo;\n\npublic class ").append(className).append(" {\n");
        int i = 0;
        while (text.length() < bytes) {
            text.append("    static int step").append(i).append("(int value) {\n")
                    .append("        int mixed = value * 31 + ").append(i).append(";\n")
                    .append("        String label = \"step-").append(i).append("-\" + mixed;\n")
                    .append("        return label.length() > 8 ? mixed ^ (mixed >>> 7) : mixed;\n")
                    .append("    }\n\n");
            i++;
        }
        text.append("}\n");
        return text.toString();
    }

    /** {@code count} generated classes of about 60 KB each under {@code dir/src/main/java/demo}. */
    static void writeLarge(Path dir, int count) {
        for (int i = 0; i < count; i++) {
            write(dir, "src/main/java/demo/Big" + i + ".java", large("Big" + i, 60 * 1024));
        }
    }

    /** racelint's main class in a fresh JVM with this test's class path, output and errors into {@code log}. */
    static ProcessBuilder racelintProcess(java.util.List<String> jvmOptions, Path log, String... args) {
        java.util.List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(java.util.List.of("-cp", System.getProperty("java.class.path"), RacelintCommand.class.getName()));
        command.addAll(java.util.List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    }

    /** Runs git in {@code repo} as a test user (no signing), failing the test on a non-zero exit. */
    static void git(Path repo, String... args) throws IOException, InterruptedException {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("git", "-c", "user.name=racelint-test",
                "-c", "user.email=test@racelint.dev", "-c", "commit.gpgsign=false", "-C", repo.toString()));
        command.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        org.assertj.core.api.Assertions.assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        org.assertj.core.api.Assertions.assertThat(p.exitValue()).as("git " + String.join(" ", args) + ": " + output).isZero();
    }
}
