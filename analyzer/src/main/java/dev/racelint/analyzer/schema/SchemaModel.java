package dev.racelint.analyzer.schema;

import dev.racelint.analyzer.persistence.EntityModel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The tables the scanned tree declares, with the column sets the database keeps unique (primary
 * key, unique constraints and indexes) and version columns, from DDL in {@code .sql} files
 * ({@link DdlReader}) and from JPA mappings ({@link EntityModel}). Names are lower case, without
 * quotes, backticks or schema prefix. A table nobody declared is unknown: rules then keep the
 * behaviour they have without a schema.
 */
public final class SchemaModel {

    /** One table: each key is a set of columns whose values pick at most one row. */
    public record Table(String name, List<Set<String>> keys, Set<String> versionColumns) {

        public Table {
            keys = List.copyOf(keys);
            versionColumns = Set.copyOf(versionColumns);
        }

        /**
         * Whether equality on {@code equalityColumns} picks at most one row (or one per listed value of an
         * {@code IN}): they cover every column of the primary key or of a unique key.
         */
        public boolean pinsOneRow(Collection<String> equalityColumns) {
            Set<String> given = new LinkedHashSet<>();
            equalityColumns.forEach(c -> given.add(comparable(c)));
            return keys.stream().anyMatch(k -> !k.isEmpty() && k.stream().allMatch(c -> given.contains(comparable(c))));
        }

        /**
         * The key that makes a row with the same {@code checkedColumns} values a duplicate the database
         * refuses, when there is one: every key column is checked, or is a NOT NULL column with a constant
         * DEFAULT ({@code DeletedAt BIGINT NOT NULL DEFAULT 0}, a soft-delete marker) that every new row
         * takes, with at least one key column checked.
         */
        public Optional<Set<String>> keyCovering(Collection<String> checkedColumns, Set<String> constantDefaults) {
            Set<String> given = new LinkedHashSet<>();
            checkedColumns.forEach(c -> given.add(comparable(c)));
            Set<String> fixed = new LinkedHashSet<>();
            constantDefaults.forEach(c -> fixed.add(comparable(c)));
            return keys.stream()
                    .filter(k -> k.stream().anyMatch(c -> given.contains(comparable(c)))
                            && k.stream().allMatch(c -> given.contains(comparable(c)) || fixed.contains(comparable(c))))
                    .findFirst();
        }

        /** Whether any key is known: a table declared without one more likely has it declared elsewhere. */
        public boolean keyed() {
            return !keys.isEmpty();
        }

        /**
         * A column as JPQL and SQL both spell it: JPQL names a field ({@code t.ticketId},
         * {@code e.customer.id}) where SQL names the column ({@code ticket_id}, {@code customer_id}).
         */
        private static String comparable(String column) {
            return normalise(column).replace("_", "").replace(".", "");
        }
    }

    /** Collects keys per table while DDL statements and mappings are read. */
    static final class Builder {
        private final Map<String, List<Set<String>>> keys = new TreeMap<>();
        private final Map<String, Set<String>> versions = new TreeMap<>();
        private final Map<String, Set<String>> constantDefaults = new TreeMap<>();
        private final ForeignKeys foreignKeys = new ForeignKeys();
        /** Renames in the order the scripts make them, applied when the model is built (keys move with them). */
        private final List<String[]> tableRenames = new ArrayList<>();
        private final List<String[]> columnRenames = new ArrayList<>();

        ForeignKeys foreignKeys() {
            return foreignKeys;
        }

        void table(String table) {
            keys.computeIfAbsent(normalise(table), t -> new ArrayList<>());
        }

        void key(String table, Collection<String> columns) {
            Set<String> key = new LinkedHashSet<>();
            columns.forEach(c -> key.add(normalise(c)));
            key.remove("");
            List<Set<String>> known = keys.computeIfAbsent(normalise(table), t -> new ArrayList<>());
            if (!key.isEmpty() && !known.contains(key)) {
                known.add(key);
            }
        }

        void version(String table, String column) {
            table(table);
            versions.computeIfAbsent(normalise(table), t -> new LinkedHashSet<>()).add(normalise(column));
        }

        /** A NOT NULL column with a constant DEFAULT: a row inserted without it takes that one value. */
        void constantDefault(String table, String column) {
            String c = normalise(column);
            if (!c.isEmpty()) {
                constantDefaults.computeIfAbsent(normalise(table), t -> new LinkedHashSet<>()).add(c);
            }
        }

        /** {@code ALTER TABLE from RENAME TO to}: the table's keys, versions and defaults are the new name's. */
        void renameTable(String from, String to) {
            tableRenames.add(new String[] {normalise(from), normalise(to)});
        }

        /** {@code ALTER TABLE t RENAME [COLUMN] from TO to}: keys on the column stay keys on its new name. */
        void renameColumn(String table, String from, String to) {
            columnRenames.add(new String[] {normalise(table), normalise(from), normalise(to)});
        }

