package dev.racelint.analyzer.sql;

import dev.racelint.analyzer.sql.SqlStatement.Aggregate;
import dev.racelint.analyzer.sql.SqlStatement.Kind;
import dev.racelint.analyzer.sql.SqlStatement.Lock;
import dev.racelint.analyzer.sql.SqlStatement.SetItem;
import dev.racelint.analyzer.sql.SqlStatement.SetKind;
import dev.racelint.analyzer.sql.SqlStatement.ValueKind;
import dev.racelint.analyzer.sql.SqlStatement.WhereColumn;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.AnyComparisonExpression;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DateValue;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeValue;
import net.sf.jsqlparser.expression.TimestampValue;
import net.sf.jsqlparser.expression.WhenClause;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.BitwiseAnd;
import net.sf.jsqlparser.expression.operators.arithmetic.BitwiseOr;
import net.sf.jsqlparser.expression.operators.arithmetic.BitwiseXor;
import net.sf.jsqlparser.expression.operators.arithmetic.Concat;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.IntegerDivision;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.conditional.XorExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsBooleanExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.ConflictActionType;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.insert.InsertConflictAction;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.merge.MergeOperation;
import net.sf.jsqlparser.statement.merge.MergeUpdate;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.ForMode;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;
import net.sf.jsqlparser.statement.upsert.Upsert;
import net.sf.jsqlparser.statement.upsert.UpsertType;

/** Reads a {@link SqlStatement} from a JSqlParser tree. */
final class AstExtractor {

    private static final Set<String> NULL_ALTERNATIVES = Set.of("coalesce", "ifnull", "nvl", "isnull", "nullif");
    private static final Set<String> OTHER_AGGREGATES = Set.of("min", "max", "avg", "stddev", "variance",
            "bool_and", "bool_or", "every", "array_agg", "string_agg", "group_concat", "listagg", "json_agg",
            "jsonb_agg");
    private static final Set<String> PARAMETER_FUNCTIONS = Set.of("lower", "upper", "trim", "btrim", "lcase",
            "ucase");
    private static final Set<String> PASS_THROUGH = Set.of("coalesce", "ifnull", "nvl", "isnull", "cast", "abs",
            "round", "floor", "ceil", "ceiling", "greatest", "least");

    private final StatementBuilder b;
    private final SqlText.Normalized text;
    private final SqlTokens tokens;
    private final boolean jpql;
    /** Lower-case FROM aliases and table names of the statement (qualifiers a column may carry). */
    private final Set<String> aliases = new HashSet<>();
    private final Map<String, WithItem<?>> ctes = new LinkedHashMap<>();
    private final Set<String> expandedCtes = new HashSet<>();
    /** How deep the walks over JSqlParser's expression trees go ({@code sql-tree-depth}). */
    private final int maxDepth;

    AstExtractor(StatementBuilder builder, SqlText.Normalized text, SqlTokens tokens, int maxDepth) {
        this.b = builder;
        this.text = text;
        this.tokens = tokens;
        this.jpql = builder.jpql;
        this.maxDepth = maxDepth;
    }

    void extract(Statement st) {
        if (st instanceof Select select) {
            select(select);
        } else if (st instanceof Insert insert) {
            insert(insert);
        } else if (st instanceof Update update) {
            update(update);
        } else if (st instanceof Delete delete) {
            delete(delete);
        } else if (st instanceof Merge merge) {
            merge(merge);
        } else if (st instanceof Upsert upsert) {
            upsert(upsert);
        } else {
            b.kind = Kind.OTHER;
        }
        expandRemainingCtes();
    }

    // ---- statements ---------------------------------------------------------------------------

    private void select(Select select) {
        b.kind = Kind.SELECT;
        walkSelect(select);
        Select top = select;
        lockAndPaging(top);
        while (top instanceof ParenthesedSelect p && p.getSelect() != null) {
            top = p.getSelect();
            lockAndPaging(top);
        }
        if (top instanceof PlainSelect ps) {
            if (ps.getWhere() != null) {
                b.where = true;
                whereColumns(ps.getWhere());
            }
            b.aggregate = aggregate(ps);
            selectedColumns(ps);
            if (ps.getTop() != null || ps.getFirst() != null) {
                b.limit = true;
            }
        } else if (top instanceof SetOperationList sol && !sol.getSelects().isEmpty()) {
            Select first = sol.getSelects().get(0);
            while (first instanceof ParenthesedSelect p && p.getSelect() != null) {
                first = p.getSelect();
            }
            if (first instanceof PlainSelect ps) {
                selectedColumns(ps);
            }
        }
        if (!b.tables.isEmpty()) {
            b.targetTable = b.tables.get(0);
        }
    }

