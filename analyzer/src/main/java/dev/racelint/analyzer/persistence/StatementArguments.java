package dev.racelint.analyzer.persistence;

import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.index.Annotations;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which arguments of a call to a method that declares its statement (Spring Data {@code @Query},
 * MyBatis annotations or XML, JDBI SQL objects) only pick the rows: those the declaration binds to
 * parameters that appear in the WHERE clause and nowhere in the SET. The binding is the framework's:
 * {@code @Param("name")} / {@code @Bind("name")} on the parameter, else the parameter's own name
 * (compiled with {@code -parameters}), MyBatis's {@code param1}/{@code arg0}, and a lone parameter
 * for every name ({@code #{qty}} reads a property of the one bean passed). A statement parameter
 * that cannot be bound, or one inside an expression the SQL model does not place, leaves the question open.
 */
final class StatementArguments {

    static final Set<String> PARAM = Set.of("org.apache.ibatis.annotations.Param",
            "org.springframework.data.repository.query.Param", "org.jdbi.v3.sqlobject.customizer.Bind",
            "org.jdbi.v3.sqlobject.customizer.BindBean");

    private StatementArguments() {}

    /**
     * The call argument indexes holding values the statement writes: every argument except those bound
     * only to WHERE parameters (an argument bound nowhere is counted as written: it may feed an expression
     * the SQL model does not read). {@code [argumentCount]} when none is (the statement writes constants,
     * the convention of {@link DbOp#valueParameters()}); empty when a statement parameter cannot be bound.
     */
    static Optional<List<Integer>> writtenArguments(MethodDeclaration declaration, SqlFacts facts, Annotations annotations,
            int argumentCount) {
        List<Parameter> parameters = declaration.getParameters();
        if (!facts.parametersPlaced() || parameters.size() != argumentCount || (declaration.isDefault() || declaration.getBody().isPresent())) {
            return Optional.empty(); // varargs, or a method whose body runs instead of a declared statement
        }
        List<String> bound = new ArrayList<>();
        for (Parameter p : parameters) {
            bound.add(annotations.find(p, PARAM).flatMap(a -> Annotations.attribute(a, "value"))
                    .filter(v -> v instanceof StringLiteralExpr).map(v -> ((StringLiteralExpr) v).asString())
                    .orElse(p.getNameAsString()));
        }
        boolean[] inWhere = new boolean[argumentCount];
        boolean[] elsewhere = new boolean[argumentCount];
        for (String name : facts.whereParameterNames()) {
            int i = index(name, bound);
            if (i < 0) {
                return Optional.empty();
            }
            inWhere[i] = true;
        }
        for (String name : facts.setParameterNames()) {
            int i = index(name, bound);
            if (i < 0) {
                return Optional.empty();
            }
            elsewhere[i] = true;
        }
        for (int p : facts.whereParameterIndexes()) {
            if (p >= argumentCount) {
                return Optional.empty();
            }
            inWhere[p] = true;
        }
        for (int p : facts.setParameterIndexes()) {
            if (p >= argumentCount) {
                return Optional.empty();
            }
            elsewhere[p] = true;
        }
        List<Integer> written = new ArrayList<>();
        for (int i = 0; i < argumentCount; i++) {
            if (elsewhere[i] || !inWhere[i]) {
                written.add(i);
            }
        }
        return Optional.of(written.isEmpty() ? List.of(argumentCount) : List.copyOf(written));
    }

    /** The parameter a statement's name is bound to ({@code record.qty} to {@code record}), or -1. */
    private static int index(String name, List<String> bound) {
        String base = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
        int found = bound.indexOf(base);
        if (found >= 0) {
            return found;
        }
        for (String prefix : List.of("param", "arg")) {
            if (base.startsWith(prefix) && base.length() > prefix.length() && base.length() <= prefix.length() + 3
                    && base.substring(prefix.length()).chars().allMatch(Character::isDigit)) {
                int n = Integer.parseInt(base.substring(prefix.length())) - (prefix.equals("param") ? 1 : 0);
                return n >= 0 && n < bound.size() ? n : -1;
            }
        }
        return bound.size() == 1 ? 0 : -1;
    }
}
