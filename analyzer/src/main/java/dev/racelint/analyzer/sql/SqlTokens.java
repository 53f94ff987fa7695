package dev.racelint.analyzer.sql;

import dev.racelint.analyzer.sql.SqlStatement.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A forgiving SQL tokenizer over normalized text ({@link SqlText}): words, quoted names,
 * literals, bind parameters, operators and parentheses, each with its parenthesis depth.
 * Used for the bind-parameter table, advisory-lock detection and the fallback model.
 */
final class SqlTokens {

    enum Type { WORD, QUOTED_NAME, STRING, NUMBER, PARAM, OP, LPAREN, RPAREN, COMMA, DOT, SEMI }

    /**
     * @param text    the token text (unquoted for a quoted name)
     * @param upper   upper-case text for keyword tests
     * @param depth   parenthesis depth (the parentheses themselves carry the outer depth)
     * @param param   for {@link Type#PARAM}: the parameter, else null
     * @param jdbc    for {@link Type#PARAM}: a JDBC-style parameter ({@code ?}, {@code ?1}, {@code $1})
     */
    record Token(Type type, String text, String upper, int depth, Parameter param, boolean jdbc) {

        boolean is(String keyword) {
            return (type == Type.WORD) && upper.equals(keyword);
        }

        boolean isName() {
            return type == Type.WORD || type == Type.QUOTED_NAME;
        }

        boolean isOp(String op) {
            return type == Type.OP && text.equals(op);
        }
    }

    private final List<Token> tokens = new ArrayList<>();
    private final List<Parameter> parameters = new ArrayList<>();
    private final List<Integer> jdbcPositions = new ArrayList<>();

    private SqlTokens() {}

    static SqlTokens of(String sql) {
        SqlTokens t = new SqlTokens();
        t.scan(sql);
        return t;
    }

    List<Token> tokens() {
        return tokens;
    }

    List<Parameter> parameters() {
        return parameters;
    }

    /**
     * The 0-based text position of the {@code ordinal}-th (1-based) JDBC-style parameter, the
     * way JSqlParser numbers {@code ?} parameters; -1 when out of range.
     */
    int positionOfJdbcOrdinal(int ordinal) {
        return ordinal >= 1 && ordinal <= jdbcPositions.size() ? jdbcPositions.get(ordinal - 1) : -1;
    }

    private void scan(String s) {
        int depth = 0;
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (c == '\'') {
                int end = SqlText.skipQuoted(s, i, '\'');
                add(Type.STRING, s.substring(i, end), depth);
                i = end;
            } else if (c == '"' || c == '`' || c == '[' && bracketName(s, i)) {
                char close = c == '[' ? ']' : c;
                int end = SqlText.skipQuoted(s, i, close);
                String inner = s.substring(i + 1, Math.max(i + 1, end - 1));
                add(Type.QUOTED_NAME, inner, depth);
                i = end;
            } else if (c == '$' && i + 1 < n && (s.charAt(i + 1) == '$' || Character.isLetter(s.charAt(i + 1)))
                    && SqlText.skipDollarQuoted(s, i) > 0) {
                int end = SqlText.skipDollarQuoted(s, i);
                add(Type.STRING, s.substring(i, end), depth);
                i = end;
            } else if (c == '?' || c == '$' && i + 1 < n && Character.isDigit(s.charAt(i + 1))) {
                int j = i + 1;
                while (j < n && Character.isDigit(s.charAt(j))) {
                    j++;
                }
                if (c == '?' && j < n && (s.charAt(j) == '|' || s.charAt(j) == '&') && j == i + 1) {
                    add(Type.OP, s.substring(i, j + 1), depth);
                    i = j + 1;
                    continue;
                }
                int number = j > i + 1 ? parseInt(s.substring(i + 1, j)) : 0;
                Parameter p = new Parameter(parameters.size(), null, number);
                jdbcPositions.add(p.position());
                parameters.add(p);
                tokens.add(new Token(Type.PARAM, s.substring(i, j), s.substring(i, j), depth, p, true));
                i = j;
            } else if (c == ':' && i + 1 < n && isIdentStart(s.charAt(i + 1)) && (i == 0 || s.charAt(i - 1) != ':')) {
                int j = i + 1;
                while (j < n && isIdentPart(s.charAt(j))) {
                    j++;
                }
                Parameter p = new Parameter(parameters.size(), s.substring(i + 1, j), 0);
                parameters.add(p);
                tokens.add(new Token(Type.PARAM, s.substring(i, j), s.substring(i, j), depth, p, false));
                i = j;
            } else if (isIdentStart(c) || c == '@' || c == '#') {
                int j = i + 1;
                while (j < n && (isIdentPart(s.charAt(j)) || s.charAt(j) == '$')) {
                    j++;
                }
                add(Type.WORD, s.substring(i, j), depth);
                i = j;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(s.charAt(i + 1))) {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '.')) {
                    j++;
                }
                add(Type.NUMBER, s.substring(i, j), depth);
                i = j;
            } else if (c == '(') {
                add(Type.LPAREN, "(", depth);
                depth++;
                i++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
                add(Type.RPAREN, ")", depth);
                i++;
            } else if (c == ',') {
                add(Type.COMMA, ",", depth);
                i++;
            } else if (c == '.') {
                add(Type.DOT, ".", depth);
                i++;
            } else if (c == ';') {
                add(Type.SEMI, ";", depth);
                i++;
            } else {
                String op = operator(s, i);
                add(Type.OP, op, depth);
                i += op.length();
            }
        }
    }

    private void add(Type type, String text, int depth) {
        tokens.add(new Token(type, text, text.toUpperCase(Locale.ROOT), depth, null, false));
    }

    private static String operator(String s, int i) {
        String[] two = {"<>", "!=", "<=", ">=", "::", "||", "=>", "->", "^="};
        for (String op : two) {
            if (s.startsWith(op, i)) {
                return op;
            }
        }
        return String.valueOf(s.charAt(i));
    }

    /** SQL Server {@code [name]} (not a Postgres array subscript or constructor). */
    private static boolean bracketName(String s, int start) {
        int i = start + 1;
        if (i >= s.length() || !isIdentStart(s.charAt(i))) {
            return false;
        }
        while (i < s.length() && (isIdentPart(s.charAt(i)) || s.charAt(i) == ' ')) {
            i++;
        }
        return i < s.length() && s.charAt(i) == ']';
    }

    private static int parseInt(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static boolean isIdentStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    static boolean isIdentPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }
}