    private void lockAndPaging(Select s) {
        ForMode mode = s.getForMode();
        if (mode != null) {
            b.lock = switch (mode) {
                case UPDATE -> Lock.FOR_UPDATE;
                case NO_KEY_UPDATE -> Lock.FOR_NO_KEY_UPDATE;
                case SHARE -> Lock.FOR_SHARE;
                case KEY_SHARE -> Lock.FOR_KEY_SHARE;
            };
        }
        b.skipLocked |= s.isSkipLocked();
        b.nowait |= s.isNoWait();
        List<OrderByElement> order = s.getOrderByElements();
        b.orderBy |= order != null && !order.isEmpty();
        b.limit |= s.getLimit() != null || s.getFetch() != null;
    }

    private void insert(Insert insert) {
        b.kind = Kind.INSERT;
        registerCtes(insert.getWithItemsList());
        b.targetTable = table(insert.getTable());
        b.addTable(b.targetTable);
        Set<String> targetNames = targetNames(insert.getTable());
        Select source = insert.getSelect();
        walkSelect(source);
        if (insert.getSetUpdateSets() != null) {
            for (UpdateSet set : insert.getSetUpdateSets()) {
                walkExpression(set.getValues());
            }
        }
        InsertConflictAction conflict = insert.getConflictAction();
        if (conflict != null) {
            b.upsert = true;
            if (conflict.getConflictActionType() == ConflictActionType.DO_NOTHING) {
                b.conflictDoNothing = true;
            } else if (conflict.getUpdateSets() != null) {
                setItems(conflict.getUpdateSets(), targetNames, insert);
            }
        }
        if (insert.getDuplicateUpdateSets() != null) {
            b.upsert = true;
            setItems(insert.getDuplicateUpdateSets(), targetNames, insert);
        }
        if (insert.isModifierIgnore()) {
            b.upsert = true;
            b.conflictDoNothing = true;
        }
        Select body = source;
        while (body instanceof ParenthesedSelect p && p.getSelect() != null) {
            body = p.getSelect();
        }
        if (body instanceof PlainSelect ps && ps.getWhere() != null) {
            for (Expression leaf : leaves(ps.getWhere())) {
                if (leaf instanceof ExistsExpression ex && ex.isNot()
                        || leaf instanceof NotExpression not && unwrap(not.getExpression()) instanceof ExistsExpression) {
                    b.upsert = true;
                    b.conditionalInsert = true;
                }
            }
        }
        b.returning = insert.getReturningClause() != null || insert.getOutputClause() != null;
    }

    private void upsert(Upsert upsert) {
        b.kind = Kind.INSERT;
        b.upsert = true;
        b.conflictDoNothing = upsert.getUpsertType() == UpsertType.INSERT_OR_IGNORE;
        b.targetTable = table(upsert.getTable());
        b.addTable(b.targetTable);
        walkSelect(upsert.getSelect());
        if (upsert.getDuplicateUpdateSets() != null) {
            setItems(upsert.getDuplicateUpdateSets(), targetNames(upsert.getTable()), null);
        }
    }

    private void update(Update update) {
        b.kind = Kind.UPDATE;
        registerCtes(update.getWithItemsList());
        b.targetTable = table(update.getTable());
        b.addTable(b.targetTable);
        Set<String> targetNames = targetNames(update.getTable());
        if (update.getStartJoins() != null) {
            update.getStartJoins().forEach(this::walkJoin);
        }
        walkFrom(update.getFromItem());
        if (update.getJoins() != null) {
            update.getJoins().forEach(this::walkJoin);
        }
        if (update.getUpdateSets() != null) {
            for (UpdateSet set : update.getUpdateSets()) {
                walkExpression(set.getValues());
            }
            setItems(update.getUpdateSets(), targetNames, null);
        }
        if (update.getWhere() != null) {
            b.where = true;
            walkExpression(update.getWhere());
            whereColumns(update.getWhere());
        }
        b.orderBy = update.getOrderByElements() != null && !update.getOrderByElements().isEmpty();
        b.limit = update.getLimit() != null;
        b.returning = update.getReturningClause() != null || update.getOutputClause() != null;
    }

    private void delete(Delete delete) {
        b.kind = Kind.DELETE;
        registerCtes(delete.getWithItemsList());
        Table target = delete.getTable();
        if (target == null && delete.getTables() != null && !delete.getTables().isEmpty()) {
            target = delete.getTables().get(0);
        }
        b.targetTable = table(target);
        b.addTable(b.targetTable);
        targetNames(target);
        if (delete.getTables() != null) {
            delete.getTables().forEach(t -> b.addTable(table(t)));
        }
        if (delete.getUsingList() != null) {
            delete.getUsingList().forEach(this::walkFrom);
        }
        if (delete.getJoins() != null) {
            delete.getJoins().forEach(this::walkJoin);
        }
        if (delete.getWhere() != null) {
            b.where = true;
            walkExpression(delete.getWhere());
            whereColumns(delete.getWhere());
        }
        b.orderBy = delete.getOrderByElements() != null && !delete.getOrderByElements().isEmpty();
        b.limit = delete.getLimit() != null;
        b.returning = delete.getReturningClause() != null || delete.getOutputClause() != null;
    }

