package dev.racelint.analyzer.persistence;

import dev.racelint.analyzer.index.MethodMemo;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.TryStmt;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.resolve.CallResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Database operations per method, with one level of project helpers followed (a DAO method that
 * performs exactly one operation counts as that operation at its call site), and the method's data flow.
 */
public final class PersistenceModel {

    /** Exceptions that mean "the unique constraint said no", caught around a write. */
    static final Set<String> DUPLICATE_EXCEPTIONS = Set.of("DuplicateKeyException", "DataIntegrityViolationException",
            "ConstraintViolationException", "SQLIntegrityConstraintViolationException", "EntityExistsException",
            "UnableToExecuteStatementException", "IntegrityConstraintViolationException");

    private final ProgramIndex index;
    private final CallResolver resolver;
    private final DbOpClassifier classifier;
    private final NewObjects newObjects;
    private final MethodMemo<List<DbOp>> direct;
    /** By level k - 1: a method's operations with helpers followed at most k calls deep. */
    private final List<MethodMemo<List<DbOp>>> withHelpers = new ArrayList<>();
    private final MethodMemo<Optional<MethodFlow>> flows;
    /** How many calls deep a project helper's single operation counts as its caller's ({@code helper-calls}). */
    private final int helperCalls;

    /** Passes over a method's locals when tracking database results ({@code flow-passes}). */
    private final int flowPasses;

    private final dev.racelint.analyzer.schema.SchemaModel schema;

    private ServerMaintainedTables serverMaintained;
    private ColumnWriters columnWriters;

    public PersistenceModel(ProgramIndex index, CallResolver resolver, DbOpClassifier classifier) {
        this(index, resolver, classifier, dev.racelint.analyzer.AnalysisLimits.DEFAULT);
    }

    public PersistenceModel(ProgramIndex index, CallResolver resolver, DbOpClassifier classifier,
            dev.racelint.analyzer.AnalysisLimits limits) {
        this(index, resolver, classifier, limits, dev.racelint.analyzer.schema.DdlReader.empty());
    }

    /** With the DDL read from the tree's {@code .sql} files, merged with the JPA mappings into {@link #schema()}. */
    public PersistenceModel(ProgramIndex index, CallResolver resolver, DbOpClassifier classifier,
            dev.racelint.analyzer.AnalysisLimits limits, dev.racelint.analyzer.schema.DdlReader ddl) {
        this.schema = dev.racelint.analyzer.schema.SchemaModel.of(ddl, classifier.entities());
        this.flowPasses = limits.get(dev.racelint.analyzer.AnalysisLimits.Limit.FLOW_PASSES);
        this.helperCalls = limits.get(dev.racelint.analyzer.AnalysisLimits.Limit.HELPER_CALLS);
        for (int level = 1; level <= helperCalls; level++) {
            withHelpers.add(new MethodMemo<>(index));
        }
        this.index = index;
        this.resolver = resolver;
        this.classifier = classifier;
        this.newObjects = new NewObjects(resolver);
        this.direct = new MethodMemo<>(index);
        this.flows = new MethodMemo<>(index);
    }

    /** Tables and their keys, from the tree's DDL and JPA mappings. */
    public dev.racelint.analyzer.schema.SchemaModel schema() {
        return schema;
    }

    /** Tables whose rows the program keeps from stored state (relative updates, stored totals); built on first use. */
    public synchronized ServerMaintainedTables serverMaintained() {
        if (serverMaintained == null) {
            serverMaintained = ServerMaintainedTables.of(this);
        }
        return serverMaintained;
    }

    /** Which columns of each table the program's writes can change in a stored row; built on first use. */
    public synchronized ColumnWriters columnWriters() {
        if (columnWriters == null) {
            columnWriters = ColumnWriters.of(this);
        }
        return columnWriters;
    }

    public EntityModel entities() {
        return classifier.entities();
    }

    /** Operations performed by the method's own code, in source order. */
    public List<DbOp> directOps(MethodInfo method) {
        return direct.get(method, m -> {
            List<DbOp> out = new ArrayList<>();
            for (MethodCallExpr call : index.ownCalls(m)) {
                classifier.classify(call).ifPresent(out::add);
            }
            return withoutNested(out);
        });
    }

    /** Operations of the method, including those in a project helper (one call away by default, {@code helper-calls}). */
    public List<DbOp> ops(MethodInfo method) {
        return opsWithin(method, helperCalls);
    }

    /** The method's operations with helpers followed at most {@code levels} calls deep. */
    private List<DbOp> opsWithin(MethodInfo method, int levels) {
        if (levels == 0) {
            return directOps(method);
        }
        return withHelpers.get(levels - 1).get(method, m -> {
            List<DbOp> out = new ArrayList<>();
            for (MethodCallExpr call : index.ownCalls(m)) {
                Optional<DbOp> own = classifier.classify(call);
                if (own.isPresent()) {
                    out.add(own.get());
                    continue;
                }
                helperOp(call, levels - 1).ifPresent(out::add);
            }
            return withoutNested(out);
        });
    }

    /** Drops operations nested in another's arguments ({@code fetchExists(selectFrom(..))} is one read). */
    private static List<DbOp> withoutNested(List<DbOp> ops) {
        List<DbOp> out = new ArrayList<>();
        for (DbOp op : ops) {
            boolean nested = false;
            for (DbOp other : ops) {
                if (other != op && other.call() != op.call() && isInside(op.call(), List.of(other.end()))) {
                    nested = true;
                    break;
                }
            }
            if (!nested) {
                out.add(op);
            }
        }
        return List.copyOf(out);
    }

