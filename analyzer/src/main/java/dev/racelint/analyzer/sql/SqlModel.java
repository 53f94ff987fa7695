package dev.racelint.analyzer.sql;

import dev.racelint.analyzer.sql.SqlStatement.Parameter;
import dev.racelint.analyzer.sql.SqlTokens.Token;
import dev.racelint.analyzer.sql.SqlTokens.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;

/**
 * The SQL model: what a statement text says, read with JSqlParser and, where it gives up, with a
 * token-pattern fallback. Thread-safe; each distinct text is analysed once.
 *
 * <p>Accepted placeholders: {@code ?}, {@code ?1}, {@code $1}, {@code :name}, MyBatis
 * {@code #{name}} / {@code #{name,jdbcType=..}} (read as {@code :name}) and {@code ${name}} (read
 * as an identifier, reported as {@code ${name}}), JDBI {@code <name>} templates, Spring Data SpEL
 * {@code :#{..}}. Text holding MyBatis dynamic tags is flattened first
 * ({@link #stripMyBatisTags(String)}).
 *
 * <p>JSqlParser can take very long on pathological input: each parse runs on a daemon worker
 * thread with a time budget (about 2 s, simple then complex grammar mode); a timeout or a parse
 * error means the fallback. Nothing here throws.
 */
public final class SqlModel {

    private static final int MAX_EXAMPLES = 20;
    private static final int MAX_EXAMPLE_LENGTH = 500;
    private static final long MIN_RETRY_MILLIS = 150;
    private static final long COMPLEX_RETRY_MILLIS = 300;
    private static final Set<String> ADVISORY_LOCKS = Set.of("pg_advisory_lock", "pg_advisory_lock_shared",
            "pg_advisory_xact_lock", "pg_advisory_xact_lock_shared", "pg_try_advisory_lock",
            "pg_try_advisory_lock_shared", "pg_try_advisory_xact_lock", "pg_try_advisory_xact_lock_shared",
            "get_lock", "sp_getapplock");