    private void merge(Merge merge) {
        b.kind = Kind.MERGE;
        b.upsert = true;
        registerCtes(merge.getWithItemsList());
        b.targetTable = table(merge.getTable());
        b.addTable(b.targetTable);
        Set<String> targetNames = targetNames(merge.getTable());
        walkFrom(merge.getFromItem());
        walkExpression(merge.getOnCondition());
        if (merge.getOperations() != null) {
            for (MergeOperation op : merge.getOperations()) {
                if (op instanceof MergeUpdate mu && mu.getUpdateSets() != null) {
                    setItems(mu.getUpdateSets(), targetNames, null);
                }
            }
        }
    }

    // ---- tables -------------------------------------------------------------------------------

    private void registerCtes(List<WithItem<?>> items) {
        if (items == null) {
            return;
        }
        for (WithItem<?> w : items) {
            String name = w.getAliasName();
            if (name != null) {
                ctes.putIfAbsent(unquote(name).toLowerCase(Locale.ROOT), w);
            }
        }
    }

    private void expandCte(String name) {
        WithItem<?> w = ctes.get(name);
        if (w == null || !expandedCtes.add(name)) {
            return;
        }
        if (w.getSelect() != null) {
            walkSelect(w.getSelect());
        } else if (w.getInsert() != null && w.getInsert().getInsert() != null) {
            b.addTable(table(w.getInsert().getInsert().getTable()));
        } else if (w.getUpdate() != null && w.getUpdate().getUpdate() != null) {
            b.addTable(table(w.getUpdate().getUpdate().getTable()));
        } else if (w.getDelete() != null && w.getDelete().getDelete() != null) {
            b.addTable(table(w.getDelete().getDelete().getTable()));
        }
    }

    private void expandRemainingCtes() {
        for (String name : new ArrayList<>(ctes.keySet())) {
            expandCte(name);
        }
    }

    private void walkSelect(Select s) {
        if (s == null) {
            return;
        }
        registerCtes(s.getWithItemsList());
        if (s instanceof ParenthesedSelect p) {
            walkSelect(p.getSelect());
        } else if (s instanceof PlainSelect ps) {
            walkFrom(ps.getFromItem());
            if (ps.getJoins() != null) {
                ps.getJoins().forEach(this::walkJoin);
            }
            if (ps.getSelectItems() != null) {
                for (SelectItem<?> item : ps.getSelectItems()) {
                    walkExpression(item.getExpression());
                }
            }
            walkExpression(ps.getWhere());
            walkExpression(ps.getHaving());
        } else if (s instanceof SetOperationList sol) {
            sol.getSelects().forEach(this::walkSelect);
        } else if (s instanceof Values v) {
            walkExpression(v.getExpressions());
        }
    }

    private void walkJoin(Join join) {
        walkFrom(join.getFromItem());
        if (join.getOnExpressions() != null) {
            join.getOnExpressions().forEach(this::walkExpression);
        }
    }

    private void walkFrom(FromItem item) {
        if (item == null) {
            return;
        }
        if (item.getAlias() != null && item.getAlias().getName() != null) {
            aliases.add(unquote(item.getAlias().getName()).toLowerCase(Locale.ROOT));
        }
        if (item instanceof Table t) {
            String schema = t.getSchemaName();
            if (jpql && schema != null && aliases.contains(unquote(schema).toLowerCase(Locale.ROOT))) {
                return; // a JPQL path join: "JOIN e.items i"
            }
            String name = table(t);
            if (ctes.containsKey(name)) {
                expandCte(name);
            } else {
                b.addTable(name);
                aliases.add(name);
            }
        } else if (item instanceof ParenthesedSelect p) {
            walkSelect(p.getSelect());
        } else if (item instanceof ParenthesedFromItem pf) {
            walkFrom(pf.getFromItem());
            if (pf.getJoins() != null) {
                pf.getJoins().forEach(this::walkJoin);
            }
        } else if (item instanceof TableFunction tf) {
            walkExpression(tf.getFunction());
        } else if (item instanceof Select s) {
            walkSelect(s);
        }
    }

    private void walkExpression(Expression e) {
        if (e == null) {
            return;
        }
        Scan scan = Scan.of(e, false);
        for (Select s : scan.selects) {
            walkSelect(s);
        }
    }

    /** The names a column of the target table may be qualified with (table name and alias). */
    private Set<String> targetNames(Table t) {
        Set<String> names = new HashSet<>();
        if (t == null) {
            return names;
        }
        String name = table(t);
        names.add(name);
        aliases.add(name);
        if (t.getAlias() != null && t.getAlias().getName() != null) {
            String alias = unquote(t.getAlias().getName()).toLowerCase(Locale.ROOT);
            names.add(alias);
            aliases.add(alias);
        }
        return names;
    }

