package dev.racelint.analyzer.sql;

import dev.racelint.analyzer.sql.SqlStatement.Aggregate;
import dev.racelint.analyzer.sql.SqlStatement.Kind;
import dev.racelint.analyzer.sql.SqlStatement.Lock;
import dev.racelint.analyzer.sql.SqlStatement.Parameter;
import dev.racelint.analyzer.sql.SqlStatement.SetItem;
import dev.racelint.analyzer.sql.SqlStatement.SetKind;
import dev.racelint.analyzer.sql.SqlStatement.ValueKind;
import dev.racelint.analyzer.sql.SqlStatement.WhereColumn;
import dev.racelint.analyzer.sql.SqlTokens.Token;
import dev.racelint.analyzer.sql.SqlTokens.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The weaker model for text JSqlParser rejects (vendor syntax, JPQL it does not know, fragments):
 * reads the same facts from the token stream with keyword patterns.
 */
final class TokenExtractor {

    private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", "<=", ">", ">=", "^=");
    private static final Set<String> ARITHMETIC = Set.of("+", "-", "*", "/", "%", "||", "&", "|", "^");
    private static final Set<String> NOT_ALIAS = Set.of("WHERE", "JOIN", "LEFT", "RIGHT", "INNER", "OUTER",
            "FULL", "CROSS", "ON", "SET", "GROUP", "ORDER", "LIMIT", "FOR", "USING", "VALUES", "SELECT", "UNION",
            "RETURNING", "NATURAL", "WHEN", "HAVING", "OFFSET", "FETCH", "WITH", "LOCK", "WINDOW", "DEFAULT",
            "OUTPUT", "INTERSECT", "EXCEPT", "MINUS", "STRAIGHT_JOIN", "LATERAL", "AND", "OR", "NOT", "THEN",
            "ELSE", "END", "DO", "OVERRIDING", "PARTITION", "TABLESAMPLE", "AS", "INTO", "FROM", "UPDATE");
    private static final Set<String> WHERE_END = Set.of("GROUP", "ORDER", "LIMIT", "OFFSET", "FETCH", "FOR",
            "RETURNING", "HAVING", "UNION", "INTERSECT", "EXCEPT", "MINUS", "WINDOW", "LOCK", "ON", "WHEN",
            "OPTION", "OUTPUT");
    private static final Set<String> SET_END = Set.of("WHERE", "FROM", "RETURNING", "ORDER", "LIMIT", "WHEN",
            "OUTPUT", "ON");
    private static final Set<String> CONDITION_WORDS = Set.of("WHERE", "AND", "OR", "NOT", "XOR", "ON", "HAVING");
    private static final Set<String> STATEMENT_WORDS = Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "MERGE",
            "UPSERT", "REPLACE");
    private static final Set<String> NULL_ALTERNATIVES = Set.of("COALESCE", "IFNULL", "NVL", "ISNULL", "NULLIF");

    private final StatementBuilder b;
    private final List<Token> ts;
    private final SqlText.Normalized text;
    private final Set<String> aliases = new HashSet<>();
    private final Set<String> cteNames = new HashSet<>();
    private final Set<String> targetNames = new HashSet<>();
    /** Per token: is it inside a parenthesised subquery (a group that starts with SELECT)? */
    private boolean[] inSubquery;

    private TokenExtractor(StatementBuilder b, SqlTokens tokens, SqlText.Normalized text) {
        this.b = b;
        this.ts = tokens.tokens();
        this.text = text;
    }

    static void extract(StatementBuilder b, SqlTokens tokens, SqlText.Normalized text) {
        new TokenExtractor(b, tokens, text).run();
    }

    private void run() {
        if (ts.isEmpty()) {
            return;
        }
        markSubqueries();
        int main = mainKeyword();
        if (main < 0) {
            tables(0, ts.size());
            return;
        }
        Token head = ts.get(main);
        switch (head.upper()) {
            case "SELECT", "FROM" -> b.kind = Kind.SELECT;
            case "INSERT", "UPSERT", "REPLACE" -> b.kind = Kind.INSERT;
            case "UPDATE" -> b.kind = Kind.UPDATE;
            case "DELETE" -> b.kind = Kind.DELETE;
            case "MERGE" -> b.kind = Kind.MERGE;
            default -> b.kind = Kind.OTHER;
        }
        int depth = head.depth();
        target(main);
        tables(main, ts.size());
        tables(0, main); // bodies of WITH queries
        where(main, depth);
        setItems(main, depth);
        flags(main, depth);
        if (b.kind == Kind.SELECT) {
            selectList(main, depth);
        }
    }

    // ---- structure ----------------------------------------------------------------------------

    private void markSubqueries() {
        inSubquery = new boolean[ts.size()];
        List<Boolean> stack = new ArrayList<>();
        for (int i = 0; i < ts.size(); i++) {
            Token t = ts.get(i);
            if (t.type() == Type.RPAREN && !stack.isEmpty()) {
                stack.remove(stack.size() - 1);
            }
            inSubquery[i] = stack.contains(Boolean.TRUE);
            if (t.type() == Type.LPAREN) {
                boolean sub = i + 1 < ts.size() && (ts.get(i + 1).is("SELECT") || ts.get(i + 1).is("WITH"));
                stack.add(sub);
            }
        }
    }

    /** Index of the statement keyword, skipping a WITH clause; -1 when none. */
    private int mainKeyword() {
        int i = 0;
        while (i < ts.size() && ts.get(i).type() == Type.LPAREN) {
            i++;
        }
        if (i >= ts.size()) {
            return -1;
        }
        if (ts.get(i).is("WITH")) {
            int base = ts.get(i).depth();
            for (int j = i + 1; j < ts.size(); j++) {
                Token t = ts.get(j);
                if (t.depth() != base) {
                    continue;
                }
                if (t.isName() && j + 1 < ts.size() && ts.get(j + 1).is("AS")) {
                    cteNames.add(lastName(t));
                } else if (t.type() == Type.WORD && STATEMENT_WORDS.contains(t.upper())) {
                    return j;
                }
            }
            return -1;
        }
        Token t = ts.get(i);
        if (t.type() == Type.WORD && (STATEMENT_WORDS.contains(t.upper()) || t.is("FROM"))) {
            return i;
        }
        return -1;
    }

    /** A dotted name starting at {@code i}: its parts and the index after it; null when none. */
    private record Name(List<String> parts, int end) {
        String last() {
            return parts.get(parts.size() - 1);
        }
    }

    private Name nameAt(int i) {
        if (i >= ts.size() || !ts.get(i).isName()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        parts.add(lastName(ts.get(i)));
        int j = i + 1;
        while (j + 1 < ts.size() && ts.get(j).type() == Type.DOT && (ts.get(j + 1).isName()
                || ts.get(j + 1).isOp("*"))) {
            parts.add(ts.get(j + 1).isOp("*") ? "*" : lastName(ts.get(j + 1)));
            j += 2;
        }
        return new Name(parts, j);
    }

    private String lastName(Token t) {
        return text.restore(t.text().toLowerCase(Locale.ROOT));
    }

    private void target(int main) {
        Token head = ts.get(main);
        int i = main + 1;
        switch (head.upper()) {
            case "INSERT", "UPSERT", "REPLACE" -> {
                while (i < ts.size() && !ts.get(i).is("INTO") && ts.get(i).type() == Type.WORD
                        && !ts.get(i).is("VALUES") && !ts.get(i).is("SELECT")) {
                    i++;
                }
                if (i < ts.size() && ts.get(i).is("INTO")) {
                    i++;
                }
            }
            case "UPDATE" -> {
                while (i < ts.size() && (ts.get(i).is("ONLY") || ts.get(i).is("LOW_PRIORITY")
                        || ts.get(i).is("IGNORE"))) {
                    i++;
                }
            }
            case "DELETE" -> {
                while (i < ts.size() && (ts.get(i).is("LOW_PRIORITY") || ts.get(i).is("QUICK")
                        || ts.get(i).is("IGNORE"))) {
                    i++;
                }
                if (i < ts.size() && ts.get(i).is("FROM")) {
                    i++;
                }
                if (i < ts.size() && ts.get(i).is("ONLY")) {
                    i++;
                }
            }
            case "MERGE" -> {
                if (i < ts.size() && ts.get(i).is("INTO")) {
                    i++;
                }
            }
            default -> {
                return;
            }
        }
        Name name = nameAt(i);
        if (name != null && !name.last().equals("*")) {
            b.targetTable = name.last();
            b.addTable(name.last());
            targetNames.add(name.last());
            int next = name.end();
            if (next < ts.size() && ts.get(next).is("AS")) {
                next++;
            }
            if (next < ts.size() && ts.get(next).type() == Type.WORD && !NOT_ALIAS.contains(ts.get(next).upper())) {
                targetNames.add(ts.get(next).text().toLowerCase(Locale.ROOT));
                aliases.add(ts.get(next).text().toLowerCase(Locale.ROOT));
            }
        }
    }

    private void tables(int from, int to) {
        for (int i = Math.max(0, from); i < to; i++) {
            Token t = ts.get(i);
            boolean intro = t.is("FROM") || t.is("JOIN") || t.is("INTO") || t.is("USING") || t.is("UPDATE");
            if (!intro || !tableContext(i) || notATable(i)) {
                continue;
            }
            int j = i + 1;
            while (j < ts.size() && (ts.get(j).is("ONLY") || ts.get(j).is("LATERAL") || ts.get(j).is("LOW_PRIORITY")
                    || ts.get(j).is("IGNORE") || ts.get(j).is("QUICK"))) {
                j++;
            }
            while (true) {
                Name name = nameAt(j);
                if (name == null || name.end() < ts.size() && ts.get(name.end()).type() == Type.LPAREN) {
                    break;
                }
                if (b.jpql && name.parts().size() > 1 && aliases.contains(name.parts().get(0))) {
                    j = afterAlias(name.end());
                } else {
                    String table = name.last();
                    if (!cteNames.contains(table)) {
                        b.addTable(table);
                        aliases.add(table);
                    }
                    j = afterAlias(name.end());
                }
                if (j < ts.size() && ts.get(j).type() == Type.COMMA && t.is("FROM")) {
                    j++;
                    continue;
                }
                break;
            }
        }
    }

    /** {@code FOR UPDATE}, {@code DO UPDATE}, {@code IS DISTINCT FROM} ... */
    private boolean notATable(int i) {
        Token prev = i > 0 ? ts.get(i - 1) : null;
        if (prev == null) {
            return false;
        }
        if (ts.get(i).is("UPDATE")) {
            return prev.is("FOR") || prev.is("KEY") || prev.is("DO") || prev.is("THEN") || prev.is("NO");
        }
        if (ts.get(i).is("FROM") && prev.is("DISTINCT")) {
            return i > 1 && (ts.get(i - 2).is("IS") || ts.get(i - 2).is("NOT"));
        }
        return false;
    }

    /** FROM inside {@code EXTRACT(.. FROM ..)} or {@code SUBSTRING(.. FROM ..)} is not a table. */
    private boolean tableContext(int i) {
        Token t = ts.get(i);
        if (t.depth() == 0 || inSubquery[i]) {
            return true;
        }
        for (int j = i - 1; j >= 0; j--) {
            if (ts.get(j).type() == Type.LPAREN && ts.get(j).depth() == t.depth() - 1) {
                return j + 1 < ts.size() && (ts.get(j + 1).is("SELECT") || ts.get(j + 1).is("WITH"))
                        || j > 0 && ts.get(j - 1).is("AS");
            }
        }
        return false;
    }

    private int afterAlias(int i) {
        int j = i;
        if (j < ts.size() && ts.get(j).is("AS")) {
            j++;
        }
        if (j < ts.size() && ts.get(j).isName() && !NOT_ALIAS.contains(ts.get(j).upper())) {
            aliases.add(ts.get(j).text().toLowerCase(Locale.ROOT));
            j++;
        }
        return j;
    }

    // ---- WHERE --------------------------------------------------------------------------------

    private void where(int main, int depth) {
        int start = -1;
        for (int i = main; i < ts.size(); i++) {
            Token t = ts.get(i);
            if (t.depth() == depth && t.is("WHERE")) {
                start = i;
                break;
            }
        }
        if (start < 0) {
            return;
        }
        b.where = true;
        int end = ts.size();
        for (int i = start + 1; i < ts.size(); i++) {
            Token t = ts.get(i);
            if (t.depth() < depth || t.depth() == depth && (t.type() == Type.SEMI
                    || t.type() == Type.WORD && WHERE_END.contains(t.upper()))) {
                end = i;
                break;
            }
        }
        boolean[] visible = visibility(start, end, depth);
        for (int i = start + 1; i < end; i++) {
            if (!visible[i - start]) {
                continue;
            }
            Token t = ts.get(i);
            if (t.type() == Type.PARAM && i + 2 < end && ts.get(i + 1).type() == Type.OP
                    && COMPARISONS.contains(ts.get(i + 1).text())) {
                Name name = nameAt(i + 2);
                if (name != null && !(name.end() < ts.size() && ts.get(name.end()).type() == Type.LPAREN)) {
                    addWhere(column(name), flip(normalizeOp(ts.get(i + 1).text())), ValueKind.PARAMETER,
                            t.param());
                    i = name.end() - 1;
                }
                continue;
            }
            if (!t.isName() || isKeyword(t) || i > start + 1 && ts.get(i - 1).type() == Type.DOT) {
                continue;
            }
            Name name = nameAt(i);
            if (name == null) {
                continue;
            }
            int k = name.end();
            if (k >= end || ts.get(k).type() == Type.LPAREN) {
                continue;
            }
            String column = column(name);
            Token op = ts.get(k);
            if (op.type() == Type.OP && COMPARISONS.contains(op.text())) {
                comparison(column, normalizeOp(op.text()), k + 1, end);
                i = k;
            } else if (op.is("NOT") && k + 1 < end) {
                Token next = ts.get(k + 1);
                if (next.is("IN")) {
                    in(column, "NOT IN", k + 2, end);
                } else if (next.is("LIKE") || next.is("ILIKE")) {
                    addValue(column, "NOT LIKE", k + 2, end);
                } else if (next.is("BETWEEN")) {
                    addValue(column, "BETWEEN", k + 2, end);
                }
            } else if (op.is("IN")) {
                in(column, "IN", k + 1, end);
            } else if (op.is("LIKE") || op.is("ILIKE")) {
                addValue(column, "LIKE", k + 1, end);
            } else if (op.is("BETWEEN")) {
                addValue(column, "BETWEEN", k + 1, end);
            } else if (op.is("IS")) {
                boolean not = k + 1 < end && ts.get(k + 1).is("NOT");
                int n = not ? k + 2 : k + 1;
                if (n < end && ts.get(n).is("NULL")) {
                    addWhere(column, not ? "IS NOT NULL" : "IS NULL", ValueKind.LITERAL, null);
                }
            }
        }
    }

    /** Per token of (start, end): outside subqueries and function calls (AND/OR groups are seen through). */
    private boolean[] visibility(int start, int end, int depth) {
        boolean[] visible = new boolean[end - start + 1];
        List<Boolean> stack = new ArrayList<>();
        for (int i = start + 1; i < end; i++) {
            Token t = ts.get(i);
            if (t.type() == Type.RPAREN && !stack.isEmpty()) {
                stack.remove(stack.size() - 1);
                continue;
            }
            boolean open = !stack.contains(Boolean.FALSE);
            visible[i - start] = open;
            if (t.type() == Type.LPAREN) {
                Token prev = ts.get(i - 1);
                boolean transparent = open && (prev.type() == Type.LPAREN
                        || prev.type() == Type.WORD && CONDITION_WORDS.contains(prev.upper()))
                        && !(i + 1 < end && (ts.get(i + 1).is("SELECT") || ts.get(i + 1).is("WITH")));
                stack.add(transparent);
            }
        }
        return visible;
    }

    private void comparison(String column, String op, int v, int end) {
        if (v >= end) {
            return;
        }
        Token t = ts.get(v);
        if ((t.is("ANY") || t.is("SOME") || t.is("ALL")) && v + 1 < end && ts.get(v + 1).type() == Type.LPAREN) {
            String anyOp = t.is("ALL") ? "ALL" : "ANY";
            Token inner = v + 2 < end ? ts.get(v + 2) : null;
            if (inner != null && (inner.is("SELECT") || inner.is("WITH"))) {
                addWhere(column, anyOp, ValueKind.SUBQUERY, null);
            } else if (inner != null && inner.type() == Type.PARAM && v + 3 < ts.size()
                    && (ts.get(v + 3).type() == Type.RPAREN || ts.get(v + 3).isOp("::"))) {
                addWhere(column, anyOp, ValueKind.PARAMETER, inner.param());
            } else {
                addWhere(column, anyOp, ValueKind.EXPRESSION, null);
            }
            return;
        }
        addValue(column, op, v, end);
    }

    private void addValue(String column, String op, int v, int end) {
        if (v >= end) {
            return;
        }
        Token t = ts.get(v);
        if (t.type() == Type.PARAM) {
            addWhere(column, op, ValueKind.PARAMETER, t.param());
        } else if (isLiteral(v)) {
            addWhere(column, op, ValueKind.LITERAL, null);
        } else if (t.type() == Type.LPAREN && v + 1 < end && (ts.get(v + 1).is("SELECT") || ts.get(v + 1).is("WITH"))) {
            addWhere(column, op, ValueKind.SUBQUERY, null);
        } else if (t.isName() && !isKeyword(t)) {
            Name name = nameAt(v);
            boolean call = name != null && name.end() < ts.size() && ts.get(name.end()).type() == Type.LPAREN;
            boolean constant = name != null && (name.last().startsWith(SqlText.DOLLAR_PREFIX)
                    || name.last().startsWith("${")
                    || b.jpql && name.parts().size() > 1 && !aliases.contains(name.parts().get(0)));
            addWhere(column, op, call ? ValueKind.EXPRESSION : constant ? ValueKind.LITERAL : ValueKind.COLUMN, null);
        } else {
            addWhere(column, op, ValueKind.EXPRESSION, null);
        }
    }

    private void in(String column, String op, int v, int end) {
        if (v >= end) {
            return;
        }
        Token t = ts.get(v);
        if (t.type() == Type.PARAM) {
            addWhere(column, op, ValueKind.PARAMETER, t.param());
            return;
        }
        if (t.type() != Type.LPAREN) {
            addWhere(column, op, ValueKind.EXPRESSION, null);
            return;
        }
        if (v + 1 < end && (ts.get(v + 1).is("SELECT") || ts.get(v + 1).is("WITH"))) {
            addWhere(column, op, ValueKind.SUBQUERY, null);
            return;
        }
        boolean allParams = true;
        boolean allLiterals = true;
        List<Parameter> params = new ArrayList<>();
        int depth = t.depth();
        for (int i = v + 1; i < ts.size(); i++) {
            Token x = ts.get(i);
            if (x.type() == Type.RPAREN && x.depth() == depth) {
                break;
            }
            if (x.type() == Type.COMMA && x.depth() == depth + 1) {
                continue;
            }
            if (x.type() == Type.PARAM) {
                params.add(x.param());
                allLiterals = false;
            } else if (isLiteral(i)) {
                allParams = false;
            } else if (!x.isOp("-")) {
                allParams = false;
                allLiterals = false;
            }
        }
        ValueKind kind = allParams && !params.isEmpty() ? ValueKind.PARAMETER
                : allLiterals ? ValueKind.LITERAL : ValueKind.EXPRESSION;
        addWhere(column, op, kind, params.size() == 1 ? params.get(0) : null);
    }

    private void addWhere(String column, String op, ValueKind kind, Parameter p) {
        int index = -1;
        String name = null;
        if (p != null && kind == ValueKind.PARAMETER) {
            if (p.name() != null) {
                name = text.restore(p.name());
            } else {
                index = p.number() > 0 ? p.number() - 1 : p.position();
            }
        }
        b.whereColumns.add(new WhereColumn(column, op, kind, index, name));
    }

    private boolean isLiteral(int i) {
        Token t = ts.get(i);
        if (t.type() == Type.STRING || t.type() == Type.NUMBER) {
            return true;
        }
        if (t.is("NULL") || t.is("TRUE") || t.is("FALSE") || t.is("CURRENT_DATE")) {
            return true;
        }
        return t.isOp("-") && i + 1 < ts.size() && ts.get(i + 1).type() == Type.NUMBER;
    }

    private static boolean isKeyword(Token t) {
        return t.type() == Type.WORD && (CONDITION_WORDS.contains(t.upper()) || t.is("EXISTS") || t.is("NULL")
                || t.is("TRUE") || t.is("FALSE") || t.is("IN") || t.is("IS") || t.is("LIKE") || t.is("BETWEEN")
                || t.is("CASE") || t.is("WHEN") || t.is("THEN") || t.is("ELSE") || t.is("END") || t.is("SELECT"));
    }

    private static String normalizeOp(String op) {
        return op.equals("!=") || op.equals("^=") ? "<>" : op;
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

    /** Column name of a dotted name: the path after a JPQL alias, else the last part. */
    private String column(Name name) {
        List<String> parts = name.parts();
        if (b.jpql && parts.size() > 1 && aliases.contains(parts.get(0))) {
            return String.join(".", parts.subList(1, parts.size()));
        }
        return name.last();
    }

    // ---- SET ----------------------------------------------------------------------------------

    private void setItems(int main, int depth) {
        for (int i = main; i < ts.size(); i++) {
            Token t = ts.get(i);
            if (t.depth() != depth) {
                continue;
            }
            boolean updateSet = t.is("SET") && (b.kind == Kind.UPDATE || i > 0 && ts.get(i - 1).is("UPDATE"));
            boolean duplicateKey = t.is("UPDATE") && i >= 3 && ts.get(i - 1).is("KEY")
                    && ts.get(i - 2).is("DUPLICATE");
            if (updateSet || duplicateKey) {
                i = setList(i + 1, depth);
            }
        }
    }

    /** Reads {@code col = expr, ...} from {@code start}; returns the index where it ends. */
    private int setList(int start, int depth) {
        int i = start;
        while (i < ts.size()) {
            int itemEnd = i;
            while (itemEnd < ts.size()) {
                Token t = ts.get(itemEnd);
                if (t.depth() < depth || t.depth() == depth && (t.type() == Type.COMMA || t.type() == Type.SEMI
                        || t.type() == Type.WORD && SET_END.contains(t.upper()))) {
                    break;
                }
                itemEnd++;
            }
            setItem(i, itemEnd);
            if (itemEnd < ts.size() && ts.get(itemEnd).type() == Type.COMMA && ts.get(itemEnd).depth() == depth) {
                i = itemEnd + 1;
            } else {
                return itemEnd;
            }
        }
        return i;
    }

    private void setItem(int start, int end) {
        Name name = nameAt(start);
        if (name == null || name.end() >= end || !ts.get(name.end()).isOp("=")) {
            return;
        }
        String column = column(name);
        int v = name.end() + 1;
        int valueEnd = end;
        // strip a trailing cast: ?::int
        for (int i = v; i < end; i++) {
            if (ts.get(i).isOp("::") && ts.get(i).depth() == ts.get(v).depth()) {
                valueEnd = i;
                break;
            }
        }
        int length = valueEnd - v;
        if (length <= 0) {
            return;
        }
        Token first = ts.get(v);
        if (length == 1 && first.type() == Type.PARAM) {
            Parameter p = first.param();
            int index = p.name() == null ? (p.number() > 0 ? p.number() - 1 : p.position()) : -1;
            b.setItems.add(new SetItem(column, SetKind.ABSOLUTE_PARAMETER, index,
                    p.name() == null ? null : text.restore(p.name())));
            return;
        }
        if (length == 1 && isLiteral(v) || length == 2 && first.isOp("-") && isLiteral(v)) {
            b.setItems.add(new SetItem(column, SetKind.ABSOLUTE_LITERAL, -1, null));
            return;
        }
        if (first.is("EXCLUDED") && length == 3 || first.is("VALUES") && length == 4) {
            b.setItems.add(new SetItem(column, SetKind.ABSOLUTE_PARAMETER, -1, null));
            return;
        }
        boolean mentions = false;
        boolean arithmetic = false;
        boolean call = false;
        for (int i = v; i < valueEnd; i++) {
            if (inSubquery[i] && !inSubquery[v]) {
                continue;
            }
            Token t = ts.get(i);
            if (t.type() == Type.OP && ARITHMETIC.contains(t.text())) {
                arithmetic = true;
            }
            if (t.isName() && !(i > v && ts.get(i - 1).type() == Type.DOT)) {
                Name n = nameAt(i);
                if (n == null) {
                    continue;
                }
                boolean isCall = n.end() < ts.size() && ts.get(n.end()).type() == Type.LPAREN;
                if (isCall && t.is("VALUES")) {
                    i = closingParen(n.end()); // VALUES(col): the inserted value, not the stored one
                    continue;
                }
                if (isCall) {
                    call |= !NULL_ALTERNATIVES.contains(t.upper());
                } else {
                    String qualifier = n.parts().size() > 1 ? n.parts().get(n.parts().size() - 2) : "";
                    if (n.last().equals(name.last()) && (qualifier.isEmpty() || targetNames.contains(qualifier)
                            || b.jpql && aliases.contains(qualifier))) {
                        mentions = true;
                    }
                }
                i = n.end() - 1;
            }
        }
        SetKind kind = mentions && (arithmetic || call) ? SetKind.SELF_RELATIVE : SetKind.OTHER_EXPRESSION;
        b.setItems.add(new SetItem(column, kind, -1, null));
    }

    /** Index of the parenthesis closing the one at {@code open} (or the last token). */
    private int closingParen(int open) {
        int depth = ts.get(open).depth();
        for (int i = open + 1; i < ts.size(); i++) {
            if (ts.get(i).type() == Type.RPAREN && ts.get(i).depth() == depth) {
                return i;
            }
        }
        return ts.size() - 1;
    }

    // ---- flags --------------------------------------------------------------------------------

    private void flags(int main, int depth) {
        for (int i = main; i < ts.size(); i++) {
            Token t = ts.get(i);
            if (t.depth() != depth || t.type() != Type.WORD) {
                continue;
            }
            Token next = i + 1 < ts.size() ? ts.get(i + 1) : null;
            Token next2 = i + 2 < ts.size() ? ts.get(i + 2) : null;
            switch (t.upper()) {
                case "FOR" -> {
                    if (next != null && next.is("UPDATE")) {
                        b.lock = Lock.FOR_UPDATE;
                    } else if (next != null && next.is("SHARE")) {
                        b.lock = Lock.FOR_SHARE;
                    } else if (next != null && next.is("NO") && next2 != null && next2.is("KEY")) {
                        b.lock = Lock.FOR_NO_KEY_UPDATE;
                    } else if (next != null && next.is("KEY") && next2 != null && next2.is("SHARE")) {
                        b.lock = Lock.FOR_KEY_SHARE;
                    }
                }
                case "SKIP" -> b.skipLocked |= next != null && next.is("LOCKED");
                case "NOWAIT" -> b.nowait = true;
                case "ORDER" -> b.orderBy |= next != null && next.is("BY");
                case "LIMIT", "TOP" -> b.limit = true;
                case "FETCH" -> b.limit |= next != null && (next.is("FIRST") || next.is("NEXT"));
                case "RETURNING" -> b.returning = true;
                case "OUTPUT" -> b.returning |= b.kind != Kind.SELECT;
                case "ON" -> {
                    if (next != null && next.is("CONFLICT")) {
                        b.upsert = true;
                        for (int j = i + 2; j + 1 < ts.size(); j++) {
                            if (ts.get(j).depth() == depth && ts.get(j).is("DO")) {
                                b.conflictDoNothing = ts.get(j + 1).is("NOTHING");
                                break;
                            }
                        }
                    } else if (next != null && next.is("DUPLICATE")) {
                        b.upsert = true;
                    }
                }
                case "IGNORE" -> {
                    if (b.kind == Kind.INSERT && i > 0 && (ts.get(i - 1).is("INSERT") || ts.get(i - 1).is("OR"))) {
                        b.upsert = true;
                        b.conflictDoNothing = true;
                    }
                }
                case "REPLACE", "UPSERT" -> b.upsert |= i == main;
                case "MERGE" -> b.upsert = true;
                default -> { }
            }
        }
        // SQL Server table hints: WITH (UPDLOCK) / WITH (XLOCK) / WITH (HOLDLOCK)
        for (int i = 0; i + 1 < ts.size(); i++) {
            Token t = ts.get(i);
            if (t.is("UPDLOCK") || t.is("XLOCK")) {
                b.lock = Lock.FOR_UPDATE;
            } else if (t.is("HOLDLOCK") && b.lock == Lock.NONE) {
                b.lock = Lock.FOR_SHARE;
            }
        }
        if (b.kind == Kind.INSERT) {
            for (int i = main; i + 1 < ts.size(); i++) {
                if (ts.get(i).is("NOT") && ts.get(i + 1).is("EXISTS")) {
                    b.upsert = true;
                    b.conditionalInsert = true;
                }
            }
        }
    }

    // ---- select list --------------------------------------------------------------------------

    private void selectList(int main, int depth) {
        int start = main;
        if (!ts.get(main).is("SELECT")) {
            b.addSelected("*"); // HQL "FROM Entity e"
            return;
        }
        int i = start + 1;
        while (i < ts.size() && (ts.get(i).is("DISTINCT") || ts.get(i).is("ALL") || ts.get(i).is("TOP"))) {
            if (ts.get(i).is("TOP") && i + 1 < ts.size()) {
                i = ts.get(i + 1).type() == Type.LPAREN ? closingParen(i + 1) : i + 1;
            }
            i++;
        }
        int end = ts.size();
        boolean from = false;
        for (int j = i; j < ts.size(); j++) {
            Token t = ts.get(j);
            if (t.depth() < depth || t.depth() == depth && (t.is("FROM") || t.is("INTO") || t.type() == Type.SEMI)) {
                end = j;
                from = j < ts.size() && t.is("FROM");
                break;
            }
        }
        // aggregate
        boolean count = false;
        boolean sum = false;
        boolean exists = false;
        boolean other = false;
        boolean comparison = false;
        boolean constantsOnly = true;
        for (int j = i; j < end; j++) {
            Token t = ts.get(j);
            boolean call = j + 1 < ts.size() && ts.get(j + 1).type() == Type.LPAREN;
            if (t.type() == Type.WORD && call) {
                switch (t.upper()) {
                    case "COUNT", "COUNT_BIG" -> count = true;
                    case "SUM" -> sum = true;
                    case "EXISTS" -> exists = true;
                    case "MIN", "MAX", "AVG" -> other = true;
                    default -> { }
                }
            }
            if (t.type() == Type.OP && COMPARISONS.contains(t.text())) {
                comparison = true;
            }
            if (!(t.type() == Type.NUMBER || t.type() == Type.STRING || t.type() == Type.COMMA
                    || t.is("TRUE") || t.is("NULL"))) {
                constantsOnly = false;
            }
        }
        if (exists || count && comparison) {
            b.aggregate = Aggregate.EXISTS;
        } else if (count) {
            b.aggregate = Aggregate.COUNT;
        } else if (sum) {
            b.aggregate = Aggregate.SUM;
        } else if (other) {
            b.aggregate = Aggregate.OTHER_AGGREGATE;
        } else if (constantsOnly && end > i && from) {
            b.aggregate = Aggregate.EXISTS;
        }
        // columns
        int itemStart = i;
        for (int j = i; j <= end; j++) {
            if (j == end || ts.get(j).type() == Type.COMMA && ts.get(j).depth() == depth) {
                selectItem(itemStart, j);
                itemStart = j + 1;
            }
        }
    }

    private void selectItem(int start, int end) {
        if (start >= end) {
            return;
        }
        if (ts.get(start).isOp("*")) {
            b.addSelected("*");
            return;
        }
        Name name = nameAt(start);
        if (name == null) {
            return;
        }
        int after = name.end();
        boolean simple = after == end || ts.get(after).is("AS") || after + 1 == end && ts.get(after).isName();
        if (!simple) {
            return;
        }
        if (name.last().equals("*") || name.parts().size() == 1 && aliases.contains(name.last())) {
            b.addSelected("*");
        } else {
            b.addSelected(column(name));
        }
    }
}
