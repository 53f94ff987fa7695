package dev.racelint.rules;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.persistence.DbOp;
import dev.racelint.analyzer.persistence.MethodFlow;
import dev.racelint.analyzer.persistence.PersistenceModel;
import dev.racelint.analyzer.persistence.WrittenValues;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the values of a request body go: the locals and parameters, in the handler and in the
 * methods it calls (arguments into parameters), that hold data taken from the body, and the
 * database writes (UPDATE values, saved entities) those values end in. A value read back from the
 * database is stored state, not the client's: the arguments of a read do not make its result carry
 * the body. An object that a body value is put into (a setter, a copy utility, a field assignment)
 * carries it from then on.
 */
final class RequestBodyFlow {

    /** A write that takes body data: the operation, the method it is in, the calls down to it, the value. */
    record BodyWrite(DbOp op, MethodInfo in, List<CallEdge> path, Expression value) {}

    /** Local passes per method: each settles one more link of a chain of locals assigned out of order. */
    private static final int PASSES = 3;

    private final CallGraph graph;
    private final PersistenceModel persistence;
    private final int maxDepth;
    private final List<BodyWrite> writes = new ArrayList<>();
    /** By method id: the declarations holding body data there (over every way it was called), and its reads. */
    private final Map<Integer, Set<Node>> carryingIn = new HashMap<>();
    private final Map<Integer, Set<Node>> readsIn = new HashMap<>();
    private final Map<String, BitSet> summaries = new HashMap<>();

    private RequestBodyFlow(CallGraph graph, PersistenceModel persistence, int maxDepth) {
        this.graph = graph;
        this.persistence = persistence;
        this.maxDepth = maxDepth;
    }

    /** The flow of {@code body}, a parameter of {@code handler}. */
    static RequestBodyFlow of(CallGraph graph, PersistenceModel persistence, MethodInfo handler, Parameter body,
            int maxDepth) {
        RequestBodyFlow flow = new RequestBodyFlow(graph, persistence, maxDepth);
        BitSet seed = new BitSet();
        seed.set(handler.declaration().getParameters().indexOf(body));
        flow.analyse(handler, seed, List.of());
        return flow;
    }

    /** The writes that take body data, the handler's own first, then by call depth. */
    List<BodyWrite> writes() {
        List<BodyWrite> out = new ArrayList<>(writes);
        out.sort(java.util.Comparator.comparingInt(w -> w.path().size()));
        return out;
    }

    /**
     * Is the write done only when a condition compares a value from the body with one loaded from
     * the database (the old password sent back, a version or checksum the client saw)? Then the
     * client carries its own precondition.
     */
    boolean compared(BodyWrite write) {
        if (guarded(write.in(), write.op().call())) {
            return true;
        }
        for (CallEdge edge : write.path()) {
            if (guarded(edge.caller(), edge.site())) {
                return true; // the call that leads to the write is made only after the comparison
            }
        }
        return false;
    }

    private boolean guarded(MethodInfo method, Node site) {
        Set<Node> carrying = carryingIn.get(method.id());
        MethodFlow flow = persistence.flow(method).orElse(null);
        return carrying != null && guardedByComparison(site, flow, carrying, readsIn.get(method.id()));
    }