    private String table(Table t) {
        if (t == null || t.getName() == null) {
            return "";
        }
        String name = unquote(t.getName()).toLowerCase(Locale.ROOT);
        return text.restore(name);
    }

    static String unquote(String name) {
        if (name == null || name.length() < 2) {
            return name == null ? "" : name;
        }
        char first = name.charAt(0);
        char last = name.charAt(name.length() - 1);
        if (first == '"' && last == '"' || first == '`' && last == '`' || first == '[' && last == ']') {
            return name.substring(1, name.length() - 1);
        }
        return name;
    }

    // ---- WHERE --------------------------------------------------------------------------------

    /**
     * The conditions of a WHERE clause, AND/OR/NOT/parentheses looked through. Repairs JSqlParser
     * 5.3's reading of {@code a IN (..) AND b = ?} as {@code a IN ((..) AND b = ?)}
     * (JSqlParser issue #2244).
     */
    List<Expression> leaves(Expression e) {
        List<Expression> out = new ArrayList<>();
        collectLeaves(e, out, 0);
        return out;
    }

    private void collectLeaves(Expression e, List<Expression> out, int depth) {
        if (e == null || depth > maxDepth) {
            return;
        }
        if (e instanceof AndExpression || e instanceof OrExpression || e instanceof XorExpression) {
            BinaryExpression bin = (BinaryExpression) e;
            collectLeaves(bin.getLeftExpression(), out, depth + 1);
            collectLeaves(bin.getRightExpression(), out, depth + 1);
        } else if (e instanceof InExpression in && isConditional(in.getRightExpression())) {
            List<Expression> rest = new ArrayList<>();
            collectLeaves(in.getRightExpression(), rest, depth + 1);
            if (!rest.isEmpty()) {
                InExpression fixed = new InExpression(in.getLeftExpression(), rest.get(0));
                fixed.setNot(in.isNot());
                out.add(fixed);
                out.addAll(rest.subList(1, rest.size()));
            }
        } else if (e instanceof NotExpression not && isConditional(unwrapParens(not.getExpression()))) {
            collectLeaves(not.getExpression(), out, depth + 1);
        } else if (e instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
            collectLeaves(list.get(0), out, depth + 1);
        } else {
            out.add(e);
        }
    }

    private static boolean isConditional(Expression e) {
        return e instanceof AndExpression || e instanceof OrExpression || e instanceof XorExpression;
    }

    private void whereColumns(Expression where) {
        for (Expression leaf : leaves(where)) {
            Expression cond = leaf;
            if (cond instanceof NotExpression not) {
                cond = unwrapParens(not.getExpression());
            }
            condition(cond);
        }
    }

    private void condition(Expression cond) {
        if (cond instanceof ComparisonOperator cmp) {
            String op = cmp.getStringExpression().strip();
            op = op.equals("!=") || op.equals("^=") ? "<>" : op;
            Expression left = cmp.getLeftExpression();
            Expression right = cmp.getRightExpression();
            String column = columnOf(left);
            if (column == null) {
                String other = columnOf(right);
                if (other == null) {
                    return;
                }
                column = other;
                right = left;
                op = flip(op);
            }
            if (right instanceof AnyComparisonExpression any) {
                addWhere(column, any.getAnyType().name().equals("ALL") ? "ALL" : "ANY", ValueKind.SUBQUERY, null);
                return;
            }
            Expression value = unwrap(right);
            if (value instanceof Function f && f.getName() != null && isAnyFunction(f.getName())
                    && f.getParameters() != null && f.getParameters().size() == 1) {
                Expression arg = (Expression) f.getParameters().get(0);
                String anyOp = f.getName().equalsIgnoreCase("all") ? "ALL" : "ANY";
                addWhere(column, anyOp, valueKind(arg), arg);
                return;
            }
            addWhere(column, op, valueKind(right), right);
        } else if (cond instanceof InExpression in) {
            String column = columnOf(in.getLeftExpression());
            if (column != null) {
                Expression right = in.getRightExpression();
                addWhere(column, in.isNot() ? "NOT IN" : "IN", valueKind(right), right);
            }
        } else if (cond instanceof LikeExpression like) {
            String column = columnOf(like.getLeftExpression());
            if (column != null) {
                addWhere(column, like.isNot() ? "NOT LIKE" : "LIKE", valueKind(like.getRightExpression()),
                        like.getRightExpression());
            }
        } else if (cond instanceof IsNullExpression isNull) {
            String column = columnOf(isNull.getLeftExpression());
            if (column != null) {
                addWhere(column, isNull.isNot() ? "IS NOT NULL" : "IS NULL", ValueKind.LITERAL, null);
            }
        } else if (cond instanceof Between between) {
            String column = columnOf(between.getLeftExpression());
            if (column != null) {
                addWhere(column, "BETWEEN", valueKind(between.getBetweenExpressionStart()),
                        between.getBetweenExpressionStart());
            }
        } else if (cond instanceof IsBooleanExpression isBool) {
            String column = columnOf(isBool.getLeftExpression());
            if (column != null) {
                addWhere(column, isBool.isNot() ? "<>" : "=", ValueKind.LITERAL, null);
            }
        } else if (cond instanceof Column c && !isValueColumn(c)) {
            String column = columnName(c);
            if (column != null) {
                addWhere(column, "=", ValueKind.LITERAL, null);
            }
        }
    }

