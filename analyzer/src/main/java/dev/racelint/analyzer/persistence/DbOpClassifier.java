package dev.racelint.analyzer.persistence;

import dev.racelint.analyzer.parse.NodeMemo;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.ClassExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import dev.racelint.analyzer.persistence.DbOp.Kind;
import dev.racelint.analyzer.persistence.DbOp.ReadShape;
import dev.racelint.analyzer.resolve.CallResolver;
import dev.racelint.analyzer.resolve.ExpressionTyper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises database operations at call sites: JDBC, JdbcTemplate, NamedParameterJdbcTemplate,
 * JdbcClient, jOOQ, MyBatis (annotations, XML, Generator names), JDBI, EntityManager and Spring
 * Data repositories. SQL comes from {@link SqlFacts}; entities from {@link EntityModel}.
 */
public final class DbOpClassifier {

    static final Set<String> JDBC_TEMPLATE = Set.of("org.springframework.jdbc.core.JdbcTemplate",
            "org.springframework.jdbc.core.JdbcOperations",
            "org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate",
            "org.springframework.jdbc.core.namedparam.NamedParameterJdbcOperations");
    static final Set<String> JDBC_CLIENT = Set.of("org.springframework.jdbc.core.simple.JdbcClient");
    static final Set<String> JDBC_STATEMENT = Set.of("java.sql.PreparedStatement", "java.sql.Statement",
            "java.sql.CallableStatement");
    static final Set<String> JOOQ = Set.of("org.jooq.DSLContext");
    static final String HIBERNATE_SESSION = "org.hibernate.Session";
    static final Set<String> ENTITY_MANAGER = Set.of("jakarta.persistence.EntityManager", "javax.persistence.EntityManager",
            HIBERNATE_SESSION);
    static final Set<String> JDBI_HANDLE = Set.of("org.jdbi.v3.core.Handle");
    /** Spring Data's own repository interfaces (a receiver typed as one of them is a repository). */
    public static final Set<String> SPRING_DATA = Set.of("org.springframework.data.repository.Repository",
            "org.springframework.data.repository.CrudRepository", "org.springframework.data.repository.ListCrudRepository",
            "org.springframework.data.repository.PagingAndSortingRepository",
            "org.springframework.data.repository.ListPagingAndSortingRepository",
            "org.springframework.data.jpa.repository.JpaRepository", "org.springframework.data.mongodb.repository.MongoRepository");
    static final Set<String> QUERY = Set.of("org.springframework.data.jpa.repository.Query");
    static final Set<String> MODIFYING = Set.of("org.springframework.data.jpa.repository.Modifying");
    static final Set<String> LOCK = Set.of("org.springframework.data.jpa.repository.Lock");
    static final Set<String> MYBATIS_SELECT = Set.of("org.apache.ibatis.annotations.Select");
    static final Set<String> MYBATIS_INSERT = Set.of("org.apache.ibatis.annotations.Insert");
    static final Set<String> MYBATIS_UPDATE = Set.of("org.apache.ibatis.annotations.Update");
    static final Set<String> MYBATIS_DELETE = Set.of("org.apache.ibatis.annotations.Delete");
    static final Set<String> JDBI_QUERY = Set.of("org.jdbi.v3.sqlobject.statement.SqlQuery");
    static final Set<String> JDBI_UPDATE = Set.of("org.jdbi.v3.sqlobject.statement.SqlUpdate");

    private static final Pattern DERIVED = Pattern.compile(
            "^(exists|count|find|get|read|query|search|stream|delete|remove)(?:First\\d*|Top\\d*|Distinct|All)*By(.*)$");

    private final ProgramIndex index;
    private final CallResolver resolver;
    private final ExpressionTyper typer;
    private final Annotations annotations;
    private final EntityModel entities;
    private final SqlFacts.Source sql;
    private final MyBatisXml xml;
    private final NodeMemo<Optional<DbOp>> memo;
    /** Per repository type: the entity of its Spring Data super-interface (empty when it has none). */
    private final java.util.concurrent.ConcurrentHashMap<TypeInfo, Optional<TypeRef>> repositoryEntities =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** Per declared method: the SQL its annotation or mapper XML gives it, if it declares any. */
    private final dev.racelint.analyzer.index.MethodMemo<DeclaredSql> declaredSql;
    /** MyBatis-Plus's inherited CRUD methods (BaseMapper, IService, ServiceImpl). */
    private final MyBatisPlus myBatisPlus;
    /** The entities' {@code @NamedQuery} declarations, for {@code createNamedQuery(name)}. */
    private final NamedQueries namedQueries;
    /** Which interfaces are MyBatis mappers (registered, deriving from a generic mapper, or bound by XML). */
    private final MapperInterfaces mappers;

    public DbOpClassifier(ProgramIndex index, CallResolver resolver, EntityModel entities, SqlFacts.Source sql,
            MyBatisXml xml) {
        this.index = index;
        this.resolver = resolver;
        this.typer = resolver.typer();
        this.annotations = resolver.annotations();
        this.entities = entities;
        this.sql = sql;
        this.xml = xml;
        this.memo = new NodeMemo<>(NodeMemo.EXPECTED_PER_METHOD * index.methods().size());
        this.declaredSql = new dev.racelint.analyzer.index.MethodMemo<>(index);
        this.myBatisPlus = new MyBatisPlus(index, annotations, this);
        this.namedQueries = new NamedQueries(annotations, entities);
        this.mappers = new MapperInterfaces(index, annotations, xml);
    }

    public EntityModel entities() {
        return entities;
    }

    /** The MyBatis mapper statements of the tree, for facts about a statement that {@link SqlFacts} does not keep. */
    public MyBatisXml mapperXml() {
        return xml;
    }

