package dev.racelint.analyzer.persistence;

import dev.racelint.analyzer.schema.SchemaModel;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether an operation picks at most one row (per value it is given), from facts only: the API picks
 * the row by the primary key itself ({@link DbOp#byPrimaryKey()}), the columns it selects by cover
 * the mapping's id ({@code @Id}, {@code @TableId}), or they cover a key the schema declares. Never
 * from what a column is called: a column named {@code id} that no key or mapping declares is a
 * column like any other.
 */
public final class RowKeys {

    private RowKeys() {}

    /** Does {@code op} select by its table's primary key or a unique key, as the API, the mapping or the schema shows? */
    public static boolean picksOneRow(DbOp op, PersistenceModel persistence, Path from) {
        if (op.byPrimaryKey()) {
            return true;
        }
        if (op.keyColumns().isEmpty()) {
            return false;
        }
        EntityModel.Entity entity = op.entity() != null ? op.entity()
                : op.table().isEmpty() ? null : persistence.entities().byName(op.table(), from).orElse(null);
        if (entity != null && !entity.idColumns().isEmpty() && op.keyColumns().containsAll(entity.idColumns())) {
            return true;
        }
        return table(op.table(), persistence, from).map(t -> t.pinsOneRow(op.keyColumns())).orElse(false);
    }

    /** The declared table of that name, or the table of the entity of that name. */
    private static Optional<SchemaModel.Table> table(String name, PersistenceModel persistence, Path from) {
        if (name.isEmpty()) {
            return Optional.empty();
        }
        SchemaModel schema = persistence.schema();
        return schema.table(name).or(() -> persistence.entities().byName(name, from).flatMap(e -> schema.table(e.table())));
    }
}
