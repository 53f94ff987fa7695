package dev.racelint.analyzer.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.SimpleName;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TreeCompactorTest {

    private static final String SOURCE = """
            package p;
            class Orders {
                void place(Repo repo, long id) {
                    if (!repo.existsById(id)) {
                        repo.save(id);
                    }
                }
            }
            """;

    private static CompilationUnit parse() {
        return new JavaParser(JavaSourceParser.configuration()).parse(SOURCE).getResult().orElseThrow();
    }

    private static List<String> shape(CompilationUnit unit) {
        List<String> out = new ArrayList<>();
        unit.walk(n -> out.add(n.getClass().getSimpleName() + " " + n.getRange().orElseThrow() + " "
                + n.getChildNodes().size()));
        return out;
    }

    @Test
    void keepsEveryNodeWithItsRangeAndChildren() {
        CompilationUnit plain = parse();
        CompilationUnit compacted = parse();
        TreeCompactor.compact(compacted);
        assertThat(shape(compacted)).isEqualTo(shape(plain));
        assertThat(compacted.toString()).isEqualTo(plain.toString());
        assertThat(compacted.getTokenRange()).isEmpty();
    }

    @Test
    void internsIdentifiers() {
        CompilationUnit unit = parse();
        TreeCompactor.compact(unit);
        List<String> repos = unit.findAll(NameExpr.class).stream().map(NameExpr::getNameAsString)
                .filter("repo"::equals).toList();
        assertThat(repos).hasSize(2);
        assertThat(repos.get(0)).isSameAs(repos.get(1));
        assertThat(unit.findAll(SimpleName.class).get(0).getIdentifier()).isSameAs("Orders".intern());
    }

    @Test
    void aCompactedTreeRefusesToGrowInsteadOfSharingItsEmptyLists() {
        CompilationUnit unit = parse();
        TreeCompactor.compact(unit);
        MethodCallExpr save = unit.findAll(MethodCallExpr.class).stream()
                .filter(c -> c.getNameAsString().equals("save")).findFirst().orElseThrow();
        Node leaf = save.getName();
        assertThat(leaf.getChildNodes()).isEmpty();
        assertThatThrownBy(() -> new NameExpr("x").setParentNode(leaf))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(unit.findAll(SimpleName.class).stream().filter(n -> n != leaf).allMatch(n -> n.getChildNodes().isEmpty()))
                .isTrue();
    }
}
