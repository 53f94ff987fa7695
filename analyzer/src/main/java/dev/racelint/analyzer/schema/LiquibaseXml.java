package dev.racelint.analyzer.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The keys a Liquibase XML changelog declares, read as text with regular expressions (no XML parser, so
 * no external entity or DTD of the scanned tree is ever resolved): {@code <createTable>} columns whose
 * {@code <constraints>} say {@code primaryKey="true"} (together, the table's primary key) or
 * {@code unique="true"} (each a key of its own), the same on {@code <addColumn>}, {@code <createIndex
 * unique="true">} with its {@code <column>}s, {@code <addUniqueConstraint>} and {@code <addPrimaryKey>}
 * ({@code columnNames="a, b"}), and {@code <renameTable>} / {@code <renameColumn>}. DDL inside
 * {@code <sql>} goes to the SQL reader. A drop of an index or constraint is not read, so a key dropped
 * later still counts (the model errs towards a guard that exists).
 */
public final class LiquibaseXml {

    private LiquibaseXml() {}

    private static final String CHANGES = "createTable|addColumn|createIndex|addUniqueConstraint|addPrimaryKey|renameTable|renameColumn|sql";
    private static final Pattern CONSTRAINTS = Pattern.compile("<(?:[\\w-]+:)?constraints\\b([^<>]*)>");
    private static final Pattern ATTRIBUTE = Pattern.compile("([\\w:-]+)\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)')");

    /** One element: its name, its opening tag's attributes, and its content (empty when self-closed or unclosed). */
    private record Element(String kind, Map<String, String> attributes, String content) {}

    /**
     * The elements named by {@code kinds} in {@code text}, each with the content up to the next closing tag of
     * its name. Opening and closing tags are each found in one pass and paired by position, so a file of
     * unclosed tags costs a linear scan and a binary search per tag, never a search to the end per tag.
     */
    private static List<Element> elements(String text, String kinds) {
        Pattern open = Pattern.compile("<(?:[\\w-]+:)?(" + kinds + ")\\b([^<>]*)>");
        Pattern close = Pattern.compile("</(?:[\\w-]+:)?(" + kinds + ")\\s*>");
        Map<String, List<int[]>> closes = new LinkedHashMap<>();
        Matcher c = close.matcher(text);
        while (c.find()) {
            closes.computeIfAbsent(c.group(1), k -> new ArrayList<>()).add(new int[] {c.start(), c.end()});
        }
        List<Element> out = new ArrayList<>();
        Matcher o = open.matcher(text);
        while (o.find()) {
            String attrs = o.group(2);
            boolean selfClosed = attrs.endsWith("/");
            String content = "";
            if (!selfClosed) {
                int[] end = firstAfter(closes.getOrDefault(o.group(1), List.of()), o.end());
                if (end != null) {
                    content = text.substring(o.end(), end[0]);
                }
            }
            out.add(new Element(o.group(1), attributes(selfClosed ? attrs.substring(0, attrs.length() - 1) : attrs), content));
        }
        return out;
    }

    private static int[] firstAfter(List<int[]> closes, int from) {
        int lo = 0;
        int hi = closes.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (closes.get(mid)[0] < from) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < closes.size() ? closes.get(lo) : null;
    }

    /** Whether {@code text} is a Liquibase changelog: its root element is {@code databaseChangeLog}. */
    public static boolean isChangelog(String text) {
        return ROOT.matcher(text).find();
    }

    private static final Pattern ROOT = Pattern.compile("<(?:[\\w-]+:)?databaseChangeLog\\b");

    /** Reads the keys {@code text} declares into {@code builder}; DDL in {@code <sql>} goes to {@code sql}. */
    static void read(String text, SchemaModel.Builder builder, java.util.function.Consumer<String> sql) {
        String body = withoutComments(text);
        for (Element change : elements(body, CHANGES)) {
            Map<String, String> attrs = change.attributes();
            String table = attrs.getOrDefault("tableName", "");
            switch (change.kind()) {
                case "createTable", "addColumn" -> columns(table, change.content(), change.kind().equals("createTable"), builder);
                case "createIndex" -> {
                    if (isTrue(attrs.get("unique"))) {
                        List<String> names = new ArrayList<>();
                        for (Element column : elements(change.content(), "column")) {
                            names.add(column.attributes().getOrDefault("name", ""));
                        }
                        key(builder, table, names);
                    }
                }
                case "addUniqueConstraint", "addPrimaryKey" -> key(builder, table, split(attrs.get("columnNames")));
                case "renameTable" -> builder.renameTable(attrs.getOrDefault("oldTableName", ""),
                        attrs.getOrDefault("newTableName", ""));
                case "renameColumn" -> builder.renameColumn(table, attrs.getOrDefault("oldColumnName", ""),
                        attrs.getOrDefault("newColumnName", ""));
                case "sql" -> {
                    String content = change.content();
                    int cdata = content.indexOf("<![CDATA[");
                    int end = cdata < 0 ? -1 : content.indexOf("]]>", cdata);
                    sql.accept(end > cdata && cdata >= 0 ? content.substring(cdata + 9, end) : unescape(content));
                }
                default -> { }
            }
        }
    }

    private static void columns(String table, String inner, boolean creates, SchemaModel.Builder builder) {
        if (table.isEmpty()) {
            return;
        }
        if (creates) {
            builder.table(table);
        }
        List<String> primary = new ArrayList<>();
        for (Element column : elements(inner, "column")) {
            String name = column.attributes().getOrDefault("name", "");
            Matcher constraints = CONSTRAINTS.matcher(column.content());
            while (constraints.find()) {
                Map<String, String> c = attributes(constraints.group(1));
                if (isTrue(c.get("primaryKey"))) {
                    primary.add(name);
                }
                if (isTrue(c.get("unique"))) {
                    key(builder, table, List.of(name));
                }
            }
        }
        key(builder, table, primary);
    }

    /** The text with every {@code <!-- .. -->} blanked, in one pass (an unclosed comment runs to the end). */
    private static String withoutComments(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        while (true) {
            int open = text.indexOf("<!--", at);
            if (open < 0) {
                out.append(text, at, text.length());
                return out.toString();
            }
            out.append(text, at, open).append(' ');
            int close = text.indexOf("-->", open + 4);
            if (close < 0) {
                return out.toString();
            }
            at = close + 3;
        }
    }

    private static void key(SchemaModel.Builder builder, String table, List<String> columns) {
        List<String> named = columns.stream().map(String::trim).filter(c -> !c.isEmpty()).toList();
        if (!table.isEmpty() && !named.isEmpty() && named.size() == columns.size()) {
            builder.key(table, named);
        }
    }

    private static List<String> split(String columnNames) {
        if (columnNames == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String c : columnNames.split(",")) {
            out.add(c.trim());
        }
        return out;
    }

    private static boolean isTrue(String value) {
        return value != null && value.trim().toLowerCase(Locale.ROOT).equals("true");
    }

    private static Map<String, String> attributes(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = ATTRIBUTE.matcher(text == null ? "" : text);
        while (m.find()) {
            out.put(m.group(1), unescape(m.group(2) != null ? m.group(2) : m.group(3)));
        }
        return out;
    }

    private static String unescape(String text) {
        return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
                .replace("&amp;", "&");
    }
}
