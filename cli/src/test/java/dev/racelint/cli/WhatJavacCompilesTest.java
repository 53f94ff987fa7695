package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A race hidden from a scanner but not from javac is still found: a call behind an escaped line end
 * in a comment (javac translates unicode escapes before lexing, so the call runs), and a file with
 * NUL bytes where javac accepts them.
 */
class WhatJavacCompilesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A backslash, so that javac compiling this test leaves the escape to the scanned file. */
    private static final String BS = "\\";

    private static final String CALL = "String charge = rest.postForObject(\"https://payments.example.com/charges\", "
            + "orderId, String.class);";

    @TempDir
    Path dir;

    @Test
    void aCallBehindAnEscapedLineEndInACommentIsFoundWhereItIsWritten() throws IOException {
        String audit = "        jdbc.update(\"UPDATE orders SET status = 'PAYING' WHERE id = ?\", orderId); // audit "
                + BS + "u000a " + CALL;
        String hidden = Sources.IO_IN_TRANSACTION.replace("CheckoutService", "HiddenService")
                .replace("        jdbc.update(\"UPDATE orders SET status = 'PAYING' WHERE id = ?\", orderId);\n"
                        + "        " + CALL + "\n", audit + "\n");
        assertThat(hidden).contains(BS + "u000a").doesNotContain("\n        " + CALL);
        Sources.write(dir, "src/main/java/demo/HiddenService.java", hidden);

        Cli.Run json = Cli.run("scan", dir.toString(), "--format", "json", "--fail-on", "none", "--no-cache");
        Cli.Run text = Cli.run("scan", dir.toString(), "--no-cache");

        JsonNode findings = JSON.readTree(json.out()).path("findings");
        assertThat(findings).as(json.toString()).hasSize(1);
        assertThat(findings.get(0).path("ruleId").asText()).isEqualTo("io-in-transaction");
        int callColumn = audit.indexOf("rest.postForObject") + 1;
        JsonNode call = findings.get(0).path("related").get(0);
        assertThat(call.path("label").asText()).contains("postForObject");
        assertThat(call.path("line").asInt()).as("the call's line in the file as written").isEqualTo(20);
        assertThat(call.path("column").asInt()).isEqualTo(callColumn);
        assertThat(text.exitCode()).as(text.toString()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(text.out()).contains("src/main/java/demo/HiddenService.java:19:17: error [io-in-transaction]")
                .contains("RestTemplate.postForObject()")
                .contains("2. src/main/java/demo/HiddenService.java:20  calls RestTemplate.postForObject()");
    }

    @Test
    void aFileWithNulBytesWhereJavacAcceptsThemIsAnalysed() throws IOException {
        String withNul = Sources.IO_IN_TRANSACTION.replace("CheckoutService", "NulService")
                .replace("    @Transactional\n", "    // a \u0000 byte javac skips in a comment\n    @Transactional\n")
                .replace("'PAYING'", "'PAY\u0000ING'");
        Sources.writeBytes(dir, "src/main/java/demo/NulService.java", withNul.getBytes(StandardCharsets.UTF_8));

        Cli.Run json = Cli.run("scan", dir.toString(), "--format", "json", "--fail-on", "none", "--no-cache");

        JsonNode report = JSON.readTree(json.out());
        assertThat(report.path("diagnostics")).as(json.toString()).isEmpty();
        assertThat(report.path("findings")).hasSize(1);
        assertThat(report.path("findings").get(0).path("file").asText()).isEqualTo("src/main/java/demo/NulService.java");
        assertThat(report.path("findings").get(0).path("startLine").asInt()).isEqualTo(20);
    }

    /**
     * javac drops identifier-ignorable characters (JLS 3.8: controls such as U+0001, format
     * characters such as U+00AD and U+200B), raw or escaped, so each of these still calls
     * {@code rest.postForObject} inside {@code @Transactional}.
     */
    @Test
    void identifiersAreComparedWithoutTheCharactersJavacIgnores() throws IOException {
        String call = "rest.postForObject(";
        String annotation = "    @Transactional\n";
        java.util.Map<String, String> hidden = new java.util.TreeMap<>();
        hidden.put("EscapedZeroWidthService", Sources.IO_IN_TRANSACTION
                .replace(call, "rest.post" + BS + "u200bForObject("));
        hidden.put("SoftHyphenService", Sources.IO_IN_TRANSACTION.replace(call, "re\u00adst.postForObject("));
        hidden.put("ControlCharService", Sources.IO_IN_TRANSACTION.replace(call, "rest.postFor\u0001Object("));
        hidden.put("EscapedAnnotationService", Sources.IO_IN_TRANSACTION
                .replace(annotation, "    @Transacti" + BS + "u200bonal\n"));
        hidden.put("TypeNameService", Sources.IO_IN_TRANSACTION
                .replace("import org.springframework.web.client.RestTemplate;",
                        "import org.springframework.web.client.Rest\u2060Template;")
                .replace("private final RestTemplate rest;", "private final Rest\ufeffTemplate rest;"));
        for (var e : hidden.entrySet()) {
            assertThat(e.getValue()).as(e.getKey()).isNotEqualTo(Sources.IO_IN_TRANSACTION);
            Sources.write(dir, "src/main/java/demo/" + e.getKey() + ".java",
                    e.getValue().replace("CheckoutService", e.getKey()));
        }

        Cli.Run json = Cli.run("scan", dir.toString(), "--format", "json", "--fail-on", "none", "--no-cache");

        JsonNode report = JSON.readTree(json.out());
        assertThat(report.path("diagnostics")).as(json.toString()).isEmpty();
        java.util.Map<String, String> found = new java.util.TreeMap<>();
        for (JsonNode finding : report.path("findings")) {
            JsonNode related = finding.path("related").get(0);
            found.put(finding.path("file").asText(), finding.path("ruleId").asText() + " " + finding.path("startLine").asInt()
                    + " " + related.path("line").asInt() + " " + related.path("label").asText().contains("postForObject"));
        }
        java.util.Map<String, String> expected = new java.util.TreeMap<>();
        for (String name : hidden.keySet()) {
            expected.put("src/main/java/demo/" + name + ".java", "io-in-transaction 19 21 true");
        }
        assertThat(found).as(json.toString()).isEqualTo(expected);
    }

    /** javac reads th\u200bis as the keyword; a tree holding a name "this" would hide the call's receiver. */
    @Test
    void aKeywordHiddenTheSameWayIsAParseErrorNotASilentlyCleanFile() throws IOException {
        Sources.write(dir, "src/main/java/demo/KeywordService.java", Sources.IO_IN_TRANSACTION
                .replace("CheckoutService", "KeywordService").replace("rest.postForObject(", "th\u200bis.rest.postForObject("));

        Cli.Run text = Cli.run("scan", dir.toString(), "--no-cache");

        assertThat(text.out()).as(text.toString()).contains("src/main/java/demo/KeywordService.java:21:25: warning [parse-error]")
                .contains("'this'").contains("1 file could not be analysed");
    }

    @Test
    void treesOfEscapedFilesReadFromTheCacheGiveWhatParsingGives() throws IOException {
        String escaped = Sources.IO_IN_TRANSACTION.replace("CheckoutService", "EscapedService")
                .replace("        " + CALL, "        // note " + BS + "u000a " + CALL.replace("rest.", BS + "u0072est."));
        Sources.write(dir, "src/main/java/demo/EscapedService.java", escaped);
        Path cache = dir.resolve("cache");
        Cli.run("scan", dir.toString(), "--format", "json", "--fail-on", "none", "--cache-dir", cache.toString());
        Sources.write(dir, "src/main/java/demo/Clean.java", Sources.CLEAN);

        Cli.Run warm = Cli.run("scan", dir.toString(), "--format", "json", "--fail-on", "none", "--cache-dir",
                cache.toString());
        Cli.Run cold = Cli.run("scan", dir.toString(), "--format", "json", "--fail-on", "none", "--no-cache");

        assertThat(warm.err()).contains("1 of 2 files unchanged since the last scan");
        assertThat(warm.out()).isEqualTo(cold.out());
        assertThat(JSON.readTree(cold.out()).path("findings")).hasSize(1);
    }
}
