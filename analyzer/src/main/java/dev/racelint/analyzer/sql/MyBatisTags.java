package dev.racelint.analyzer.sql;

import dev.racelint.analyzer.AnalysisLimits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Flattens the body of a MyBatis mapper statement (XML, or an annotation {@code <script>}) into
 * one static SQL text, as if every {@code <if>} held and each {@code <choose>} took its first
 * branch. A small lenient tag reader, not an XML parser: nothing external is ever resolved.
 */
final class MyBatisTags {

    private static final Pattern LEADING_AND_OR = Pattern.compile("(?is)^(AND|OR)(?=[\\s(])\\s*");
    private static final Pattern COMMA_BEFORE_WHERE = Pattern.compile("(?i),(\\s*)(WHERE)\\b");
    private static final Pattern WHERE_AND_OR = Pattern.compile("(?i)\\bWHERE(\\s+)(AND|OR)(?=[\\s(])");
    private MyBatisTags() {}

    /** Tags removed, their text kept; {@code <include refid>} inlined from {@code fragments} when known. */
    static String strip(String body, Map<String, String> fragments) {
        return strip(body, fragments, AnalysisLimits.Limit.MYBATIS_INCLUDE_DEPTH.defaultValue());
    }

    /** As {@link #strip(String, Map)}, inlining {@code <include>}s nested at most {@code maxIncludeDepth} deep. */
    static String strip(String body, Map<String, String> fragments, int maxIncludeDepth) {
        if (body == null) {
            return "";
        }
        return render(body, fragments == null ? Map.of() : fragments, maxIncludeDepth);
    }

    private static String render(String body, Map<String, String> fragments, int includesLeft) {
        Element root = new Reader(body).readAll();
        String flat = render(root, fragments, includesLeft);
        flat = COMMA_BEFORE_WHERE.matcher(flat).replaceAll(" $2");
        flat = WHERE_AND_OR.matcher(flat).replaceAll("WHERE$1");
        return flat;
    }

    // ---- tree -----------------------------------------------------------------------------

    private interface Part {}

    private record Text(String text) implements Part {}

    private static final class Element implements Part {
        final String name;
        final Map<String, String> attributes;
        final List<Part> children = new ArrayList<>();

        Element(String name, Map<String, String> attributes) {
            this.name = name;
            this.attributes = attributes;
        }

        String attribute(String key) {
            return attributes.getOrDefault(key, "");
        }
    }

    private static final class Reader {
        private final String s;
        private int pos;

        Reader(String s) {
            this.s = s;
        }

