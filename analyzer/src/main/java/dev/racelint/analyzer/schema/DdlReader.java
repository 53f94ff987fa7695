package dev.racelint.analyzer.schema;

import dev.racelint.analyzer.AnalysisLimits;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.sql.SqlModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.alter.AlterExpression;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.Index;

/**
 * Reads table keys from DDL: {@code CREATE TABLE} (column {@code PRIMARY KEY}/{@code UNIQUE},
 * table {@code PRIMARY KEY}, {@code UNIQUE [KEY|INDEX]}, {@code CONSTRAINT .. UNIQUE}),
 * {@code CREATE UNIQUE INDEX} and {@code ALTER TABLE .. ADD PRIMARY KEY / UNIQUE / CONSTRAINT}; table and
 * column renames ({@code ALTER TABLE .. RENAME [COLUMN] .. TO ..}, MySQL's {@code CHANGE}) carry the keys along.
 * Each statement goes to JSqlParser; one it refuses (MySQL dump options, vendor clauses) is read
 * by a tolerant token reader, so a dump's noise costs no table. Everything else is skipped.
 */
public final class DdlReader {

    private static final Pattern CREATE_TABLE = Pattern.compile(
            "^create\\s+(?:(?:global\\s+|local\\s+)?(?:temporary|temp)\\s+|unlogged\\s+)?table\\s+(?:if\\s+not\\s+exists\\s+)?"
                    + "(\\S+?)\\s*\\((.*)\\)[^)]*$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern CREATE_UNIQUE_INDEX = Pattern.compile(
            "^create\\s+unique\\s+(?:clustered\\s+|nonclustered\\s+)?index\\s+(?:concurrently\\s+)?(?:if\\s+not\\s+exists\\s+)?"
                    + "(?:\\S+\\s+)?on\\s+(?:only\\s+)?(\\S+?)\\s*(?:using\\s+\\w+\\s*)?\\(([^)]*)\\)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern ALTER_TABLE = Pattern.compile(
            "^alter\\s+table\\s+(?:if\\s+exists\\s+)?(?:only\\s+)?(\\S+)\\s+(.*)$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern KEY_CLAUSE = Pattern.compile(
            "(?:constraint\\s+\\S+\\s+)?(primary\\s+key|unique(?:\\s+(?:key|index))?)(?:\\s+(?!\\()\\S+)?\\s*\\(([^)]*)\\)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /** {@code ALTER TABLE t RENAME [COLUMN] a TO b} (PostgreSQL, MySQL 8, H2) and MySQL's {@code CHANGE [COLUMN] a b type}. */
    private static final Pattern RENAME_COLUMN = Pattern.compile(
            "^alter\\s+table\\s+(?:if\\s+exists\\s+)?(?:only\\s+)?(\\S+)\\s+(?:rename\\s+(?:column\\s+)?(?!to\\s)(\\S+)\\s+to\\s+(\\S+)"
                    + "|change\\s+(?:column\\s+)?(\\S+)\\s+(\\S+)\\s+\\S.*)\\s*$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    /** {@code ALTER TABLE a RENAME TO b}. */
    private static final Pattern RENAME_TABLE = Pattern.compile(
            "^alter\\s+table\\s+(?:if\\s+exists\\s+)?(?:only\\s+)?(\\S+)\\s+rename\\s+to\\s+(\\S+)\\s*$",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /** {@code DEFAULT 0}, {@code DEFAULT '0'}, {@code DEFAULT b'0'}, {@code DEFAULT false}: one value for every new row. */
    private static final Pattern CONSTANT_DEFAULT = Pattern.compile(
            "\\bdefault\\s+\\(?\\s*(?:'[^']*'|b'[01]*'|-?\\d+(?:\\.\\d+)?|true|false)\\s*\\)?(?:\\s|,|$)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern NOT_NULL = Pattern.compile("\\bnot\\s+null\\b", Pattern.CASE_INSENSITIVE);

    /** JSqlParser's budget per DDL statement; one it cannot parse in time goes to the token reader. */
    private static final long PARSE_MILLIS = 2_000;

    private final SchemaModel.Builder builder = new SchemaModel.Builder();
    private final int maxParsedChars;
    private int files;

    private DdlReader(int maxParsedChars) {
        this.maxParsedChars = maxParsedChars;
    }

    public static DdlReader empty() {
        return new DdlReader(AnalysisLimits.DEFAULT.get(AnalysisLimits.Limit.SQL_PARSE_CHARS));
    }

    /**
     * Reads the {@code .sql} files and Liquibase XML changelogs ({@link LiquibaseXml}), each up to
     * {@code mapper-file-bytes}; statements longer than
     * {@code sql-parse-chars} go to the token reader only.
     */
    public static DdlReader read(List<Path> sqlFiles, List<Diagnostic> diagnostics, AnalysisLimits limits) {
        return read(sqlFiles, diagnostics, limits.get(AnalysisLimits.Limit.MAPPER_FILE_BYTES),
                limits.get(AnalysisLimits.Limit.SQL_PARSE_CHARS));
    }

    /** Reads the {@code .sql} files, each up to {@code maxBytes}; a file larger or unreadable gets a diagnostic. */
    static DdlReader read(List<Path> sqlFiles, List<Diagnostic> diagnostics, long maxBytes, int maxParsedChars) {
        DdlReader reader = new DdlReader(maxParsedChars);
        for (Path file : sqlFiles) {
            try {
                if (Files.size(file) > maxBytes) {
                    diagnostics.add(new Diagnostic(file, 0, 0, Level.WARNING, "file-too-large", "SQL file not read for "
                            + "the schema: larger than " + maxBytes + " bytes (limits: mapper-file-bytes)"));
                    continue;
                }
                String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
                if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".xml")) {
                    LiquibaseXml.read(text, reader.builder, reader::readText); // a changelog SourceDiscovery found
                } else {
                    reader.readText(text);
                }
                reader.files++;
            } catch (IOException | RuntimeException e) {
                diagnostics.add(new Diagnostic(file, 0, 0, Level.WARNING, "unreadable",
                        "SQL file not read for the schema: " + e.getClass().getSimpleName()));
            }
        }
        return reader;
    }

    /** Reads one script's DDL statements (for tests and for SQL held elsewhere). */
    public DdlReader readText(String script) {
        for (String statement : statements(script)) {
            String head = statement.length() > 40 ? statement.substring(0, 40) : statement;
            String lower = head.toLowerCase(Locale.ROOT);
            if (!lower.startsWith("create") && !lower.startsWith("alter")) {
                continue;
            }
            if (renamed(statement)) {
                continue;
            }
            if (!parsed(statement)) {
                tolerant(statement);
            }
            builder.foreignKeys().read(statement);
        }
        return this;
    }

    SchemaModel.Builder builder() {
        return builder;
    }

    public int files() {
        return files;
    }

    public SchemaModel model() {
        return builder.build();
    }

    /** A table or column rename (a migration that renames a keyed column keeps the key); false for anything else. */
    private boolean renamed(String sql) {
        Matcher table = RENAME_TABLE.matcher(sql);
        if (table.matches()) {
            builder.renameTable(table.group(1), table.group(2));
            return true;
        }
        Matcher column = RENAME_COLUMN.matcher(sql);
        if (!column.matches()) {
            return false;
        }
        if (column.group(2) != null) {
            builder.renameColumn(column.group(1), column.group(2), column.group(3));
            return true;
        }
        if (!column.group(4).equalsIgnoreCase(column.group(5))) {
            builder.renameColumn(column.group(1), column.group(4), column.group(5));
        }
        return false; // a CHANGE may come with other clauses (ADD UNIQUE ..): the statement is read as well
    }

    /** JSqlParser's reading; false when it refuses the statement or returns a shape not handled here. */
    private boolean parsed(String sql) {
        Statement statement = sql.length() > maxParsedChars ? null : SqlModel.parseTree(sql, PARSE_MILLIS);
        if (statement instanceof CreateTable create) {
            String table = create.getTable().getFullyQualifiedName();
            builder.table(table);
            if (create.getColumnDefinitions() != null) {
                for (ColumnDefinition column : create.getColumnDefinitions()) {
                    String specs = column.getColumnSpecs() == null ? ""
                            : String.join(" ", column.getColumnSpecs()).toLowerCase(Locale.ROOT);
                    if (specs.matches("(?s).*\\b(primary\\s+key|unique)\\b.*")) {
                        builder.key(table, List.of(column.getColumnName()));
                    }
                    if (CONSTANT_DEFAULT.matcher(specs).find() && NOT_NULL.matcher(specs).find()) {
                        builder.constantDefault(table, column.getColumnName());
                    }
                }
            }
            if (create.getIndexes() != null) {
                for (Index index : create.getIndexes()) {
                    if (isKey(index.getType())) {
                        builder.key(table, index.getColumnsNames());
                    }
                }
            }
            return true;
        }
        if (statement instanceof CreateIndex create) {
            // a partial unique index (WHERE ..) still keeps the rows it covers unique
            if (create.getIndex() != null && isKey(create.getIndex().getType()) && create.getTable() != null) {
                builder.key(create.getTable().getFullyQualifiedName(), create.getIndex().getColumnsNames());
            }
            return create.getIndex() != null;
        }
        if (statement instanceof Alter alter) {
            String table = alter.getTable().getFullyQualifiedName();
            if (alter.getAlterExpressions() != null) {
                for (AlterExpression e : alter.getAlterExpressions()) {
                    if (e.getPkColumns() != null) {
                        builder.key(table, e.getPkColumns());
                    }
                    if (e.getUkColumns() != null) {
                        builder.key(table, e.getUkColumns());
                    }
                    if (e.getIndex() != null && isKey(e.getIndex().getType())) {
                        builder.key(table, e.getIndex().getColumnsNames());
                    }
                }
            }
            return true;
        }
        return false;
    }

    private static boolean isKey(String indexType) {
        if (indexType == null) {
            return false;
        }
        String t = indexType.toLowerCase(Locale.ROOT);
        return t.startsWith("primary") || t.startsWith("unique");
    }

    /** The token reader for what JSqlParser refuses: table body split at top-level commas. */
    private void tolerant(String sql) {
        Matcher m = CREATE_TABLE.matcher(sql);
        if (m.matches()) {
            String table = m.group(1);
            builder.table(table);
            for (String element : topLevel(m.group(2))) {
                String e = element.trim();
                Matcher key = KEY_CLAUSE.matcher(e);
                if (key.lookingAt()) {
                    builder.key(table, columns(key.group(2)));
                } else if (!e.isEmpty() && e.toLowerCase(Locale.ROOT).matches("(?s).*\\b(primary\\s+key|unique)\\b.*")
                        && !e.toLowerCase(Locale.ROOT).matches("(?s)^(key|index|constraint|foreign|check|fulltext)\\b.*")) {
                    builder.key(table, List.of(e.split("\\s+")[0])); // a column declared PRIMARY KEY / UNIQUE
                }
                if (!e.toLowerCase(Locale.ROOT).matches("(?s)^(primary|unique|key|index|constraint|foreign|check|fulltext)\\b.*")
                        && CONSTANT_DEFAULT.matcher(e).find() && NOT_NULL.matcher(e).find()) {
                    builder.constantDefault(table, e.split("\\s+")[0]);
                }
            }
            return;
        }
        m = CREATE_UNIQUE_INDEX.matcher(sql);
        if (m.lookingAt()) {
            builder.key(m.group(1), columns(m.group(2)));
            return;
        }
        m = ALTER_TABLE.matcher(sql);
        if (m.matches()) {
            Matcher key = KEY_CLAUSE.matcher(m.group(2));
            while (key.find()) {
                builder.key(m.group(1), columns(key.group(2)));
            }
        }
    }

    /** {@code a, `b`(10) DESC} -> {@code [a, b]} (prefix lengths and orderings dropped). */
    private static List<String> columns(String list) {
        List<String> out = new ArrayList<>();
        for (String part : list.split(",")) {
            String c = part.trim().split("[\\s(]+")[0];
            if (!c.isEmpty()) {
                out.add(c);
            }
        }
        return out;
    }

    /** Splits at commas outside parentheses and quotes. */
    private static List<String> topLevel(String body) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(body.substring(start, i));
                start = i + 1;
            }
        }
        out.add(body.substring(start));
        return out;
    }

    /**
     * The script's statements, split at semicolons outside quotes and comments; comments (also
     * MySQL's {@code /*! .. *}{@code /} version comments, which hold only dump options) dropped; a
     * backslash escapes the next character inside single quotes, as in MySQL dumps.
     */
    static List<String> statements(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int n = script.length();
        char quote = 0;
        for (int i = 0; i < n; i++) {
            char c = script.charAt(i);
            if (quote != 0) {
                current.append(c);
                if (c == '\\' && quote == '\'' && i + 1 < n) {
                    current.append(script.charAt(++i)); // MySQL dumps escape quotes in values: 'O\'Brien'
                } else if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-' || c == '#') {
                while (i < n && script.charAt(i) != '\n') {
                    i++;
                }
                current.append('\n');
                continue;
            }
            if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 1;
                current.append(' ');
                continue;
            }
            if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            }
            if (c == ';') {
                add(out, current);
                continue;
            }
            current.append(c);
        }
        add(out, current);
        return out;
    }

    private static void add(List<String> out, StringBuilder current) {
        String s = current.toString().trim();
        if (!s.isEmpty()) {
            out.add(s);
        }
        current.setLength(0);
    }
}
