package dev.racelint.analyzer.sql;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns statement text as found in Java sources, annotations and mapper files into text
 * JSqlParser accepts: framework placeholders become JDBC ones, comments go, string literals and
 * quoted identifiers are left exactly as they are.
 *
 * <ul>
 *   <li>MyBatis {@code #{name}} / {@code #{name,jdbcType=..}} becomes {@code :name} (dots and
 *       other characters become {@code _}; the original name is restored in results);</li>
 *   <li>MyBatis {@code ${name}} (text interpolation) becomes the identifier
 *       {@code rl_dollar_name}, reported as {@code ${name}} and compared as a literal;</li>
 *   <li>Spring Data SpEL {@code :#{..}} / {@code ?#{..}} becomes {@code ?};</li>
 *   <li>JDBI templates {@code <name>} become {@code :name} where a value is expected (after
 *       {@code (}, {@code ,}, a comparison, IN, LIKE, VALUES...) and an identifier elsewhere (a
 *       table or column spliced in), reported as {@code <name>};</li>
 *   <li>MySQL {@code LOCK IN SHARE MODE} becomes {@code FOR SHARE};</li>
 *   <li>JPQL/HQL only: {@code JOIN FETCH} becomes {@code JOIN}, {@code IN :p} becomes
 *       {@code IN (:p)}, {@code SELECT NEW a.b.Dto(..)} becomes {@code SELECT Dto(..)} and a
 *       statement starting with {@code FROM} gets {@code SELECT *} in front;</li>
 *   <li>text wrapped in {@code <script>} or holding MyBatis dynamic tags is flattened with
 *       {@link MyBatisTags#strip(String, Map)} first.</li>
 * </ul>
 */
final class SqlText {

    static final String DOLLAR_PREFIX = "rl_dollar_";
    static final String TEMPLATE_PREFIX = "rl_tpl_";

    private static final Pattern MYBATIS_TAG = Pattern.compile(
            "</?(script|where|set|if|foreach|trim|choose|when|otherwise|include|bind|selectKey)\\b[^<>]*>",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern JDBI_TEMPLATE = Pattern.compile("<([A-Za-z_][A-Za-z0-9_]*)>");
    private static final Pattern LOCK_IN_SHARE_MODE = Pattern.compile("(?i)\\bLOCK\\s+IN\\s+SHARE\\s+MODE\\b");
    private static final Pattern JOIN_FETCH = Pattern.compile("(?i)\\bJOIN\\s+FETCH\\b");
    private static final Pattern IN_BARE_PARAM = Pattern.compile("(?i)\\bIN\\s*(:[A-Za-z_][A-Za-z0-9_]*|\\?\\d*)");
    private static final Pattern SELECT_NEW = Pattern.compile(
            "(?i)\\bSELECT(\\s+DISTINCT)?\\s+NEW\\s+(?:[A-Za-z_$][A-Za-z0-9_$]*\\s*\\.\\s*)*([A-Za-z_$][A-Za-z0-9_$]*)\\s*\\(");
    private static final Pattern LEADING_FROM = Pattern.compile("(?i)^\\s*FROM\\b");
    private static final Pattern VALUE_WORD_BEFORE = Pattern.compile(
            "(?i)(?:^|\\W)(IN|LIKE|VALUES|THEN|ELSE|LIMIT|OFFSET|BETWEEN|ANY|ALL)\\s*$");

    /**
     * @param sql           text to give JSqlParser (and the tokenizer)
     * @param restoredNames sanitized identifier or parameter name (lower case) to the name as written
     */
    record Normalized(String sql, Map<String, String> restoredNames) {

        /** The name as written for a sanitized name (any case), else the name itself. */
        String restore(String name) {
            if (name == null) {
                return null;
            }
            String r = restoredNames.get(name.toLowerCase(Locale.ROOT));
            return r != null ? r : name;
        }
    }

    private SqlText() {}

    static Normalized normalize(String text, boolean jpql) {
        String source = text;
        if (MYBATIS_TAG.matcher(source).find()) {
            source = MyBatisTags.strip(source, Map.of());
        }
        Map<String, String> restored = new HashMap<>();
        StringBuilder out = new StringBuilder(source.length() + 16);
        int n = source.length();
        int codeStart = 0;
        int i = 0;
        while (i < n) {
            char c = source.charAt(i);
            int end = -1;
            boolean comment = false;
            if (c == '\'') {
                end = skipQuoted(source, i, '\'');
            } else if (c == '"') {
                end = skipQuoted(source, i, '"');
            } else if (c == '`') {
                end = skipQuoted(source, i, '`');
            } else if (c == '-' && i + 1 < n && source.charAt(i + 1) == '-') {
                int nl = source.indexOf('\n', i);
                end = nl < 0 ? n : nl;
                comment = true;
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int close = source.indexOf("*/", i + 2);
                end = close < 0 ? n : close + 2;
                comment = true;
            } else if (c == '$' && i + 1 < n && (source.charAt(i + 1) == '$' || Character.isLetter(source.charAt(i + 1)))) {
                end = skipDollarQuoted(source, i);
            }
            if (end < 0) {
                i++;
                continue;
            }
            out.append(transformCode(source.substring(codeStart, i), out, restored));
            if (comment) {
                out.append(' ');
            } else {
                out.append(source, i, end);
            }
            i = end;
            codeStart = end;
        }
        out.append(transformCode(source.substring(codeStart), out, restored));
        String sql = out.toString().strip();
        while (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1).strip();
        }
        if (jpql) {
            sql = jpql(sql);
        }
        return new Normalized(sql, Map.copyOf(restored));
    }

    private static String jpql(String sql) {
        String s = JOIN_FETCH.matcher(sql).replaceAll("JOIN");
        s = IN_BARE_PARAM.matcher(s).replaceAll(m -> Matcher.quoteReplacement("IN (" + m.group(1) + ")"));
        s = SELECT_NEW.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
                "SELECT" + (m.group(1) == null ? "" : m.group(1)) + " " + m.group(2) + "("));
        if (LEADING_FROM.matcher(s).find()) {
            s = "SELECT * " + s.strip();
        }
        return s;
    }

    /** Index just after a quoted run starting at {@code start} (doubled quotes escape), or the end. */
    /**
     * End (exclusive) of a quoted run starting at {@code start}: a doubled quote is an escaped one,
     * except for {@code ]} (SQL Server brackets); the text's end when unclosed.
     */
    static int skipQuoted(String s, int start, char quote) {
        int i = start + 1;
        while (i < s.length()) {
            if (s.charAt(i) == quote) {
                if (quote != ']' && i + 1 < s.length() && s.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return s.length();
    }

    /** Postgres dollar quoting {@code $tag$ .. $tag$}; -1 when {@code $} does not open one. */
    static int skipDollarQuoted(String s, int start) {
        int i = start + 1;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
            i++;
        }
        if (i >= s.length() || s.charAt(i) != '$') {
            return -1;
        }
        String tag = s.substring(start, i + 1);
        int close = s.indexOf(tag, i + 1);
        return close < 0 ? s.length() : close + tag.length();
    }

    /** Placeholder rewriting of a run of text outside literals and comments. */
    private static String transformCode(String code, CharSequence before, Map<String, String> restored) {
        if (code.isEmpty()) {
            return code;
        }
        StringBuilder out = new StringBuilder(code.length() + 8);
        int n = code.length();
        int i = 0;
        while (i < n) {
            char c = code.charAt(i);
            char next = i + 1 < n ? code.charAt(i + 1) : 0;
            if ((c == ':' || c == '?') && next == '#' && i + 2 < n && code.charAt(i + 2) == '{') {
                int close = code.indexOf('}', i + 3);
                if (close > 0) {
                    out.append('?');
                    i = close + 1;
                    continue;
                }
            }
            if ((c == '#' || c == '$') && next == '{') {
                int close = code.indexOf('}', i + 2);
                if (close > 0) {
                    String inner = code.substring(i + 2, close);
                    int comma = inner.indexOf(',');
                    String name = (comma >= 0 ? inner.substring(0, comma) : inner).strip();
                    String safe = sanitize(name);
                    if (c == '#') {
                        if (!safe.equals(name)) {
                            restored.put(safe.toLowerCase(Locale.ROOT), name);
                        }
                        out.append(':').append(safe);
                    } else {
                        String ident = DOLLAR_PREFIX + safe;
                        restored.put(ident.toLowerCase(Locale.ROOT), "${" + name + "}");
                        out.append(ident);
                    }
                    i = close + 1;
                    continue;
                }
            }
            if (c == '<' && next != 0 && (Character.isLetter(next) || next == '_')) {
                Matcher m = JDBI_TEMPLATE.matcher(code);
                m.region(i, n);
                if (m.lookingAt()) {
                    String name = m.group(1);
                    String context = before.toString() + out;
                    if (expectsValue(context)) {
                        out.append(':').append(name);
                    } else {
                        String ident = TEMPLATE_PREFIX + name;
                        restored.put(ident.toLowerCase(Locale.ROOT), "<" + name + ">");
                        out.append(' ').append(ident).append(' ');
                    }
                    i = m.end();
                    continue;
                }
            }
            out.append(c);
            i++;
        }
        return LOCK_IN_SHARE_MODE.matcher(out).replaceAll("FOR SHARE");
    }

    /** Does a value (rather than a name) belong right after {@code context}? */
    private static boolean expectsValue(String context) {
        String t = context.stripTrailing();
        if (t.isEmpty()) {
            return false;
        }
        char last = t.charAt(t.length() - 1);
        if (last == '(' || last == ',' || last == '=' || last == '<' || last == '>' || last == '+'
                || last == '-' || last == '*' || last == '/' || last == '|') {
            return true;
        }
        int from = Math.max(0, t.length() - 16);
        return VALUE_WORD_BEFORE.matcher(t.substring(from)).find();
    }

    /** A name usable as an SQL identifier / named-parameter name. */
    static String sanitize(String name) {
        StringBuilder b = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            b.append(Character.isLetterOrDigit(ch) || ch == '_' ? ch : '_');
        }
        if (b.length() == 0 || Character.isDigit(b.charAt(0))) {
            b.insert(0, 'p');
        }
        return b.toString();
    }
}
