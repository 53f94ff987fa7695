package dev.racelint.analyzer.parse;

import com.github.javaparser.JavaParser;
import com.github.javaparser.JavaToken;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParseStart;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Position;
import com.github.javaparser.Problem;
import com.github.javaparser.StringProvider;
import com.github.javaparser.UnicodeEscapeProcessingProvider;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.expr.LiteralStringValueExpr;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.source.IoProblems;
import dev.racelint.analyzer.source.SourceFile;
import dev.racelint.analyzer.source.SourceText;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Parses source files in parallel. A file that cannot be read, decoded or parsed becomes a
 * diagnostic and is left out; nothing a file contains can stop the scan.
 */
public final class JavaSourceParser {

    /** How long one file may take to parse before it is given up (a pathological file must not stall the scan). */
    public static final Duration DEFAULT_FILE_TIME_LIMIT = Duration.ofSeconds(60);

    private static final int PENDING = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;
    private static final int ABANDONED = 3;

    private final int threads;
    private final long limitNanos;
    /** The deepest bracket nesting parsed ({@code nesting-depth}). */
    private final int maxNesting;

    public JavaSourceParser(int threads) {
        this(threads, DEFAULT_FILE_TIME_LIMIT);
    }

    public JavaSourceParser(int threads, Duration fileTimeLimit) {
        this(threads, fileTimeLimit, NestingDepth.MAX_NESTING);
    }

    /** As {@link #JavaSourceParser(int, Duration)}, refusing files whose brackets nest deeper than {@code maxNesting}. */
    public JavaSourceParser(int threads, Duration fileTimeLimit, int maxNesting) {
        this.threads = Math.max(1, threads);
        this.limitNanos = fileTimeLimit.toNanos();
        this.maxNesting = maxNesting;
    }

    public record Result(List<ParsedFile> files, List<Diagnostic> diagnostics) {}

    /**
     * Parses on {@code threads} workers. A file that runs past the time limit is given up: it
     * becomes a {@code too-slow} diagnostic, its worker is left to finish on its own (a parser
     * cannot be interrupted) and a fresh worker takes its slot, so the scan goes on at full width.
     */
    public Result parseAll(List<SourceFile> sources, IntConsumer progress) {
        return parseAll(sources, TreeStore.NONE, progress);
    }