    /** The operation this call performs directly (not through project helpers), if any. */
    public Optional<DbOp> classify(MethodCallExpr call) {
        Optional<DbOp> cached = memo.get(call);
        if (cached != null) {
            return cached;
        }
        Optional<DbOp> result;
        try {
            result = Optional.ofNullable(compute(call));
        } catch (RuntimeException | StackOverflowError e) {
            result = Optional.empty();
        }
        memo.put(call, result);
        return result;
    }

    private DbOp compute(MethodCallExpr call) {
        DbOp api = computeApi(call);
        if (api != null) {
            return api;
        }
        return EntityManagerWrappers.classify(this, index, resolver, call);
    }

    private DbOp computeApi(MethodCallExpr call) {
        if (call.getScope().isEmpty()) {
            // an inherited MyBatis-Plus method called in a ServiceImpl subclass: update(w), save(e)
            return myBatisPlus.classify(call, index.enclosingType(call));
        }
        Expression scope = call.getScope().get();
        DbOp record = JooqRecords.storeOfNewRecord(this, call,
                dsl -> typer.typeOf(dsl).type().candidates().stream().anyMatch(JOOQ::contains));
        if (record != null) {
            return record;
        }
        ExpressionTyper.Typed receiver = typer.typeOf(scope);
        TypeRef type = receiver.type();
        String name = call.getNameAsString();
        if (type.isProject()) {
            TypeInfo t = type.project();
            DbOp repo = springData(call, t, name);
            if (repo != null) {
                return repo;
            }
            DbOp plus = myBatisPlus.classify(call, t);
            if (plus != null) {
                return plus;
            }
            // MyBatis Generator's *ByExample methods first: their generated XML builds the WHERE from an
            // Example object at run time, which the Java code building it says more about than the XML.
            if (name.contains("ByExample")) {
                DbOp generated = generatorMapper(call, t, name);
                if (generated != null) {
                    return generated;
                }
            }
            DbOp mapper = declaredSql(call, t, name);
            return mapper != null ? mapper : generatorMapper(call, t, name);
        }
        List<String> names = type.candidates();
        if (names.stream().anyMatch(JDBC_TEMPLATE::contains)) {
            return jdbcTemplate(call, name);
        }
        if (names.stream().anyMatch(JDBC_CLIENT::contains) && name.equals("sql")) {
            return chainedSql(call, call.getArguments().isEmpty() ? null : call.getArgument(0), "JdbcClient", false);
        }
        if (names.stream().anyMatch(JOOQ::contains)) {
            return JooqChains.classify(this, call, name);
        }
        if (names.stream().anyMatch(ENTITY_MANAGER::contains)) {
            return entityManager(call, name);
        }
        if (names.stream().anyMatch(JDBI_HANDLE::contains)) {
            if (name.equals("createQuery") || name.equals("createUpdate") || name.equals("select")
                    || name.equals("execute") || name.equals("createCall")) {
                return chainedSql(call, call.getArguments().isEmpty() ? null : call.getArgument(0), "Handle", false);
            }
            return null;
        }
        if (names.stream().anyMatch(JDBC_STATEMENT::contains)) {
            return jdbcStatement(call, scope, name);
        }
        return null;
    }

    /**
     * The API family of an operation {@link #classify} found: the receiver of its call is typed again
     * (memoised) and sorted as {@code compute} sorts it.
     */
    public DbApiFamily family(DbOp op) {
        Expression scope = op.call().getScope().orElse(null);
        if (scope == null) {
            TypeInfo self = index.enclosingType(op.call());
            return self != null && myBatisPlus.entityOf(self).isPresent() ? DbApiFamily.MYBATIS_PLUS : DbApiFamily.OTHER;
        }
        TypeRef type = typer.typeOf(scope).type();
        if (type.isProject()) {
            TypeInfo t = type.project();
            if (repositoryEntity(t) != null) {
                return DbApiFamily.SPRING_DATA;
            }
            if (myBatisPlus.entityOf(t).isPresent()) {
                return DbApiFamily.MYBATIS_PLUS;
            }
            for (MethodInfo m : index.findMethods(t, op.call().getNameAsString(), op.call().getArguments().size())) {
                if (m.declaration() instanceof MethodDeclaration decl
                        && (annotations.has(decl, JDBI_QUERY) || annotations.has(decl, JDBI_UPDATE))) {
                    return DbApiFamily.JDBI;
                }
            }
            return DbApiFamily.MYBATIS;
        }
        List<String> names = type.candidates();
        if (names.stream().anyMatch(JDBC_TEMPLATE::contains)) {
            return DbApiFamily.JDBC_TEMPLATE;
        }
        if (names.stream().anyMatch(JDBC_CLIENT::contains)) {
            return DbApiFamily.JDBC_CLIENT;
        }
        if (names.stream().anyMatch(JOOQ::contains)) {
            return DbApiFamily.JOOQ;
        }
        if (names.contains(HIBERNATE_SESSION)) {
            return DbApiFamily.HIBERNATE;
        }
        if (names.stream().anyMatch(ENTITY_MANAGER::contains)) {
            return DbApiFamily.JPA;
        }
        if (names.stream().anyMatch(JDBI_HANDLE::contains)) {
            return DbApiFamily.JDBI;
        }
        if (names.stream().anyMatch(JDBC_STATEMENT::contains)) {
            return DbApiFamily.JDBC;
        }
        return DbApiFamily.OTHER;
    }

