package dev.racelint.analyzer.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.SuperExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import dev.racelint.analyzer.persistence.DbOp.Kind;
import dev.racelint.analyzer.persistence.DbOp.ReadShape;
import dev.racelint.analyzer.resolve.CallResolver;
import dev.racelint.analyzer.resolve.LocalVariables;
import dev.racelint.analyzer.sql.SqlStrings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * MyBatis-Plus's generic CRUD ({@code BaseMapper<T>}, {@code IService<T>}, {@code ServiceImpl<M, T>}):
 * a call the project does not declare itself is turned into the statement the framework issues -
 * the table from the entity {@code T} ({@code @TableName}, else the class's simple name in the
 * framework's default camel-to-snake mapping), the key from {@code @TableId}, WHERE and SET from the
 * wrapper the call is given ({@code eq(col, v)}, {@code set(col, v)}, {@code setSql(..)},
 * {@code apply(..)}) and from the setters called on the entity it writes - and read by the SQL model,
 * so the operation has the same facts (key columns, guard, relative SET) a mapper XML statement gives.
 * A comparison with a literal or a constant is written as one, so {@code eq(state, ING)} is a guard.
 * Which methods do what is data ({@code racelint/mybatis-plus.json}).
 */
final class MyBatisPlus {

    static final String RESOURCE = "racelint/mybatis-plus.json";

    /** The entity {@code T} of a type deriving from one of the bases, or none. */
    record Entity(TypeInfo type, String simpleName, String table, String key) {}

    private record Operation(Set<String> methods, int arity, String statement, int entity, int wrapper, String where) {}

    private record Catalogue(Map<String, Integer> bases, Set<String> tableAnnotation, Set<String> idAnnotation,
            Set<String> fieldAnnotation, List<Operation> operations, Map<String, String> chainStarts,
            Map<String, String> chainEnds, Map<String, String> wrapperMethods) {}

    private static final Catalogue CATALOGUE = load();

    private final ProgramIndex index;
    private final Annotations annotations;
    private final DbOpClassifier classifier;
    private final SqlStrings strings = new SqlStrings();
    private final Map<TypeInfo, Optional<Entity>> entities = new ConcurrentHashMap<>();

    MyBatisPlus(ProgramIndex index, Annotations annotations, DbOpClassifier classifier) {
        this.index = index;
        this.annotations = annotations;
        this.classifier = classifier;
    }

    /** Is this one of the framework's own types (whose calls the classifier reads, so no blind spot)? */
    static boolean isFrameworkType(List<String> names) {
        for (String n : names) {
            if (CATALOGUE.bases.containsKey(n) || n.startsWith("com.baomidou.mybatisplus.")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The operation of {@code call}, made on an object of project type {@code receiver} (or, for an
     * unqualified call, in it), when {@code receiver} derives from a base of the catalogue and the
     * method is the framework's, not one the project declares.
     */
    DbOp classify(MethodCallExpr call, TypeInfo receiver) {
        String name = call.getNameAsString();
        int arity = call.getArguments().size();
        if (receiver == null || !index.findMethods(receiver, name, arity).isEmpty()) {
            return null;
        }
        Entity entity = entityOf(receiver).orElse(null);
        if (entity == null) {
            return null;
        }
        if (arity == 0 && CATALOGUE.chainStarts.containsKey(name)) {
            return chain(call, entity, receiver);
        }
        for (Operation op : CATALOGUE.operations) {
            if (op.methods.contains(name) && (op.arity < 0 || op.arity == arity)) {
                return operation(call, entity, receiver, op);
            }
        }
        return null;
    }

    // ---- the entity -----------------------------------------------------------------------------

    Optional<Entity> entityOf(TypeInfo type) {
        return entities.computeIfAbsent(type, t -> Optional.ofNullable(computeEntity(t)));
    }

    private Entity computeEntity(TypeInfo start) {
        ArrayDeque<TypeInfo> work = new ArrayDeque<>(List.of(start));
        Set<TypeInfo> seen = new HashSet<>();
        while (!work.isEmpty()) {
            TypeInfo t = work.poll();
            if (!seen.add(t) || !(t.declaration() instanceof ClassOrInterfaceDeclaration c)) {
                continue;
            }
            List<ClassOrInterfaceType> clauses = new ArrayList<>(c.getExtendedTypes());
            clauses.addAll(c.getImplementedTypes());
            for (ClassOrInterfaceType clause : clauses) {
                TypeRef ref = index.resolveTypeName(clause.getNameWithScope(), c, t.file());
                Integer argument = ref.candidates().stream().map(CATALOGUE.bases::get).filter(i -> i != null)
                        .findFirst().orElse(null);
                if (argument != null) {
                    NodeList<com.github.javaparser.ast.type.Type> args = clause.getTypeArguments().orElse(new NodeList<>());
                    if (argument < args.size()) {
                        TypeRef entity = index.resolveType(args.get(argument), c);
                        if (entity.isProject()) {
                            return describe(entity.project());
                        }
                    }
                    return null;
                }
                if (ref.isProject()) {
                    work.add(ref.project());
                }
            }
        }
        return null;
    }

    private Entity describe(TypeInfo type) {
        String table = annotations.find(type.declaration(), CATALOGUE.tableAnnotation)
                .flatMap(a -> Annotations.attribute(a, "value"))
                .filter(v -> v instanceof StringLiteralExpr).map(v -> ((StringLiteralExpr) v).asString())
                .filter(s -> !s.isBlank())
                .orElse(EntityModel.snake(type.simpleName()));
        String key = "id";
        for (FieldDeclaration field : fields(type)) {
            var id = annotations.find(field, CATALOGUE.idAnnotation);
            if (id.isPresent()) {
                key = Annotations.attribute(id.get(), "value").filter(v -> v instanceof StringLiteralExpr)
                        .map(v -> ((StringLiteralExpr) v).asString()).filter(s -> !s.isBlank())
                        .orElse(EntityModel.snake(field.getVariable(0).getNameAsString()));
                break;
            }
        }
        return new Entity(type, type.simpleName(), unquote(table).toLowerCase(Locale.ROOT), unquote(key).toLowerCase(Locale.ROOT));
    }

    /** The entity's instance fields, its project superclasses' included. */
    private List<FieldDeclaration> fields(TypeInfo type) {
        List<FieldDeclaration> out = new ArrayList<>();
        Set<TypeInfo> seen = new HashSet<>();
        for (TypeInfo t = type; t != null && seen.add(t); ) {
            for (FieldDeclaration f : t.declaration().getFields()) {
                if (!f.isStatic()) {
                    out.add(f);
                }
            }
            TypeInfo next = null;
            for (TypeRef s : t.supertypes()) {
                if (s.isProject() && !s.project().isInterface()) {
                    next = s.project();
                    break;
                }
            }
            t = next;
        }
        return out;
    }

    /** The column of a property: its {@code @TableField("..")}, else the framework's camel-to-snake name. */
    private String column(Entity entity, String property) {
        for (FieldDeclaration f : fields(entity.type())) {
            if (f.getVariables().stream().anyMatch(v -> v.getNameAsString().equals(property))) {
                Optional<String> named = annotations.find(f, CATALOGUE.fieldAnnotation)
                        .flatMap(a -> Annotations.attribute(a, "value"))
                        .filter(v -> v instanceof StringLiteralExpr).map(v -> ((StringLiteralExpr) v).asString())
                        .filter(s -> !s.isBlank());
                if (named.isPresent()) {
                    return unquote(named.get()).toLowerCase(Locale.ROOT);
                }
                if (annotations.find(f, CATALOGUE.idAnnotation).isPresent()) {
                    return entity.key();
                }
            }
        }
        return EntityModel.snake(property).toLowerCase(Locale.ROOT);
    }

    /**
     * The property an accessor of the entity reads or writes: the field its declared body returns or
     * assigns ({@code return state;}, {@code this.state = s;}), else - a Lombok accessor, not in the
     * source - the name the framework derives from the accessor's ({@code getState} -> {@code state}).
     */
    private String property(Entity entity, String accessor, int arity) {
        for (var m : index.findMethods(entity.type(), accessor, arity)) {
            Node body = m.body();
            if (body == null) {
                continue;
            }
            List<Node> uses = new ArrayList<>();
            body.walk(n -> {
                if (n instanceof com.github.javaparser.ast.stmt.ReturnStmt r && r.getExpression().isPresent()) {
                    uses.add(r.getExpression().get());
                } else if (n instanceof com.github.javaparser.ast.expr.AssignExpr a) {
                    uses.add(a.getTarget());
                }
            });
            if (uses.size() == 1) {
                Expression used = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts((Expression) uses.get(0));
                String field = used instanceof NameExpr n ? n.getNameAsString()
                        : used instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr ? f.getNameAsString() : null;
                if (field != null && entity.type().fieldDeclarator(field) != null) {
                    return field;
                }
            }
        }
        String property = accessor.startsWith("get") || accessor.startsWith("set") ? accessor.substring(3)
                : accessor.startsWith("is") ? accessor.substring(2) : accessor;
        return property.isEmpty() ? accessor : Character.toLowerCase(property.charAt(0)) + property.substring(1);
    }

    /** Columns the framework writes for a whole entity: every mapped field but the key. */
    private List<String> entityColumns(Entity entity) {
        List<String> out = new ArrayList<>();
        for (FieldDeclaration f : fields(entity.type())) {
            boolean unmapped = annotations.find(f, CATALOGUE.fieldAnnotation)
                    .flatMap(a -> Annotations.attribute(a, "exist")).map(v -> v.toString().equals("false")).orElse(false);
            if (unmapped || f.isTransient()) {
                continue;
            }
            for (VariableDeclarator v : f.getVariables()) {
                String c = column(entity, v.getNameAsString());
                if (!c.equals(entity.key()) && !out.contains(c)) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    private static String unquote(String s) {
        return s.replace("`", "").replace("\"", "").trim();
    }

    // ---- statements -------------------------------------------------------------------------------

    private DbOp operation(MethodCallExpr call, Entity entity, TypeInfo receiver, Operation op) {
        Where where = new Where();
        Set<String> set = new LinkedHashSet<>();
        int wrapperArg = op.wrapper;
        if (wrapperArg == -1) {
            // reads take an optional wrapper: the argument that is one (a page comes first in page(p, w))
            wrapperArg = call.getArguments().size() - 1;
        }
        if (wrapperArg >= 0 && wrapperArg < call.getArguments().size()) {
            readWrapper(call.getArgument(wrapperArg), entity, where, set, call);
        }
        switch (op.where == null ? "" : op.where) {
            case "key" -> {
                where.add(entity.key() + " = ?");
                where.primaryKey = true;
            }
            case "keys" -> {
                where.add(entity.key() + " IN (?)");
                where.primaryKey = true;
            }
            case "unknown" -> where.unknown = true;
            default -> { }
        }
        List<Integer> values = new ArrayList<>();
        Map<String, Integer> fromParameters = new HashMap<>();
        if (op.entity >= 0 && op.entity < call.getArguments().size()) {
            values.add(op.entity); // the entity's fields are what is written
            if (op.statement.equals("UPDATE") || op.statement.equals("SAVE")) {
                set.addAll(entityWrites(call.getArgument(op.entity), entity, fromParameters));
            }
        } else if (wrapperArg >= 0 && wrapperArg < call.getArguments().size() && op.statement.equals("UPDATE")) {
            // the values sit in the wrapper's set(..): the wrapper, when one is computed; else no argument
            values.add(set.stream().anyMatch(i -> i.contains("?")) ? wrapperArg : call.getArguments().size());
        }
        return statement(call, call, entity, receiver, op.statement, where, set, values, fromParameters);
    }

    /** {@code lambdaUpdate().eq(..).set(..).update()}: the chain from its start to the terminal call. */
    private DbOp chain(MethodCallExpr start, Entity entity, TypeInfo receiver) {
        Where where = new Where();
        Set<String> set = new LinkedHashSet<>();
        MethodCallExpr current = start;
        String statement = null;
        MethodCallExpr end = start;
        Node parent = start.getParentNode().orElse(null);
        while (parent instanceof MethodCallExpr outer && outer.getScope().isPresent() && outer.getScope().get() == current) {
            String name = outer.getNameAsString();
            if (CATALOGUE.wrapperMethods.containsKey(name)) {
                condition(outer, entity, where, set);
            } else if (CATALOGUE.chainEnds.containsKey(name)) {
                statement = CATALOGUE.chainEnds.get(name);
                if (statement.equals("UPDATE") && !outer.getArguments().isEmpty()) {
                    set.addAll(entityWrites(outer.getArgument(0), entity));
                }
                end = outer;
                break;
            } else {
                return null;
            }
            current = outer;
            parent = outer.getParentNode().orElse(null);
        }
        if (statement == null) {
            return null; // a wrapper built and passed on: its terminal call is made elsewhere
        }
        return statement(start, end, entity, receiver, statement, where, set, List.of());
    }

    private DbOp statement(MethodCallExpr call, MethodCallExpr end, Entity entity, TypeInfo receiver, String statement,
            Where where, Set<String> set, List<Integer> values) {
        return statement(call, end, entity, receiver, statement, where, set, values, Map.of());
    }

    private DbOp statement(MethodCallExpr call, MethodCallExpr end, Entity entity, TypeInfo receiver, String statement,
            Where where, Set<String> set, List<Integer> values, Map<String, Integer> fromParameters) {
        String table = entity.table();
        String whereText = where.text();
        String sql = switch (statement) {
            case "INSERT" -> "INSERT INTO " + table + " (" + entity.key() + ") VALUES (?)";
            case "SAVE", "UPDATE" -> {
                List<String> items = new ArrayList<>(set);
                if (items.isEmpty()) {
                    // a whole entity: its columns, but not those the WHERE picks the row by (written with
                    // the value they are compared with, they change nothing)
                    for (String c : entityColumns(entity)) {
                        if (!where.columns.contains(c)) {
                            items.add(c + " = ?");
                        }
                    }
                }
                if (items.isEmpty()) {
                    items.add(entity.key() + " = ?");
                }
                yield "UPDATE " + table + " SET " + String.join(", ", items) + whereText;
            }
            case "DELETE" -> "DELETE FROM " + table + whereText;
            case "COUNT", "EXISTS" -> "SELECT COUNT(*) FROM " + table + whereText;
            default -> "SELECT * FROM " + table + whereText;
        };
        SqlFacts facts = classifier.sql().ofText(sql, false).orElse(null);
        if (facts == null) {
            return null;
        }
        String owner = receiver.simpleName();
        DbOp op = classifier.fromSql(call, end, facts, owner + "." + end.getNameAsString(), List.of(), -1);
        if (op == null) {
            return null;
        }
        Kind kind = statement.equals("SAVE") ? Kind.SAVE : op.kind();
        ReadShape shape = statement.equals("EXISTS") ? ReadShape.EXISTS : op.shape();
        Set<String> keys = where.unknown ? Set.of() : op.keyColumns();
        boolean conditional = !where.unknown && op.conditional();
        String describe = statement.equals("SAVE") ? owner + "." + end.getNameAsString() + "(INSERT OR UPDATE " + table + ")"
                : op.describe();
        if (statement.equals("UPDATE") && conditional && !facts.endState() && !fromParameters.isEmpty()) {
            openWrites.put(op.call(), new CallerConstantWrites.OpenWrites(
                    "UPDATE " + table + " SET ", List.copyOf(set), Map.copyOf(fromParameters), whereText));
        }
        return new DbOp(op.call(), op.end(), kind, op.table(), op.entity(), shape, keys, conditional,
                !statement.equals("SAVE") && op.selfRelative(), op.locked(), false, describe, op.location(), null,
                List.copyOf(values), List.of(), op.lockDetail(), conditional && facts.endState(), where.primaryKey);
    }

    /** Statements whose SET takes a value from a parameter of the calling method, by the call. */
    private final Map<MethodCallExpr, CallerConstantWrites.OpenWrites> openWrites =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    /** The statement {@code call} builds when a SET value in it is a parameter of the method making it. */
    Optional<CallerConstantWrites.OpenWrites> openWrites(MethodCallExpr call) {
        return Optional.ofNullable(openWrites.get(call));
    }

    /** A constant expression as SQL: its literal when the source states its value, else none. */
    Optional<String> constantLiteral(Expression e) {
        String v = value(e);
        return v.equals("?") || v.equals("racelint_constant") ? Optional.empty() : Optional.of(v);
    }

    /** The WHERE a wrapper builds, as SQL. */
    private static final class Where {
        final List<String> parts = new ArrayList<>();
        final Set<String> columns = new HashSet<>();
        boolean or;
        boolean unknown;
        /** The method itself picks the rows by the entity's key ({@code selectById}, {@code removeByIds}). */
        boolean primaryKey;

        void add(String comparison) {
            if (!parts.isEmpty()) {
                parts.add(or ? "OR" : "AND");
            }
            or = false;
            parts.add(comparison);
            java.util.regex.Matcher column = java.util.regex.Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)\\s").matcher(comparison);
            if (column.find()) {
                columns.add(column.group(1).toLowerCase(Locale.ROOT));
            }
        }

        String text() {
            if (unknown || parts.isEmpty()) {
                return "";
            }
            return " WHERE " + String.join(" ", parts);
        }
    }

    /**
     * Reads the wrapper {@code expr}: a chain of wrapper calls ({@code new LambdaUpdateWrapper<T>().eq(..)}),
     * and, when it is (or starts from) a local, the wrapper calls made on that local in the method.
     */
    private void readWrapper(Expression expr, Entity entity, Where where, Set<String> set, MethodCallExpr site) {
        List<MethodCallExpr> calls = new ArrayList<>();
        Expression at = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(expr);
        while (at instanceof MethodCallExpr m && CATALOGUE.wrapperMethods.containsKey(m.getNameAsString())
                && m.getScope().isPresent()) {
            calls.add(0, m);
            at = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(m.getScope().get());
        }
        if (at instanceof NameExpr n) {
            Node declaration = LocalVariables.declarationOf(n.getNameAsString(), n);
            if (!(declaration instanceof VariableDeclarator) && !(declaration instanceof com.github.javaparser.ast.body.Parameter)) {
                where.unknown = declaration == null;
            } else {
                List<MethodCallExpr> onLocal = new ArrayList<>();
                if (declaration instanceof VariableDeclarator v && v.getInitializer().isPresent()) {
                    Expression init = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(v.getInitializer().get());
                    while (init instanceof MethodCallExpr m && CATALOGUE.wrapperMethods.containsKey(m.getNameAsString())
                            && m.getScope().isPresent()) {
                        onLocal.add(0, m);
                        init = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(m.getScope().get());
                    }
                }
                if (declaration instanceof com.github.javaparser.ast.body.Parameter) {
                    where.unknown = true; // built by the caller
                }
                Node method = site;
                while (method != null && !(method instanceof CallableDeclaration<?>)) {
                    method = method.getParentNode().orElse(null);
                }
                if (method != null) {
                    for (MethodCallExpr c : method.findAll(MethodCallExpr.class)) {
                        if (!CATALOGUE.wrapperMethods.containsKey(c.getNameAsString()) || !rootsAt(c, n, declaration)
                                || calls.contains(c) || onLocal.contains(c) || !before(c, site)) {
                            continue;
                        }
                        onLocal.add(c);
                    }
                }
                calls.addAll(0, onLocal);
            }
        } else if (!(at instanceof ObjectCreationExpr) && !(at instanceof MethodCallExpr)) {
            where.unknown = true;
        }
        for (MethodCallExpr c : calls) {
            condition(c, entity, where, set);
        }
    }

    /** Is {@code c} a wrapper call whose chain starts at the local {@code name} (declared at {@code declaration})? */
    private static boolean rootsAt(MethodCallExpr c, NameExpr name, Node declaration) {
        Expression at = c.getScope().orElse(null);
        while (at instanceof MethodCallExpr m && m.getScope().isPresent()) {
            at = m.getScope().get();
        }
        return at instanceof NameExpr n && n.getNameAsString().equals(name.getNameAsString())
                && LocalVariables.declarationOf(n.getNameAsString(), n) == declaration;
    }

    /** Does {@code c} start before {@code site} ends (a condition added after the call does not count)? */
    private static boolean before(Node c, Node site) {
        return c.getBegin().isPresent() && site.getEnd().isPresent() && c.getBegin().get().isBefore(site.getEnd().get());
    }

    private void condition(MethodCallExpr c, Entity entity, Where where, Set<String> set) {
        String role = CATALOGUE.wrapperMethods.get(c.getNameAsString());
        List<Expression> args = new ArrayList<>(c.getArguments());
        // eq(condition, column, value): the leading boolean says whether the comparison is added at all
        if (!role.equals("PASS") && !role.equals("OR") && isConditionFlag(args, role)) {
            args.remove(0);
        }
        switch (role) {
            case "PASS" -> { }
            case "OR" -> {
                if (args.isEmpty()) {
                    where.or = true;
                } else {
                    where.unknown = true; // or(nested -> ..), or(flag): a disjunction this reading does not follow
                }
            }
            case "SET" -> {
                if (args.size() >= 2) {
                    columnOf(args.get(0), entity).ifPresent(col -> set.add(col + " = " + value(args.get(1))));
                }
            }
            case "SET_SQL", "APPLY" -> {
                if (args.isEmpty()) {
                    return;
                }
                Optional<String> text = strings.valueOf(args.get(0), index);
                if (text.isEmpty()) {
                    if (role.equals("APPLY")) {
                        where.unknown = true;
                    }
                    return;
                }
                String sql = text.get().replaceAll("\\{\\d+}", "?");
                if (role.equals("SET_SQL")) {
                    set.add(sql);
                } else {
                    where.add("(" + sql + ")");
                }
            }
            case "IS NULL", "IS NOT NULL" -> {
                if (!args.isEmpty()) {
                    columnOf(args.get(0), entity).ifPresent(col -> where.add(col + " " + role));
                }
            }
            case "BETWEEN", "NOT BETWEEN" -> {
                if (!args.isEmpty()) {
                    columnOf(args.get(0), entity).ifPresent(col -> where.add(col + " " + role + " ? AND ?"));
                }
            }
            case "IN", "NOT IN" -> {
                if (args.size() >= 2) {
                    columnOf(args.get(0), entity).ifPresent(col -> where.add(col + " " + role + " (?)"));
                }
            }
            default -> {
                if (args.size() >= 2) {
                    String operator = role;
                    columnOf(args.get(0), entity).ifPresent(col -> where.add(col + " " + operator + " " + value(args.get(1))));
                }
            }
        }
    }

    /**
     * A leading {@code boolean condition} argument ({@code eq(StrUtil.isNotBlank(no), Order::getNo, no)}):
     * the first argument is no column (nor SQL text) and the second is one.
     */
    private boolean isConditionFlag(List<Expression> args, String role) {
        if (args.size() < 2) {
            return false;
        }
        if (role.equals("SET_SQL") || role.equals("APPLY")) {
            return strings.valueOf(args.get(0), index).isEmpty() && strings.valueOf(args.get(1), index).isPresent();
        }
        return !columnish(args.get(0)) && columnish(args.get(1));
    }

    private boolean columnish(Expression e) {
        e = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(e);
        return e instanceof MethodReferenceExpr || strings.valueOf(e, index).isPresent();
    }

    /** The column a wrapper names: {@code PayOrder::getState}, or a string such as {@code "state"}. */
    private Optional<String> columnOf(Expression e, Entity entity) {
        e = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(e);
        if (e instanceof MethodReferenceExpr ref) {
            return Optional.of(column(entity, property(entity, ref.getIdentifier(), 0)));
        }
        Optional<String> text = strings.valueOf(e, index);
        return text.filter(t -> t.matches("[A-Za-z_][A-Za-z0-9_.`]*")).map(t -> unquote(t).toLowerCase(Locale.ROOT));
    }

    /**
     * How a compared or assigned value is written: a constant as its literal when its value is known
     * (a literal, a static final field initialised with one, an enum constant as its own quoted name),
     * so the SQL model can tell {@code set(state, FAIL)} from {@code eq(state, ING)}; a constant of
     * unknown value ({@code Status.UNPAID.getValue()}) as a bare word, which still guards but
     * equals no literal; else a parameter.
     */
    private String value(Expression e) {
        if (!constant(dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(e), 0)) {
            return "?";
        }
        return literalOf(dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(e), 0).orElse("racelint_constant");
    }

    /** The SQL literal of a constant expression whose value the source states, or none. */
    private Optional<String> literalOf(Expression e, int depth) {
        if (depth > 4) {
            return Optional.empty();
        }
        e = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(e);
        if (e instanceof com.github.javaparser.ast.expr.IntegerLiteralExpr i) {
            return i.asNumber() instanceof Integer n ? Optional.of(Integer.toString(n)) : Optional.empty();
        }
        if (e instanceof com.github.javaparser.ast.expr.LongLiteralExpr l) {
            return Optional.of(Long.toString(l.asNumber().longValue()));
        }
        if (e instanceof StringLiteralExpr str && !str.asString().contains("'")) {
            return Optional.of("'" + str.asString() + "'");
        }
        if (e instanceof com.github.javaparser.ast.expr.BooleanLiteralExpr b) {
            return Optional.of(b.getValue() ? "TRUE" : "FALSE");
        }
        TypeInfo owner = null;
        String name = null;
        if (e instanceof FieldAccessExpr f && (f.getScope() instanceof NameExpr || f.getScope() instanceof FieldAccessExpr)) {
            TypeRef type = index.resolveTypeName(f.getScope().toString(), f, index.fileOf(f));
            name = f.getNameAsString();
            owner = type.isProject() && staticField(type.project(), name) ? type.project() : null;
        } else if (e instanceof NameExpr n && LocalVariables.declarationOf(n.getNameAsString(), n) == null) {
            name = n.getNameAsString();
            for (TypeInfo t = index.enclosingType(n); t != null && owner == null; t = t.outer()) {
                if (staticField(t, name)) {
                    owner = t;
                }
            }
        }
        if (owner == null) {
            return Optional.empty();
        }
        if (owner.declaration() instanceof EnumDeclaration en) {
            String constantName = name;
            if (en.getEntries().stream().anyMatch(c -> c.getNameAsString().equals(constantName))) {
                return Optional.of("'" + owner.qualifiedName() + "." + name + "'");
            }
        }
        VariableDeclarator v = owner.fieldDeclarator(name);
        return v == null || v.getInitializer().isEmpty() ? Optional.empty() : literalOf(v.getInitializer().get(), depth + 1);
    }

    /**
     * A literal, a static constant ({@code PayOrder.STATE_ING}, a {@code static final} field of this
     * class), an enum constant, or a getter on one ({@code Status.UNPAID.getValue()}): the same value
     * on every call.
     */
    private boolean constant(Expression e, int depth) {
        if (depth > 4) {
            return false;
        }
        e = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(e);
        if (e instanceof LiteralExpr) {
            return !(e instanceof com.github.javaparser.ast.expr.NullLiteralExpr);
        }
        if (e instanceof UnaryExpr u) {
            return constant(u.getExpression(), depth + 1);
        }
        if (e instanceof MethodCallExpr m) {
            return m.getArguments().isEmpty() && m.getScope().isPresent() && constant(m.getScope().get(), depth + 1);
        }
        if (e instanceof FieldAccessExpr f) {
            Expression scope = f.getScope();
            if (scope instanceof NameExpr || scope instanceof FieldAccessExpr) {
                TypeRef type = index.resolveTypeName(scope.toString(), f, index.fileOf(f));
                if (type.isProject()) {
                    return staticField(type.project(), f.getNameAsString());
                }
                if (type.isKnown() && !(scope instanceof NameExpr n && LocalVariables.declarationOf(n.getNameAsString(), n) != null)) {
                    return true; // a field named through a type is static
                }
            }
            return false;
        }
        if (e instanceof NameExpr n) {
            if (LocalVariables.declarationOf(n.getNameAsString(), n) != null) {
                return false;
            }
            TypeInfo type = index.enclosingType(n);
            for (TypeInfo t = type; t != null; t = t.outer()) {
                if (staticField(t, n.getNameAsString())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean staticField(TypeInfo type, String name) {
        if (type.declaration() instanceof EnumDeclaration en
                && en.getEntries().stream().anyMatch(c -> c.getNameAsString().equals(name))) {
            return true;
        }
        VariableDeclarator v = type.fieldDeclarator(name);
        if (v == null) {
            return false;
        }
        return v.getParentNode().orElse(null) instanceof FieldDeclaration f
                && (f.isStatic() && f.isFinal() || type.isInterface());
    }

    /**
     * The SET items of an entity the call writes: when it is a local made with {@code new} in this
     * method, the columns of the setters called on it (the framework writes the fields that are not
     * null); else none, and the statement writes the whole row.
     */
    private List<String> entityWrites(Expression arg, Entity entity) {
        return entityWrites(arg, entity, new HashMap<>());
    }

    /** As above; {@code fromParameters} gets, per SET column, the index of the parameter it writes. */
    private List<String> entityWrites(Expression arg, Entity entity, Map<String, Integer> fromParameters) {
        List<String> out = new ArrayList<>();
        Expression e = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(arg);
        List<MethodCallExpr> setters = new ArrayList<>();
        while (e instanceof MethodCallExpr m && m.getNameAsString().startsWith("set") && m.getScope().isPresent()) {
            setters.add(m); // new PayOrder().setState(..).setErrMsg(..), with chained setters
            e = dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(m.getScope().get());
        }
        if (e instanceof NameExpr n) {
            Node declaration = LocalVariables.declarationOf(n.getNameAsString(), n);
            if (!(declaration instanceof VariableDeclarator v) || v.getInitializer().isEmpty()
                    || !(dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(v.getInitializer().get()) instanceof ObjectCreationExpr)) {
                return out;
            }
            Node method = n;
            while (method != null && !(method instanceof CallableDeclaration<?>)) {
                method = method.getParentNode().orElse(null);
            }
            if (method != null) {
                for (MethodCallExpr c : method.findAll(MethodCallExpr.class)) {
                    Expression root = c.getScope().orElse(null);
                    while (root instanceof MethodCallExpr rm && rm.getNameAsString().startsWith("set") && rm.getScope().isPresent()) {
                        root = rm.getScope().get();
                    }
                    if (c.getNameAsString().startsWith("set") && root instanceof NameExpr rn
                            && rn.getNameAsString().equals(n.getNameAsString())
                            && LocalVariables.declarationOf(rn.getNameAsString(), rn) == declaration) {
                        setters.add(c);
                    }
                }
            }
        } else if (!(e instanceof ObjectCreationExpr)) {
            return out;
        }
        for (MethodCallExpr s : setters) {
            String name = s.getNameAsString();
            if (name.length() <= 3 || s.getArguments().size() != 1) {
                continue;
            }
            String col = column(entity, property(entity, name, 1));
            String item = col + " = " + value(s.getArgument(0));
            if (!col.equals(entity.key()) && out.stream().noneMatch(i -> i.startsWith(col + " = "))) {
                out.add(item);
                if (dev.racelint.analyzer.index.Expressions.withoutParenthesesAndCasts(s.getArgument(0)) instanceof NameExpr p
                        && LocalVariables.declarationOf(p.getNameAsString(), p) instanceof com.github.javaparser.ast.body.Parameter param
                        && param.getParentNode().orElse(null) instanceof CallableDeclaration<?> callable) {
                    fromParameters.put(item, callable.getParameters().indexOf(param));
                }
            }
        }
        return out;
    }


    /** Is the unqualified (or {@code this.}/{@code super.}) call made on the enclosing object? */
    static boolean onSelf(MethodCallExpr call) {
        return call.getScope().isEmpty() || call.getScope().get() instanceof ThisExpr
                || call.getScope().get() instanceof SuperExpr;
    }

    static MethodCallExpr end(MethodCallExpr call) {
        return CallResolver.chainEnd(call);
    }

    // ---- the catalogue --------------------------------------------------------------------------

    private static Catalogue load() {
        try (InputStream in = MyBatisPlus.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the analyzer jar");
            }
            JsonNode root = new ObjectMapper().readTree(in);
            Map<String, Integer> bases = new HashMap<>();
            root.path("bases").forEach(b -> bases.put(b.path("type").asText(), b.path("entityArgument").asInt()));
            JsonNode a = root.path("annotations");
            List<Operation> operations = new ArrayList<>();
            for (JsonNode o : root.path("operations")) {
                Set<String> methods = new LinkedHashSet<>();
                o.path("methods").forEach(m -> methods.add(m.asText()));
                operations.add(new Operation(methods, o.path("arity").asInt(-1), o.path("statement").asText(),
                        o.path("entity").asInt(-2), o.has("wrapper") ? o.path("wrapper").asInt() : -2,
                        o.path("where").asText(null)));
            }
            return new Catalogue(bases, Set.of(a.path("table").asText()), Set.of(a.path("id").asText()),
                    Set.of(a.path("field").asText()), operations, strings(root.path("chains").path("starts")),
                    strings(root.path("chains").path("ends")), strings(root.path("wrapperMethods")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> strings(JsonNode node) {
        Map<String, String> out = new HashMap<>();
        node.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