    /** Analyses {@code method} with the parameters in {@code tainted} holding body data; returns the parameters holding it at the end. */
    private BitSet analyse(MethodInfo method, BitSet tainted, List<CallEdge> path) {
        String key = method.id() + "/" + tainted;
        BitSet known = summaries.get(key);
        if (known != null) {
            return known;
        }
        summaries.put(key, tainted); // a recursive call sees what it was given
        Node body = method.body();
        if (body == null) {
            return tainted;
        }
        Set<Node> carrying = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Parameter> parameters = method.declaration().getParameters();
        for (int i = tainted.nextSetBit(0); i >= 0 && i < parameters.size(); i = tainted.nextSetBit(i + 1)) {
            carrying.add(parameters.get(i));
        }
        Set<Node> reads = Collections.newSetFromMap(new IdentityHashMap<>());
        List<DbOp> ops = new ArrayList<>(persistence.directOps(method));
        ops.addAll(persistence.ops(method));
        for (DbOp op : ops) {
            if (op.kind() == DbOp.Kind.READ) {
                reads.add(op.call());
                reads.add(op.end());
            }
        }
        Map<Node, List<MethodInfo>> callees = new IdentityHashMap<>();
        for (CallEdge edge : graph.facts(method).calls()) {
            callees.computeIfAbsent(edge.site(), k -> new ArrayList<>()).add(edge.callee());
        }
        // a project method (each overload it may be) that only reads returns stored data
        callees.forEach((site, targets) -> {
            if (targets.stream().allMatch(t -> onlyReads(persistence.ops(t)))) {
                reads.add(site);
            }
        });
        Map<Node, CallEdge> edgeAt = new IdentityHashMap<>();
        graph.facts(method).calls().forEach(e -> edgeAt.putIfAbsent(e.site(), e));
        for (int pass = 0; pass < PASSES; pass++) {
            for (VariableDeclarator v : body.findAll(VariableDeclarator.class)) {
                if (v.getInitializer().isPresent() && carries(v.getInitializer().get(), carrying, reads)) {
                    carrying.add(v);
                }
            }
            for (AssignExpr a : body.findAll(AssignExpr.class)) {
                if (carries(a.getValue(), carrying, reads)) {
                    taintBase(a.getTarget(), carrying);
                }
            }
            for (ForEachStmt loop : body.findAll(ForEachStmt.class)) {
                if (carries(loop.getIterable(), carrying, reads)) {
                    carrying.addAll(loop.getVariable().getVariables());
                }
            }
            for (LambdaExpr lambda : body.findAll(LambdaExpr.class)) {
                if (lambda.getParentNode().orElse(null) instanceof MethodCallExpr call && call.getScope().isPresent()
                        && carries(call.getScope().get(), carrying, reads)) {
                    carrying.addAll(lambda.getParameters());
                }
            }
            for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
                BitSet args = new BitSet();
                for (int i = 0; i < call.getArguments().size(); i++) {
                    if (carries(call.getArgument(i), carrying, reads)) {
                        args.set(i);
                    }
                }
                if (args.isEmpty()) {
                    continue;
                }
                // the object a body value is handed to, in a statement of its own, holds it
                // (entity.setName(v), list.add(v)); a comparison (entity.getName().equals(v)) does not
                boolean statement = call.getParentNode().orElse(null) instanceof ExpressionStmt;
                if (statement) {
                    call.getScope().ifPresent(s -> taintBase(s, carrying));
                }
                List<MethodInfo> targets = callees.getOrDefault(call, List.of());
                if (targets.isEmpty() && statement) {
                    // a library copy (BeanUtils.copyProperties(form, entity), mapper.map(form, entity)):
                    // the other objects passed along receive the data
                    call.getArguments().forEach(arg -> taintBase(arg, carrying));
                } else if (path.size() < maxDepth) {
                    CallEdge edge = edgeAt.get(call);
                    List<CallEdge> deeper = new ArrayList<>(path);
                    deeper.add(edge);
                    for (MethodInfo target : targets) {
                        BitSet after = analyse(target, args, deeper);
                        // a project method that puts body data into another argument (a mapper's copy)
                        for (int i = after.nextSetBit(0); i >= 0 && i < call.getArguments().size(); i = after.nextSetBit(i + 1)) {
                            if (!args.get(i)) {
                                taintBase(call.getArgument(i), carrying);
                            }
                        }
                    }
                }
            }
        }
        carryingIn.computeIfAbsent(method.id(), k -> Collections.newSetFromMap(new IdentityHashMap<>())).addAll(carrying);
        readsIn.put(method.id(), reads);
        collectWrites(method, path, carrying, reads);
        BitSet out = new BitSet();
        for (int i = 0; i < parameters.size(); i++) {
            if (carrying.contains(parameters.get(i))) {
                out.set(i);
            }
        }
        summaries.put(key, out);
        return out;
    }

    private void collectWrites(MethodInfo method, List<CallEdge> path, Set<Node> carrying, Set<Node> reads) {
        for (DbOp op : persistence.directOps(method)) {
            Expression value = null;
            if (op.kind() == DbOp.Kind.SAVE) {
                value = op.call().getArguments().stream().filter(a -> carries(a, carrying, reads)).findFirst().orElse(null);
            } else if (op.kind() == DbOp.Kind.UPDATE) {
                List<Expression> written = WrittenValues.of(op);
                if (written.isEmpty() && !op.selfRelative()) {
                    written = setArguments(op);
                }
                value = written.stream().filter(a -> carries(a, carrying, reads)).findFirst().orElse(null);
            }
            if (value == null) {
                continue;
            }
            writes.add(new BodyWrite(op, method, path, value));
        }
    }

    /**
     * The arguments bound to the parameters of an UPDATE's SET clause, for a literal statement whose SET
     * items are expressions rather than plain parameters ({@code SET title = COALESCE(?, title)}): the
     * positional parameters before the WHERE, bound in order after the SQL argument.
     */
    private static List<Expression> setArguments(DbOp op) {
        List<Expression> args = op.call().getArguments();
        if (args.size() < 2 || !(args.get(0) instanceof com.github.javaparser.ast.expr.StringLiteralExpr sql)) {
            return List.of();
        }
        String text = sql.asString();
        int where = text.toUpperCase(java.util.Locale.ROOT).lastIndexOf(" WHERE ");
        String set = where < 0 ? text : text.substring(0, where);
        int parameters = (int) set.chars().filter(c -> c == '?').count();
        return args.subList(1, Math.min(args.size(), 1 + parameters));
    }

    /** An enclosing or early-exit condition that holds a body value and a value the database returned. */
    private static boolean guardedByComparison(Node write, MethodFlow flow, Set<Node> carrying, Set<Node> reads) {
        Node child = write;
        for (Node parent = write.getParentNode().orElse(null); parent != null
                && !(parent instanceof com.github.javaparser.ast.body.CallableDeclaration<?>);
                parent = parent.getParentNode().orElse(null)) {
            List<Expression> conditions = new ArrayList<>();
            if (parent instanceof IfStmt s && child != s.getCondition()) {
                conditions.add(s.getCondition());
            } else if (parent instanceof com.github.javaparser.ast.stmt.BlockStmt block) {
                for (var s : block.getStatements()) {
                    if (s == child) {
                        break;
                    }
                    if (s instanceof IfStmt guard && exits(guard.getThenStmt())) {
                        conditions.add(guard.getCondition());
                    }
                }
            }
            for (Expression condition : conditions) {
                if (comparesClientWithStored(condition, flow, carrying, reads)) {
                    return true;
                }
            }
            child = parent;
        }
        return false;
    }

    /**
     * Does the condition compare (an equality, or a call such as {@code equals} or {@code matches} taking
     * both as operands) a value that came from the body and not from the database with one that the
     * database returned? The entity the body is later copied onto carries the body too, but testing it
     * ({@code entity == null}) tests the stored row; a read keyed by a body value
     * ({@code existsByNumber(form.number())}) is a lookup, not the client's copy compared.
     */
    private static boolean comparesClientWithStored(Expression condition, MethodFlow flow, Set<Node> carrying,
            Set<Node> reads) {
        List<Node> comparisons = new ArrayList<>(condition.findAll(com.github.javaparser.ast.expr.BinaryExpr.class,
                b -> b.getOperator() == com.github.javaparser.ast.expr.BinaryExpr.Operator.EQUALS
                        || b.getOperator() == com.github.javaparser.ast.expr.BinaryExpr.Operator.NOT_EQUALS));
        comparisons.addAll(condition.findAll(MethodCallExpr.class, c -> !reads.contains(c) && !c.getArguments().isEmpty()));
        for (Node comparison : comparisons) {
            List<Node> operands = new ArrayList<>();
            if (comparison instanceof com.github.javaparser.ast.expr.BinaryExpr b) {
                operands.add(b.getLeft());
                operands.add(b.getRight());
            } else if (comparison instanceof MethodCallExpr c) {
                c.getScope().ifPresent(operands::add);
                operands.addAll(c.getArguments());
            }
            for (Node client : operands) {
                if (!holdsClientValue(client, flow, carrying, reads)) {
                    continue;
                }
                for (Node other : operands) {
                    if (other != client && holdsStoredValue(other, flow, reads)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean holdsClientValue(Node operand, MethodFlow flow, Set<Node> carrying, Set<Node> reads) {
        for (NameExpr name : operand.findAll(NameExpr.class)) {
            if (insideRead(name, operand, reads) || stored(name, flow, reads)) {
                continue;
            }
            Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
            if (declaration != null && carrying.contains(declaration)) {
                return true;
            }
        }
        return false;
    }

    private static boolean holdsStoredValue(Node operand, MethodFlow flow, Set<Node> reads) {
        return operand.findFirst(Node.class, reads::contains).isPresent()
                || operand.findAll(NameExpr.class).stream().anyMatch(n -> stored(n, flow, reads));
    }

    private static boolean onlyReads(List<DbOp> ops) {
        return !ops.isEmpty() && ops.stream().allMatch(op -> op.kind() == DbOp.Kind.READ);
    }

    /** A local holding what the database returned: a read reaches it, or it is initialised from one ({@code flow} may be null). */
    private static boolean stored(NameExpr name, MethodFlow flow, Set<Node> reads) {
        if (flow != null && flow.reaching(name).stream().anyMatch(op -> op.kind() == DbOp.Kind.READ)) {
            return true;
        }
        Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
        return declaration instanceof VariableDeclarator v && v.getInitializer().isPresent()
                && v.getInitializer().get().findFirst(Node.class, reads::contains).isPresent();
    }

    private static boolean insideRead(Node node, Node root, Set<Node> reads) {
        for (Node n = node; n != null && n != root; n = n.getParentNode().orElse(null)) {
            if (reads.contains(n)) {
                return true;
            }
        }
        return reads.contains(root);
    }

    private static boolean exits(com.github.javaparser.ast.stmt.Statement s) {
        if (s instanceof com.github.javaparser.ast.stmt.ReturnStmt || s instanceof com.github.javaparser.ast.stmt.ThrowStmt) {
            return true;
        }
        return s instanceof com.github.javaparser.ast.stmt.BlockStmt b && !b.getStatements().isEmpty()
                && exits(b.getStatements().getLast().get());
    }

    /** Does {@code e} hold body data? Not through a database read's arguments: what it returns is stored. */
    private static boolean carries(Node e, Set<Node> carrying, Set<Node> reads) {
        if (reads.contains(e)) {
            return false;
        }
        if (e instanceof NameExpr n) {
            Node declaration = LocalVariables.declarationOf(n.getNameAsString(), n);
            return declaration != null && carrying.contains(declaration);
        }
        if (e instanceof LambdaExpr) {
            return false;
        }
        for (Node child : e.getChildNodes()) {
            if (carries(child, carrying, reads)) {
                return true;
            }
        }
        return false;
    }

    /** The local that {@code target} is part of ({@code entity} of {@code entity.getAddress().street}) now holds body data. */
    private static void taintBase(Expression target, Set<Node> carrying) {
        Expression base = target;
        while (true) {
            if (base instanceof MethodCallExpr m && m.getScope().isPresent()) {
                base = m.getScope().get();
            } else if (base instanceof FieldAccessExpr f) {
                base = f.getScope();
            } else if (base instanceof com.github.javaparser.ast.expr.EnclosedExpr en) {
                base = en.getInner();
            } else if (base instanceof com.github.javaparser.ast.expr.CastExpr c) {
                base = c.getExpression();
            } else {
                break;
            }
        }
        if (base instanceof NameExpr n) {
            Node declaration = LocalVariables.declarationOf(n.getNameAsString(), n);
            if (declaration != null) {
                carrying.add(declaration);
            }
        }
    }
}
