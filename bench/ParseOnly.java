import dev.racelint.analyzer.AnalysisOptions;
import dev.racelint.analyzer.parse.JavaSourceParser;
import dev.racelint.analyzer.source.SourceDiscovery;
import dev.racelint.analyzer.source.SourceFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor of the benchmark (see bench/run and docs/performance.md): finds the .java files exactly as
 * {@code racelint scan} does (its own {@link SourceDiscovery}, default size limit, no excludes) and
 * parses them with racelint's own {@link JavaSourceParser} (same JavaParser configuration, same worker
 * pool, ASTs kept until the end as the scan keeps them), and nothing else.
 *
 * <pre>
 *   java -cp cli/target/racelint.jar bench/ParseOnly.java [--threads N] [--include-tests]
 *        [--list FILE] [--list-only] PATH...
 * </pre>
 *
 * {@code --list FILE} writes the discovered files, one absolute path a line (the list PMD is given);
 * {@code --list-only} stops there and prints {@code files=N lines=N bytes=N} instead of parsing.
 * Otherwise it prints {@code files=N parsed=N skipped=N parse_ms=N} on stdout.
 */
public final class ParseOnly {

    public static void main(String[] args) throws IOException {
        int threads = Runtime.getRuntime().availableProcessors();
        boolean includeTests = false;
        boolean listOnly = false;
        Path list = null;
        List<Path> roots = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--threads" -> threads = Integer.parseInt(value(args, ++i, "--threads"));
                case "--include-tests" -> includeTests = true;
                case "--list" -> list = Path.of(value(args, ++i, "--list"));
                case "--list-only" -> listOnly = true;
                default -> {
                    if (args[i].startsWith("-")) {
                        usage("unknown option " + args[i]);
                    }
                    roots.add(Path.of(args[i]));
                }
            }
        }
        if (roots.isEmpty()) {
            usage("no PATH given");
        }

        long start = System.nanoTime();
        SourceDiscovery.Result found = new SourceDiscovery(includeTests, List.of(), AnalysisOptions.DEFAULT_MAX_FILE_BYTES)
                .discover(roots);
        List<SourceFile> files = found.files();
        if (list != null) {
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(list, StandardCharsets.UTF_8))) {
                for (SourceFile f : files) {
                    out.println(f.path());
                }
            }
        }
        if (listOnly) {
            long lines = 0;
            long bytes = 0;
            for (SourceFile f : files) {
                long[] counted = countLines(f.path());
                lines += counted[0];
                bytes += counted[1];
            }
            System.out.println("files=" + files.size() + " lines=" + lines + " bytes=" + bytes);
            return;
        }

        int parsedCount = new JavaSourceParser(threads).parseAll(files, done -> { }).files().size();
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("files=" + files.size() + " parsed=" + parsedCount
                + " skipped=" + (files.size() - parsedCount) + " parse_ms=" + millis);
    }

    /** Lines (a last line without a newline counts) and bytes of one file; unreadable files count 0. */
    private static long[] countLines(Path file) {
        long lines = 0;
        long bytes = 0;
        int last = '\n';
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        lines++;
                    }
                }
                bytes += n;
                last = buffer[n - 1];
            }
        } catch (IOException e) {
            return new long[] {0, 0};
        }
        if (last != '\n') {
            lines++;
        }
        return new long[] {lines, bytes};
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            usage(option + " needs a value");
        }
        return args[i];
    }

    private static void usage(String problem) {
        System.err.println("ParseOnly: " + problem);
        System.err.println("usage: ParseOnly [--threads N] [--include-tests] [--list FILE] [--list-only] PATH...");
        System.exit(2);
    }
}