    /**
     * Whether calls on one of these (external) types are read by this classifier, so a call on them
     * that is no operation (a getter, a setting) is no blind spot of the coverage summary.
     */
    public static boolean recognisesType(List<String> names) {
        for (String name : names) {
            if (JDBC_TEMPLATE.contains(name) || JDBC_CLIENT.contains(name) || JDBC_STATEMENT.contains(name)
                    || JOOQ.contains(name) || ENTITY_MANAGER.contains(name) || JDBI_HANDLE.contains(name)
                    || SPRING_DATA.contains(name)) {
                return true;
            }
        }
        return MyBatisPlus.isFrameworkType(names);
    }

    // ---- JdbcTemplate -------------------------------------------------------------------------

    private DbOp jdbcTemplate(MethodCallExpr call, String name) {
        if (call.getArguments().isEmpty()) {
            return null;
        }
        boolean read = name.startsWith("query");
        boolean write = name.equals("update") || name.equals("batchUpdate") || name.equals("execute");
        if (!read && !write) {
            return null;
        }
        SqlFacts facts = sql.of(call.getArgument(0), false).orElse(null);
        if (facts == null) {
            return null;
        }
        return fromSql(call, call, facts, "JdbcTemplate." + name, List.of(), 1);
    }

    /** {@code jdbcClient.sql(S)...update()}, {@code handle.createUpdate(S)...execute()}. */
    private DbOp chainedSql(MethodCallExpr call, Expression sqlArg, String api, boolean jpql) {
        if (sqlArg == null) {
            return null;
        }
        SqlFacts facts = sql.of(sqlArg, jpql).orElse(null);
        if (facts == null) {
            return null;
        }
        MethodCallExpr end = CallResolver.chainEnd(call);
        DbOp op = fromSql(call, end, facts, api + "." + call.getNameAsString(), List.of(), -1);
        return op != null && op.kind() == Kind.READ && !op.locked() && pessimisticLockMode(call, end) ? op.locking() : op;
    }

    /** {@code createQuery(..).setLockMode(LockModeType.PESSIMISTIC_WRITE)...}: the query's rows are locked. */
    private static boolean pessimisticLockMode(MethodCallExpr start, MethodCallExpr end) {
        Node at = start;
        while (at instanceof MethodCallExpr m) {
            if (m.getNameAsString().equals("setLockMode") && m.getArguments().size() == 1
                    && m.getArgument(0).toString().contains("PESSIMISTIC")) {
                return true;
            }
            if (m == end) {
                break;
            }
            at = m.getParentNode().orElse(null);
            if (at instanceof com.github.javaparser.ast.expr.FieldAccessExpr) {
                break;
            }
        }
        return false;
    }

    // ---- JDBC ---------------------------------------------------------------------------------

    private DbOp jdbcStatement(MethodCallExpr call, Expression scope, String name) {
        if (!(name.equals("executeQuery") || name.equals("executeUpdate") || name.equals("execute")
                || name.equals("executeLargeUpdate"))) {
            return null;
        }
        Expression sqlExpr = null;
        if (!call.getArguments().isEmpty()) {
            sqlExpr = call.getArgument(0);
        } else if (scope instanceof NameExpr n) {
            sqlExpr = PreparedStatements.sqlOf(n);
        }
        if (sqlExpr == null) {
            return null;
        }
        SqlFacts facts = sql.of(sqlExpr, false).orElse(null);
        return facts == null ? null : fromSql(call, call, facts, "PreparedStatement." + name, List.of(), -1);
    }

    // ---- EntityManager ------------------------------------------------------------------------

    private DbOp entityManager(MethodCallExpr call, String name) {
        switch (name) {
            case "find", "getReference" -> {
                EntityModel.Entity e = call.getArguments().isEmpty() ? null : entityOfClassLiteral(call.getArgument(0));
                boolean locked = call.getArguments().size() >= 3
                        && call.getArgument(2).toString().contains("PESSIMISTIC");
                return entityOp(call, Kind.READ, e, ReadShape.ROWS, Set.of("id"), locked, "EntityManager." + name).byTheApisPrimaryKey();
            }
            case "lock", "refresh" -> {
                // em.lock(entity, PESSIMISTIC_WRITE) / em.refresh(entity, PESSIMISTIC_WRITE) lock the entity's row
                boolean pessimistic = call.getArguments().size() >= 2
                        && call.getArgument(1).toString().contains("PESSIMISTIC");
                return pessimistic ? entityOp(call, Kind.READ, entityOfValue(call), ReadShape.ROWS, Set.of("id"), true,
                        "EntityManager." + name).byTheApisPrimaryKey() : null;
            }
            case "persist" -> {
                return entityOp(call, Kind.INSERT, entityOfValue(call), ReadShape.NONE, Set.of(), false, "EntityManager.persist");
            }
            case "merge" -> {
                return entityOp(call, Kind.SAVE, entityOfValue(call), ReadShape.NONE, Set.of(), false, "EntityManager.merge");
            }
            case "remove" -> {
                return entityOp(call, Kind.DELETE, entityOfValue(call), ReadShape.NONE, Set.of("id"), false, "EntityManager.remove")
                        .byTheApisPrimaryKey();
            }
            case "createQuery", "createNativeQuery" -> {
                return chainedSql(call, call.getArguments().isEmpty() ? null : call.getArgument(0), "EntityManager",
                        name.equals("createQuery"));
            }
            case "createNamedQuery" -> {
                return call.getArguments().isEmpty() || !(call.getArgument(0) instanceof StringLiteralExpr queryName)
                        ? null : namedQuery(call, queryName.asString());
            }
            default -> {
                return null;
            }
        }
    }