    private static boolean isAnyFunction(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.equals("any") || n.equals("some") || n.equals("all");
    }

    private void addWhere(String column, String op, ValueKind kind, Expression value) {
        ParamRef p = kind == ValueKind.PARAMETER ? singleParam(value) : ParamRef.NONE;
        b.whereColumns.add(new WhereColumn(column, op, kind, p.index, p.name));
    }

    private static String flip(String op) {
        return switch (op) {
            case "<" -> ">";
            case ">" -> "<";
            case "<=" -> ">=";
            case ">=" -> "<=";
            default -> op;
        };
    }

    /** The column a comparison side names: a column, or one wrapped in lower()/upper()/trim()/a cast. */
    private String columnOf(Expression e) {
        Expression x = unwrapParens(e);
        if (x instanceof CastExpression cast) {
            x = unwrapParens(cast.getLeftExpression());
        }
        if (x instanceof Function f && f.getParameters() != null && f.getParameters().size() == 1
                && f.getName() != null && Set.of("lower", "upper", "trim", "lcase", "ucase", "date")
                        .contains(f.getName().toLowerCase(Locale.ROOT))) {
            x = unwrapParens((Expression) f.getParameters().get(0));
        }
        if (x instanceof Column c && !isValueColumn(c)) {
            return columnName(c);
        }
        return null;
    }

    /**
     * A "column" that is really a value: a MyBatis {@code ${x}} interpolation, a boolean keyword,
     * or in JPQL a qualified constant ({@code com.acme.Status.ACTIVE}).
     */
    private boolean isValueColumn(Expression e) {
        if (!(e instanceof Column c)) {
            return false;
        }
        String name = unquote(c.getColumnName()).toLowerCase(Locale.ROOT);
        if (name.startsWith(SqlText.DOLLAR_PREFIX) || name.equals("true") || name.equals("false")) {
            return true;
        }
        if (jpql && c.getTable() != null && c.getTable().getFullyQualifiedName() != null
                && !c.getTable().getFullyQualifiedName().isEmpty()) {
            String first = c.getTable().getFullyQualifiedName().split("\\.")[0].toLowerCase(Locale.ROOT);
            return !aliases.contains(unquote(first));
        }
        return false;
    }

    /** Lower-case column name without table alias (JPQL: the path after the alias). */
    private String columnName(Column c) {
        String name = unquote(c.getColumnName()).toLowerCase(Locale.ROOT);
        if (name.isEmpty()) {
            return null;
        }
        if (jpql && c.getTable() != null && c.getTable().getFullyQualifiedName() != null) {
            String qualifier = c.getTable().getFullyQualifiedName();
            if (!qualifier.isEmpty()) {
                String[] parts = qualifier.split("\\.");
                if (parts.length > 1 && aliases.contains(unquote(parts[0]).toLowerCase(Locale.ROOT))) {
                    StringBuilder path = new StringBuilder();
                    for (int i = 1; i < parts.length; i++) {
                        path.append(unquote(parts[i]).toLowerCase(Locale.ROOT)).append('.');
                    }
                    return path.append(name).toString();
                }
            } else if (aliases.contains(name)) {
                return null; // "WHERE e = :entity": the entity itself
            }
        }
        return text.restore(name);
    }

    private String qualifier(Column c) {
        if (c.getTable() == null || c.getTable().getName() == null) {
            return "";
        }
        return unquote(c.getTable().getName()).toLowerCase(Locale.ROOT);
    }

    // ---- values and parameters ----------------------------------------------------------------

