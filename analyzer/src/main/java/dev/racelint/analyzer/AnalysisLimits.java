package dev.racelint.analyzer;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Every numeric bound that limits what the analysis sees, in one place: each {@link Limit} has a
 * name (its key under {@code limits:} in racelint.yml), a default, the range a configuration may
 * set, what it bounds and what happens at the bound. docs/configuration.md lists them all (a test
 * compares the table with {@link Limit#values()}), and the scan cache's key includes every value.
 * Immutable.
 */
public final class AnalysisLimits {

    /** A bound, its default and the range a configuration may give it. */
    public enum Limit {
        WITNESS_CALLS("witness-calls", 5, 1, 64,
                "calls from the method of a transaction scope or held lock to the network call, sleep or lock "
                        + "acquisition it reaches (io-in-transaction, lock-across-io, lock-order)",
                "an effect more calls away is not seen from the scope. The call graph is context-insensitive: "
                        + "longer chains were nearly all paths no request takes"),
        REACH_DEPTH("reach-depth", 8, 0, 64,
                "calls followed from an entry point (HTTP handler, consumer, scheduled job) to the database "
                        + "operations and effects it reaches (non-idempotent-endpoint, non-idempotent-consumer, "
                        + "unlocked-scheduled-job, missing-if-match, ack-before-commit, dual-write, cache-stampede)",
                "what lies more calls away is not reached from the handler"),
        CACHE_LOADER_CALLS("cache-loader-calls", 3, 0, 64,
                "calls from a `@Cacheable` loader to the database read or remote call that makes a miss expensive "
                        + "(cache-stampede)",
                "a load more calls away does not count: no finding"),
        LOCK_IO_CALLS("lock-io-calls", 3, 0, 64,
                "calls from a held lock to the network call or sleep reached while holding it (lock-across-io)",
                "an effect more calls away is not reported (it is also bounded by witness-calls)"),
        PUBLISH_CALLS("publish-calls", 3, 1, 64,
                "calls from a method that writes to the database to the message publish it reaches (dual-write)",
                "a publish more calls away is not seen: no finding"),
        JOB_STATE_CALLS("job-state-calls", 1, 0, 8,
                "calls from a scheduled job to where it empties an in-memory buffer or counter, and to a database "
                        + "read that makes its data shared (unlocked-scheduled-job: a job flushing its own instance's "
                        + "state needs no cluster lock)",
                "a buffer emptied further down does not make the job local; a read further down does not make it shared"),
        HELPER_CALLS("helper-calls", 1, 0, 4,
                "calls into project helpers whose single database operation counts as the caller's (a DAO method "
                        + "that does exactly one operation is that operation at its call site; also row locks)",
                "a helper further down is a call like any other: its operation is not the caller's"),
        FLOW_PASSES("flow-passes", 3, 1, 16,
                "passes over a method's local variables when tracking which database results reach them "
                        + "(a chain of assignments written in reverse order needs one pass per link)",
                "a variable further down such a chain is not known to hold the result"),
        LOCK_CYCLES_PER_COMPONENT("lock-cycles-per-component", 32, 1, 1024,
                "lock-order cycles reported per set of mutually reachable locks (lock-order)",
                "further cycles of that set are not reported"),
        MYBATIS_INCLUDE_DEPTH("mybatis-include-depth", 8, 0, 64,
                "nested `<include refid>` fragments inlined into a MyBatis statement",
                "a deeper `<include>` is left out of the statement's SQL"),
        MAPPER_FILE_BYTES("mapper-file-bytes", 2_000_000, 1_000, 64_000_000,
                "size of one MyBatis mapper XML file read, and of one .sql file read for the schema",
                "a larger mapper is not read (a mapper-xml note): its statements are unknown; a larger .sql file "
                        + "gives the schema no table (a file-too-large warning)"),
        SQL_EXPRESSION_DEPTH("sql-expression-depth", 48, 1, 256,
                "levels of a Java expression followed to read its SQL text: each parenthesis, cast, concatenation, "
                        + "constant or local variable, format argument is one",
                "a deeper part is not read: it is unknown (a `?` inside a concatenation, no SQL facts when it is the whole text)"),
        SQL_TEXT_CHARS("sql-text-chars", 256_000, 1_000, 4_000_000,
                "characters of SQL text built from concatenated parts",
                "a longer text is not read: no SQL facts for it"),
        SQL_PARSE_CHARS("sql-parse-chars", 60_000, 0, 1_000_000,
                "characters of one SQL statement given to JSqlParser",
                "a longer statement is read with the token model (a sql-fallback note)"),
        SQL_TREE_DEPTH("sql-tree-depth", 200, 10, 1_000,
                "levels of a parsed SQL expression read: conditions nested in a WHERE clause (each AND, OR, NOT "
                        + "or parenthesis is one), parentheses and casts around a value, the expression of a SET item "
                        + "or of a selected aggregate",
                "a condition deeper in the WHERE clause is not seen (neither as a key nor as a guard); a deeper "
                        + "value or expression is not understood"),
        NESTING_DEPTH("nesting-depth", 1_000, 16, 1_000,
                "bracket nesting in a Java file, counted before parsing",
                "the file is not parsed (a too-deep warning). At most 1,000: deeper, whether the parser's stack "
                        + "holds depends on how much of it the JIT has compiled");

        private final String key;
        private final int defaultValue;
        private final int min;
        private final int max;
        private final String bounds;
        private final String atBound;

        Limit(String key, int defaultValue, int min, int max, String bounds, String atBound) {
            this.key = key;
            this.defaultValue = defaultValue;
            this.min = min;
            this.max = max;
            this.bounds = bounds;
            this.atBound = atBound;
        }

        /** The name under {@code limits:} in racelint.yml. */
        public String key() {
            return key;
        }

        public int defaultValue() {
            return defaultValue;
        }

        /** The smallest value a configuration may set. */
        public int min() {
            return min;
        }

        /** The largest value a configuration may set. */
        public int max() {
            return max;
        }

        /** What the bound limits. */
        public String bounds() {
            return bounds;
        }

        /** What happens past the bound. */
        public String atBound() {
            return atBound;
        }

        /** The limit named {@code key} (as racelint.yml spells it). */
        public static Optional<Limit> byKey(String key) {
            String k = key.strip().toLowerCase(Locale.ROOT);
            return Arrays.stream(values()).filter(l -> l.key.equals(k)).findFirst();
        }
    }

    /** Every limit at its default. */
    public static final AnalysisLimits DEFAULT = new AnalysisLimits(defaults());

    private final int[] values;

    private AnalysisLimits(int[] values) {
        this.values = values;
    }

    private static int[] defaults() {
        return Arrays.stream(Limit.values()).mapToInt(Limit::defaultValue).toArray();
    }

    public int get(Limit limit) {
        return values[limit.ordinal()];
    }

    /** These limits with {@code limit} set to {@code value}, which must be in its range. */
    public AnalysisLimits with(Limit limit, int value) {
        if (value < limit.min || value > limit.max) {
            throw new IllegalArgumentException(limit.key + " must be between " + limit.min + " and " + limit.max
                    + ", not " + value);
        }
        int[] copy = values.clone();
        copy[limit.ordinal()] = value;
        return new AnalysisLimits(copy);
    }

    /**
     * The most calls a per-method effect summary's witness goes through: {@code witness-calls} less the
     * scope's own call into the summarised method.
     */
    public int summaryCalls() {
        return get(Limit.WITNESS_CALLS) - 1;
    }

    public int reachDepth() {
        return get(Limit.REACH_DEPTH);
    }

    /** {@code key=value} for every limit, in declaration order: part of the scan cache's key. */
    public String describe() {
        StringJoiner out = new StringJoiner(",");
        for (Limit l : Limit.values()) {
            out.add(l.key + "=" + values[l.ordinal()]);
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AnalysisLimits other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return describe();
    }
}