    /**
     * As {@link #parseAll(List, IntConsumer)}, taking each file's tree from {@code store} when it has
     * one for the file's contents, and offering it every tree parsed cleanly.
     */
    public Result parseAll(List<SourceFile> sources, TreeStore store, IntConsumer progress) {
        int n = sources.size();
        ParsedFile[] parsed = new ParsedFile[n];
        List<Diagnostic> diagnostics = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger done = new AtomicInteger();
        AtomicIntegerArray state = new AtomicIntegerArray(n);
        AtomicLongArray started = new AtomicLongArray(n);
        Semaphore slots = new Semaphore(threads);
        CountDownLatch finished = new CountDownLatch(n);
        ThreadLocal<JavaParser> parsers = ThreadLocal.withInitial(() -> new JavaParser(configuration()));
        AtomicInteger workers = new AtomicInteger();
        AtomicReference<OutOfMemoryError> outOfMemory = new AtomicReference<>();
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(null, r, "racelint-parser-" + workers.incrementAndGet(), WORKER_STACK_BYTES);
            t.setDaemon(true);
            return t;
        });
        try {
            for (int i = 0; i < n; i++) {
                while (!slots.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    giveUpOverdue(sources, state, started, slots, finished, diagnostics, done, progress);
                }
                throwIfOutOfMemory(outOfMemory, parsed);
                int index = i;
                pool.execute(() -> {
                    started.set(index, System.nanoTime());
                    state.set(index, RUNNING);
                    ParsedFile result = null;
                    try {
                        result = store.load(sources.get(index));
                        if (result == null) {
                            result = parseOne(parsers.get(), sources.get(index), store, diagnostics, maxNesting);
                        }
                    } catch (OutOfMemoryError e) {
                        // handed to the caller's thread: the scan stops with a clear message, not a stack trace per worker
                        outOfMemory.compareAndSet(null, e);
                    } finally {
                        if (state.compareAndSet(index, RUNNING, DONE)) {
                            parsed[index] = result;
                            slots.release();
                            progress.accept(done.incrementAndGet());
                            finished.countDown();
                        }
                    }
                });
            }
            while (!finished.await(100, TimeUnit.MILLISECONDS)) {
                throwIfOutOfMemory(outOfMemory, parsed);
                giveUpOverdue(sources, state, started, slots, finished, diagnostics, done, progress);
            }
            throwIfOutOfMemory(outOfMemory, parsed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("parsing interrupted", e);
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

    private static void throwIfOutOfMemory(AtomicReference<OutOfMemoryError> outOfMemory,
            ParsedFile[] parsed) {
        OutOfMemoryError e = outOfMemory.get();
        if (e != null) {
            // the workers still reference the array: let its trees go now, not when they finish
            Arrays.fill(parsed, null);
            throw e;
        }
    }

    /** Parser threads get a deeper stack than the default, so deeply nested (generated) code still parses. */
    private static final long WORKER_STACK_BYTES = 16L * 1024 * 1024;

    private void giveUpOverdue(List<SourceFile> sources, AtomicIntegerArray state, AtomicLongArray started,
            Semaphore slots, CountDownLatch finished, List<Diagnostic> diagnostics, AtomicInteger done,
            IntConsumer progress) {
        long now = System.nanoTime();
        for (int i = 0; i < state.length(); i++) {
            if (state.get(i) == RUNNING && now - started.get(i) > limitNanos && state.compareAndSet(i, RUNNING, ABANDONED)) {
                diagnostics.add(new Diagnostic(sources.get(i).path(), 0, 0, Level.WARNING, "too-slow",
                        "skipped: parsing took longer than the per-file limit of "
                                + TimeUnit.NANOSECONDS.toSeconds(limitNanos) + " s (--file-time-limit); where the limit "
                                + "is reached depends on the machine, so other machines may report differently"));
                slots.release();
                progress.accept(done.incrementAndGet());
                finished.countDown();
            }
        }
    }

    /**
     * The configuration of every parse. JavaParser gives nodes positions only when it stores tokens, so
     * tokens are stored, and dropped from the tree right after the parse ({@link TreeCompactor}).
     */
    public static ParserConfiguration configuration() {
        return new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_25)
                .setStoreTokens(true)
                .setAttributeComments(false);
    }

    private static ParsedFile parseOne(JavaParser parser, SourceFile source, TreeStore store, List<Diagnostic> diagnostics,
            int maxNesting) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(source.path());
        } catch (IOException | SecurityException e) {
            diagnostics.add(new Diagnostic(source.path(), 0, 0, Level.WARNING, "unreadable",
                    "cannot read: " + IoProblems.describe(e)));
            return null;
        }
        SourceText text = SourceText.decode(bytes);
        if (text.fallback()) {
            diagnostics.add(new Diagnostic(source.path(), 0, 0, Level.NOTE, "encoding",
                    "not valid UTF-8; read as ISO-8859-1"));
        }
        int tooDeepAt = NestingDepth.lineBeyond(text.text(), maxNesting);
        if (tooDeepAt > 0) {
            diagnostics.add(new Diagnostic(source.path(), tooDeepAt, 0, Level.WARNING, "too-deep",
                    "skipped: brackets nested more than " + maxNesting + " deep, more than racelint parses"));
            return null;
        }
        try {
            Parsed result = parse(parser, text.text());
            if (result.unit() != null) {
                CompilationUnit unit = result.unit();
                // before anything reads the tree or caches it, so a cached tree is the normalised one too
                if (JavaIdentifiers.mayHoldIgnorable(text.text())) {
                    com.github.javaparser.ast.Node keyword = JavaIdentifiers.normalise(unit);
                    if (keyword != null) {
                        Position at = keyword.getBegin().orElse(new Position(0, 0));
                        // a reserved word, so plain ASCII: safe to name
                        String word = keyword instanceof com.github.javaparser.ast.nodeTypes.NodeWithIdentifier<?> named
                                ? named.getIdentifier() : "a keyword";
                        diagnostics.add(new Diagnostic(source.path(), at.line, at.column, Level.WARNING, "parse-error",
                                "does not parse as javac reads it, skipped: '" + word + "' is written with characters "
                                        + "javac ignores in words (such as U+200B), so racelint read it as a name"));
                        return null;
                    }
                }
                // Only files that mention racelint can hold suppressions, the only comments anything reads.
                ParsedFile file = text.text().contains("racelint") ? new ParsedFile(source.path(), unit)
                        : new ParsedFile(source.path(), unit, java.util.Map.of(), false);
                TreeCompactor.compact(unit);
                if (!text.fallback()) {
                    // a file read with a fallback encoding is parsed again each time, so its note is too
                    store.save(source, file);
                }
                return file;
            }
            Problem first = result.problem();
            int line = 0;
            int column = 0;
            if (first != null && first.getLocation().isPresent()) {
                var begin = first.getLocation().get().getBegin().getRange();
                if (begin.isPresent()) {
                    Position at = result.asWritten(begin.get().begin);
                    line = at.line;
                    column = at.column;
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

    /**
     * A parse's outcome: the tree (null when the file does not parse) or its first problem, and how
     * positions of the translated text map back to the file as written.
     */
    private record Parsed(CompilationUnit unit, Problem problem, UnicodeEscapeProcessingProvider.PositionMapping mapping) {
        Position asWritten(Position translated) {
            return mapping == null ? translated : mapping.transform(translated);
        }
    }

    /**
     * Parses {@code text} as javac reads it: unicode escapes (a backslash not preceded by an odd run
     * of backslashes, one or more u, four hex digits) are translated before lexing (JLS 3.3), so an
     * escaped line end in a comment ends the comment as it does for the compiler. The positions of
     * nodes and tokens (line comments are read from tokens) are then mapped back to the file as
     * written, where reports and suppressions look.
     */
    private static Parsed parse(JavaParser parser, String text) {
        if (text.indexOf("\\u") < 0) {
            return outcome(parser.parse(text), null);
        }
        UnicodeEscapeProcessingProvider translated = new UnicodeEscapeProcessingProvider(new StringProvider(text));
        ParseResult<CompilationUnit> result = parser.parse(ParseStart.COMPILATION_UNIT, translated);
        UnicodeEscapeProcessingProvider.PositionMapping mapping = translated.getPositionMapping();
        Parsed parsed = outcome(result, mapping.isEmpty() ? null : mapping);
        if (parsed.unit() != null && parsed.mapping() != null) {
            parsed.unit().walk(node -> node.getRange().ifPresent(range -> node.setRange(mapping.transform(range))));
            parsed.unit().getTokenRange().ifPresent(tokens -> {
                for (JavaToken token : tokens) {
                    token.getRange().ifPresent(range -> token.setRange(mapping.transform(range)));
                    if (token.getCategory().isComment()) {
                        token.setText(escapeLoneSurrogates(token.getText()));
                    }
                }
            });
            // a translated "\\uD800" is half a character: kept as the escape it was written as (the literal's
            // value is source text, escapes included), so the tree holds only well-formed strings
            for (LiteralStringValueExpr literal : parsed.unit().findAll(LiteralStringValueExpr.class)) {
                String value = literal.getValue();
                String escaped = escapeLoneSurrogates(value);
                if (!escaped.equals(value)) {
                    literal.setValue(escaped);
                }
            }
        }
        return parsed;
    }

    /** {@code text} with each unpaired surrogate written as a unicode escape. */
    static String escapeLoneSurrogates(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean paired = Character.isHighSurrogate(c)
                    ? i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))
                    : !Character.isLowSurrogate(c) || (i > 0 && Character.isHighSurrogate(text.charAt(i - 1)));
            if (!paired && out == null) {
                out = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (out != null) {
                out.append(paired ? String.valueOf(c) : String.format(java.util.Locale.ROOT, "\\u%04X", (int) c));
            }
        }
        return out == null ? text : out.toString();
    }

    private static Parsed outcome(ParseResult<CompilationUnit> result,
            UnicodeEscapeProcessingProvider.PositionMapping mapping) {
        if (result.isSuccessful() && result.getResult().isPresent()) {
            return new Parsed(result.getResult().get(), null, mapping);
        }
        return new Parsed(null, result.getProblems().isEmpty() ? null : result.getProblems().get(0), mapping);
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
