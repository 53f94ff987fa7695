package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchStmt;
import dev.racelint.analyzer.resolve.LocalVariables;
import dev.racelint.analyzer.sql.SqlStatement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A row's state read, tested, and then moved on by an update that selects the row by its key only:
 * {@code order = mapper.selectByNo(no); if (order.getStatus() != NO_PAY) throw ..; rec.setId(order.getId());
 * rec.setStatus(CANCELED); mapper.updateByPrimaryKeySelective(rec)}. Two runs both read the old state, both
 * pass the test and both apply the transition, because the UPDATE does not test that state again.
 *
 * <p>Which property the update writes is the record's data flow: the setters called on the record it is
 * given (a record built with {@code new} whose key setter takes the read row's key, or the read row itself,
 * changed after the read). Which property the test examined is the getter the guarding condition calls on
 * a value of the read row. Both are the same column only when they name the same property of the
 * record type, so a guard on one column and a write of another are never paired. Updates whose statement
 * guards its WHERE ({@link DbOp#conditional()}) are left out: they test the row again (that their row
 * count is read is unchecked-row-count's business).
 *
 * @param read      the read of the row
 * @param write     the key-only update of the same row
 * @param guard     the condition that decides whether the update runs
 * @param getter    the getter in that condition reading the tested property of the read row
 * @param setter    how the update writes that property: the setter on the updated record, or the
 *                  declared statement's SET of its column to a literal
 * @param property  the property tested and written (as the accessors name it, first letter lower case)
 */
public record StateTransitions(DbOp read, DbOp write, Expression guard, MethodCallExpr getter,
        String setter, String property) {

    /**
     * The transitions among {@code flow}'s operations.
     *
     * @param idProperties the id properties of a record's type ({@link EntityModel#idProperties}), lower case
     * @param jdkCollection whether an expression's static type is a {@code java.util} collection, whose
     *                      {@code contains} of the getter tests membership in a set of states
     * @param declared      the statement a write's mapper or repository method declares, if any
     */
    public static List<StateTransitions> in(MethodFlow flow,
            java.util.function.Function<NameExpr, java.util.Set<String>> idProperties,
            java.util.function.Predicate<Expression> jdkCollection,
            java.util.function.Function<DbOp, Optional<SqlStatement>> declared) {
        List<StateTransitions> out = new ArrayList<>();
        for (DbOp write : flow.ops()) {
            if ((write.kind() != DbOp.Kind.UPDATE && write.kind() != DbOp.Kind.SAVE) || write.conditional()
                    || write.selfRelative() || write.table().isEmpty() || write.call().getArguments().isEmpty()
                    || (write.entity() != null && write.entity().versioned())) {
                continue;
            }
            Node body = methodOf(write.call());
            if (body == null) {
                continue;
            }
            NameExpr record = write.call().getArguments().size() == 1 && write.call().getArgument(0) instanceof NameExpr n
                    ? n : null;
            Optional<SqlStatement> statement = write.kind() == DbOp.Kind.UPDATE ? declared.apply(write) : Optional.empty();
            for (DbOp read : flow.ops()) {
                if (read.kind() != DbOp.Kind.READ || read.locked() || !read.sameTable(write)
                        || !(read.shape() == DbOp.ReadShape.ROWS || read.shape() == DbOp.ReadShape.VALUE)
                        || !before(read.call(), write.call())) {
                    continue;
                }
                Map<String, String> written = new LinkedHashMap<>();
                if (record != null) {
                    writtenProperties(flow, body, record, read, write, idProperties.apply(record))
                            .forEach((property, setter) -> written.put(property, setter.toString()));
                }
                if (written.isEmpty() && statement.isPresent()) {
                    written.putAll(constantSets(flow, statement.get(), read, write));
                }
                if (written.isEmpty()) {
                    continue;
                }
                Optional<StateTransitions> found = guardOn(flow, write, read, written, jdkCollection);
                if (found.isPresent()) {
                    out.add(found.get());
                    break;
                }
            }
        }
        return out;
    }

    /**
     * The columns a declared UPDATE sets to a literal ({@code SET state = 1, tries = tries + 1 WHERE
     * notify_id = #{id}}), keyed by the property name MyBatis maps them to (underscores dropped, case
     * ignored: {@code notify_state} is {@code notifyState}), when the statement selects the row the read
     * returned: its WHERE compares exactly the columns the read selected by, each for equality with a
     * parameter, and every argument of the call is the read's own argument (the same local or parameter)
     * or a value of the read row. Any other argument may pick another row or write the caller's value.
     */
    private static Map<String, String> constantSets(MethodFlow flow, SqlStatement statement, DbOp read, DbOp write) {
        if (statement.kind() != SqlStatement.Kind.UPDATE || !statement.parsed() || !statement.where()
                || read.keyColumns().isEmpty() || statement.whereColumns().isEmpty()
                || statement.whereColumns().stream().anyMatch(w -> !w.isEquality()
                        || w.valueKind() != SqlStatement.ValueKind.PARAMETER)) {
            return Map.of();
        }
        java.util.Set<String> where = new java.util.HashSet<>();
        statement.whereColumns().forEach(w -> where.add(w.column().toLowerCase(Locale.ROOT)));
        java.util.Set<String> readBy = new java.util.HashSet<>();
        read.keyColumns().forEach(c -> readBy.add(c.toLowerCase(Locale.ROOT)));
        if (!where.equals(readBy)) {
            return Map.of();
        }
        java.util.Set<Node> readArguments = new java.util.HashSet<>();
        for (Expression a : read.call().getArguments()) {
            if (a instanceof NameExpr n && LocalVariables.declarationOf(n.getNameAsString(), n) != null) {
                readArguments.add(LocalVariables.declarationOf(n.getNameAsString(), n));
            }
        }
        for (Expression a : write.call().getArguments()) {
            boolean sameArgument = a instanceof NameExpr n && LocalVariables.declarationOf(n.getNameAsString(), n) != null
                    && readArguments.contains(LocalVariables.declarationOf(n.getNameAsString(), n));
            if (!sameArgument && !flow.valuesReaching(a).contains(read)) {
                return Map.of();
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (SqlStatement.SetItem item : statement.setItems()) {
            if (item.kind() == SqlStatement.SetKind.ABSOLUTE_LITERAL) {
                out.putIfAbsent(item.column().replace("_", "").toLowerCase(Locale.ROOT),
                        "SET " + item.column() + " = a constant");
            }
        }
        return out;
    }

    /**
     * The properties the update writes into the row {@code read} returned, each with its setter: setters
     * on the read row itself after the read, or on a record the method builds with {@code new} whose key
     * setter takes the read row's key. Empty when the record is neither (one the caller handed in, built
     * from a request). A setter whose value comes from the read row itself writes back what was there.
     */
    private static Map<String, MethodCallExpr> writtenProperties(MethodFlow flow, Node body, NameExpr record,
            DbOp read, DbOp write, java.util.Set<String> idProperties) {
        Node declaration = LocalVariables.declarationOf(record.getNameAsString(), record);
        if (!(declaration instanceof VariableDeclarator variable)) {
            return Map.of();
        }
        List<Expression> assigned = new ArrayList<>();
        variable.getInitializer().ifPresent(assigned::add);
        for (AssignExpr a : body.findAll(AssignExpr.class)) {
            if (a.getTarget() instanceof NameExpr t && LocalVariables.declarationOf(t.getNameAsString(), t) == declaration) {
                assigned.add(a.getValue());
            }
        }
        if (assigned.isEmpty()) {
            return Map.of();
        }
        boolean built = assigned.stream().allMatch(flow::constructed);
        boolean theReadRow = !built && assigned.stream().noneMatch(flow::constructed)
                && flow.valuesReaching(record).contains(read);
        if (!built && !theReadRow) {
            return Map.of();
        }
        Map<String, MethodCallExpr> out = new LinkedHashMap<>();
        java.util.Set<String> callersValue = new java.util.HashSet<>();
        boolean keyedByTheRead = theReadRow;
        for (MethodCallExpr setter : body.findAll(MethodCallExpr.class)) {
            if (setter.getArguments().size() != 1 || !(setter.getScope().orElse(null) instanceof NameExpr scope)
                    || LocalVariables.declarationOf(scope.getNameAsString(), scope) != declaration
                    || !before(setter, write.call()) || (theReadRow && !before(read.call(), setter))) {
                continue;
            }
            Optional<String> property = property(setter.getNameAsString(), "set");
            if (property.isEmpty()) {
                continue;
            }
            if (WrittenValues.keySetter(setter, write) || idProperties.contains(property.get())) {
                keyedByTheRead |= flow.valuesReaching(setter.getArgument(0)).contains(read);
                continue;
            }
            // a transition moves the row to a state the code fixes; a value the caller chose (a status from
            // the request) makes it a plain write of that value
            if (fixedState(setter.getArgument(0))) {
                out.putIfAbsent(property.get(), setter);
            } else {
                callersValue.add(property.get());
            }
        }
        out.keySet().removeAll(callersValue);
        return keyedByTheRead ? out : Map.of();
    }

    /**
     * A condition deciding whether {@code write} runs (the update sits in one of its branches, or an
     * earlier {@code if} whose branch always leaves stands before it) that calls a getter of a written
     * property on the read row.
     */
    private static Optional<StateTransitions> guardOn(MethodFlow flow, DbOp write, DbOp read,
            Map<String, String> written, java.util.function.Predicate<Expression> jdkCollection) {
        for (Expression condition : conditionsDeciding(write.call())) {
            if (!before(read.call(), condition)) {
                continue;
            }
            List<Expression> tests = new ArrayList<>(List.of(condition));
            tests.addAll(booleanLocalValues(condition));
            for (Expression test : tests) {
                if (!before(read.call(), test)) {
                    continue;
                }
                for (MethodCallExpr getter : test.findAll(MethodCallExpr.class)) {
                    if (!getter.getArguments().isEmpty() || !(getter.getScope().orElse(null) instanceof NameExpr row)
                            || !flow.valuesReaching(row).contains(read)) {
                        continue;
                    }
                    Optional<String> property = property(getter.getNameAsString(), "get")
                            .or(() -> property(getter.getNameAsString(), "is"));
                    if (property.isPresent() && written.containsKey(property.get()) && testedAgainstState(getter, test, jdkCollection)) {
                        return Optional.of(new StateTransitions(read, write, condition, getter,
                                written.get(property.get()), property.get()));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The values given to a boolean local that makes up the condition ({@code boolean ok = WAITING ==
     * run.getState(); if (ok) ..}), in its initializer and in assignments before the condition: the test
     * was computed one statement earlier, it still decides. A local the condition only uses within a
     * larger expression is left to that expression.
     */
    private static List<Expression> booleanLocalValues(Expression condition) {
        Expression bare = condition;
        while (bare instanceof com.github.javaparser.ast.expr.EnclosedExpr e) {
            bare = e.getInner();
        }
        if (bare instanceof com.github.javaparser.ast.expr.UnaryExpr u
                && u.getOperator() == com.github.javaparser.ast.expr.UnaryExpr.Operator.LOGICAL_COMPLEMENT) {
            bare = u.getExpression();
        }
        if (!(bare instanceof NameExpr name)
                || !(LocalVariables.declarationOf(name.getNameAsString(), name) instanceof VariableDeclarator local)
                || !local.getType().isPrimitiveType()
                || local.getType().asPrimitiveType().getType() != com.github.javaparser.ast.type.PrimitiveType.Primitive.BOOLEAN) {
            return List.of();
        }
        List<Expression> out = new ArrayList<>();
        local.getInitializer().ifPresent(out::add);
        Node body = methodOf(condition);
        if (body != null) {
            for (AssignExpr a : body.findAll(AssignExpr.class)) {
                if (a.getOperator() == AssignExpr.Operator.ASSIGN && a.getTarget() instanceof NameExpr t
                        && LocalVariables.declarationOf(t.getNameAsString(), t) == local && before(a, condition)) {
                    out.add(a.getValue());
                }
            }
        }
        return out;
    }

    /**
     * Does the condition test the getter's value against a fixed state of the code - a literal, a
     * constant, an enum constant or an accessor of one ({@code OrderStatus.UNPAID.value()}), a
     * {@code switch} over it, or the boolean getter itself? A comparison with a caller's value (an old
     * password, an expected owner) checks a credential or an owner, not the row's state.
     */
    private static boolean testedAgainstState(MethodCallExpr getter, Expression condition,
            java.util.function.Predicate<Expression> jdkCollection) {
        Node child = getter;
        Node parent = getter.getParentNode().orElse(null);
        while (parent instanceof com.github.javaparser.ast.expr.EnclosedExpr || parent instanceof com.github.javaparser.ast.expr.CastExpr) {
            child = parent;
            parent = parent.getParentNode().orElse(null);
        }
        if (child == condition && condition.getParentNode().orElse(null) instanceof SwitchStmt) {
            return true;
        }
        if (parent instanceof com.github.javaparser.ast.expr.BinaryExpr b) {
            return switch (b.getOperator()) {
                case EQUALS, NOT_EQUALS, LESS, GREATER, LESS_EQUALS, GREATER_EQUALS ->
                        fixedState(b.getLeft() == child ? b.getRight() : b.getLeft());
                case AND, OR -> true;
                default -> false;
            };
        }
        if (parent instanceof MethodCallExpr call && (call.getNameAsString().equals("equals")
                || call.getNameAsString().equals("equalsIgnoreCase"))) {
            if (call.getArguments().size() == 1) {
                Expression other = call.getScope().orElse(null) == child ? call.getArgument(0) : call.getScope().orElse(null);
                return other != null && fixedState(other);
            }
            if (call.getArguments().size() == 2) {
                return fixedState(call.getArgument(0) == child ? call.getArgument(1) : call.getArgument(0));
            }
            return false;
        }
        if (parent instanceof com.github.javaparser.ast.expr.UnaryExpr u
                && u.getOperator() == com.github.javaparser.ast.expr.UnaryExpr.Operator.LOGICAL_COMPLEMENT) {
            return true;
        }
        // membership in a fixed set of states: ENDED_STATES.contains(run.getState())
        if (parent instanceof MethodCallExpr call && call.getArguments().size() == 1 && call.getArgument(0) == child
                && call.getScope().isPresent() && fixedState(call.getScope().get()) && collectionContains(call, jdkCollection)) {
            return true;
        }
        return child == condition;
    }

    /** Is {@code call} {@link java.util.Collection#contains} on a JDK collection (by the scope's static type)? */
    private static boolean collectionContains(MethodCallExpr call, java.util.function.Predicate<Expression> jdkCollection) {
        return call.getNameAsString().equals("contains") && jdkCollection.test(call.getScope().get());
    }

    /** A literal (not null), a static final or enum constant, or an argument-less accessor on one. */
    private static boolean fixedState(Expression e) {
        if (e instanceof com.github.javaparser.ast.expr.EnclosedExpr en) {
            return fixedState(en.getInner());
        }
        if (e instanceof com.github.javaparser.ast.expr.CastExpr c) {
            return fixedState(c.getExpression());
        }
        if (e instanceof com.github.javaparser.ast.expr.UnaryExpr u) {
            return fixedState(u.getExpression());
        }
        if (e instanceof com.github.javaparser.ast.expr.NullLiteralExpr) {
            return false;
        }
        if (e instanceof com.github.javaparser.ast.expr.LiteralExpr) {
            return true;
        }
        if (e instanceof NameExpr n) {
            return LocalVariables.declarationOf(n.getNameAsString(), n) == null && !mutableField(n);
        }
        if (e instanceof com.github.javaparser.ast.expr.FieldAccessExpr f) {
            return !(f.getScope() instanceof com.github.javaparser.ast.expr.ThisExpr)
                    && (!(f.getScope() instanceof NameExpr s) || LocalVariables.declarationOf(s.getNameAsString(), s) == null)
                    && (!(f.getScope() instanceof com.github.javaparser.ast.expr.FieldAccessExpr) || fixedState(f.getScope()));
        }
        if (e instanceof MethodCallExpr m) {
            return m.getArguments().isEmpty() && m.getScope().isPresent()
                    && (m.getScope().get() instanceof NameExpr || m.getScope().get() instanceof com.github.javaparser.ast.expr.FieldAccessExpr)
                    && fixedState(m.getScope().get());
        }
        return false;
    }

    /** A field of an enclosing type of that name that is not {@code static final}. */
    private static boolean mutableField(NameExpr n) {
        for (Node at = n; at != null; at = at.getParentNode().orElse(null)) {
            if (at instanceof com.github.javaparser.ast.body.TypeDeclaration<?> type) {
                for (var field : type.getFields()) {
                    if (field.getVariables().stream().anyMatch(v -> v.getNameAsString().equals(n.getNameAsString()))) {
                        return !(field.isStatic() && field.isFinal())
                                && !(type instanceof com.github.javaparser.ast.body.ClassOrInterfaceDeclaration c && c.isInterface());
                    }
                }
            }
        }
        return false;
    }

    /** Conditions whose outcome decides whether {@code node} runs, innermost first. */
    static List<Expression> conditionsDeciding(Node node) {
        List<Expression> out = new ArrayList<>();
        Node child = node;
        Node parent = node.getParentNode().orElse(null);
        while (parent != null && !(parent instanceof CallableDeclaration<?>)) {
            if (parent instanceof IfStmt s && child != s.getCondition()) {
                out.add(s.getCondition());
            } else if (parent instanceof ConditionalExpr c && child != c.getCondition()) {
                out.add(c.getCondition());
            } else if (parent instanceof SwitchStmt s && child != s.getSelector()) {
                out.add(s.getSelector());
            } else if (parent instanceof BlockStmt block) {
                for (Statement s : block.getStatements()) {
                    if (s == child) {
                        break;
                    }
                    if (s instanceof IfStmt guard && MethodFlow.alwaysExits(guard.getThenStmt())) {
                        out.add(guard.getCondition());
                    }
                }
            }
            child = parent;
            parent = parent.getParentNode().orElse(null);
        }
        return out;
    }

    /** {@code setStatus} with prefix {@code set} gives {@code status}. */
    private static Optional<String> property(String method, String prefix) {
        if (method.length() <= prefix.length() || !method.startsWith(prefix)
                || !Character.isUpperCase(method.charAt(prefix.length()))) {
            return Optional.empty();
        }
        String rest = method.substring(prefix.length());
        return Optional.of(Character.toLowerCase(rest.charAt(0)) + rest.substring(1)).map(p -> p.toLowerCase(Locale.ROOT));
    }

    private static boolean before(Node a, Node b) {
        return a.getBegin().isPresent() && b.getBegin().isPresent() && a.getBegin().get().isBefore(b.getBegin().get());
    }

    private static Node methodOf(Node node) {
        Node at = node;
        while (at != null && !(at instanceof CallableDeclaration<?>)) {
            at = at.getParentNode().orElse(null);
        }
        return at;
    }
}
