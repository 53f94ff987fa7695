package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.expr.ArrayCreationExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.sql.SqlStrings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java argument bound to each column of a literal single-row {@code INSERT INTO t (a, b) VALUES (?, ?)}
 * run through a JDBC-template call that passes the SQL first and its positional parameters after it
 * ({@code jdbc.update(sql, a, b)}, or an {@code new Object[] {a, b}}). A column whose value is not a lone
 * parameter (a literal, {@code now()}, a sequence) is left out; so is every column of a statement whose
 * text or binding cannot be read.
 */
public final class InsertedValues {

    private static final Pattern INSERT = Pattern.compile(
            "(?is)^\\s*INSERT\\s+INTO\\s+[^\\s(]+\\s*\\(([^)]*)\\)\\s*VALUES\\s*\\((.*)\\)\\s*;?\\s*$");
    /** A lone positional parameter, possibly cast ({@code ?::jsonb}, {@code CAST(? AS uuid)}). */
    private static final Pattern LONE_PARAMETER = Pattern.compile(
            "(?is)^\\s*(\\?(\\s*::\\s*[\\w\\[\\]]+)?|CAST\\s*\\(\\s*\\?\\s+AS\\s+[\\w\\[\\]() ]+\\))\\s*$");

    private InsertedValues() {}

    /** Column (lower case) to the argument expression bound to it; empty when unknown. */
    public static Map<String, Expression> of(DbOp op, ProgramIndex index) {
        MethodCallExpr call = op.call();
        if (op.kind() != DbOp.Kind.INSERT || op.upsert() || call.getArguments().size() < 2) {
            return Map.of();
        }
        String text = new SqlStrings().valueOf(call.getArgument(0), index).orElse(null);
        if (text == null) {
            return Map.of();
        }
        Matcher m = INSERT.matcher(text);
        if (!m.matches()) {
            return Map.of();
        }
        List<String> columns = splitTopLevel(m.group(1));
        List<String> values = splitTopLevel(m.group(2));
        if (columns.size() != values.size()) {
            return Map.of();
        }
        List<Expression> bound = new ArrayList<>(call.getArguments().subList(1, call.getArguments().size()));
        if (bound.size() == 1 && bound.get(0) instanceof ArrayCreationExpr array && array.getInitializer().isPresent()) {
            bound = new ArrayList<>(array.getInitializer().get().getValues());
        }
        Map<String, Expression> out = new LinkedHashMap<>();
        int parameter = 0;
        for (int i = 0; i < columns.size(); i++) {
            String value = values.get(i);
            long marks = value.chars().filter(c -> c == '?').count();
            if (marks == 1 && LONE_PARAMETER.matcher(value).matches() && parameter < bound.size()) {
                out.put(unquote(columns.get(i)), bound.get(parameter));
            }
            parameter += (int) marks;
        }
        // the binding is only certain when every parameter of the text has its argument
        return parameter == bound.size() ? out : Map.of();
    }

    private static String unquote(String column) {
        return column.trim().replace("`", "").replace("\"", "").toLowerCase(Locale.ROOT);
    }

    /** Splits at commas outside parentheses and quotes. */
    private static List<String> splitTopLevel(String list) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        StringBuilder part = new StringBuilder();
        for (char c : list.toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                out.add(part.toString());
                part.setLength(0);
                continue;
            }
            part.append(c);
        }
        out.add(part.toString());
        return out;
    }
}