    private ValueKind valueKind(Expression e) {
        Expression v = unwrapParameterFunction(unwrap(e));
        if (v instanceof JdbcParameter || v instanceof JdbcNamedParameter) {
            return ValueKind.PARAMETER;
        }
        if (isLiteral(v) || isValueColumn(v)) {
            return ValueKind.LITERAL;
        }
        if (v instanceof Column) {
            return ValueKind.COLUMN;
        }
        if (v instanceof Select || v instanceof AnyComparisonExpression) {
            return ValueKind.SUBQUERY;
        }
        if (v instanceof ExpressionList<?> list && !list.isEmpty()) {
            boolean allParams = true;
            boolean allLiterals = true;
            for (Object o : list) {
                Expression item = unwrap((Expression) o);
                if (item instanceof Select) {
                    return ValueKind.SUBQUERY;
                }
                allParams &= item instanceof JdbcParameter || item instanceof JdbcNamedParameter;
                allLiterals &= isLiteral(item) || isValueColumn(item);
            }
            return allParams ? ValueKind.PARAMETER : allLiterals ? ValueKind.LITERAL : ValueKind.EXPRESSION;
        }
        return ValueKind.EXPRESSION;
    }

    private boolean isLiteral(Expression v) {
        return v instanceof StringValue || v instanceof LongValue || v instanceof DoubleValue
                || v instanceof NullValue || v instanceof BooleanValue || v instanceof DateValue
                || v instanceof TimeValue || v instanceof TimestampValue || v instanceof DateTimeLiteralExpression
                || v instanceof HexValue || v instanceof IntervalExpression
                || v instanceof SignedExpression s && isLiteral(unwrap(s.getExpression()));
    }

    /** Casts, a sign and single parentheses removed. */
    Expression unwrap(Expression e) {
        Expression x = e;
        for (int i = 0; i < maxDepth && x != null; i++) {
            if (x instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
                x = (Expression) list.get(0);
            } else if (x instanceof CastExpression cast && cast.getLeftExpression() != null) {
                x = cast.getLeftExpression();
            } else {
                break;
            }
        }
        return x;
    }

    /** {@code lower(?)}, {@code upper(:x)}, {@code trim(?)}: the parameter; else {@code e} itself. */
    private Expression unwrapParameterFunction(Expression e) {
        if (e instanceof Function f && f.getName() != null && f.getParameters() != null
                && f.getParameters().size() == 1 && PARAMETER_FUNCTIONS.contains(f.getName().toLowerCase(Locale.ROOT))) {
            Expression arg = unwrap((Expression) f.getParameters().get(0));
            if (arg instanceof JdbcParameter || arg instanceof JdbcNamedParameter) {
                return arg;
            }
        }
        return e;
    }

    private static Expression unwrapParens(Expression e) {
        Expression x = e;
        while (x instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
            x = (Expression) list.get(0);
        }
        return x;
    }

    private record ParamRef(int index, String name) {
        static final ParamRef NONE = new ParamRef(-1, null);
    }

    /** The single bind parameter {@code e} is (through casts, parentheses, a one-element list). */
    private ParamRef singleParam(Expression e) {
        Expression v = unwrapParameterFunction(unwrap(e));
        if (v instanceof ExpressionList<?> list && list.size() == 1) {
            v = unwrapParameterFunction(unwrap((Expression) list.get(0)));
        }
        if (v instanceof JdbcParameter p) {
            Integer idx = p.getIndex();
            if (idx == null) {
                return ParamRef.NONE;
            }
            if (p.isUseFixedIndex()) {
                return new ParamRef(idx - 1, null);
            }
            int position = tokens.positionOfJdbcOrdinal(idx);
            return new ParamRef(position >= 0 ? position : idx - 1, null);
        }
        if (v instanceof JdbcNamedParameter p) {
            return new ParamRef(-1, text.restore(p.getName()));
        }
        return ParamRef.NONE;
    }

    // ---- SET items ----------------------------------------------------------------------------

    private void setItems(List<UpdateSet> sets, Set<String> targetNames, Insert insert) {
        for (UpdateSet set : sets) {
            ExpressionList<Column> columns = set.getColumns();
            ExpressionList<?> values = set.getValues();
            if (columns == null) {
                continue;
            }
            for (int i = 0; i < columns.size(); i++) {
                String column = columnName(columns.get(i));
                if (column == null) {
                    continue;
                }
                Expression value = null;
                if (values != null && values.size() == columns.size()) {
                    value = (Expression) values.get(i);
                } else if (values != null && values.size() == 1 && columns.size() == 1) {
                    value = (Expression) values.get(0);
                }
                b.setItems.add(setItem(column, value, targetNames, insert));
            }
        }
    }

