package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.ArrayInitializerExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * JPA entities of the scanned program: table, {@code @Version}, and the columns the database keeps
 * unique ({@code @Id}, {@code @Column(unique = true)}, {@code @Table(uniqueConstraints)},
 * {@code @NaturalId}), so rules can tell whether a write is guarded by the database.
 */
public final class EntityModel {

    static final Set<String> ENTITY = Set.of("jakarta.persistence.Entity", "javax.persistence.Entity");
    static final Set<String> TABLE = Set.of("jakarta.persistence.Table", "javax.persistence.Table");
    static final Set<String> COLUMN = Set.of("jakarta.persistence.Column", "javax.persistence.Column");
    static final Set<String> VERSION = Set.of("jakarta.persistence.Version", "javax.persistence.Version",
            "org.springframework.data.annotation.Version");
    static final Set<String> ID = Set.of("jakarta.persistence.Id", "javax.persistence.Id",
            "jakarta.persistence.EmbeddedId", "javax.persistence.EmbeddedId", "org.springframework.data.annotation.Id");
    static final Set<String> NATURAL_ID = Set.of("org.hibernate.annotations.NaturalId");

    /** One entity. Column names are lower-case snake case, as tables usually spell them. */
    public record Entity(TypeInfo type, String table, boolean versioned, Set<String> uniqueColumns,
            List<Set<String>> uniqueColumnSets, Set<String> idColumns, Set<String> compositeIdColumns,
            Set<String> versionColumns) {

        /**
         * The id spans several columns ({@code @EmbeddedId}, or several {@code @Id} under {@code @IdClass}):
         * {@link #compositeIdColumns} together are the key, none alone (empty when the embeddable is not in the tree).
         */
        public boolean compositeId() {
            return idColumns.size() > 1 || !compositeIdColumns.isEmpty();
        }

        /** Is a row with these column values unique by a database constraint? */
        public boolean uniqueOn(Set<String> columns) {
            if (columns.isEmpty()) {
                return false;
            }
            for (String c : columns) {
                if (uniqueColumns.contains(c)) {
                    return true;
                }
            }
            for (Set<String> set : uniqueColumnSets) {
                if (columns.containsAll(set)) {
                    return true;
                }
            }
            return false;
        }
    }

    static final Set<String> EMBEDDED_ID = Set.of("jakarta.persistence.EmbeddedId", "javax.persistence.EmbeddedId");

    private final Map<String, Entity> byQualifiedName = new HashMap<>();
    private final List<Entity> all = new java.util.ArrayList<>();
    private final Map<String, Entity> bySimpleName = new HashMap<>();
    private final Map<String, Entity> byTable = new HashMap<>();
    /** Every entity of a simple name (or, second, of a table): several modules may each map their own. */
    private final Map<String, List<Entity>> allBySimpleName = new HashMap<>();
    private final Map<String, List<Entity>> allByTable = new HashMap<>();

    public EntityModel(ProgramIndex index) {
        Annotations annotations = new Annotations(index);
        for (TypeInfo type : index.types()) {
            TypeDeclaration<?> decl = type.declaration();
            if (!annotations.has(decl, ENTITY)) {
                continue;
            }
            String table = annotations.find(decl, TABLE).flatMap(a -> Annotations.attribute(a, "name"))
                    .map(EntityModel::stringValue).filter(s -> !s.isEmpty())
                    .orElse(snake(type.simpleName()));
            boolean versioned = false;
            Set<String> unique = new LinkedHashSet<>();
            Set<String> ids = new LinkedHashSet<>();
            Set<String> embeddedIdColumns = new LinkedHashSet<>();
            Set<String> versionColumns = new LinkedHashSet<>();
            for (TypeInfo t = type; t != null; t = superclass(index, t)) {
                for (FieldDeclaration field : t.declaration().getFields()) {
                    String column = columnName(annotations, field);
                    if (annotations.has(field, VERSION)) {
                        versioned = true;
                        versionColumns.add(column);
                    }
                    if (annotations.has(field, ID) || annotations.has(field, NATURAL_ID)) {
                        unique.add(column);
                    }
                    if (annotations.has(field, ID)) {
                        ids.add(column);
                    }
                    if (annotations.has(field, EMBEDDED_ID)) {
                        embeddedIdColumns.addAll(embeddableColumns(index, annotations, field));
                    }
                    annotations.find(field, COLUMN).flatMap(a -> Annotations.attribute(a, "unique"))
                            .filter(v -> v instanceof BooleanLiteralExpr b && b.getValue())
                            .ifPresent(v -> unique.add(column));
                }
            }
            List<Set<String>> sets = new java.util.ArrayList<>();
            annotations.find(decl, TABLE).flatMap(a -> Annotations.attribute(a, "uniqueConstraints"))
                    .ifPresent(value -> value.findAll(AnnotationExpr.class).forEach(uc ->
                            Annotations.attribute(uc, "columnNames").ifPresent(cols -> {
                                Set<String> set = new LinkedHashSet<>();
                                for (StringLiteralExpr s : cols.findAll(StringLiteralExpr.class)) {
                                    set.add(s.asString().toLowerCase(Locale.ROOT));
                                }
                                if (!set.isEmpty()) {
                                    sets.add(set);
                                }
                            })));
            Entity entity = new Entity(type, table.toLowerCase(Locale.ROOT), versioned, unique, sets, ids,
                    embeddedIdColumns.isEmpty() && ids.size() > 1 ? ids : embeddedIdColumns, versionColumns);
            all.add(entity);
            byQualifiedName.put(type.qualifiedName(), entity);
            bySimpleName.putIfAbsent(type.simpleName().toLowerCase(Locale.ROOT), entity);
            byTable.putIfAbsent(entity.table(), entity);
            allBySimpleName.computeIfAbsent(type.simpleName().toLowerCase(Locale.ROOT), k -> new java.util.ArrayList<>())
                    .add(entity);
            allByTable.computeIfAbsent(entity.table(), k -> new java.util.ArrayList<>()).add(entity);
        }
    }

