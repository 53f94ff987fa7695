package dev.racelint.analyzer.schema;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Foreign keys the tree's DDL declares ({@code CREATE TABLE .. [CONSTRAINT n] FOREIGN KEY (..)
 * REFERENCES p (..) [ON DELETE ..]}, {@code ALTER TABLE c ADD [CONSTRAINT n] FOREIGN KEY ..}), by
 * the referencing (child) and referenced (parent) table, with what a delete of the parent does. A
 * key declared without {@code ON DELETE}, or with {@code RESTRICT} / {@code NO ACTION}, makes the
 * database refuse to delete a parent row that a committed child row references. The same pair
 * declared several times (one script per database, a migration that re-creates it) restricts only
 * when every declaration does.
 */
final class ForeignKeys {
    private static final Pattern CREATE_TABLE = Pattern.compile(
            "^create\\s+(?:\\w+\\s+)*?table\\s+(?:if\\s+not\\s+exists\\s+)?(\\S+?)\\s*\\(", Pattern.CASE_INSENSITIVE);
    private static final Pattern ALTER_TABLE = Pattern.compile(
            "^alter\\s+table\\s+(?:if\\s+exists\\s+)?(?:only\\s+)?(\\S+)\\s", Pattern.CASE_INSENSITIVE);
    private static final Pattern FOREIGN_KEY = Pattern.compile(
            "foreign\\s+key\\s*(?:\\S+\\s*)?\\([^)]*\\)\\s*references\\s+([^\\s(]+)\\s*(?:\\([^)]*\\))?"
                    + "((?:\\s*on\\s+(?:delete|update)\\s+\\w+(?:\\s+(?:null|default|action))?)*)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern ON_DELETE = Pattern.compile(
            "on\\s+delete\\s+(\\w+(?:\\s+(?:null|default|action))?)", Pattern.CASE_INSENSITIVE);

    /** child table -> parent tables it references: true while every declaration restricts the parent's delete. */
    private final Map<String, Map<String, Boolean>> restricts = new TreeMap<>();

    /** Reads the foreign keys of one CREATE TABLE or ALTER TABLE statement. */
    void read(String statement) {
        String s = statement.trim();
        Matcher table = CREATE_TABLE.matcher(s);
        if (!table.lookingAt()) {
            table = ALTER_TABLE.matcher(s);
            if (!table.lookingAt()) {
                return;
            }
        }
        String child = SchemaModel.normalise(table.group(1));
        Matcher fk = FOREIGN_KEY.matcher(s);
        while (fk.find()) {
            String parent = SchemaModel.normalise(fk.group(1));
            Matcher action = ON_DELETE.matcher(fk.group(2));
            String onDelete = action.find() ? action.group(1).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ") : "no action";
            boolean restrict = onDelete.equals("restrict") || onDelete.equals("no action");
            restricts.computeIfAbsent(child, c -> new TreeMap<>()).merge(parent, restrict, Boolean::logicalAnd);
        }
    }

    /**
     * Does every declared foreign key from {@code child} to {@code parent} refuse the parent's delete
     * while a child row references it (and is there at least one)?
     */
    boolean restrictsDelete(String child, String parent) {
        return restricts.getOrDefault(SchemaModel.normalise(child), Map.of())
                .getOrDefault(SchemaModel.normalise(parent), false);
    }

    ForeignKeys copy() {
        ForeignKeys out = new ForeignKeys();
        restricts.forEach((c, p) -> out.restricts.put(c, new TreeMap<>(p)));
        return out;
    }
}