    private static final ExecutorService PARSER_THREADS = Executors.newCachedThreadPool(new ThreadFactory() {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "racelint-sql-parser-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    });

    private record Key(String text, boolean jpql) {}

    /**
     * What the model did, for the scan summary.
     *
     * @param parsed           distinct statements JSqlParser parsed
     * @param fallback         distinct statements read by the token fallback
     * @param fallbackExamples up to 20 of the texts that fell back (each cut to 500 characters)
     */
    public record Stats(int parsed, int fallback, List<String> fallbackExamples) {
        public Stats {
            fallbackExamples = List.copyOf(fallbackExamples);
        }
    }

    private final ConcurrentHashMap<Key, SqlStatement> cache = new ConcurrentHashMap<>();
    private final AtomicInteger parsedCount = new AtomicInteger();
    private final AtomicInteger fallbackCount = new AtomicInteger();
    /** Every text that fell back, sorted, so the examples reported do not depend on thread timing. */
    private final java.util.TreeSet<String> fallbackExamples = new java.util.TreeSet<>();
    private final long timeoutMillis;
    private final int maxParseChars;
    private final int maxTreeDepth;

    /** JSqlParser's time budget per statement. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 2_000;

    public SqlModel() {
        this(DEFAULT_TIMEOUT_MILLIS);
    }

    /** A model whose JSqlParser budget per statement is {@code timeoutMillis}. */
    public SqlModel(long timeoutMillis) {
        this(timeoutMillis, dev.racelint.analyzer.AnalysisLimits.DEFAULT);
    }

    /**
     * As {@link #SqlModel(long)}, giving JSqlParser statements of at most {@code sql-parse-chars} characters and
     * reading its trees at most {@code sql-tree-depth} deep.
     */
    public SqlModel(long timeoutMillis, dev.racelint.analyzer.AnalysisLimits limits) {
        this.timeoutMillis = Math.max(50, timeoutMillis);
        this.maxParseChars = limits.get(dev.racelint.analyzer.AnalysisLimits.Limit.SQL_PARSE_CHARS);
        this.maxTreeDepth = limits.get(dev.racelint.analyzer.AnalysisLimits.Limit.SQL_TREE_DEPTH);
    }

    /** The model of an SQL statement (never null; OTHER with nothing known for null or blank text). */
    public SqlStatement parse(String sql) {
        return cached(sql, false);
    }

    /**
     * The model of a JPQL / HQL statement: entity names as tables (lower case), {@code e.field}
     * paths as columns without the alias.
     */
    public SqlStatement parseJpql(String jpql) {
        return cached(jpql, true);
    }

    public Stats stats() {
        synchronized (fallbackExamples) {
            return new Stats(parsedCount.get(), fallbackCount.get(),
                    fallbackExamples.stream().limit(MAX_EXAMPLES).toList());
        }
    }

    /**
     * The static text of a MyBatis statement body: tags removed, their text kept; {@code <where>}
     * becomes {@code WHERE} (a leading AND/OR dropped), {@code <set>} becomes {@code SET} (a
     * trailing comma dropped), {@code <trim>} applies its prefix/suffix and overrides,
     * {@code <foreach>} keeps its open/close, {@code <choose>} keeps its first {@code <when>},
     * {@code <bind>} / {@code <selectKey>} / {@code <include>} are dropped, CDATA is kept and XML
     * entities are decoded.
     */
    public static String stripMyBatisTags(String xmlBody) {
        return MyBatisTags.strip(xmlBody, Map.of());
    }

    /** As {@link #stripMyBatisTags(String)}, inlining {@code <include refid="x"/>} from {@code sqlFragments}. */
    public static String stripMyBatisTags(String xmlBody, Map<String, String> sqlFragments) {
        return MyBatisTags.strip(xmlBody, sqlFragments);
    }

    /** As {@link #stripMyBatisTags(String, Map)}, following {@code <include>}s at most {@code maxIncludeDepth} deep. */
    public static String stripMyBatisTags(String xmlBody, Map<String, String> sqlFragments, int maxIncludeDepth) {
        return MyBatisTags.strip(xmlBody, sqlFragments, maxIncludeDepth);
    }

    // ---- internals ----------------------------------------------------------------------------

    private SqlStatement cached(String text, boolean jpql) {
        if (text == null || text.isBlank()) {
            return SqlStatement.unknown(text, jpql);
        }
        Key key = new Key(text, jpql);
        SqlStatement known = cache.get(key);
        if (known != null) {
            return known;
        }
        SqlStatement computed = analyse(text, jpql);
        SqlStatement previous = cache.putIfAbsent(key, computed);
        if (previous != null) {
            return previous;
        }
        if (computed.parsed()) {
            parsedCount.incrementAndGet();
        } else {
            fallbackCount.incrementAndGet();
            synchronized (fallbackExamples) {
                String example = text.strip();
                fallbackExamples.add(example.length() > MAX_EXAMPLE_LENGTH
                        ? example.substring(0, MAX_EXAMPLE_LENGTH) + "..." : example);
            }
        }
        return computed;
    }

    private SqlStatement analyse(String text, boolean jpql) {
        try {
            SqlText.Normalized normalized = SqlText.normalize(text, jpql);
            SqlTokens tokens = SqlTokens.of(normalized.sql());
            Statement tree = normalized.sql().length() <= maxParseChars ? jsqlParse(normalized.sql()) : null;
            StatementBuilder builder = null;
            if (tree != null) {
                try {
                    builder = new StatementBuilder(text, jpql);
                    builder.parsed = true;
                    new AstExtractor(builder, normalized, tokens, maxTreeDepth).extract(tree);
                } catch (RuntimeException | StackOverflowError e) {
                    builder = null;
                }
            }
            if (builder == null) {
                builder = new StatementBuilder(text, jpql);
                TokenExtractor.extract(builder, tokens, normalized);
            }
            builder.parameters = parameters(tokens, normalized);
            builder.advisoryLock = advisoryLock(tokens);
            return builder.build();
        } catch (RuntimeException | StackOverflowError e) {
            return SqlStatement.unknown(text, jpql);
        }
    }

    /** JSqlParser's tree in its simple grammar mode within {@code timeoutMillis}, or null (for DDL, read elsewhere). */
    public static Statement parseTree(String sql, long timeoutMillis) {
        try {
            return CCJSqlParserUtil.parseStatement(CCJSqlParserUtil.newParser(sql).withTimeOut(timeoutMillis)
                    .withAllowComplexParsing(false), PARSER_THREADS);
        } catch (JSQLParserException | RuntimeException | StackOverflowError e) {
            return null;
        }
    }

    /** JSqlParser's tree, or null on a parse error or when the time budget runs out. */
    private Statement jsqlParse(String sql) {
        long start = System.nanoTime();
        try {
            CCJSqlParser parser = CCJSqlParserUtil.newParser(sql).withTimeOut(timeoutMillis)
                    .withAllowComplexParsing(false);
            return CCJSqlParserUtil.parseStatement(parser, PARSER_THREADS);
        } catch (JSQLParserException e) {
            if (isTimeout(e)) {
                return null;
            }
        } catch (RuntimeException | StackOverflowError e) {
            return null;
        }
        // The simple grammar mode failed: retry in complex mode, within what is left of the budget and
        // at most COMPLEX_RETRY_MILLIS. Complex mode backtracks exponentially on chains of optional
        // filters ("(:x IS NULL OR a.x = :x) AND ..."): such JPQL queries have spent over a second each
        // there and failed anyway; what complex mode can parse, it parses quickly.
        long left = Math.min(COMPLEX_RETRY_MILLIS, timeoutMillis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        try {
            if (left < Math.min(MIN_RETRY_MILLIS, COMPLEX_RETRY_MILLIS) || CCJSqlParserUtil.getNestingDepth(sql) > 10) {
                return null;
            }
            CCJSqlParser parser = CCJSqlParserUtil.newParser(sql).withTimeOut(left).withAllowComplexParsing(true);
            return CCJSqlParserUtil.parseStatement(parser, PARSER_THREADS);
        } catch (JSQLParserException | RuntimeException | StackOverflowError e) {
            return null;
        }
    }

    private static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException || t.getMessage() != null && t.getMessage().contains("Time out")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static List<Parameter> parameters(SqlTokens tokens, SqlText.Normalized normalized) {
        List<Parameter> out = new ArrayList<>();
        for (Parameter p : tokens.parameters()) {
            out.add(p.name() == null ? p : new Parameter(p.position(), normalized.restore(p.name()), p.number()));
        }
        return out;
    }

    private static String advisoryLock(SqlTokens tokens) {
        List<Token> ts = tokens.tokens();
        for (int i = 0; i < ts.size(); i++) {
            Token t = ts.get(i);
            if (t.type() != Type.WORD) {
                continue;
            }
            String name = t.text().toLowerCase(Locale.ROOT);
            if (ADVISORY_LOCKS.contains(name) && (name.equals("sp_getapplock")
                    || i + 1 < ts.size() && ts.get(i + 1).type() == Type.LPAREN)) {
                return name;
            }
        }
        return "";
    }
}