        private void applyRenames() {
            for (String[] r : tableRenames) {
                if (r[0].isEmpty() || r[1].isEmpty() || r[0].equals(r[1])) {
                    continue;
                }
                moveTo(keys, r[0], r[1]);
                moveTo(versions, r[0], r[1]);
                moveTo(constantDefaults, r[0], r[1]);
                for (String[] c : columnRenames) {
                    if (c[0].equals(r[0])) {
                        c[0] = r[1];
                    }
                }
            }
            for (String[] c : columnRenames) {
                List<Set<String>> tableKeys = keys.get(c[0]);
                if (tableKeys != null) {
                    tableKeys.replaceAll(key -> renamed(key, c[1], c[2]));
                }
                versions.computeIfPresent(c[0], (t, v) -> renamed(v, c[1], c[2]));
                constantDefaults.computeIfPresent(c[0], (t, v) -> renamed(v, c[1], c[2]));
            }
        }

        private static <V> void moveTo(Map<String, V> map, String from, String to) {
            V value = map.remove(from);
            if (value != null) {
                map.put(to, value);
            }
        }

        private static Set<String> renamed(Set<String> columns, String from, String to) {
            if (!columns.contains(from)) {
                return columns;
            }
            Set<String> out = new LinkedHashSet<>();
            columns.forEach(c -> out.add(c.equals(from) ? to : c));
            return out;
        }

        SchemaModel build() {
            applyRenames();
            Map<String, Table> tables = new TreeMap<>();
            keys.forEach((name, k) -> {
                if (!name.isEmpty()) {
                    tables.put(name, new Table(name, k, versions.getOrDefault(name, Set.of())));
                }
            });
            SchemaModel model = new SchemaModel(tables, constantDefaults);
            model.foreignKeys = foreignKeys.copy();
            return model;
        }
    }

    private static final SchemaModel EMPTY = new SchemaModel(Map.of(), Map.of());

    private final Map<String, Table> tables;
    private final Map<String, Set<String>> constantDefaults;
    private ForeignKeys foreignKeys = new ForeignKeys();

    private SchemaModel(Map<String, Table> tables, Map<String, Set<String>> constantDefaults) {
        this.tables = Map.copyOf(tables);
        Map<String, Set<String>> defaults = new TreeMap<>();
        constantDefaults.forEach((t, c) -> defaults.put(t, Set.copyOf(c)));
        this.constantDefaults = Map.copyOf(defaults);
    }

    public static SchemaModel empty() {
        return EMPTY;
    }

    /** The tables of {@code ddl} and of the JPA entities, a table known to both with the keys of both. */
    public static SchemaModel of(DdlReader ddl, EntityModel entities) {
        Builder builder = ddl.builder();
        for (EntityModel.Entity entity : entities.all()) {
            String table = entity.table();
            builder.table(table);
            if (!entity.compositeId()) {
                entity.uniqueColumns().forEach(c -> builder.key(table, List.of(c)));
            } else {
                // an @EmbeddedId / @IdClass spans several columns: only the other unique columns are single keys
                entity.uniqueColumns().stream().filter(c -> !entity.idColumns().contains(c))
                        .forEach(c -> builder.key(table, List.of(c)));
                if (!entity.compositeIdColumns().isEmpty()) {
                    builder.key(table, entity.compositeIdColumns());
                }
            }
            entity.uniqueColumnSets().forEach(set -> builder.key(table, set));
            entity.versionColumns().forEach(c -> builder.version(table, c));
        }
        return builder.build();
    }

    /** The table {@code name} (any case, quoted or schema-qualified), when the tree declares it. */
    public Optional<Table> table(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(tables.get(normalise(name)));
    }

    /** The NOT NULL columns of {@code table} that the DDL gives a constant DEFAULT. */
    public Set<String> constantDefaults(String table) {
        return table == null ? Set.of() : constantDefaults.getOrDefault(normalise(table), Set.of());
    }

    /**
     * Whether the DDL declares a foreign key from {@code child} to {@code parent} and every declaration
     * of it refuses the parent's delete while a child row references it (no {@code ON DELETE}, or
     * {@code RESTRICT} / {@code NO ACTION}; {@code CASCADE} and {@code SET NULL} let the delete through).
     */
    public boolean restrictsDelete(String child, String parent) {
        return child != null && parent != null && foreignKeys.restrictsDelete(child, parent);
    }

    public int tableCount() {
        return tables.size();
    }

    /** Primary and unique keys known over all tables. */
    public int keyCount() {
        return tables.values().stream().mapToInt(t -> t.keys().size()).sum();
    }

    /** {@code `Shop`."Orders"} -> {@code orders}: lower case, unquoted, without schema or catalog. */
    static String normalise(String name) {
        String n = name.trim();
        int dot = lastDotOutsideQuotes(n);
        if (dot >= 0) {
            n = n.substring(dot + 1);
        }
        return n.replace("`", "").replace("\"", "").replace("[", "").replace("]", "").trim().toLowerCase(Locale.ROOT);
    }

    private static int lastDotOutsideQuotes(String n) {
        boolean quoted = false;
        int dot = -1;
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            if (c == '"' || c == '`') {
                quoted = !quoted;
            } else if (c == '.' && !quoted) {
                dot = i;
            }
        }
        return dot;
    }
}