    /** {@code createNamedQuery(name)} at {@code call}: the declared query's statement, or null when none is declared. */
    DbOp namedQuery(MethodCallExpr call, String queryName) {
        NamedQueries.Declared declared = namedQueries.byName(queryName).orElse(null);
        DbOp op = declared == null ? null : queryOp(call, declared.query(), declared.jpql(), "EntityManager.createNamedQuery");
        EntityModel.Entity owner = declared == null ? null : declared.owner();
        if (op != null && op.entity() != null && op.entity() != owner
                && op.entity().type().simpleName().equals(owner.type().simpleName())) {
            // the JPQL names its entity by simple name: the declaring entity, not a namesake in another package
            return new DbOp(op.call(), op.end(), op.kind(), owner.table(), owner, op.shape(), op.keyColumns(),
                    op.conditional(), op.selfRelative(), op.locked(), op.upsert(), op.describe(), op.location(), op.via(),
                    op.valueParameters(), op.valueNames(), op.lockDetail(), op.endState(), op.byPrimaryKey());
        }
        return op;
    }

    /** A query whose text {@code call} passes on to {@code createQuery} / {@code createNativeQuery}. */
    DbOp queryText(MethodCallExpr call, Expression text, boolean jpql) {
        return queryOp(call, text, jpql, jpql ? "EntityManager.createQuery" : "EntityManager.createNativeQuery");
    }

    /** The statement of a query created at {@code call} (perhaps through a wrapper), named {@code api} in messages. */
    private DbOp queryOp(MethodCallExpr call, Expression text, boolean jpql, String api) {
        SqlFacts facts = sql.of(text, jpql).orElse(null);
        if (facts == null) {
            return null;
        }
        MethodCallExpr end = CallResolver.chainEnd(call);
        DbOp op = fromSql(call, end, facts, api, List.of(), -1);
        return op != null && op.kind() == Kind.READ && !op.locked() && pessimisticLockMode(call, end) ? op.locking() : op;
    }

    /** Is this a call on an EntityManager (or a Hibernate Session)? */
    boolean entityManagerCall(MethodCallExpr call) {
        return call.getScope().isPresent()
                && typer.typeOf(call.getScope().get()).type().candidates().stream().anyMatch(ENTITY_MANAGER::contains);
    }

    /** The entity an argument names: a class literal of it, or a value of its type. */
    EntityModel.Entity entityOfArgument(Expression e) {
        if (e instanceof ClassExpr) {
            return entityOfClassLiteral(e);
        }
        TypeRef ref = typer.typeOf(e).type();
        return ref.isProject() ? entities.byQualifiedName(ref.project().qualifiedName()).orElse(null) : null;
    }

    private EntityModel.Entity entityOfClassLiteral(Expression e) {
        if (e instanceof ClassExpr c) {
            TypeRef ref = index.resolveType(c.getType(), c);
            if (ref.isProject()) {
                return entities.byQualifiedName(ref.project().qualifiedName()).orElse(null);
            }
        }
        return null;
    }

    private EntityModel.Entity entityOfValue(MethodCallExpr call) {
        if (call.getArguments().isEmpty()) {
            return null;
        }
        TypeRef ref = typer.typeOf(call.getArgument(0)).type();
        return ref.isProject() ? entities.byQualifiedName(ref.project().qualifiedName()).orElse(null) : null;
    }

    private DbOp entityOp(MethodCallExpr call, Kind kind, EntityModel.Entity entity, ReadShape shape,
            Set<String> keys, boolean locked, String describe) {
        String table = entity == null ? "" : entity.table();
        return new DbOp(call, call, kind, table, entity, shape, keys, false, false, locked, false,
                describe + "()", location(call), null, List.of(), List.of(), LockDetail.NONE);
    }

    // ---- Spring Data --------------------------------------------------------------------------

