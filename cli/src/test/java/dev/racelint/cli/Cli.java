package dev.racelint.cli;

import dev.racelint.analyzer.rule.Rule;
import dev.racelint.analyzer.rule.RuleRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine;

/** Runs the racelint command in-process and captures what it prints. */
final class Cli {

    private static final String SERVICES = "META-INF/services/" + Rule.class.getName();

    /** What one run printed and returned. */
    record Run(int exitCode, String out, String err) {
        /** What the scan printed to stdout without its coverage line, for tests about the rest. */
        String report() {
            return withoutCoverage(out);
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    private Cli() {}

    /** A text report without its "Understood: ..." coverage line (CoverageScanTest checks that line). */
    static String withoutCoverage(String text) {
        return text.replaceAll("(?m)^Understood: .*\\n", "");
    }

    /** The installed rules (the racelint-rules module), as the real command loads them. */
    static Supplier<RuleRegistry> installedRules() {
        return () -> RuleRegistry.load(Cli.class.getClassLoader());
    }

    /** Only the test rules: test-racy-method (error) and test-shaky-method (warning). */
    static Supplier<RuleRegistry> testRules() {
        return () -> RuleRegistry.load(loader(false));
    }

    /** The installed rules plus the test rules. */
    static Supplier<RuleRegistry> installedAndTestRules() {
        return () -> RuleRegistry.load(loader(true));
    }

    static Run run(String... args) {
        return run(installedRules(), args);
    }

    static Run run(Supplier<RuleRegistry> rules, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = RacelintCommand.newCommandLine(new RacelintCommand(rules));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /**
     * A class loader whose rule service files are the test ones (test-rules/META-INF/services/...),
     * with or without the installed ones; classes and other resources come from the test class path.
     */
    private static ClassLoader loader(boolean withInstalled) {
        return new ClassLoader(Cli.class.getClassLoader()) {
            @Override
            public Enumeration<URL> getResources(String name) throws IOException {
                if (!name.equals(SERVICES)) {
                    return super.getResources(name);
                }
                List<URL> urls = new ArrayList<>(Collections.list(getParent().getResources("test-rules/" + name)));
                if (withInstalled) {
                    urls.addAll(Collections.list(getParent().getResources(name)));
                }
                return Collections.enumeration(urls);
            }
        };
    }
}