    /**
     * A call to a project method whose body performs exactly one operation (itself, or in helpers at most
     * {@code levels} calls below it): that operation, here.
     */
    private Optional<DbOp> helperOp(MethodCallExpr call, int levels) {
        List<MethodInfo> targets = resolver.resolve(call).targets();
        // A call on an interface whose one implementation is scanned runs that implementation. Its reads
        // are taken from there (a service's uniqueness test behind its interface), and its writes of an
        // entity (a DAO's merge or persist behind a storage-neutral interface): the entity passed is what
        // they write. A statement's write is not: which of the interface method's arguments it writes
        // is guessed from the arguments, which over-reports through a service layer (a list of loaded
        // rows handed to an UPDATE that sets only constants).
        List<MethodInfo> concrete = targets.stream().filter(t -> t.body() != null).toList();
        boolean throughInterface = targets.size() > 1 && concrete.size() == 1;
        if (throughInterface) {
            targets = concrete;
        }
        if (targets.size() != 1) {
            return Optional.empty();
        }
        MethodInfo target = targets.get(0);
        List<DbOp> inner = opsWithin(target, levels);
        if (inner.size() != 1 || (throughInterface && inner.get(0).kind() != DbOp.Kind.READ
                && inner.get(0).entity() == null)) {
            return Optional.empty();
        }
        DbOp op = inner.get(0);
        // The helper's result is the operation's result only when it returns it.
        boolean returnsIt = target.declaration() instanceof MethodDeclaration md && !md.getType().isVoidType();
        // a statement that writes only constants (no value parameter is one of its call's arguments) takes
        // no written value from the helper's arguments either: they can only pick its rows
        boolean writesConstants = op.kind() == DbOp.Kind.UPDATE && !op.valueParameters().isEmpty()
                && op.valueParameters().stream().allMatch(i -> i >= op.call().getArguments().size());
        // the helper parameters that reach what the statement writes, when the statement's are known
        List<Integer> written = writesConstants ? List.of(call.getArguments().size())
                : target.declaration() != null
                        && target.declaration().getParameters().size() == call.getArguments().size()
                        ? HelperArguments.writtenArguments(target.declaration(), op).orElse(List.of()) : List.of();
        return Optional.of(new DbOp(call, CallResolver.chainEnd(call).equals(call) ? call : call, op.kind(), op.table(),
                op.entity(), returnsIt ? op.shape() : DbOp.ReadShape.NONE, op.keyColumns(), op.conditional(),
                op.selfRelative(), op.locked(), op.upsert(), op.describe(), classifier.location(call),
                target.displayName(), written, List.of(),
                op.lockDetail(), op.endState(), op.byPrimaryKey()));
    }

    /** The method's data flow over its operations. */
    public Optional<MethodFlow> flow(MethodInfo method) {
        return flows.get(method, m -> {
            Node body = method.body();
            List<DbOp> ops = ops(method);
            if (body == null || ops.isEmpty()) {
                return Optional.empty();
            }
            try {
                return Optional.of(new MethodFlow(body, ops, flowPasses, newObjects::constructed));
            } catch (RuntimeException | StackOverflowError e) {
                return Optional.empty();
            }
        });
    }

    /** Is {@code node} inside a try block whose catch treats a unique-constraint violation as an outcome? */
    public static boolean duplicateCaught(Node node) {
        Node child = node;
        for (Node parent = node.getParentNode().orElse(null); parent != null && !(parent instanceof CallableDeclaration<?>);
                parent = parent.getParentNode().orElse(null)) {
            if (parent instanceof TryStmt t && t.getTryBlock() == child) {
                for (CatchClause c : t.getCatchClauses()) {
                    if (catchesDuplicate(c)) {
                        return true;
                    }
                }
            }
            child = parent;
        }
        return false;
    }

    private static boolean catchesDuplicate(CatchClause clause) {
        // catch (DuplicateKeyException e), or catch (SQLException e) { if ("23505".equals(e.getSQLState())) .. }
        return dev.racelint.analyzer.index.CatchTypes.catches(clause, DUPLICATE_EXCEPTIONS, Set.of("23505", "1062"));
    }

    private static boolean isInside(Node node, List<? extends Node> roots) {
        for (Node root : roots) {
            for (Node n = node; n != null; n = n.getParentNode().orElse(null)) {
                if (n == root) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Is this call the creation of a new entity: {@code save(new X(..))}, a save of what a factory
     * that only returns constructed objects made, or of a local initialised so and reached by no read?
     */
    public static boolean savesNewObject(DbOp op, MethodFlow flow) {
        if (op.call().getArguments().isEmpty()) {
            return op.kind() == DbOp.Kind.INSERT;
        }
        var arg = op.call().getArgument(0);
        if (arg instanceof ObjectCreationExpr || (flow != null && arg.isMethodCallExpr() && flow.constructed(arg))) {
            return true;
        }
        if (arg.isNameExpr()) {
            String name = arg.asNameExpr().getNameAsString();
            Node body = op.call();
            while (body != null && !(body instanceof CallableDeclaration<?>)) {
                body = body.getParentNode().orElse(null);
            }
            if (body != null) {
                for (var v : body.findAll(com.github.javaparser.ast.body.VariableDeclarator.class)) {
                    if (v.getNameAsString().equals(name) && v.getInitializer().isPresent()) {
                        var init = v.getInitializer().get();
                        if (init instanceof ObjectCreationExpr) {
                            return true;
                        }
                        if (flow != null && init.isMethodCallExpr() && flow.constructed(init)) {
                            return flow.reaching(init).stream().noneMatch(o -> o.kind() == DbOp.Kind.READ);
                        }
                    }
                }
            }
        }
        return false;
    }

    public ProgramIndex index() {
        return index;
    }

    public DbOpClassifier classifier() {
        return classifier;
    }

    /** The call resolver the operations were found with. */
    public CallResolver resolver() {
        return resolver;
    }
}