    private DbOp springData(MethodCallExpr call, TypeInfo repo, String name) {
        TypeRef entityRef = repositoryEntity(repo);
        if (entityRef == null) {
            return null;
        }
        EntityModel.Entity entity = entityRef.isProject()
                ? entities.byQualifiedName(entityRef.project().qualifiedName()).orElse(null) : null;
        String table = entity != null ? entity.table()
                : EntityModel.snake(entityRef.simpleName()).toLowerCase(Locale.ROOT);
        List<MethodInfo> declared = index.findMethods(repo, name, call.getArguments().size());
        MethodDeclaration decl = declared.stream().map(MethodInfo::declaration)
                .filter(d -> d instanceof MethodDeclaration).map(d -> (MethodDeclaration) d).findFirst().orElse(null);
        boolean locked = decl != null && annotations.find(decl, LOCK)
                .map(a -> a.toString().contains("PESSIMISTIC")).orElse(false);
        if (decl != null) {
            Optional<AnnotationExpr> query = annotations.find(decl, QUERY);
            if (query.isPresent()) {
                boolean nativeQuery = Annotations.attribute(query.get(), "nativeQuery")
                        .map(v -> v.toString().equals("true")).orElse(false);
                Optional<Expression> text = Annotations.attribute(query.get(), "value");
                SqlFacts facts = text.flatMap(t -> sql.of(t, !nativeQuery)).orElse(null);
                if (facts != null) {
                    DbOp op = withDeclaredArguments(fromSql(call, call, facts, name, List.of(), -1), decl, facts);
                    return op == null ? null : withLock(op, locked);
                }
                return null;
            }
        }
        String describe = name + "()";
        switch (name) {
            case "save", "saveAndFlush", "saveAll", "saveAllAndFlush" -> {
                return new DbOp(call, call, Kind.SAVE, table, entity, ReadShape.NONE, Set.of(), false, false, false,
                        false, describe, location(call), null, List.of(), List.of(), LockDetail.NONE);
            }
            case "findById", "getById", "getReferenceById", "getOne" -> {
                return new DbOp(call, call, Kind.READ, table, entity, ReadShape.ROWS, Set.of("id"), false, false, locked,
                        false, describe, location(call), null, List.of(), List.of(), LockDetail.NONE).byTheApisPrimaryKey();
            }
            case "existsById" -> {
                return new DbOp(call, call, Kind.READ, table, entity, ReadShape.EXISTS, Set.of("id"), false, false, false,
                        false, describe, location(call), null, List.of(), List.of(), LockDetail.NONE).byTheApisPrimaryKey();
            }
            case "count" -> {
                return new DbOp(call, call, Kind.READ, table, entity, ReadShape.COUNT, Set.of(), false, false, false,
                        false, describe, location(call), null, List.of(), List.of(), LockDetail.NONE);
            }
            case "findAll", "findAllById" -> {
                return new DbOp(call, call, Kind.READ, table, entity, ReadShape.ROWS, Set.of(), false, false, locked,
                        false, describe, location(call), null, List.of(), List.of(), LockDetail.NONE);
            }
            case "delete", "deleteById", "deleteAll", "deleteAllById", "deleteAllInBatch", "deleteInBatch" -> {
                DbOp delete = new DbOp(call, call, Kind.DELETE, table, entity, ReadShape.NONE, Set.of("id"), false, false,
                        false, false, describe, location(call), null, List.of(), List.of(), LockDetail.NONE);
                return name.equals("delete") || name.equals("deleteById") || name.equals("deleteAllById")
                        ? delete.byTheApisPrimaryKey() : delete;
            }
            default -> { }
        }
        Matcher m = DERIVED.matcher(name);
        if (!m.matches()) {
            return null;
        }
        String verb = m.group(1);
        Set<String> columns = derivedColumns(m.group(2));
        if (verb.equals("delete") || verb.equals("remove")) {
            return new DbOp(call, call, Kind.DELETE, table, entity, ReadShape.NONE, columns, true, false, false, false,
                    describe, location(call), null, List.of(), List.of(), LockDetail.NONE);
        }
        ReadShape shape = verb.equals("exists") ? ReadShape.EXISTS : verb.equals("count") ? ReadShape.COUNT : ReadShape.ROWS;
        return new DbOp(call, call, Kind.READ, table, entity, shape, columns, false, false, locked, false,
                describe, location(call), null, List.of(), List.of(), LockDetail.NONE);
    }

    /** The entity type argument of a Spring Data repository interface, or null when not one. */
    /** Asked at every call on a project type: a function of the type, so worked out once per type. */
    private TypeRef repositoryEntity(TypeInfo repo) {
        return repositoryEntities.computeIfAbsent(repo, r -> Optional.ofNullable(computeRepositoryEntity(r))).orElse(null);
    }

    /** A type argument as written, with the declaration to resolve it in. */
    private record BoundType(com.github.javaparser.ast.type.Type type, com.github.javaparser.ast.Node context) {}

    private TypeRef computeRepositoryEntity(TypeInfo repo) {
        // each project interface walked with what its type parameters stand for in the repository
        // (OrderRepository extends BaseRepository<Order> and BaseRepository<T> extends JpaRepository<T, Long>)
        java.util.ArrayDeque<Map.Entry<TypeInfo, Map<String, BoundType>>> work = new java.util.ArrayDeque<>();
        work.add(Map.entry(repo, Map.of()));
        Set<TypeInfo> seen = new java.util.HashSet<>();
        while (!work.isEmpty()) {
            TypeInfo t = work.peek().getKey();
            Map<String, BoundType> bindings = work.poll().getValue();
            if (!seen.add(t) || !(t.declaration() instanceof com.github.javaparser.ast.body.ClassOrInterfaceDeclaration c)) {
                continue;
            }
            List<ClassOrInterfaceType> clauses = new ArrayList<>(c.getExtendedTypes());
            clauses.addAll(c.getImplementedTypes());
            for (ClassOrInterfaceType clause : clauses) {
                TypeRef ref = index.resolveTypeName(clause.getNameWithScope(), c, t.file());
                if (ref.candidates().stream().anyMatch(SPRING_DATA::contains)) {
                    if (clause.getTypeArguments().isPresent() && !clause.getTypeArguments().get().isEmpty()) {
                        BoundType entity = bound(clause.getTypeArguments().get().get(0), c, bindings);
                        return index.resolveType(entity.type(), entity.context());
                    }
                    return TypeRef.UNKNOWN;
                }
                if (ref.isProject()) {
                    Map<String, BoundType> next = new java.util.HashMap<>();
                    if (ref.project().declaration() instanceof com.github.javaparser.ast.body.ClassOrInterfaceDeclaration sup
                            && clause.getTypeArguments().isPresent()) {
                        var parameters = sup.getTypeParameters();
                        var arguments = clause.getTypeArguments().get();
                        for (int i = 0; i < Math.min(parameters.size(), arguments.size()); i++) {
                            next.put(parameters.get(i).getNameAsString(), bound(arguments.get(i), c, bindings));
                        }
                    }
                    work.add(Map.entry(ref.project(), next));
                }
            }
        }
        return null;
    }

    /** {@code type} written in {@code context}, a type parameter of it replaced by what it is bound to. */
    private static BoundType bound(com.github.javaparser.ast.type.Type type, com.github.javaparser.ast.Node context,
            Map<String, BoundType> bindings) {
        if (type instanceof ClassOrInterfaceType named && named.getScope().isEmpty() && named.getTypeArguments().isEmpty()
                && bindings.containsKey(named.getNameAsString())) {
            return bindings.get(named.getNameAsString());
        }
        return new BoundType(type, context);
    }

