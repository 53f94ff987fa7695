package dev.racelint.analyzer.coverage;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one scan understood of the code, computed once by {@link CoverageModel} from the models
 * the rules read (never by a rule): so a reader can tell "no finding" from "nothing seen". Plain
 * records, stored as they are in the scan cache; every map keeps a fixed or sorted order.
 *
 * @param files              source files analysed
 * @param sourceLines        non-blank lines of those files
 * @param entryPoints        handlers the outside world starts
 * @param transactions       transaction scopes
 * @param databaseOperations operations recognised in the code, by {@code DbApiFamily} id, every
 *                           family present in its fixed order
 * @param sql                distinct SQL statements read
 * @param effects            catalogued calls by effect (see {@link CoverageModel#EFFECT_KINDS}),
 *                           every kind present in its fixed order
 * @param blindSpots         external types called where the rules look that racelint knows nothing of
 * @param dataAccess         signs in the tree that it accesses a database, whatever was recognised
 */
public record Coverage(int files, long sourceLines, EntryPoints entryPoints, Transactions transactions,
        Map<String, Integer> databaseOperations, Sql sql, Map<String, Integer> effects, BlindSpots blindSpots,
        DataAccess dataAccess) {

    public Coverage {
        databaseOperations = ordered(databaseOperations);
        effects = ordered(effects);
    }

    /**
     * Entry points.
     *
     * @param http      HTTP handlers (webhooks included) by verb: GET, POST, PUT, PATCH, DELETE, other
     * @param webhooks  of those, POST handlers taken as webhooks
     * @param consumers message listeners by broker: kafka, rabbitmq, jms, sqs, other
     * @param scheduled jobs a scheduler starts ({@code @Scheduled}, Quartz)
     */
    public record EntryPoints(Map<String, Integer> http, int webhooks, Map<String, Integer> consumers, int scheduled) {
        public EntryPoints {
            http = ordered(http);
            consumers = ordered(consumers);
        }

        public int httpCount() {
            return sum(http);
        }

        public int consumerCount() {
            return sum(consumers);
        }
    }

    /**
     * Transaction scopes.
     *
     * @param scopes       all of them
     * @param annotated    {@code @Transactional} methods (Spring or Jakarta)
     * @param programmatic TransactionTemplate / jOOQ callbacks and JDBC {@code setAutoCommit(false)} stretches
     */
    public record Transactions(int scopes, int annotated, int programmatic) {}

    /**
     * Distinct SQL texts the SQL model read.
     *
     * @param parsed   parsed by JSqlParser
     * @param fallback read by the token model because JSqlParser could not parse them
     */
    public record Sql(int parsed, int fallback) {}

    /** One external type and the calls made on it. */
    public record BlindSpot(String type, int calls) {}

    /**
     * Receiver types of calls made in transactions and in code entry points reach, that are neither
     * scanned code nor known to racelint (API catalogue, database model, inert types).
     *
     * @param types distinct such types
     * @param calls calls on them
     * @param top   the most called, at most {@link CoverageModel#BLIND_SPOTS_SHOWN}: most calls first,
     *              then by name
     */
    public record BlindSpots(int types, int calls, List<BlindSpot> top) {
        public BlindSpots {
            top = List.copyOf(top);
        }
    }

    /**
     * Signs of database access in the tree, counted whatever was recognised: the evidence of the
     * {@link CoverageModel#DATA_ACCESS_UNRECOGNISED} warning.
     *
     * @param mapperXmlFiles   XML files holding a MyBatis {@code <mapper namespace=...>}
     * @param importingFiles   source files importing a data-access package
     * @param imports          those files by package (a file counts once per package): most files
     *                         first, then by name
     * @param declaredTypes    types declared as data access: extending a repository or mapper
     *                         interface, annotated {@code @Mapper} or {@code @Repository}
     * @param namedTypes       types whose name ends in Mapper, Repository, Dao or DAO (shown as
     *                         evidence, never a reason on its own)
     * @param schemaTables     tables the schema model knows (DDL in {@code .sql} files, JPA mappings)
     * @param schemaKeys       primary and unique keys it knows over those tables
     */
    public record DataAccess(int mapperXmlFiles, int importingFiles, Map<String, Integer> imports, int declaredTypes,
            int namedTypes, int schemaTables, int schemaKeys) {
        public DataAccess {
            imports = ordered(imports);
        }

        public DataAccess(int mapperXmlFiles, int importingFiles, Map<String, Integer> imports, int declaredTypes,
                int namedTypes) {
            this(mapperXmlFiles, importingFiles, imports, declaredTypes, namedTypes, 0, 0);
        }

        /** Whether anything besides names says the code reads or writes a database. */
        public boolean any() {
            return mapperXmlFiles > 0 || importingFiles > 0 || declaredTypes > 0;
        }
    }

    /** All database operations recognised. */
    public int databaseOperationCount() {
        return sum(databaseOperations);
    }

    /** All effect calls recognised. */
    public int effectCount() {
        return sum(effects);
    }

    private static int sum(Map<String, Integer> counts) {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** An unmodifiable copy that keeps the given order (Jackson reads maps back in document order). */
    private static Map<String, Integer> ordered(Map<String, Integer> counts) {
        return counts == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(counts));
    }
}
