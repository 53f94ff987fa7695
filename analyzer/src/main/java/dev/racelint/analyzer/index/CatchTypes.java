package dev.racelint.analyzer.index;

import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.type.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** What a catch clause catches, by simple type name (multi-catch included). */
public final class CatchTypes {
    private CatchTypes() {}

    public static List<String> simpleNames(CatchClause clause) {
        Type type = clause.getParameter().getType();
        List<String> names = new ArrayList<>();
        if (type.isUnionType()) {
            type.asUnionType().getElements().forEach(t -> names.add(simple(t.asString())));
        } else {
            names.add(simple(type.asString()));
        }
        return names;
    }

    /**
     * What the clause catches, resolved where it is written: for each caught type (multi-catch
     * included) its candidate qualified names, the scanned type's own name for a project type. A
     * nested type written through its outer one ({@code KeeperException.NodeExistsException}) is
     * named with dots. A project's own type never resolves to a library's of the same simple name.
     */
    public static List<String> qualifiedNames(CatchClause clause, ProgramIndex index) {
        Type type = clause.getParameter().getType();
        List<Type> caught = type.isUnionType() ? List.copyOf(type.asUnionType().getElements()) : List.of(type);
        List<String> names = new ArrayList<>();
        for (Type t : caught) {
            names.addAll(index.resolveType(t, clause).candidates());
        }
        return names;
    }

    /**
     * Does the clause catch one of {@code exceptions}, or a generic SQL/data-access exception whose
     * handler looks at one of {@code sqlStates} (e.g. {@code "23505".equals(e.getSQLState())})?
     */
    public static boolean catches(CatchClause clause, Set<String> exceptions, Set<String> sqlStates) {
        List<String> names = simpleNames(clause);
        if (names.stream().anyMatch(exceptions::contains)) {
            return true;
        }
        if (names.contains("SQLException") || names.contains("DataAccessException") || names.contains("PSQLException")) {
            String body = clause.getBody().toString();
            return sqlStates.stream().anyMatch(body::contains);
        }
        return false;
    }

    private static String simple(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? name : name.substring(dot + 1);
    }
}
