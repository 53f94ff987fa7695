package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.persistence.DbOp.Kind;
import dev.racelint.analyzer.persistence.DbOp.ReadShape;
import dev.racelint.analyzer.resolve.CallResolver;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * jOOQ fluent chains on a {@code DSLContext}: {@code selectFrom}, {@code select(..).from},
 * {@code selectCount}, {@code fetchExists}, {@code fetchCount}, {@code insertInto},
 * {@code update(..).set(..).where(..)}, {@code deleteFrom}, with {@code forUpdate()} and
 * {@code onConflict...} / {@code onDuplicateKey...}. Tables and fields by {@code table("name")},
 * {@code field("name")} or generated constants ({@code ACCOUNTS.BALANCE}).
 */
final class JooqChains {
    private JooqChains() {}

    static DbOp classify(DbOpClassifier owner, MethodCallExpr root, String name) {
        MethodCallExpr end = CallResolver.chainEnd(root);
        List<MethodCallExpr> chain = chain(root, end);
        Kind kind;
        ReadShape shape = ReadShape.ROWS;
        switch (name) {
            case "selectFrom", "select", "selectDistinct", "selectOne", "fetch", "fetchOne", "fetchOptional",
                    "fetchAny", "fetchSingle" -> kind = Kind.READ;
            case "selectCount", "fetchCount" -> { kind = Kind.READ; shape = ReadShape.COUNT; }
            case "fetchExists" -> { kind = Kind.READ; shape = ReadShape.EXISTS; }
            case "insertInto", "mergeInto" -> { kind = Kind.INSERT; shape = ReadShape.NONE; }
            case "update" -> { kind = Kind.UPDATE; shape = ReadShape.NONE; }
            case "deleteFrom", "delete" -> { kind = Kind.DELETE; shape = ReadShape.NONE; }
            default -> { return null; }
        }
        String table = "";
        Set<String> whereColumns = new LinkedHashSet<>();
        List<SqlFacts.Comparison> conditions = new ArrayList<>();
        Set<String> written = new LinkedHashSet<>();
        boolean locked = false;
        boolean upsert = name.equals("mergeInto");
        boolean allSetsRelative = true;
        boolean anySet = false;
        List<Integer> unused = new ArrayList<>();
        for (MethodCallExpr c : chain) {
            String n = c.getNameAsString();
            if ((c == root && !c.getArguments().isEmpty() && (kind != Kind.READ || !n.equals("select")))
                    || n.equals("from")) {
                for (Expression arg : c.getArguments()) {
                    String t = tableName(arg);
                    if (t != null && table.isEmpty()) {
                        table = t;
                    }
                }
            }
            if (n.equals("fetchExists") || n.equals("fetchCount")) {
                for (Expression arg : c.getArguments()) {
                    for (MethodCallExpr inner : arg.findAll(MethodCallExpr.class)) {
                        if ((inner.getNameAsString().equals("selectFrom") || inner.getNameAsString().equals("from"))
                                && !inner.getArguments().isEmpty() && table.isEmpty()) {
                            String t = tableName(inner.getArgument(0));
                            if (t != null) {
                                table = t;
                            }
                        }
                        collectConditionColumns(inner, whereColumns);
                    }
                }
            }
            if (n.equals("forUpdate") || n.equals("forShare") || n.equals("forNoKeyUpdate") || n.equals("forKeyShare")) {
                locked = true;
            }
            if (n.startsWith("onConflict") || n.startsWith("onDuplicateKey")) {
                upsert = true;
            }
            if (n.equals("where") || n.equals("and") || n.equals("or")) {
                for (Expression arg : c.getArguments()) {
                    for (MethodCallExpr cond : arg.findAll(MethodCallExpr.class)) {
                        collectConditionColumns(cond, whereColumns);
                        if (isComparison(cond) && isConditionMethod(cond.getNameAsString())) {
                            conditions.add(new SqlFacts.Comparison(fieldName(cond.getScope().get()),
                                    isEqualityWithVariable(cond), isRange(cond)));
                        }
                    }
                }
            }
            if (n.equals("set") && c.getArguments().size() == 2) {
                anySet = true;
                String column = fieldName(c.getArgument(0));
                if (column != null) {
                    written.add(column.toLowerCase(Locale.ROOT));
                }
                String value = c.getArgument(1).toString();
                boolean relative = column != null && (value.contains("\"" + column + "\"")
                        || value.toLowerCase(Locale.ROOT).contains(column.toLowerCase(Locale.ROOT) + ".") 
                        || value.toUpperCase(Locale.ROOT).contains("." + column.toUpperCase(Locale.ROOT) + "."));
                if (!relative) {
                    allSetsRelative = false;
                }
            }
        }
        boolean conditional = SqlFacts.guardedWhere(conditions, written);
        // a column the chain also sets is compared to guard the write, not to pick the row
        whereColumns.removeIf(c -> written.contains(c.toLowerCase(Locale.ROOT)));
        String describe = "DSLContext." + name + "(" + (table.isEmpty() ? "" : table) + ")";
        return new DbOp(root, end, kind, table.toLowerCase(Locale.ROOT), owner.entities().byName(table).orElse(null),
                shape, whereColumns, conditional, kind == Kind.UPDATE && anySet && allSetsRelative, locked, upsert,
                describe, owner.location(root), null, unused, List.of(), LockDetail.NONE);
    }