    /** Columns a derived query selects rows by with equality (ranges and exclusions do not pick rows). */
    private static Set<String> derivedColumns(String criteria) {
        Set<String> out = new LinkedHashSet<>();
        String cleaned = criteria.replaceAll("OrderBy.*$", "");
        for (String part : cleaned.split("And|Or")) {
            if (part.matches(".*(Not|NotIn|GreaterThan|GreaterThanEqual|LessThan|LessThanEqual|Between|Like|NotLike"
                    + "|StartingWith|EndingWith|Containing|NotContaining|Before|After|IsNull|Null|IsNotNull|NotNull)$")) {
                continue;
            }
            String p = part.replaceAll("(AllIgnoreCase|IgnoreCase|IsTrue|True|IsFalse|False|In|Is|Equals|Exists)$", "");
            if (!p.isEmpty()) {
                out.add(EntityModel.snake(Character.toLowerCase(p.charAt(0)) + p.substring(1)));
            }
        }
        return out;
    }

    // ---- MyBatis and JDBI SQL objects ----------------------------------------------------------

    /** A project interface method carrying its SQL (MyBatis @Select..., JDBI @SqlQuery/@SqlUpdate, MyBatis XML). */
    private DbOp declaredSql(MethodCallExpr call, TypeInfo type, String name) {
        List<MethodInfo> declared = index.findMethods(type, name, call.getArguments().size());
        for (MethodInfo m : declared) {
            DeclaredSql found = declaredSql.get(m, this::computeDeclaredSql);
            if (found.declares()) {
                return found.facts() == null ? null : withDeclaredArguments(fromSql(call, call, found.facts(),
                        type.simpleName() + "." + name, List.of(), -1), m.declaration(), found.facts());
            }
        }
        return null;
    }

    /** Whether a method declares its SQL (a MyBatis or JDBI annotation, a mapper XML statement), and the SQL read. */
    private record DeclaredSql(boolean declares, SqlFacts facts) {
        static final DeclaredSql NONE = new DeclaredSql(false, null);
    }

    private DeclaredSql computeDeclaredSql(MethodInfo m) {
        if (!(m.declaration() instanceof MethodDeclaration decl)) {
            return DeclaredSql.NONE;
        }
        for (Set<String> kind : List.of(MYBATIS_SELECT, MYBATIS_INSERT, MYBATIS_UPDATE, MYBATIS_DELETE, JDBI_QUERY, JDBI_UPDATE)) {
            Optional<AnnotationExpr> a = annotations.find(decl, kind);
            if (a.isPresent()) {
                Optional<Expression> value = Annotations.attribute(a.get(), "value");
                return new DeclaredSql(true, value.flatMap(v -> sql.of(v, false)).orElse(null));
            }
        }
        Optional<String> xmlSql = xml.statement(m.declaringType().qualifiedName(), m.name());
        if (xmlSql.isPresent()) {
            return new DeclaredSql(true, sql.ofText(xmlSql.get(), false).orElse(null));
        }
        return DeclaredSql.NONE;
    }

    /** The Generator's methods whose generated WHERE is the primary key. */
    private static final Set<String> GENERATOR_BY_PRIMARY_KEY = Set.of("selectByPrimaryKey", "updateByPrimaryKey",
            "updateByPrimaryKeySelective", "updateByPrimaryKeyWithBLOBs", "deleteByPrimaryKey");

    /** MyBatis Generator's and tk.mybatis' conventional mapper methods, on an interface MyBatis makes a mapper of. */
    private DbOp generatorMapper(MethodCallExpr call, TypeInfo type, String name) {
        if (!mappers.isMapper(type)) {
            return null;
        }
        String table = exampleStatementTable(call, type, name).or(() -> mappedTable(type))
                .orElse(EntityModel.snake(type.simpleName().replaceAll("Mapper$", "")).toLowerCase(Locale.ROOT));
        String describe = type.simpleName() + "." + name + "()";
        Kind kind;
        ReadShape shape = ReadShape.NONE;
        boolean conditional = false;
        Set<String> keys = Set.of("id");
        switch (name) {
            case "selectByPrimaryKey" -> { kind = Kind.READ; shape = ReadShape.ROWS; }
            case "selectAll" -> { kind = Kind.READ; shape = ReadShape.ROWS; keys = Set.of(); }
            case "selectByExample", "selectByExampleWithBLOBs", "selectOneByExample" -> {
                kind = Kind.READ; shape = ReadShape.ROWS; keys = ExampleCriteria.equalityColumns(call);
            }
            case "countByExample" -> { kind = Kind.READ; shape = ReadShape.COUNT; keys = ExampleCriteria.equalityColumns(call); }
            // a generic mapper's query by record (tk.mybatis Mapper<T>): the WHERE is the record's non-null properties
            case "selectCount", "selectOne", "select" -> {
                if (call.getArguments().size() != 1) {
                    return null;
                }
                kind = Kind.READ;
                shape = name.equals("selectCount") ? ReadShape.COUNT : ReadShape.ROWS;
                keys = RecordCriteria.equalityColumns(call);
            }
            case "insert", "insertSelective" -> { kind = Kind.INSERT; keys = Set.of(); }
            case "updateByPrimaryKey", "updateByPrimaryKeySelective", "updateByPrimaryKeyWithBLOBs" -> kind = Kind.UPDATE;
            case "updateByExample", "updateByExampleSelective" -> {
                kind = Kind.UPDATE;
                Set<String> columns = new LinkedHashSet<>();
                conditional = exampleGuardsOneRow(call, columns);
                keys = columns;
            }
            case "deleteByPrimaryKey" -> kind = Kind.DELETE;
            case "deleteByExample" -> {
                kind = Kind.DELETE;
                Set<String> columns = new LinkedHashSet<>();
                conditional = exampleGuardsOneRow(call, columns);
                keys = columns;
            }
            default -> { return null; }
        }
        DbOp op = new DbOp(call, call, kind, table, null, shape, keys, conditional, false, false, false, describe,
                location(call), null, List.of(), List.of(), LockDetail.NONE);
        return GENERATOR_BY_PRIMARY_KEY.contains(name) ? op.byTheApisPrimaryKey() : op;
    }