        Element readAll() {
            Element root = new Element("#root", Map.of());
            List<Element> stack = new ArrayList<>();
            stack.add(root);
            StringBuilder text = new StringBuilder();
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c != '<') {
                    text.append(c);
                    pos++;
                    continue;
                }
                if (s.startsWith("<!--", pos)) {
                    int end = s.indexOf("-->", pos + 4);
                    pos = end < 0 ? s.length() : end + 3;
                    continue;
                }
                if (s.startsWith("<![CDATA[", pos)) {
                    flush(text, stack);
                    int end = s.indexOf("]]>", pos + 9);
                    String raw = end < 0 ? s.substring(pos + 9) : s.substring(pos + 9, end);
                    top(stack).children.add(new Text(raw));
                    pos = end < 0 ? s.length() : end + 3;
                    continue;
                }
                if (s.startsWith("<?", pos) || s.startsWith("<!", pos)) {
                    int end = s.indexOf('>', pos);
                    pos = end < 0 ? s.length() : end + 1;
                    continue;
                }
                boolean closing = pos + 1 < s.length() && s.charAt(pos + 1) == '/';
                int nameStart = pos + (closing ? 2 : 1);
                int nameEnd = nameStart;
                while (nameEnd < s.length() && isNameChar(s.charAt(nameEnd), nameEnd == nameStart)) {
                    nameEnd++;
                }
                if (nameEnd == nameStart) {
                    text.append(c);
                    pos++;
                    continue;
                }
                int close = tagEnd(nameEnd);
                if (close < 0) {
                    text.append(c);
                    pos++;
                    continue;
                }
                flush(text, stack);
                String name = s.substring(nameStart, nameEnd).toLowerCase(Locale.ROOT);
                boolean selfClosing = s.charAt(close - 1) == '/';
                String attrText = s.substring(nameEnd, selfClosing ? close - 1 : close);
                pos = close + 1;
                if (closing) {
                    for (int i = stack.size() - 1; i > 0; i--) {
                        if (stack.get(i).name.equals(name)) {
                            while (stack.size() > i) {
                                stack.remove(stack.size() - 1);
                            }
                            break;
                        }
                    }
                    continue;
                }
                Element e = new Element(name, attributes(attrText));
                top(stack).children.add(e);
                if (!selfClosing) {
                    stack.add(e);
                }
            }
            flush(text, stack);
            return root;
        }

        private static Element top(List<Element> stack) {
            return stack.get(stack.size() - 1);
        }

        private static void flush(StringBuilder text, List<Element> stack) {
            if (text.length() > 0) {
                top(stack).children.add(new Text(decode(text.toString())));
                text.setLength(0);
            }
        }

        /** Index of the {@code >} ending a tag whose name ends at {@code from} (quotes respected). */
        private int tagEnd(int from) {
            char quote = 0;
            for (int i = from; i < s.length(); i++) {
                char ch = s.charAt(i);
                if (quote != 0) {
                    if (ch == quote) {
                        quote = 0;
                    }
                } else if (ch == '"' || ch == '\'') {
                    quote = ch;
                } else if (ch == '>') {
                    return i;
                } else if (ch == '<') {
                    return -1;
                }
            }
            return -1;
        }

        private static boolean isNameChar(char ch, boolean first) {
            return first ? Character.isLetter(ch) || ch == '_'
                    : Character.isLetterOrDigit(ch) || ch == '_' || ch == '-' || ch == ':' || ch == '.';
        }

        private static Map<String, String> attributes(String text) {
            Map<String, String> out = new HashMap<>();
            int i = 0;
            int n = text.length();
            while (i < n) {
                while (i < n && !Character.isLetter(text.charAt(i))) {
                    i++;
                }
                int keyStart = i;
                while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_'
                        || text.charAt(i) == '-' || text.charAt(i) == ':')) {
                    i++;
                }
                String key = text.substring(keyStart, i);
                while (i < n && Character.isWhitespace(text.charAt(i))) {
                    i++;
                }
                if (i >= n || text.charAt(i) != '=') {
                    if (!key.isEmpty()) {
                        out.put(key, "");
                    }
                    continue;
                }
                i++;
                while (i < n && Character.isWhitespace(text.charAt(i))) {
                    i++;
                }
                if (i < n && (text.charAt(i) == '"' || text.charAt(i) == '\'')) {
                    char q = text.charAt(i);
                    int end = text.indexOf(q, i + 1);
                    if (end < 0) {
                        end = n;
                    }
                    out.put(key, decode(text.substring(i + 1, end)));
                    i = end + 1;
                } else {
                    int start = i;
                    while (i < n && !Character.isWhitespace(text.charAt(i))) {
                        i++;
                    }
                    out.put(key, decode(text.substring(start, i)));
                }
            }
            return out;
        }
    }

    static String decode(String text) {
        if (text.indexOf('&') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            int semi = c == '&' ? text.indexOf(';', i) : -1;
            if (semi > i && semi - i <= 10) {
                String entity = text.substring(i + 1, semi);
                String value = switch (entity) {
                    case "lt" -> "<";
                    case "gt" -> ">";
                    case "amp" -> "&";
                    case "quot" -> "\"";
                    case "apos" -> "'";
                    default -> numericEntity(entity);
                };
                if (value != null) {
                    out.append(value);
                    i = semi + 1;
                    continue;
                }
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    private static String numericEntity(String entity) {
        try {
            if (entity.startsWith("#x") || entity.startsWith("#X")) {
                return new String(Character.toChars(Integer.parseInt(entity.substring(2), 16)));
            }
            if (entity.startsWith("#")) {
                return new String(Character.toChars(Integer.parseInt(entity.substring(1))));
            }
        } catch (IllegalArgumentException e) {
            return null;
        }
        return null;
    }

    // ---- rendering --------------------------------------------------------------------------

    private static String render(Element e, Map<String, String> fragments, int includesLeft) {
        StringBuilder b = new StringBuilder();
        renderChildren(e.children, b, fragments, includesLeft);
        return b.toString();
    }

    private static void renderChildren(List<Part> parts, StringBuilder b, Map<String, String> fragments, int includesLeft) {
        for (Part p : parts) {
            if (p instanceof Text t) {
                b.append(t.text());
            } else {
                renderElement((Element) p, b, fragments, includesLeft);
            }
        }
    }

    private static void renderElement(Element e, StringBuilder b, Map<String, String> fragments, int includesLeft) {
        switch (e.name) {
            case "bind", "selectkey" -> {
                // evaluated by MyBatis, not part of the statement
            }
            case "include" -> {
                String fragment = fragments.get(e.attribute("refid"));
                if (fragment != null && includesLeft > 0) {
                    b.append(' ').append(render(fragment, fragments, includesLeft - 1)).append(' ');
                }
            }
            case "choose" -> {
                Element chosen = null;
                for (Part p : e.children) {
                    if (p instanceof Element c && c.name.equals("when")) {
                        chosen = c;
                        break;
                    }
                }
                if (chosen == null) {
                    for (Part p : e.children) {
                        if (p instanceof Element c && c.name.equals("otherwise")) {
                            chosen = c;
                        }
                    }
                }
                if (chosen != null) {
                    b.append(render(chosen, fragments, includesLeft));
                }
            }
            case "where" -> {
                String body = LEADING_AND_OR.matcher(render(e, fragments, includesLeft).strip()).replaceFirst("");
                if (!body.isEmpty()) {
                    b.append(" WHERE ").append(body).append(' ');
                }
            }
            case "set" -> {
                String body = trimCommas(render(e, fragments, includesLeft).strip());
                if (!body.isEmpty()) {
                    b.append(" SET ").append(body).append(' ');
                }
            }
            case "trim" -> {
                String body = render(e, fragments, includesLeft).strip();
                body = dropOverride(body, e.attribute("prefixOverrides"), true);
                body = dropOverride(body, e.attribute("suffixOverrides"), false);
                if (!body.isEmpty()) {
                    b.append(' ').append(e.attribute("prefix")).append(' ').append(body).append(' ')
                            .append(e.attribute("suffix")).append(' ');
                }
            }
            case "foreach" -> b.append(' ').append(e.attribute("open")).append(render(e, fragments, includesLeft).strip())
                    .append(e.attribute("close")).append(' ');
            default -> renderChildren(e.children, b, fragments, includesLeft);
        }
    }

    private static String trimCommas(String body) {
        String s = body;
        while (s.endsWith(",")) {
            s = s.substring(0, s.length() - 1).stripTrailing();
        }
        while (s.startsWith(",")) {
            s = s.substring(1).stripLeading();
        }
        return s;
    }

    /** Removes the first matching override ({@code "AND |OR "}, case-insensitive) at the start or end. */
    private static String dropOverride(String body, String overrides, boolean prefix) {
        if (overrides.isEmpty()) {
            return body;
        }
        for (String o : overrides.split("\\|")) {
            String bare = o.strip();
            int len = bare.length();
            if (len == 0 || len > body.length()) {
                continue;
            }
            if (prefix && body.regionMatches(true, 0, bare, 0, len) && (body.length() == len
                    || !Character.isLetterOrDigit(bare.charAt(len - 1))
                    || !Character.isLetterOrDigit(body.charAt(len)))) {
                return body.substring(len).strip();
            }
            int cut = body.length() - len;
            if (!prefix && body.regionMatches(true, cut, bare, 0, len) && (cut == 0
                    || !Character.isLetterOrDigit(bare.charAt(0))
                    || !Character.isLetterOrDigit(body.charAt(cut - 1)))) {
                return body.substring(0, cut).strip();
            }
        }
        return body;
    }
}
