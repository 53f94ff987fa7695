package dev.racelint.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.finding.Message;
import org.junit.jupiter.api.Test;

class ReportTextTest {

    @Test
    void unsafeCharactersAreShownEscaped() {
        assertThat(ReportText.visible("a\u001b[2Jb\u0007\b\r\n\u0000\u007f\u0085\u009b", false))
                .isEqualTo("a\\u001b[2Jb\\u0007\\u0008\\u000d\\u000a\\u0000\\u007f\\u0085\\u009b");
        // bidi embeddings, overrides, isolates and marks, and the line and paragraph separators
        assertThat(ReportText.visible("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
                + "\u2028\u2029", false)).isEqualTo("\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069"
                + "\\u200e\\u200f\\u061c\\u2028\\u2029");
        // unpaired surrogates too; a pair is a character and stays
        assertThat(ReportText.visible("a\uD800b\uDC00c\uD83D\uDE00", false)).isEqualTo("a\\ud800b\\udc00c\uD83D\uDE00");
    }

    @Test
    void formatCharactersAreShownEscaped() {
        // zero-width joiner, BOM / zero-width no-break space, soft hyphen, zero-width space, word joiner
        assertThat(ReportText.visible("a\u200db\ufeffc\u00add\u200be\u2060f", false))
                .isEqualTo("a\\u200db\\ufeffc\\u00add\\u200be\\u2060f");
        assertThat(ReportText.terminal("post\u200dFor\ufeffObject")).isEqualTo("post\\u200dFor\\ufeffObject");
    }

    @Test
    void tabsStayOnlyWhenAskedAndSafeTextIsUntouched() {
        assertThat(ReportText.visible("\tx\t", true)).isEqualTo("\tx\t");
        assertThat(ReportText.visible("\tx", false)).isEqualTo("\\u0009x");
        String safe = "café ☕ 𝄞 [a](b) \\ é";
        assertThat(ReportText.visible(safe, false)).isSameAs(safe);
        assertThat(ReportText.terminal(null)).isNull();
    }

    @Test
    void terminalTextIsCut() {
        assertThat(ReportText.terminal("a".repeat(ReportText.MAX_TEXT_CHARS + 50)))
                .isEqualTo("a".repeat(ReportText.MAX_TEXT_CHARS) + "…");
        // a surrogate pair is not split
        String pairAtTheCut = "a".repeat(ReportText.MAX_TEXT_CHARS - 1) + "\uD834\uDD1E" + "b";
        assertThat(ReportText.terminal(pairAtTheCut)).isEqualTo("a".repeat(ReportText.MAX_TEXT_CHARS - 1) + "…");
    }

    @Test
    void sarifTextCannotFormALink() {
        assertThat(ReportText.sarif("[Click to approve](https://evil.example/phish) \\ x"))
                .isEqualTo("\\[Click to approve\\](https://evil.example/phish) \\\\ x");
        // the escape's backslash is itself escaped: a reader sees \u001b
        assertThat(ReportText.sarif("a\u001bb")).isEqualTo("a\\\\u001bb");
        Message message = Message.builder().text("calls ").link("x[0](y)", 1).text(" [z](w)").build();
        String text = ReportText.sarif(message);
        assertThat(text).isEqualTo("calls [x\\[0\\](y)](2) \\[z\\](w)");
        assertThat(SarifAssertions.linkTargets(text)).containsExactly("2");
    }

    @Test
    void shortLinesAreShownWhole() {
        String line = "x".repeat(ReportText.MAX_LINE_CHARS);
        assertThat(ReportText.window(line, 200)).isEqualTo(new ReportText.Window(line, 0, false, false));
    }

    @Test
    void longLinesAreCutAroundTheColumn() {
        String line = "a".repeat(1000) + "HIT" + "b".repeat(1000);
        ReportText.Window middle = ReportText.window(line, 1000);
        assertThat(middle.offset()).isEqualTo(1000 - 80);
        assertThat(middle.text()).hasSize(ReportText.MAX_LINE_CHARS).startsWith("a".repeat(80) + "HIT");
        assertThat(middle.cutBefore()).isTrue();
        assertThat(middle.cutAfter()).isTrue();

        ReportText.Window start = ReportText.window(line, 3);
        assertThat(start.offset()).isZero();
        assertThat(start.cutBefore()).isFalse();
        ReportText.Window end = ReportText.window(line, line.length() - 1);
        assertThat(end.offset()).isEqualTo(line.length() - ReportText.MAX_LINE_CHARS);
        assertThat(end.cutAfter()).isFalse();
        ReportText.Window beyond = ReportText.window(line, 1_000_000);
        assertThat(beyond.text()).endsWith("b");

        // never half a surrogate pair at either end
        String pairs = "\uD834\uDD1E".repeat(500);
        ReportText.Window cut = ReportText.window(pairs, 501);
        assertThat(Character.isLowSurrogate(cut.text().charAt(0))).isFalse();
        assertThat(Character.isHighSurrogate(cut.text().charAt(cut.text().length() - 1))).isFalse();
    }
}
