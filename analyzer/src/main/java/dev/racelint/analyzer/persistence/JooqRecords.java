package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import dev.racelint.analyzer.persistence.DbOp.Kind;
import dev.racelint.analyzer.persistence.DbOp.ReadShape;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * jOOQ's active records: {@code store()} or {@code insert()} on a record made by
 * {@code dsl.newRecord(USER, user)} runs an INSERT into that record's table (a record that was not
 * fetched has no stored row to update). The record's own class is usually generated outside the
 * sources, so the record is recognised by where it comes from, not by its type.
 */
final class JooqRecords {
    private static final Set<String> WRITES = Set.of("store", "insert");

    private JooqRecords() {}

    /**
     * The INSERT {@code call} runs when it stores a record {@code newRecord} made, on a receiver
     * {@code isDsl} accepts ({@code record.store()} after {@code record = dsl.newRecord(T, ..)}, or
     * {@code dsl.newRecord(T, ..).store()}); null otherwise.
     */
    static DbOp storeOfNewRecord(DbOpClassifier owner, MethodCallExpr call, Predicate<Expression> isDsl) {
        if (!WRITES.contains(call.getNameAsString()) || !call.getArguments().isEmpty() || call.getScope().isEmpty()) {
            return null;
        }
        Expression receiver = call.getScope().get();
        if (receiver instanceof NameExpr record) {
            Node declaration = LocalVariables.declarationOf(record.getNameAsString(), record);
            receiver = declaration instanceof VariableDeclarator v ? v.getInitializer().orElse(null) : null;
        }
        if (!(receiver instanceof MethodCallExpr made) || !made.getNameAsString().equals("newRecord")
                || made.getArguments().isEmpty() || made.getScope().isEmpty() || !isDsl.test(made.getScope().get())) {
            return null;
        }
        String table = JooqChains.tableName(made.getArgument(0));
        if (table == null) {
            return null;
        }
        return new DbOp(call, call, Kind.INSERT, table, owner.entities().byName(table).orElse(null), ReadShape.NONE,
                Set.of(), false, false, false, false, "DSLContext.newRecord(" + table + ")." + call.getNameAsString() + "()",
                owner.location(call), null, List.of(), List.of(), LockDetail.NONE);
    }
}