    /** Value expressions given to {@code set(field, value)} in an update chain, for data-flow checks. */
    static List<Expression> setValues(DbOp op) {
        List<Expression> out = new ArrayList<>();
        for (MethodCallExpr c : chain(op.call(), op.end())) {
            if (c.getNameAsString().equals("set") && c.getArguments().size() == 2) {
                out.add(c.getArgument(1));
            }
        }
        return out;
    }

    private static boolean isConditionMethod(String n) {
        return Set.of("eq", "equal", "ne", "notEqual", "lt", "le", "gt", "ge", "lessThan", "greaterThan", "in", "notIn",
                "between", "isNull", "isNotNull", "like", "isTrue", "isFalse", "greaterOrEqual", "lessOrEqual").contains(n);
    }

    private static boolean isEqualityWithVariable(MethodCallExpr cond) {
        String n = cond.getNameAsString();
        return (n.equals("eq") || n.equals("equal") || n.equals("in")) && !cond.getArguments().isEmpty()
                && !(cond.getArgument(0) instanceof com.github.javaparser.ast.expr.LiteralExpr);
    }

    private static boolean isComparison(MethodCallExpr cond) {
        return cond.getScope().isPresent() && fieldName(cond.getScope().get()) != null;
    }

    /** A range comparison: {@code lt(x)}, {@code between(a, b)}. */
    private static boolean isRange(MethodCallExpr cond) {
        return Set.of("lt", "le", "gt", "ge", "lessThan", "greaterThan", "lessOrEqual", "greaterOrEqual", "between")
                .contains(cond.getNameAsString());
    }

    /** Equality conditions name the rows selected (the key columns); ranges and exclusions do not. */
    private static void collectConditionColumns(MethodCallExpr cond, Set<String> out) {
        String n = cond.getNameAsString();
        if (Set.of("eq", "equal", "in", "isTrue", "isFalse").contains(n) && cond.getScope().isPresent()) {
            String column = fieldName(cond.getScope().get());
            if (column != null) {
                out.add(column.toLowerCase(Locale.ROOT));
            }
        }
    }

    private static List<MethodCallExpr> chain(MethodCallExpr root, MethodCallExpr end) {
        List<MethodCallExpr> out = new ArrayList<>();
        Node current = end;
        while (current instanceof MethodCallExpr m) {
            out.add(0, m);
            if (m == root) {
                break;
            }
            current = m.getScope().orElse(null);
        }
        return out;
    }

    /** {@code table("orders")}, {@code DSL.table("orders")}, {@code ORDERS}, {@code Tables.ORDERS}. */
    static String tableName(Expression e) {
        if (e instanceof MethodCallExpr m && (m.getNameAsString().equals("table") || m.getNameAsString().equals("name"))
                && !m.getArguments().isEmpty() && m.getArgument(0) instanceof StringLiteralExpr s) {
            return s.asString().toLowerCase(Locale.ROOT);
        }
        if (e instanceof NameExpr n && isConstant(n.getNameAsString())) {
            return n.getNameAsString().toLowerCase(Locale.ROOT);
        }
        if (e instanceof FieldAccessExpr f && isConstant(f.getNameAsString())) {
            return f.getNameAsString().toLowerCase(Locale.ROOT);
        }
        return null;
    }

    /** {@code field("balance")}, {@code field("balance", Long.class)}, {@code ACCOUNTS.BALANCE}. */
    static String fieldName(Expression e) {
        if (e instanceof MethodCallExpr m && m.getNameAsString().equals("field") && !m.getArguments().isEmpty()
                && m.getArgument(0) instanceof StringLiteralExpr s) {
            return s.asString();
        }
        if (e instanceof FieldAccessExpr f && isConstant(f.getNameAsString())) {
            return f.getNameAsString().toLowerCase(Locale.ROOT);
        }
        if (e instanceof NameExpr n) {
            return n.getNameAsString().toLowerCase(Locale.ROOT);
        }
        return null;
    }

    private static boolean isConstant(String name) {
        return name.equals(name.toUpperCase(Locale.ROOT)) && Character.isLetter(name.charAt(0));
    }
}
