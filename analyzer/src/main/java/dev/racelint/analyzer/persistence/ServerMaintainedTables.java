package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tables whose rows the program itself keeps up to date from stored state, found from what the
 * writes compute, never from names:
 * <ul>
 *   <li>a relative UPDATE ({@code SET stock = stock - ?}): a counter or balance the server moves;</li>
 *   <li>a write whose value comes from a SUM or COUNT read ({@code supplier.setAdvanceIn(sum(...))}):
 *       a total the server derives, written into one table from the rows of another.</li>
 * </ul>
 * A client that PUTs a stale copy of such a row writes the old counter or total back; a stale copy of
 * the rows a stored total is summed from changes that total behind the back of whoever approved it.
 */
public final class ServerMaintainedTables {

    /**
     * How the server keeps a table: the write that does it, whether it writes the table or sums it, and
     * for a total put into the written object with a call of its own, the methods called with the total
     * ({@code setAdvanceIn}; empty when the statement itself computes it).
     */
    public record Upkeep(DbOp write, MethodInfo in, Kind kind, String sourceTable, java.util.Set<String> keptBy) {
        public enum Kind {
            /** the write moves a stored value relatively ({@code col = col + ?}) */
            RELATIVE,
            /** the write stores a total read from the database */
            DERIVED,
            /** the table's rows are summed into a total another write stores ({@link #write} is that write) */
            SUMMED
        }
    }

    private final Map<String, List<Upkeep>> byTable = new LinkedHashMap<>();

    private ServerMaintainedTables() {}

    static ServerMaintainedTables of(PersistenceModel persistence) {
        ServerMaintainedTables out = new ServerMaintainedTables();
        for (MethodInfo method : persistence.index().methods()) {
            List<DbOp> direct = persistence.directOps(method);
            if (direct.stream().noneMatch(op -> op.kind() == DbOp.Kind.UPDATE || op.kind() == DbOp.Kind.SAVE)) {
                continue;
            }
            MethodFlow flow = null;
            for (DbOp op : direct) {
                if (op.table().isEmpty() || (op.kind() != DbOp.Kind.UPDATE && op.kind() != DbOp.Kind.SAVE)) {
                    continue;
                }
                if (op.kind() == DbOp.Kind.UPDATE && op.selfRelative()) {
                    out.add(op.table(), new Upkeep(op, method, Upkeep.Kind.RELATIVE, op.table(), java.util.Set.of()));
                    continue;
                }
                if (flow == null) {
                    flow = persistence.flow(method).orElse(null);
                    if (flow == null) {
                        break;
                    }
                }
                java.util.Set<String> keptBy = new java.util.TreeSet<>();
                for (DbOp total : totalsWritten(op, method, flow, keptBy)) {
                    out.add(op.table(), new Upkeep(op, method, Upkeep.Kind.DERIVED, total.table(), keptBy));
                    if (!total.table().isEmpty() && !total.table().equalsIgnoreCase(op.table())) {
                        out.add(total.table(), new Upkeep(op, method, Upkeep.Kind.SUMMED, total.table(), keptBy));
                    }
                }
            }
        }
        return out;
    }

    private void add(String table, Upkeep upkeep) {
        byTable.computeIfAbsent(table.toLowerCase(java.util.Locale.ROOT), k -> new ArrayList<>()).add(upkeep);
    }

    /** How the server keeps {@code table}, in index order (empty when it does not). */
    public List<Upkeep> upkeep(String table) {
        if (table == null || table.isEmpty()) {
            return List.of();
        }
        return byTable.getOrDefault(table.toLowerCase(java.util.Locale.ROOT), List.of());
    }

    /**
     * The SUM/COUNT reads whose results the write stores: directly in a written value, or put into the
     * written object with a call of its own ({@code row.setTotal(sum)}) in the same method.
     */
    private static List<DbOp> totalsWritten(DbOp op, MethodInfo method, MethodFlow flow, java.util.Set<String> keptBy) {
        List<Expression> values = op.kind() == DbOp.Kind.UPDATE ? WrittenValues.of(op) : op.call().getArguments();
        List<DbOp> out = new ArrayList<>();
        for (Expression value : values) {
            totals(flow.reaching(value), out);
            if (value instanceof NameExpr name && method.body() != null) {
                Node declaration = LocalVariables.declarationOf(name.getNameAsString(), name);
                if (declaration == null) {
                    continue;
                }
                for (MethodCallExpr call : method.body().findAll(MethodCallExpr.class)) {
                    if (call.getScope().orElse(null) instanceof NameExpr scope
                            && LocalVariables.declarationOf(scope.getNameAsString(), scope) == declaration) {
                        for (Expression a : call.getArguments()) {
                            if (totals(flow.reaching(a), out)) {
                                keptBy.add(call.getNameAsString());
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    private static boolean totals(java.util.Set<DbOp> reaching, List<DbOp> out) {
        boolean any = false;
        for (DbOp read : reaching) {
            if (read.kind() == DbOp.Kind.READ && (read.shape() == DbOp.ReadShape.AGGREGATE
                    || read.shape() == DbOp.ReadShape.COUNT)) {
                any = true;
                if (!out.contains(read)) {
                    out.add(read);
                }
            }
        }
        return any;
    }
}
