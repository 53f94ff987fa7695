package dev.racelint.analyzer.parse;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Problem;
import com.github.javaparser.ast.CompilationUnit;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.source.SourceFile;
import dev.racelint.analyzer.source.SourceText;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Parses source files in parallel. A file that cannot be read, decoded or parsed becomes a
 * diagnostic and is left out; nothing a file contains can stop the scan.
 */
public final class JavaSourceParser {

    private final int threads;

    public JavaSourceParser(int threads) {
        this.threads = Math.max(1, threads);
    }

    public record Result(List<ParsedFile> files, List<Diagnostic> diagnostics) {}

    public Result parseAll(List<SourceFile> sources, IntConsumer progress) {
        ParsedFile[] parsed = new ParsedFile[sources.size()];
        List<Diagnostic> diagnostics = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger done = new AtomicInteger();
        ThreadLocal<JavaParser> parsers = ThreadLocal.withInitial(() -> new JavaParser(configuration()));
        ForkJoinPool pool = new ForkJoinPool(threads);
        try {
            pool.submit(() -> java.util.stream.IntStream.range(0, sources.size()).parallel().forEach(i -> {
                parsed[i] = parseOne(parsers.get(), sources.get(i), diagnostics);
                progress.accept(done.incrementAndGet());
            })).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("parsing interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("parsing failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
        List<ParsedFile> files = new ArrayList<>();
        for (ParsedFile p : parsed) {
            if (p != null) {
                files.add(p);
            }
        }
        List<Diagnostic> sorted = new ArrayList<>(diagnostics);
        sorted.sort(DiagnosticOrder.INSTANCE);
        return new Result(files, sorted);
    }

    public static ParserConfiguration configuration() {
        return new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_25)
                .setStoreTokens(true)
                .setAttributeComments(false);
    }

    private static ParsedFile parseOne(JavaParser parser, SourceFile source, List<Diagnostic> diagnostics) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(source.path());
        } catch (IOException | SecurityException e) {
            diagnostics.add(new Diagnostic(source.path(), 0, 0, Level.WARNING, "unreadable",
                    "cannot read: " + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + e.getMessage())));
            return null;
        }
        SourceText text = SourceText.decode(bytes);
        if (text.binary()) {
            diagnostics.add(new Diagnostic(source.path(), 0, 0, Level.WARNING, "binary-file",
                    "skipped: the file holds NUL bytes, so it is not Java source"));
            return null;
        }
        if (text.fallback()) {
            diagnostics.add(new Diagnostic(source.path(), 0, 0, Level.NOTE, "encoding",
                    "not valid UTF-8; read as ISO-8859-1"));
        }
        try {
            ParseResult<CompilationUnit> result = parser.parse(text.text());
            if (result.isSuccessful() && result.getResult().isPresent()) {
                return new ParsedFile(source.path(), result.getResult().get());
            }
            Problem first = result.getProblems().isEmpty() ? null : result.getProblems().get(0);
            int line = 0;
            int column = 0;
            if (first != null && first.getLocation().isPresent()) {
                var begin = first.getLocation().get().getBegin().getRange();
                if (begin.isPresent()) {
                    line = begin.get().begin.line;
                    column = begin.get().begin.column;
                }
            }
            String why = first == null ? "unknown syntax error" : firstLine(first.getMessage());
            diagnostics.add(new Diagnostic(source.path(), line, column, Level.WARNING, "parse-error",
                    "does not parse, skipped: " + why));
            return null;
        } catch (StackOverflowError e) {
            diagnostics.add(new Diagnostic(source.path(), 0, 0, Level.WARNING, "too-deep",
                    "skipped: nesting too deep to parse"));
            return null;
        } catch (RuntimeException e) {
            diagnostics.add(new Diagnostic(source.path(), 0, 0, Level.WARNING, "parse-error",
                    "does not parse, skipped: " + e.getClass().getSimpleName()));
            return null;
        }
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
