package dev.racelint.analyzer.sql;

import dev.racelint.analyzer.sql.SqlTokens.Token;
import dev.racelint.analyzer.sql.SqlTokens.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether a conditional UPDATE is an idempotent end-state write: its guards only ask "not in the
 * end state yet" ({@code SET is_deleted = 1 ... WHERE id IN (?) AND is_deleted = 0},
 * {@code SET status = 30 WHERE id = ? AND status IN (10, 20)}), read from the literal values the
 * SET writes and the WHERE compares. Zero rows then means another writer already left the row in
 * the same state. A named parameter counts as one value wherever it appears: {@code SET read_flag =
 * #{flag} WHERE id = #{id} AND read_flag != #{flag}} excludes only rows already holding what it
 * writes. Decided from the statement's values only, never from a column's name; any shape it does
 * not understand (OR, a guard on a column it leaves alone, a compared parameter other than the one
 * written, a compounding {@code col = col + 1}) is not an end-state write.
 */
public final class EndStateWrites {
    private static final Set<String> WHERE_ENDS = Set.of("ORDER", "LIMIT", "RETURNING", "GROUP", "FETCH", "OFFSET");
    /** Spring Data derived-query criteria that compare with something other than the argument's value. */
    private static final Pattern NON_EQUALITY = Pattern.compile(".*(Not|NotIn|GreaterThan|GreaterThanEqual|LessThan"
            + "|LessThanEqual|Between|Like|NotLike|StartingWith|EndingWith|Containing|NotContaining|Before|After"
            + "|IsNull|Null|IsNotNull|NotNull|True|False|IsTrue|IsFalse|Regex|Near|Within|Exists)$");
    private static final Pattern AND = Pattern.compile("(?<=[a-z0-9])And(?=[A-Z])");
    private static final Pattern OR = Pattern.compile("(?<=[a-z0-9])Or(?=[A-Z])");
    private static final Object NULL = new Object();

    private EndStateWrites() {}

    /** For statement text as found in the source (MyBatis and Spring Data placeholders allowed). */
    public static boolean endState(String text, boolean jpql) {
        if (text == null || text.isBlank()) {
            return false;
        }
        try {
            return endState(SqlTokens.of(SqlText.normalize(text, jpql).sql()).tokens());
        } catch (RuntimeException e) {
            return false; // a shape the tokenizer cannot take is not known to be harmless
        }
    }

    /**
     * A Spring Data derived delete ({@code deleteByServiceNameAndUri}) whose criteria are all
     * equalities with the arguments: it removes the rows those values pick and nothing else, so 0
     * rows means they were already gone (the end state). The method name is the query here, by
     * the Spring Data contract.
     */
    public static boolean derivedDeleteByValuesOnly(String methodName) {
        var m = Pattern.compile("^(?:delete|remove)(?:All)?By(.+)$").matcher(methodName);
        if (!m.matches() || OR.matcher(m.group(1)).find()) {
            return false;
        }
        for (String part : AND.split(m.group(1))) {
            if (part.isEmpty() || NON_EQUALITY.matcher(part).matches()) {
                return false;
            }
        }
        return true;
    }

    private static boolean endState(List<Token> t) {
        int update = indexOf(t, 0, "UPDATE");
        int set = indexOf(t, update + 1, "SET");
        int where = indexOf(t, set + 1, "WHERE");
        if (update < 0 || set < 0 || where < 0) {
            return false;
        }
        int end = t.size();
        for (int i = where + 1; i < t.size(); i++) {
            Token k = t.get(i);
            if (k.depth() == 0 && (k.type() == Type.SEMI || k.type() == Type.WORD && WHERE_ENDS.contains(k.upper()))) {
                end = i;
                break;
            }
        }
        Map<String, Optional<Object>> written = new HashMap<>();
        for (List<Token> item : split(t.subList(set + 1, where), tk -> tk.type() == Type.COMMA)) {
            if (item.isEmpty()) {
                continue; // a trailing comma a dynamic <set> would drop
            }
            int eq = -1;
            for (int i = 0; i < item.size(); i++) {
                if (item.get(i).isOp("=") && item.get(i).depth() == item.get(0).depth()) {
                    eq = i;
                    break;
                }
            }
            if (eq < 1 || !item.get(eq - 1).isName()) {
                return false;
            }
            String column = name(item.get(eq - 1));
            List<Token> value = item.subList(eq + 1, item.size());
            for (Token v : value) {
                if (v.isName() && name(v).equals(column) || v.is("SELECT")) {
                    return false; // compounds on the stored value, or computes from other rows
                }
            }
            written.put(column, value.size() == 1 ? literal(value.get(0)).or(() -> sameValue(value.get(0)))
                    : Optional.empty());
        }
        int guards = 0;
        for (List<Token> conjunct : split(t.subList(where + 1, end), tk -> tk.is("AND"))) {
            if (conjunct.isEmpty() || conjunct.stream().anyMatch(tk -> tk.is("OR") || tk.is("BETWEEN"))
                    || !conjunct.get(0).isName()) {
                return false;
            }
            int at = 1;
            String column = name(conjunct.get(0));
            if (conjunct.size() > 2 && conjunct.get(1).type() == Type.DOT && conjunct.get(2).isName()) {
                column = name(conjunct.get(2));
                at = 3;
            }
            Comparison c = comparison(conjunct.subList(at, conjunct.size()));
            if (c == null) {
                return false;
            }
            Optional<Object> setTo = written.get(column);
            if (setTo == null) {
                // not written: it must pick rows by the caller's values, not test their state
                if (!(c.operator.equals("=") || c.operator.equals("IN")) || !c.parameters) {
                    return false;
                }
                continue;
            }
            if (setTo.isPresent() && setTo.get() instanceof Written parameter) {
                // only "not already the written value" leaves 0 rows as the end state
                if (!c.operator.equals("<>") || !c.parameterIds.equals(List.of(parameter.id()))) {
                    return false;
                }
                guards++;
                continue;
            }
            if (setTo.isEmpty() || c.parameters || !c.excludes(setTo.get())) {
                return false;
            }
            guards++;
        }
        return guards > 0;
    }

    /** A value the statement writes from a parameter it can name again ({@code :flag}, {@code ?1}). */
    private record Written(String id) {}

    private static Optional<Object> sameValue(Token v) {
        return parameterId(v).map(Written::new);
    }

    /** The name or number that identifies a parameter within the statement; empty for a bare {@code ?}. */
    private static Optional<String> parameterId(Token v) {
        if (v.type() != Type.PARAM || v.param() == null) {
            return Optional.empty();
        }
        if (v.param().name() != null) {
            return Optional.of(v.param().name());
        }
        return v.param().number() > 0 ? Optional.of("?" + v.param().number()) : Optional.empty();
    }

    /** A WHERE comparison of one column with literals or parameters (those it can name, in {@code parameterIds}). */
    private record Comparison(String operator, List<Object> literals, boolean parameters, List<String> parameterIds) {
        /** Does a row holding {@code value} fail this comparison? */
        boolean excludes(Object value) {
            return switch (operator) {
                case "=", "IN" -> !literals.contains(value);
                case "<>", "NOT IN" -> literals.contains(value);
                case "IS NULL" -> value != NULL;
                case "IS NOT NULL" -> value == NULL;
                default -> false;
            };
        }
    }

    private static Comparison comparison(List<Token> rest) {
        if (rest.isEmpty()) {
            return null;
        }
        Token first = rest.get(0);
        if (first.is("IS")) {
            boolean not = rest.size() == 3 && rest.get(1).is("NOT") && rest.get(2).is("NULL");
            if (not || rest.size() == 2 && rest.get(1).is("NULL")) {
                return new Comparison(not ? "IS NOT NULL" : "IS NULL", List.of(), false, List.of());
            }
            return null;
        }
        String operator;
        List<Token> values;
        if (first.isOp("=") || first.isOp("<>") || first.isOp("!=")) {
            operator = first.isOp("=") ? "=" : "<>";
            values = rest.subList(1, rest.size());
            if (values.size() != 1) {
                return null;
            }
        } else if (first.is("IN") || first.is("NOT") && rest.size() > 1 && rest.get(1).is("IN")) {
            operator = first.is("IN") ? "IN" : "NOT IN";
            int open = first.is("IN") ? 1 : 2;
            if (rest.size() < open + 2 || rest.get(open).type() != Type.LPAREN
                    || rest.get(rest.size() - 1).type() != Type.RPAREN) {
                return null;
            }
            values = new ArrayList<>();
            for (Token v : rest.subList(open + 1, rest.size() - 1)) {
                if (v.type() != Type.COMMA) {
                    values.add(v);
                }
            }
        } else {
            return null;
        }
        List<Object> literals = new ArrayList<>();
        List<String> parameterIds = new ArrayList<>();
        boolean parameters = false;
        for (Token v : values) {
            if (v.type() == Type.PARAM) {
                parameters = true;
                parameterId(v).ifPresent(parameterIds::add);
            } else {
                Optional<Object> literal = literal(v);
                if (literal.isEmpty()) {
                    return null;
                }
                literals.add(literal.get());
            }
        }
        if (parameters && !literals.isEmpty() || values.isEmpty()) {
            return null;
        }
        return new Comparison(operator, literals, parameters, parameterIds);
    }

    /** A literal's value: quotes dropped, booleans as 1/0 (as MySQL stores them), NULL. */
    private static Optional<Object> literal(Token v) {
        return switch (v.type()) {
            case STRING -> Optional.of(v.text().length() >= 2 ? v.text().substring(1, v.text().length() - 1) : "");
            case NUMBER -> Optional.of(v.text());
            case WORD -> v.is("TRUE") ? Optional.of("1") : v.is("FALSE") ? Optional.of("0")
                    : v.is("NULL") ? Optional.of(NULL) : Optional.empty();
            default -> Optional.empty();
        };
    }

    private static String name(Token t) {
        return t.text().toLowerCase(Locale.ROOT);
    }

    private static int indexOf(List<Token> t, int from, String keyword) {
        if (from < 0) {
            return -1;
        }
        for (int i = from; i < t.size(); i++) {
            if (t.get(i).depth() == 0 && t.get(i).is(keyword)) {
                return i;
            }
        }
        return -1;
    }

    /** Splits at the depth-0 tokens {@code separator} accepts. */
    private static List<List<Token>> split(List<Token> tokens, java.util.function.Predicate<Token> separator) {
        List<List<Token>> out = new ArrayList<>();
        List<Token> current = new ArrayList<>();
        for (Token tk : tokens) {
            if (tk.depth() == 0 && tk.type() != Type.LPAREN && tk.type() != Type.RPAREN && separator.test(tk)) {
                out.add(current);
                current = new ArrayList<>();
            } else {
                current.add(tk);
            }
        }
        out.add(current);
        return out;
    }
}
