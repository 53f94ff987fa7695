package dev.racelint.analyzer.persistence;

import dev.racelint.analyzer.AnalysisLimits;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.CallGraph;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.sql.SqlModel;
import dev.racelint.analyzer.sql.SqlStatement;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What one database read costs when every concurrent cache miss repeats it: a statement that joins
 * several tables, or one that reads every row of a table (no WHERE; {@code findAll()}, a mapper's
 * select-all). A read that picks its rows by a key or a filter is cheap to repeat.
 */
public final class ReadCost {
    private final PersistenceModel persistence;
    private final CallGraph graph;
    private final SqlModel sql;

    public ReadCost(PersistenceModel persistence, CallGraph graph, AnalysisLimits limits) {
        this.persistence = persistence;
        this.graph = graph;
        this.sql = new SqlModel(SqlModel.DEFAULT_TIMEOUT_MILLIS, limits);
    }

    /** Why repeating {@code op} (a call in {@code in}) is expensive; empty when it is not, or not known to be. */
    public Optional<String> expensive(DbOp op, MethodInfo in) {
        if (op.kind() != DbOp.Kind.READ) {
            return Optional.empty();
        }
        Optional<String> declared = mapperStatement(op, in).or(() -> literalStatement(op));
        if (declared.isPresent()) {
            SqlStatement statement = sql.parse(SqlModel.stripMyBatisTags(declared.get()));
            if (!statement.parsed() || statement.kind() != SqlStatement.Kind.SELECT) {
                return Optional.empty();
            }
            List<String> tables = statement.tables().stream().map(t -> t.toLowerCase(Locale.ROOT)).distinct().toList();
            if (tables.size() > 1) {
                return Optional.of("a join of " + tables.size() + " tables: " + String.join(", ", tables));
            }
            return statement.where() || tables.isEmpty() ? Optional.empty()
                    : Optional.of("every row of " + tables.get(0));
        }
        // findAll(), selectAll(): a read that takes no argument and compares no column reads the table
        if (op.keyColumns().isEmpty() && op.shape() == DbOp.ReadShape.ROWS && !op.table().isEmpty()
                && op.call().getArguments().isEmpty()) {
            return Optional.of("every row of " + op.table());
        }
        return Optional.empty();
    }

    /** The SQL text written as the call's first argument (JdbcTemplate and friends), when it is a literal. */
    private static Optional<String> literalStatement(DbOp op) {
        if (op.call().getArguments().isEmpty()) {
            return Optional.empty();
        }
        return literal(op.call().getArgument(0));
    }

    /** A string literal, text block, or a {@code +} of them. */
    private static Optional<String> literal(com.github.javaparser.ast.expr.Expression e) {
        if (e.isStringLiteralExpr()) {
            return Optional.of(e.asStringLiteralExpr().asString());
        }
        if (e.isTextBlockLiteralExpr()) {
            return Optional.of(e.asTextBlockLiteralExpr().asString());
        }
        if (e.isBinaryExpr() && e.asBinaryExpr().getOperator() == com.github.javaparser.ast.expr.BinaryExpr.Operator.PLUS) {
            Optional<String> left = literal(e.asBinaryExpr().getLeft());
            Optional<String> right = literal(e.asBinaryExpr().getRight());
            return left.isPresent() && right.isPresent() ? Optional.of(left.get() + right.get()) : Optional.empty();
        }
        return Optional.empty();
    }

    /** The mapper XML statement the call lands on, when the read is a MyBatis mapper method declared in XML. */
    private Optional<String> mapperStatement(DbOp op, MethodInfo in) {
        for (CallEdge edge : graph.facts(in).calls()) {
            if (edge.site() == op.call() || edge.site() == op.end()) {
                MethodInfo target = edge.callee();
                Optional<String> statement = persistence.classifier().mapperXml()
                        .statement(target.declaringType().qualifiedName(), target.name());
                if (statement.isPresent()) {
                    return statement;
                }
            }
        }
        return Optional.empty();
    }
}