    private SetItem setItem(String column, Expression value, Set<String> targetNames, Insert insert) {
        if (value == null) {
            return new SetItem(column, SetKind.OTHER_EXPRESSION, -1, null);
        }
        Expression v = unwrapParameterFunction(unwrap(value));
        if (v instanceof JdbcParameter || v instanceof JdbcNamedParameter) {
            ParamRef p = singleParam(v);
            return new SetItem(column, SetKind.ABSOLUTE_PARAMETER, p.index, p.name);
        }
        if (isLiteral(v) || isValueColumn(v)) {
            return new SetItem(column, SetKind.ABSOLUTE_LITERAL, -1, null);
        }
        String inserted = insertedColumn(v);
        if (inserted != null) {
            Expression insertedValue = insert == null ? null : insertedValue(insert, inserted);
            Expression iv = insertedValue == null ? null : unwrap(insertedValue);
            if (iv != null && isLiteral(iv)) {
                return new SetItem(column, SetKind.ABSOLUTE_LITERAL, -1, null);
            }
            ParamRef p = iv == null ? ParamRef.NONE : singleParam(iv);
            return new SetItem(column, SetKind.ABSOLUTE_PARAMETER, p.index, p.name);
        }
        if (selfRelative(v, column, targetNames, 0)) {
            return new SetItem(column, SetKind.SELF_RELATIVE, -1, null);
        }
        return new SetItem(column, SetKind.OTHER_EXPRESSION, -1, null);
    }

    /** {@code EXCLUDED.col} (Postgres) or {@code VALUES(col)} (MySQL): the value being inserted. */
    private String insertedColumn(Expression v) {
        if (v instanceof Column c && qualifier(c).equals("excluded")) {
            return unquote(c.getColumnName()).toLowerCase(Locale.ROOT);
        }
        if (v instanceof Function f && "values".equalsIgnoreCase(f.getName()) && f.getParameters() != null
                && f.getParameters().size() == 1 && f.getParameters().get(0) instanceof Column c) {
            return unquote(c.getColumnName()).toLowerCase(Locale.ROOT);
        }
        return null;
    }

    private static Expression insertedValue(Insert insert, String column) {
        if (insert.getColumns() == null || !(insert.getSelect() instanceof Values values)) {
            return null;
        }
        ExpressionList<?> rows = values.getExpressions();
        if (rows == null || rows.isEmpty()) {
            return null;
        }
        List<?> row = rows;
        if (rows.size() == 1 && rows.get(0) instanceof ExpressionList<?> only) {
            row = only;
        } else if (rows.get(0) instanceof ParenthesedExpressionList<?> && rows.size() > 1
                && !(rows instanceof ParenthesedExpressionList<?>)) {
            return null; // several rows
        }
        for (int i = 0; i < insert.getColumns().size(); i++) {
            if (unquote(insert.getColumns().get(i).getColumnName()).equalsIgnoreCase(column)) {
                return i < row.size() ? (Expression) row.get(i) : null;
            }
        }
        return null;
    }

    private boolean selfRelative(Expression e, String column, Set<String> targetNames, int depth) {
        Expression v = unwrap(e);
        if (v == null || depth > maxDepth) {
            return false;
        }
        if (isArithmetic(v)) {
            return mentions(v, column, targetNames);
        }
        if (v instanceof CaseExpression c) {
            if (c.getElseExpression() != null && selfRelative(c.getElseExpression(), column, targetNames, depth + 1)) {
                return true;
            }
            for (WhenClause w : c.getWhenClauses()) {
                if (selfRelative(w.getThenExpression(), column, targetNames, depth + 1)) {
                    return true;
                }
            }
            return false;
        }
        if (v instanceof Function f && f.getName() != null && f.getParameters() != null) {
            if (NULL_ALTERNATIVES.contains(f.getName().toLowerCase(Locale.ROOT))) {
                for (Object arg : f.getParameters()) {
                    if (selfRelative((Expression) arg, column, targetNames, depth + 1)) {
                        return true;
                    }
                }
                return false;
            }
            return mentions(f.getParameters(), column, targetNames);
        }
        return false;
    }

    private static boolean isArithmetic(Expression v) {
        return v instanceof Addition || v instanceof Subtraction || v instanceof Multiplication
                || v instanceof Division || v instanceof IntegerDivision || v instanceof Modulo || v instanceof Concat
                || v instanceof BitwiseAnd || v instanceof BitwiseOr || v instanceof BitwiseXor;
    }

    /** Does {@code e} read the target's {@code column} (outside subqueries and VALUES())? */
    private boolean mentions(Expression e, String column, Set<String> targetNames) {
        for (Column c : Scan.of(e, true).columns) {
            String q = qualifier(c);
            if ((q.isEmpty() || targetNames.contains(q)) && column.equals(columnName(c))) {
                return true;
            }
        }
        return false;
    }

    // ---- select list --------------------------------------------------------------------------

    private Aggregate aggregate(PlainSelect ps) {
        List<SelectItem<?>> items = ps.getSelectItems();
        if (items == null || items.isEmpty()) {
            return Aggregate.NONE;
        }
        boolean allConstant = true;
        for (SelectItem<?> item : items) {
            Expression x = unwrap(item.getExpression());
            allConstant &= x instanceof LongValue || x instanceof StringValue || x instanceof BooleanValue
                    || x instanceof NullValue;
        }
        if (allConstant && ps.getFromItem() != null) {
            return Aggregate.EXISTS;
        }
        for (SelectItem<?> item : items) {
            Aggregate a = aggregateOf(item.getExpression(), 0);
            if (a != Aggregate.NONE) {
                return a;
            }
        }
        return Aggregate.NONE;
    }

