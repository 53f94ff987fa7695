package dev.racelint.analyzer.handlers;

import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import java.util.Set;

/**
 * Code a schema-migration tool runs: Flyway Java migrations and Liquibase custom changes, and the
 * classes nested in them. The tool runs each migration once per database, holding its own lock on
 * the schema history, at deploy time: not a production entry point that users or messages drive, so
 * no rule reports on it (the scan says how many findings it left out and why).
 */
public final class MigrationCode {

    /** The types a migration implements or extends, by the migration tools' API. */
    static final Set<String> MIGRATION_TYPES = Set.of(
            "org.flywaydb.core.api.migration.JavaMigration", "org.flywaydb.core.api.migration.BaseJavaMigration",
            "org.flywaydb.core.api.migration.jdbc.JdbcMigration", "org.flywaydb.core.api.migration.spring.SpringJdbcMigration",
            "org.flywaydb.core.api.migration.jdbc.BaseJdbcMigration", "org.flywaydb.core.api.migration.spring.BaseSpringJdbcMigration",
            "liquibase.change.custom.CustomTaskChange", "liquibase.change.custom.CustomSqlChange",
            "liquibase.change.custom.CustomChange");

    private final ProgramIndex index;

    public MigrationCode(ProgramIndex index) {
        this.index = index;
    }

    /** Is {@code method} declared in a migration (or in a class nested in one)? */
    public boolean contains(MethodInfo method) {
        for (TypeInfo type = method.declaringType(); type != null; type = type.outer()) {
            if (index.isSubtypeOf(type, MIGRATION_TYPES)) {
                return true;
            }
        }
        return false;
    }
}
