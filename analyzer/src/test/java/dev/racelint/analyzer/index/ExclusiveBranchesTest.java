package dev.racelint.analyzer.index;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.expr.MethodCallExpr;
import org.junit.jupiter.api.Test;

class ExclusiveBranchesTest {

    private static CompilationUnit parse(String body) {
        return new JavaParser(new ParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17))
                .parse("class C { void m(int k, boolean b, java.util.List<Integer> l) { " + body + " } }")
                .getResult().orElseThrow();
    }

    private static boolean exclusive(String body) {
        CompilationUnit unit = parse(body);
        MethodCallExpr write = call(unit, "write");
        MethodCallExpr send = call(unit, "send");
        return ExclusiveBranches.exclusive(write, send) && ExclusiveBranches.exclusive(send, write);
    }

    private static MethodCallExpr call(CompilationUnit unit, String name) {
        return unit.findAll(MethodCallExpr.class).stream().filter(c -> c.getNameAsString().equals(name))
                .findFirst().orElseThrow();
    }

    @Test
    void ifElseArmsAreExclusive() {
        assertThat(exclusive("if (b) { write(); } else { send(); }")).isTrue();
        assertThat(exclusive("if (b) { if (k > 1) { write(); } } else send();")).isTrue();
    }

    @Test
    void sequenceAndOneArmAreNot() {
        assertThat(exclusive("write(); if (b) { send(); }")).isFalse();
        assertThat(exclusive("if (b) { write(); send(); }")).isFalse();
        assertThat(exclusive("if (b) { write(); } send();")).isFalse();
    }

    @Test
    void anArmThatLeavesNeverRunsWithWhatFollowsTheIf() {
        assertThat(exclusive("if (b) { send(); return; } write();")).isTrue();
        assertThat(exclusive("if (b) { if (k > 1) { send(); } throw new IllegalStateException(); } write();")).isTrue();
        assertThat(exclusive("if (b) { send(); if (k > 1) { return; } } write();")).isFalse();
        assertThat(exclusive("write(); if (b) { send(); return; }")).isFalse();
        assertThat(exclusive("if (send()) { return; } write();")).isFalse();
        assertThat(exclusive("for (int i : l) { if (i > 0) { send(); return; } write(); }")).isFalse();
    }

    @Test
    void switchCasesAreExclusiveUnlessTheyFallThrough() {
        assertThat(exclusive("switch (k) { case 1: write(); break; case 2: send(); break; }")).isTrue();
        assertThat(exclusive("switch (k) { case 1: { write(); return; } default: send(); }")).isTrue();
        assertThat(exclusive("switch (k) { case 1 -> write(); case 2 -> send(); default -> { } }")).isTrue();
        assertThat(exclusive("switch (k) { case 1: write(); case 2: send(); break; }")).isFalse();
    }

    @Test
    void aLoopAroundTheBranchRunsBothArms() {
        assertThat(exclusive("for (int i : l) { if (i > 0) { write(); } else { send(); } }")).isFalse();
        assertThat(exclusive("l.forEach(i -> { if (i > 0) write(); else send(); });")).isFalse();
        assertThat(exclusive("while (b) { switch (k) { case 1: write(); break; default: send(); } }")).isFalse();
    }

    @Test
    void conditionalExpressionArms() {
        assertThat(exclusive("int x = b ? write() : send();")).isTrue();
        assertThat(exclusive("int x = write() > 0 ? send() : 0;")).isFalse();
    }
}
