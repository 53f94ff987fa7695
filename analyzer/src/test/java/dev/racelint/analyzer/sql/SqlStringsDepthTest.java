package dev.racelint.analyzer.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import dev.racelint.analyzer.AnalysisLimits;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.parse.ParsedFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The depth limit of {@link SqlStrings} ({@code sql-expression-depth}) cuts every read at the same
 * place, whichever read of a shared constant happens first: a constant read from a shallow place is
 * not reused where reading it would go past the limit, and one cut short in a deep read is not
 * remembered as unreadable for a shallow one. Rules run on many threads, so the order differs.
 */
class SqlStringsDepthTest {

    private static final String SQL = "UPDATE accounts SET balance = ? WHERE id = ?";

    /** {@code SHALLOW} reads the constant at depth 1; {@code DEEP} at depth {@code depth - 1}, beyond the limit. */
    private static String source(int deepParentheses) {
        return """
                package demo;

                final class Queries {
                    static final String UPDATE = "%s";
                    static final String SHALLOW = UPDATE;
                    static final String DEEP = %sUPDATE%s;
                }
                """.formatted(SQL, "(".repeat(deepParentheses), ")".repeat(deepParentheses));
    }

    private record Tree(ProgramIndex index, CompilationUnit unit) {
        Expression initializer(String name) {
            return unit.findFirst(VariableDeclarator.class, v -> v.getNameAsString().equals(name))
                    .flatMap(VariableDeclarator::getInitializer).orElseThrow();
        }
    }

    private static Tree parse(String text) {
        CompilationUnit unit = new JavaParser(new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17)).parse(text).getResult().orElseThrow();
        return new Tree(ProgramIndex.build(List.of(new ParsedFile(Path.of("Queries.java"), unit))), unit);
    }

    // DEEP's initializer: depth 0 is the outermost parenthesis, the name UPDATE at depth p, its
    // declaration's literal at p + 1; limit 6 with p = 6 cuts it, SHALLOW's literal is at depth 1.
    private static final int LIMIT = 6;

    private static SqlStrings strings() {
        return new SqlStrings(AnalysisLimits.DEFAULT.with(AnalysisLimits.Limit.SQL_EXPRESSION_DEPTH, LIMIT));
    }

    @Test
    void aShallowReadFirstDoesNotLetADeepReadPastTheLimit() {
        Tree tree = parse(source(LIMIT));
        SqlStrings strings = strings();
        assertThat(strings.valueOf(tree.initializer("SHALLOW"), tree.index())).contains(SQL);
        assertThat(strings.valueOf(tree.initializer("DEEP"), tree.index())).isEmpty();
    }

    @Test
    void aDeepReadCutShortFirstDoesNotHideTheConstantFromAShallowRead() {
        Tree tree = parse(source(LIMIT));
        SqlStrings strings = strings();
        assertThat(strings.valueOf(tree.initializer("DEEP"), tree.index())).isEmpty();
        assertThat(strings.valueOf(tree.initializer("SHALLOW"), tree.index())).contains(SQL);
    }

    @Test
    void oneLevelShallowerTheDeepReadReachesTheLiteral() {
        Tree tree = parse(source(LIMIT - 1));
        Optional<String> deep = strings().valueOf(tree.initializer("DEEP"), tree.index());
        assertThat(deep).contains(SQL);
    }
}