    /**
     * The table a Generator {@code *ByExample} read of the mapper's XML reads: the generated
     * {@code <select id="selectByExample">} names it ({@code from jsh_depot_head}), where the mapper's
     * own name need not ({@code DepotHeadMapper}). Reads only for now: with the writes' tables too,
     * lost-update (which pairs a read and a write by table) would pair a read of one row with an
     * Example write of others.
     */
    private Optional<String> exampleStatementTable(MethodCallExpr call, TypeInfo type, String name) {
        if (!name.startsWith("selectByExample") && !name.equals("selectOneByExample") && !name.equals("countByExample")) {
            return Optional.empty();
        }
        for (MethodInfo m : index.findMethods(type, name, call.getArguments().size())) {
            SqlFacts facts = declaredSql.get(m, this::computeDeclaredSql).facts();
            if (facts != null && facts.table() != null && !facts.table().isEmpty()) {
                return Optional.of(facts.table());
            }
        }
        return Optional.empty();
    }

    /**
     * The table of the record type a generic mapper is declared for ({@code OrderMapper extends
     * Mapper<Order>}, directly or through a project base mapper), from that type's {@code @Table(name)}.
     */
    private Optional<String> mappedTable(TypeInfo mapper) {
        if (!(mapper.declaration() instanceof com.github.javaparser.ast.body.ClassOrInterfaceDeclaration decl)) {
            return Optional.empty();
        }
        for (var extended : decl.getExtendedTypes()) {
            for (var argument : extended.getTypeArguments().orElse(new com.github.javaparser.ast.NodeList<>())) {
                dev.racelint.analyzer.index.TypeRef ref = index.resolveType(argument, decl);
                if (ref.isProject()) {
                    Optional<String> table = annotations.find(ref.project().declaration(), EntityModel.TABLE)
                            .flatMap(a -> dev.racelint.analyzer.index.Annotations.attribute(a, "name"))
                            .filter(v -> v instanceof com.github.javaparser.ast.expr.StringLiteralExpr)
                            .map(v -> ((com.github.javaparser.ast.expr.StringLiteralExpr) v).asString().toLowerCase(Locale.ROOT))
                            .filter(t -> !t.isEmpty());
                    if (table.isPresent()) {
                        return table;
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The statement a repository or mapper method declares (Spring Data {@code @Query}, MyBatis
     * {@code @Select/@Insert/@Update/@Delete} or XML, JDBI {@code @SqlQuery/@SqlUpdate}), if any.
     */
    public Optional<SqlFacts> declaredStatement(MethodInfo method) {
        return sqlSource(method).flatMap(d -> d.value() != null ? sql.of(d.value(), d.jpql()) : sql.ofText(d.text(), d.jpql()));
    }

    /** The parsed statement {@link #declaredStatement} summarises: its SET and WHERE columns. */
    public Optional<dev.racelint.analyzer.sql.SqlStatement> declaredSqlStatement(MethodInfo method) {
        return sqlSource(method).flatMap(d -> d.value() != null ? sql.statementOf(d.value(), d.jpql())
                : sql.statementOfText(d.text(), d.jpql()));
    }

    /** Where a method's declared SQL is written: an annotation's value, or a mapper XML statement's text. */
    private record SqlSource(Expression value, String text, boolean jpql) {}

    private Optional<SqlSource> sqlSource(MethodInfo method) {
        if (!(method.declaration() instanceof MethodDeclaration decl)) {
            return Optional.empty();
        }
        Optional<AnnotationExpr> query = annotations.find(decl, QUERY);
        if (query.isPresent()) {
            boolean nativeQuery = Annotations.attribute(query.get(), "nativeQuery")
                    .map(v -> v.toString().equals("true")).orElse(false);
            return Annotations.attribute(query.get(), "value").map(v -> new SqlSource(v, null, !nativeQuery));
        }
        for (Set<String> kind : List.of(MYBATIS_SELECT, MYBATIS_INSERT, MYBATIS_UPDATE, MYBATIS_DELETE, JDBI_QUERY, JDBI_UPDATE)) {
            Optional<AnnotationExpr> a = annotations.find(decl, kind);
            if (a.isPresent()) {
                return Annotations.attribute(a.get(), "value").map(v -> new SqlSource(v, null, false));
            }
        }
        return xml.statement(method.declaringType().qualifiedName(), method.name()).map(t -> new SqlSource(null, t, false));
    }

    /** Does the call land on a project method declared {@code void} (its count is discarded at the declaration)? */
    public boolean targetReturnsVoid(MethodCallExpr call) {
        for (MethodInfo m : resolver.resolve(call).targets()) {
            if (m.declaration() instanceof MethodDeclaration d && d.getType().isVoidType()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a Generator {@code *ByExample} write targets one row and guards it: the Example passed
     * to the call is built with {@code andIdEqualTo(..)} plus at least one other criterion. Without an
     * id equality it is a bulk update or delete, whose count decides nothing.
     */
    private static boolean exampleGuardsOneRow(MethodCallExpr call, Set<String> columnsOut) {
        Expression exampleArg = call.getArguments().isEmpty() ? null : call.getArgument(call.getArguments().size() - 1);
        if (!(exampleArg instanceof NameExpr example)) {
            return false;
        }
        Node method = call;
        while (method != null && !(method instanceof com.github.javaparser.ast.body.CallableDeclaration<?>)) {
            method = method.getParentNode().orElse(null);
        }
        if (method == null) {
            return false;
        }
        Pattern criterion = Pattern.compile("^and([A-Z]\\w*?)(EqualTo|NotEqualTo|GreaterThan|GreaterThanOrEqualTo|LessThan"
                + "|LessThanOrEqualTo|In|NotIn|Between|IsNull|IsNotNull|Like)$");
        boolean idEquality = false;
        int criteria = 0;
        for (MethodCallExpr c : method.findAll(MethodCallExpr.class)) {
            Matcher m = criterion.matcher(c.getNameAsString());
            if (!m.matches() || !example.getNameAsString().equals(chainRootName(c))) {
                continue;
            }
            criteria++;
            String column = EntityModel.snake(Character.toLowerCase(m.group(1).charAt(0)) + m.group(1).substring(1));
            columnsOut.add(column);
            if (column.equals("id") && m.group(2).equals("EqualTo")) {
                idEquality = true;
            }
        }
        return idEquality && criteria > 1;
    }

    /** The variable a fluent chain starts from: {@code example.createCriteria().andX(..)} gives "example". */
    private static String chainRootName(MethodCallExpr call) {
        Expression current = call;
        while (current instanceof MethodCallExpr m && m.getScope().isPresent()) {
            current = m.getScope().get();
        }
        return current instanceof NameExpr n ? n.getNameAsString() : null;
    }

    // ---- SQL ----------------------------------------------------------------------------------

    /**
     * An operation from SQL facts. {@code firstValueArgument} is the index of the call argument
     * holding the first statement parameter (JdbcTemplate: 1), or -1 when parameters are bound elsewhere.
     */
    DbOp fromSql(MethodCallExpr call, MethodCallExpr end, SqlFacts facts, String api, List<Integer> unused,
            int firstValueArgument) {
        Kind kind = switch (facts.kind()) {
            case SELECT -> Kind.READ;
            case INSERT -> Kind.INSERT;
            case UPDATE -> Kind.UPDATE;
            case DELETE -> Kind.DELETE;
            case MERGE -> Kind.INSERT;
            default -> null;
        };
        if (kind == null) {
            return null;
        }
        EntityModel.Entity entity = entities.byName(facts.table(), index.fileOf(call).path()).orElse(null);
        String table = entity != null && facts.jpql() ? entity.table() : facts.table();
        List<Integer> valueArgs = new ArrayList<>();
        if (firstValueArgument >= 0) {
            for (int p : facts.setParameterIndexes()) {
                valueArgs.add(firstValueArgument + p);
            }
        }
        String describe = api + "(" + facts.summary() + ")";
        return new DbOp(call, end, kind, table, entity, facts.shape(), facts.keyColumns(), facts.conditional(),
                facts.selfRelative(), facts.locked(), facts.upsert(), describe, location(call), null, valueArgs,
                facts.setParameterNames(), facts.lockDetail());
    }

    /**
     * An UPDATE a method declares, with the call arguments it writes bound through the declaration's
     * parameters ({@link StatementArguments}), so no argument is taken for a key or a value by its name.
     */
    private DbOp withDeclaredArguments(DbOp op, com.github.javaparser.ast.Node declaration, SqlFacts facts) {
        if (op == null || op.kind() != Kind.UPDATE || !(declaration instanceof MethodDeclaration decl)) {
            return op;
        }
        return StatementArguments.writtenArguments(decl, facts, annotations, op.call().getArguments().size())
                .map(written -> new DbOp(op.call(), op.end(), op.kind(), op.table(), op.entity(), op.shape(),
                        op.keyColumns(), op.conditional(), op.selfRelative(), op.locked(), op.upsert(), op.describe(),
                        op.location(), op.via(), written, op.valueNames(), op.lockDetail(), op.endState(),
                        op.byPrimaryKey()))
                .orElse(op);
    }

    private static DbOp withLock(DbOp op, boolean locked) {
        if (!locked || op.locked()) {
            return op;
        }
        return new DbOp(op.call(), op.end(), op.kind(), op.table(), op.entity(), op.shape(), op.keyColumns(),
                op.conditional(), op.selfRelative(), true, op.upsert(), op.describe(), op.location(), op.via(),
                op.valueParameters(), op.valueNames(), op.lockDetail(), op.endState(), op.byPrimaryKey());
    }

    dev.racelint.analyzer.finding.CodeLocation location(MethodCallExpr call) {
        Path file = index.fileOf(call) == null ? Path.of("") : index.fileOf(call).path();
        return SourceLocations.ofCall(file, CallResolver.chainEnd(call), "");
    }

    SqlFacts.Source sql() {
        return sql;
    }

    ProgramIndex index() {
        return index;
    }

    ExpressionTyper typer() {
        return typer;
    }

    static boolean isStringLiteral(Expression e) {
        return e instanceof StringLiteralExpr;
    }

    static boolean isFieldAccess(Expression e) {
        return e instanceof FieldAccessExpr;
    }

    static boolean isNew(Expression e) {
        return e instanceof ObjectCreationExpr;
    }

    /** The MyBatis-Plus UPDATE {@code call} builds when a SET value in it is a parameter of its method. */
    public Optional<CallerConstantWrites.OpenWrites> openWrites(MethodCallExpr call) {
        return myBatisPlus.openWrites(call);
    }

    /** A constant expression as SQL, when the source states its value. */
    public Optional<String> constantLiteral(com.github.javaparser.ast.expr.Expression e) {
        return myBatisPlus.constantLiteral(e);
    }
}
