package dev.racelint.analyzer.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.parse.ParsedFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SQL text of Java expressions, read from small parsed sources. */
class SqlStringsTest {

    private static final String SQL_CONSTANTS = """
            package com.acme.sql;

            public final class SubscriptionSql {
                public static final String TABLE = "subscriptions";
                public static final String INSERT = "INSERT INTO " + TABLE + " (id, plan) VALUES (?, ?)";
                public static final String BY_ID = \"""
                    SELECT id, plan
                    FROM subscriptions
                    WHERE id = ?
                    \""";
                public static final int LIMIT = 50;
                static final String CYCLE_A = CYCLE_B + " a";
                static final String CYCLE_B = CYCLE_A + " b";

                public static final class Nested {
                    public static final String LOCK = "SELECT id FROM subscriptions WHERE id = ? FOR UPDATE";
                }
            }
            """;

    private static final String OTHER_CONSTANTS = """
            package com.acme.sql;

            public interface OtherSql {
                String COUNT = "SELECT count(*) FROM other WHERE owner = ?";
            }
            """;

    private static final String BASE = """
            package com.acme.app;

            abstract class BaseRepo {
                protected static final String BASE_SQL = "SELECT * FROM base WHERE id = ?";
            }
            """;

    private static final String REPO = """
            package com.acme.app;

            import com.acme.sql.SubscriptionSql;
            import static com.acme.sql.SubscriptionSql.BY_ID;
            import static com.acme.sql.OtherSql.*;

            public class Repo extends BaseRepo {
                private static final String LOCAL_CONST = "SELECT * FROM repo WHERE id = ?";
                private final String instanceSql = "DELETE FROM repo WHERE id = ?";
                private String mutable = "SELECT 1";
                private String neverAssigned = "SELECT 2 FROM dual";
                private static final String PAGE = "SELECT * FROM repo LIMIT " + SubscriptionSql.LIMIT;

                void setMutable(String m) {
                    this.mutable = m;
                }

                void m(long id, String table) {
                    String a = "SELECT * FROM t WHERE id = " + id + " AND state = 'NEW'";
                    String b = SubscriptionSql.INSERT;
                    String c = com.acme.sql.SubscriptionSql.INSERT;
                    String d = BY_ID;
                    String e = String.format("SELECT * FROM %s WHERE id = %d AND x = '%%'", SubscriptionSql.TABLE, id);
                    String f = "UPDATE %s SET x = ? WHERE id = ?".formatted(table);
                    String g = "x";
                    g = "y";
                    String h = new StringBuilder("SELECT").append(" 1").toString();
                    String i = LOCAL_CONST;
                    String j = this.instanceSql;
                    String k = mutable;
                    String l = neverAssigned;
                    String n = SubscriptionSql.CYCLE_A;
                    String o = COUNT;
                    String p = String.join(",", "a", "b");
                    String q = table;
                    String r = \"""
                        UPDATE t
                        SET a = ?
                        \""";
                    String s = SubscriptionSql.Nested.LOCK;
                    String t = BASE_SQL;
                    String u = PAGE;
                    String v = (("SELECT " + "1"));
                    String w = LOCAL_CONST.strip() + " FOR UPDATE";
                    int x = 5;
                    String y = b;
                    use(a, b, c, d, e, f, g, h, i, j, k, l, n, o, p, q, r, s, t, u, v, w, x, y);
                    Runnable run = () -> {
                        String z = a + " LIMIT 1";
                        use(z);
                    };
                }

                void use(Object... args) {
                }
            }
            """;

    private ProgramIndex index;
    private CompilationUnit repo;
    private final SqlStrings strings = new SqlStrings();