    private Aggregate aggregateOf(Expression e, int depth) {
        Expression x = unwrap(e);
        if (x == null || depth > maxDepth) {
            return Aggregate.NONE;
        }
        if (x instanceof ExistsExpression) {
            return Aggregate.EXISTS;
        }
        if (x instanceof Function f && f.getName() != null) {
            String name = f.getName().toLowerCase(Locale.ROOT);
            if (name.equals("count") || name.equals("count_big")) {
                return Aggregate.COUNT;
            }
            if (name.equals("sum")) {
                return Aggregate.SUM;
            }
            if (OTHER_AGGREGATES.contains(name)) {
                return Aggregate.OTHER_AGGREGATE;
            }
            if (PASS_THROUGH.contains(name) && f.getParameters() != null) {
                for (Object arg : f.getParameters()) {
                    Aggregate a = aggregateOf((Expression) arg, depth + 1);
                    if (a != Aggregate.NONE) {
                        return a;
                    }
                }
            }
            return Aggregate.NONE;
        }
        if (x instanceof ComparisonOperator cmp) {
            Aggregate l = aggregateOf(cmp.getLeftExpression(), depth + 1);
            Aggregate r = aggregateOf(cmp.getRightExpression(), depth + 1);
            return l == Aggregate.COUNT || r == Aggregate.COUNT || l == Aggregate.EXISTS || r == Aggregate.EXISTS
                    ? Aggregate.EXISTS : Aggregate.NONE;
        }
        if (x instanceof CaseExpression c) {
            for (WhenClause w : c.getWhenClauses()) {
                Aggregate a = aggregateOf(w.getWhenExpression(), depth + 1);
                if (a == Aggregate.EXISTS) {
                    return Aggregate.EXISTS;
                }
            }
            for (WhenClause w : c.getWhenClauses()) {
                Aggregate a = aggregateOf(w.getThenExpression(), depth + 1);
                if (a != Aggregate.NONE) {
                    return a;
                }
            }
            return aggregateOf(c.getElseExpression(), depth + 1);
        }
        if (x instanceof BinaryExpression bin && isArithmetic(bin)) {
            Aggregate a = aggregateOf(bin.getLeftExpression(), depth + 1);
            return a != Aggregate.NONE ? a : aggregateOf(bin.getRightExpression(), depth + 1);
        }
        if (x instanceof ParenthesedSelect ps && ps.getSelect() instanceof PlainSelect inner) {
            return aggregate(inner);
        }
        return Aggregate.NONE;
    }

    private void selectedColumns(PlainSelect ps) {
        if (ps.getSelectItems() == null) {
            return;
        }
        for (SelectItem<?> item : ps.getSelectItems()) {
            Expression x = item.getExpression();
            if (x instanceof AllColumns || x instanceof AllTableColumns) {
                b.addSelected("*");
            } else if (x instanceof Column c && (c.getTable() == null || c.getTable().getName() == null)
                    && aliases.contains(unquote(c.getColumnName()).toLowerCase(Locale.ROOT))) {
                b.addSelected("*"); // "SELECT e FROM Entity e"
            } else if (x instanceof Column c) {
                b.addSelected(columnName(c));
            } else if (x != null) {
                for (Column c : Scan.of(x, false).columns) {
                    if (!isValueColumn(c)) {
                        String name = columnName(c);
                        if (name != null && !aliases.contains(name)) {
                            b.addSelected(name);
                        }
                    }
                }
            }
        }
    }

    // ---- expression scan ----------------------------------------------------------------------

    /** Columns and subqueries of an expression; subqueries are recorded, not entered. */
    private static final class Scan extends ExpressionVisitorAdapter<Void> {
        final List<Column> columns = new ArrayList<>();
        final List<Select> selects = new ArrayList<>();
        private final boolean skipValuesFunction;

        private Scan(boolean skipValuesFunction) {
            this.skipValuesFunction = skipValuesFunction;
        }

        static Scan of(Expression e, boolean skipValuesFunction) {
            Scan scan = new Scan(skipValuesFunction);
            if (e != null) {
                e.accept(scan, null);
            }
            return scan;
        }

        @Override
        public <S> Void visit(Column column, S context) {
            columns.add(column);
            return null;
        }

        @Override
        public <S> Void visit(ParenthesedSelect select, S context) {
            selects.add(select);
            return null;
        }

        @Override
        public <S> Void visit(Select select, S context) {
            selects.add(select);
            return null;
        }

        @Override
        public <S> Void visit(Function function, S context) {
            if (skipValuesFunction && "values".equalsIgnoreCase(function.getName())) {
                return null;
            }
            return super.visit(function, context);
        }
    }
}