    /** The columns of an {@code @EmbeddedId} field's embeddable type, when it is in the tree. */
    private static Set<String> embeddableColumns(ProgramIndex index, Annotations annotations, FieldDeclaration field) {
        Set<String> out = new LinkedHashSet<>();
        var ref = index.resolveType(field.getElementType(), field);
        if (ref.isProject()) {
            for (FieldDeclaration f : ref.project().declaration().getFields()) {
                if (!f.isStatic()) {
                    out.add(columnName(annotations, f));
                }
            }
        }
        return out;
    }

    /** Every entity, in the order of the program's types. */
    public List<Entity> all() {
        return List.copyOf(all);
    }

    static final Set<String> TABLE_ID = Set.of("com.baomidou.mybatisplus.annotation.TableId");

    /**
     * The properties (field names, lower case) that a record type and its project superclasses mark as
     * its id ({@code @Id}, {@code @EmbeddedId}, MyBatis-Plus {@code @TableId}), whether or not the type
     * is a JPA entity: a MyBatis record mapped by {@code @Table} marks its key the same way.
     */
    public static Set<String> idProperties(TypeInfo type, Annotations annotations) {
        Set<String> out = new LinkedHashSet<>();
        for (TypeInfo t = type; t != null; t = superclass(null, t)) {
            for (FieldDeclaration field : t.declaration().getFields()) {
                if (annotations.has(field, ID) || annotations.has(field, TABLE_ID)) {
                    field.getVariables().forEach(v -> out.add(v.getNameAsString().toLowerCase(Locale.ROOT)));
                }
            }
        }
        return out;
    }

    private static TypeInfo superclass(ProgramIndex index, TypeInfo t) {
        for (var ref : t.supertypes()) {
            if (ref.isProject() && !ref.project().isInterface()) {
                return ref.project();
            }
        }
        return null;
    }

    private static String columnName(Annotations annotations, FieldDeclaration field) {
        Optional<String> explicit = annotations.find(field, COLUMN).flatMap(a -> Annotations.attribute(a, "name"))
                .map(EntityModel::stringValue).filter(s -> !s.isEmpty());
        return explicit.orElse(snake(field.getVariable(0).getNameAsString())).toLowerCase(Locale.ROOT);
    }

    private static String stringValue(Expression e) {
        return e instanceof StringLiteralExpr s ? s.asString() : "";
    }

    public Optional<Entity> byQualifiedName(String name) {
        return Optional.ofNullable(byQualifiedName.get(name));
    }

    /** By entity name as JPQL writes it, or by table name. */
    public Optional<Entity> byName(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        Entity e = bySimpleName.get(key);
        return Optional.ofNullable(e != null ? e : byTable.get(key));
    }

    /**
     * As {@link #byName(String)}, for a statement in the file at {@code from}: when several entities
     * share the name (each module maps its own {@code User}), the one whose source file shares the
     * longest leading path with {@code from} (the same module, then the nearest package); none when two
     * are equally near, since the statement could mean either.
     */
    public Optional<Entity> byName(String name, java.nio.file.Path from) {
        String key = name.toLowerCase(Locale.ROOT);
        List<Entity> candidates = allBySimpleName.getOrDefault(key, allByTable.getOrDefault(key, List.of()));
        if (candidates.size() <= 1 || from == null) {
            return byName(name);
        }
        Entity best = null;
        int bestShared = -1;
        boolean tie = false;
        for (Entity e : candidates) {
            int shared = sharedPrefix(e.type().file().path(), from);
            if (shared > bestShared) {
                best = e;
                bestShared = shared;
                tie = false;
            } else if (shared == bestShared) {
                tie = true;
            }
        }
        return tie ? Optional.empty() : Optional.ofNullable(best);
    }

    private static int sharedPrefix(java.nio.file.Path a, java.nio.file.Path b) {
        int n = 0;
        while (n < a.getNameCount() && n < b.getNameCount() && a.getName(n).equals(b.getName(n))) {
            n++;
        }
        return n;
    }

    /** {@code tenantId} -> {@code tenant_id}; {@code OrderLine} -> {@code order_line}. */
    public static String snake(String name) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0 && name.charAt(i - 1) != '_' && !Character.isUpperCase(name.charAt(i - 1))) {
                    out.append('_');
                }
                out.append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    static boolean isArray(Expression e) {
        return e instanceof ArrayInitializerExpr;
    }
}