    @BeforeEach
    void parse() {
        JavaParser parser = new JavaParser(new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17));
        List<ParsedFile> files = new ArrayList<>();
        String[] sources = {SQL_CONSTANTS, OTHER_CONSTANTS, BASE, REPO};
        String[] names = {"SubscriptionSql.java", "OtherSql.java", "BaseRepo.java", "Repo.java"};
        for (int i = 0; i < sources.length; i++) {
            CompilationUnit unit = parser.parse(sources[i]).getResult().orElseThrow();
            files.add(new ParsedFile(Path.of(names[i]), unit));
            if (names[i].equals("Repo.java")) {
                repo = unit;
            }
        }
        index = ProgramIndex.build(files);
    }

    /** The value of the {@code use(..)} argument that names local {@code name}. */
    private Optional<String> use(String name) {
        for (MethodCallExpr call : repo.findAll(MethodCallExpr.class, c -> c.getNameAsString().equals("use"))) {
            for (Expression arg : call.getArguments()) {
                if (arg.toString().equals(name)) {
                    return strings.valueOf(arg, index);
                }
            }
        }
        throw new AssertionError("no use of " + name);
    }

    private Expression initializer(String local) {
        return repo.findFirst(VariableDeclarator.class, v -> v.getNameAsString().equals(local))
                .flatMap(VariableDeclarator::getInitializer).orElseThrow();
    }

    @Test
    void concatenationWithAnUnknownPartBecomesAPlaceholder() {
        assertThat(use("a")).contains("SELECT * FROM t WHERE id = ? AND state = 'NEW'");
        SqlStatement s = new SqlModel().parse(use("a").orElseThrow());
        assertThat(s.parsed()).isTrue();
        assertThat(s.whereColumnNames()).containsExactly("id", "state");
    }

    @Test
    void constantsInOtherClassesByQualifiedNameAndStaticImport() {
        String insert = "INSERT INTO subscriptions (id, plan) VALUES (?, ?)";
        assertThat(use("b")).contains(insert);
        assertThat(use("c")).contains(insert);
        assertThat(use("d")).contains("SELECT id, plan\nFROM subscriptions\nWHERE id = ?\n");
        assertThat(use("o")).contains("SELECT count(*) FROM other WHERE owner = ?");
        assertThat(use("s")).contains("SELECT id FROM subscriptions WHERE id = ? FOR UPDATE");
        assertThat(use("y")).contains(insert);
    }

    @Test
    void fieldsOfTheClassAndItsSupertypes() {
        assertThat(use("i")).contains("SELECT * FROM repo WHERE id = ?");
        assertThat(use("j")).contains("DELETE FROM repo WHERE id = ?");
        assertThat(use("l")).contains("SELECT 2 FROM dual");
        assertThat(use("t")).contains("SELECT * FROM base WHERE id = ?");
        assertThat(use("u")).contains("SELECT * FROM repo LIMIT 50");
        assertThat(use("k")).as("a field assigned in a setter").isEmpty();
    }

    @Test
    void formatAndFormatted() {
        assertThat(use("e")).contains("SELECT * FROM subscriptions WHERE id = ? AND x = '%'");
        assertThat(use("f")).contains("UPDATE ? SET x = ? WHERE id = ?");
    }

    @Test
    void textBlocksAndParenthesesAndStrip() {
        assertThat(use("r")).contains("UPDATE t\nSET a = ?\n");
        assertThat(use("v")).contains("SELECT 1");
        assertThat(use("w")).contains("SELECT * FROM repo WHERE id = ? FOR UPDATE");
    }

    @Test
    void unsupportedOrUnknownValuesAreEmpty() {
        assertThat(use("g")).as("reassigned local").isEmpty();
        assertThat(use("h")).as("StringBuilder").isEmpty();
        assertThat(use("p")).as("String.join").isEmpty();
        assertThat(use("q")).as("method parameter").isEmpty();
        assertThat(use("x")).as("not a string").isEmpty();
        assertThat(use("n")).as("cyclic constants").isEmpty();
    }

    @Test
    void localsAreVisibleInLambdas() {
        assertThat(use("z")).contains("SELECT * FROM t WHERE id = ? AND state = 'NEW' LIMIT 1");
    }

    @Test
    void literalsDirectlyAndMemoisedPerNode() {
        Expression init = initializer("b");
        Optional<String> first = strings.valueOf(init, index);
        assertThat(first).contains("INSERT INTO subscriptions (id, plan) VALUES (?, ?)");
        assertThat(strings.valueOf(init, index)).isSameAs(first);
        assertThat(strings.valueOf(null, index)).isEmpty();
    }
}
