package dev.racelint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --format html} in a real browser: Debian's chromium, headless. The report of a small racy
 * project is rendered at 420 px wide (the screenshot is kept as
 * {@code target/html-report-screenshot.png}); its DOM must show the finding, the page must log
 * nothing to the console (a blocked fetch or a script error would), request nothing from the
 * network (chromium's NetLog), and fit a narrow window without horizontal scrolling.
 *
 * <p>The browser is looked for at {@code -Dracelint.chromium=/path/to/chrome}, else at the usual
 * places of chromium and Chrome. Without one the test is skipped, so that {@code mvn -B verify} passes
 * on a machine with only a JDK and Maven; CI's {@code .ci/run} installs chromium and sets
 * {@code RACELINT_REQUIRE_BROWSER=1}, which turns a missing browser into a failure.
 */
class HtmlReportBrowserTest {

    private static final List<String> USUAL_PLACES = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser",
            "/snap/bin/chromium", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable",
            "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome");
    private static final Path CHROMIUM = browser();
    private static final long TIMEOUT_SECONDS = 60;
    /** The colour of the error badge and of an error finding's left border (report.css --error). */
    private static final int ERROR_RED = 0xcf222e;

    @TempDir
    Path dir;

    private static Path browser() {
        String given = System.getProperty("racelint.chromium");
        if (given != null) {
            return Path.of(given);
        }
        return USUAL_PLACES.stream().map(Path::of).filter(Files::isExecutable).findFirst()
                .orElse(Path.of(USUAL_PLACES.get(0)));
    }

    @BeforeEach
    void chromiumIsInstalled() {
        boolean required = "1".equals(System.getenv("RACELINT_REQUIRE_BROWSER"))
                || System.getProperty("racelint.chromium") != null;
        // Skipped, not failed, without a browser: the README's test command must pass with a JDK and Maven alone.
        Assumptions.assumeTrue(required || Files.isExecutable(CHROMIUM),
                "no chromium or Chrome found (looked at " + USUAL_PLACES + "): the HTML report's browser test is"
                        + " skipped; install chromium, or pass -Dracelint.chromium=/path/to/chrome");
        assertThat(Files.isExecutable(CHROMIUM))
                .as("chromium is needed for this test and was not found at %s: install it (Debian/Ubuntu: "
                        + "sudo apt-get install -y chromium; .ci/run does this in CI) or pass "
                        + "-Dracelint.chromium=/path/to/chromium", CHROMIUM)
                .isTrue();
    }

    @Test
    void theReportRendersInChromiumWithNoConsoleErrorsAndNoNetwork() throws Exception {
        Path project = dir.resolve("shop");
        Sources.write(project, "src/main/java/demo/CheckoutService.java", Sources.IO_IN_TRANSACTION);
        Path report = Files.createDirectories(dir.resolve("out")).resolve("report.html");
        Cli.Run run = Cli.run("scan", project.toString(), "--format", "html", "--output", report.toString(),
                "--fail-on", "none");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(report).isRegularFile();

        String html = Files.readString(report, StandardCharsets.UTF_8);
        assertThat(html).doesNotContain(project.toString()).doesNotContain(dir.toString());

        // 1. a screenshot of a narrow window, kept in the build output
        Path png = dir.resolve("report.png");
        Browser shot = chromium("--screenshot=" + png, "--window-size=420,900", report.toUri().toString());
        assertThat(shot.exitCode()).as(shot.toString()).isZero();
        assertThat(png).as(shot.toString()).isRegularFile();
        assertThat(Files.size(png)).as("screenshot size").isGreaterThan(8_000);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(420);
        assertThat(pixels(image, ERROR_RED)).as("pixels of the error colour: the inline CSS applied")
                .isGreaterThan(200);
        Path kept = buildDirectory().resolve("html-report-screenshot.png");
        Files.copy(png, kept, StandardCopyOption.REPLACE_EXISTING);

        // 2. the rendered DOM, the console and the network, on the report as written
        Path netLog = dir.resolve("netlog.json");
        Browser dom = chromium("--dump-dom", "--enable-logging=stderr", "--v=0", "--log-net-log=" + netLog,
                report.toUri().toString());
        assertThat(dom.exitCode()).as(dom.toString()).isZero();
        assertThat(dom.out())
                .contains("<h1>racelint report</h1>")
                .contains("<code>io-in-transaction</code>")
                .contains("RestTemplate.postForObject()")
                .contains("class=\"step entry\"")
                .contains("class=\"step effect\"")
                .contains("<mark>checkout</mark>")
                .contains("class=\"rule-page\" href=\"https://github.com/racelint/racelint/blob/main/docs/rules/"
                        + "io-in-transaction.md\"");
        assertThat(consoleMessages(dom.err())).as("console output of the report").isEmpty();
        assertThat(pageRequests(netLog)).as("network requests made by the report").isEmpty();

        // 3. no horizontal scrolling in a narrow window (a copy with a measuring script and no CSP)
        Path probe = dir.resolve("out").resolve("probe.html");
        Files.writeString(probe, html
                .replaceFirst("<meta http-equiv=\"Content-Security-Policy\"[^>]*>\n", "")
                .replace("</body>", "<script>var e = document.documentElement;"
                        + " document.body.setAttribute('data-overflow', String(e.scrollWidth - e.clientWidth));"
                        + " document.body.setAttribute('data-width', String(e.clientWidth));</script></body>"),
                StandardCharsets.UTF_8);
        Browser measured = chromium("--dump-dom", "--window-size=420,900", probe.toUri().toString());
        assertThat(measured.exitCode()).as(measured.toString()).isZero();
        Matcher body = Pattern.compile("<body data-overflow=\"(-?\\d+)\" data-width=\"(\\d+)\">").matcher(measured.out());
        assertThat(body.find()).as(measured.toString()).isTrue();
        assertThat(Integer.parseInt(body.group(2))).as("viewport width (narrow layout below 640 px)").isLessThan(640);
        assertThat(Integer.parseInt(body.group(1))).as("horizontal overflow in px").isZero();
    }

    /** The console and network checks above do see a page that logs an error and fetches from outside. */
    @Test
    void theChecksCatchAPageThatMisbehaves() throws Exception {
        Path bad = dir.resolve("bad.html");
        Files.writeString(bad, "<!DOCTYPE html><html><head><title>bad</title></head><body><p>bad</p>"
                + "<img src=\"https://example.invalid/pixel.png\"><script>missingFunction();</script></body></html>",
                StandardCharsets.UTF_8);
        Path netLog = dir.resolve("bad-netlog.json");

        Browser run = chromium("--dump-dom", "--enable-logging=stderr", "--v=0", "--log-net-log=" + netLog,
                bad.toUri().toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(consoleMessages(run.err())).as(run.toString()).anyMatch(line -> line.contains("Uncaught"));
        assertThat(pageRequests(netLog)).contains("https://example.invalid/pixel.png");
    }

    // ---- chromium

    record Browser(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "chromium exit " + exitCode + "\n--- stdout\n" + cut(out) + "\n--- stderr\n" + cut(err);
        }

        private static String cut(String text) {
            return text.length() > 4000 ? text.substring(0, 4000) + "..." : text;
        }
    }

    /** Runs headless chromium with a fresh profile, no sandbox (root in CI) and no DNS (nothing leaves the machine). */
    private Browser chromium(String... args) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(dir, "profile");
        Path out = Files.createTempFile(dir, "chromium", ".out");
        Path err = Files.createTempFile(dir, "chromium", ".err");
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + profile));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().put("HOME", dir.toString());
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            fail("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + command);
        }
        return new Browser(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /**
     * What the page wrote to the console: chromium logs each message (console.log/error, uncaught
     * exceptions, refused fetches) with {@code --enable-logging=stderr} as {@code ...:CONSOLE...] "text", source: ...}.
     */
    private static List<String> consoleMessages(String stderr) {
        List<String> lines = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            if (line.contains(":CONSOLE") || line.contains("Uncaught")) {
                lines.add(line);
            }
        }
        return lines;
    }

    /**
     * The URLs the page asked the network for: NetLog requests made on behalf of a {@code file://}
     * page (chromium's own background requests have another isolation key).
     */
    private static List<String> pageRequests(Path netLog) throws IOException {
        assertThat(netLog).as("chromium's NetLog").isRegularFile();
        String text = Files.readString(netLog, StandardCharsets.UTF_8).strip();
        if (!text.endsWith("}")) {          // a NetLog cut short at exit lacks its closing brackets
            text = text.replaceAll(",\\s*$", "") + "]}";
        }
        JsonNode log = new ObjectMapper().readTree(text);
        List<String> urls = new ArrayList<>();
        for (JsonNode event : log.path("events")) {
            JsonNode params = event.path("params");
            String url = params.path("url").asText("");
            String isolation = params.path("network_isolation_key").asText("");
            if (!url.startsWith("file:") && !url.isEmpty() && isolation.startsWith("file://")
                    && !urls.contains(url)) {
                urls.add(url);
            }
        }
        return urls;
    }

    /** Pixels within a few shades of {@code rgb} on each channel (colour management may shift them). */
    private static int pixels(BufferedImage image, int rgb) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int p = image.getRGB(x, y);
                if (Math.abs(((p >> 16) & 0xff) - ((rgb >> 16) & 0xff)) <= 12
                        && Math.abs(((p >> 8) & 0xff) - ((rgb >> 8) & 0xff)) <= 12
                        && Math.abs((p & 0xff) - (rgb & 0xff)) <= 12) {
                    n++;
                }
            }
        }
        return n;
    }

    /** {@code cli/target}: the folder that holds the test classes. */
    private static Path buildDirectory() throws URISyntaxException {
        return Path.of(HtmlReportBrowserTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .getParent();
    }
}
