package dev.racelint.analyzer.report;

import dev.racelint.analyzer.finding.Message;

/**
 * Text from the scanned tree made safe to show: every report and terminal line passes the
 * tree's strings (file names, identifiers, messages, labels, source lines, diagnostics, echoed
 * config values) through here, because a pull request controls every one of those bytes.
 *
 * <p>Unsafe characters are shown as {@code \}{@code uXXXX} (lowercase hex): the C0 controls (a
 * source line may keep its tabs), DEL, the C1 controls, the bidirectional formatting characters
 * that can make code read differently from how it compiles ("Trojan Source": U+061C, U+200E,
 * U+200F, U+202A-U+202E, U+2066-U+2069), every other format character (zero-width ones such as
 * U+200B, U+200D, U+FEFF that hide text or make two names look alike), the line and paragraph
 * separators U+2028/U+2029, and unpaired surrogates. So no ESC reaches a terminal (no erased
 * lines, fake output or hyperlinks), no BS/CR rewrites what was printed, and no override reorders
 * a line.
 *
 * <p>Length is bounded too: a source line is shown as a window of at most
 * {@value #MAX_LINE_CHARS} characters around the reported column ({@link #window}), any other
 * string is cut after {@value #MAX_TEXT_CHARS} characters, each with {@value #ELLIPSIS} where
 * text was left out.
 */
public final class ReportText {

    /** Characters of one source line shown in an excerpt (text, HTML). */
    public static final int MAX_LINE_CHARS = 240;
    /** Of those, how many come before the reported column when the line is cut. */
    static final int CONTEXT_BEFORE_COLUMN = 80;
    /** Characters of a message, label, path or diagnostic shown; the rest is cut. */
    public static final int MAX_TEXT_CHARS = 2000;
    /** Marks where a cut left text out. */
    public static final String ELLIPSIS = "\u2026";

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private ReportText() {}

    /** True for the characters that are never written as they are (see the class comment). */
    public static boolean isUnsafe(char c) {
        return c < 0x20 || (c >= 0x7F && c <= 0x9F)
                || c == '\u061C' || c == '\u200E' || c == '\u200F'
                || (c >= '\u2028' && c <= '\u202E')
                || (c >= '\u2066' && c <= '\u2069')
                || Character.getType(c) == Character.FORMAT;
    }

    /** A string for a terminal or report: unsafe characters visible, cut at {@value #MAX_TEXT_CHARS}. */
    public static String terminal(String text) {
        return text == null ? null : visible(cut(text, MAX_TEXT_CHARS), false);
    }

    /**
     * {@code text} with every unsafe character (and unpaired surrogate) replaced by its
     * {@code \}{@code uXXXX} form; tabs are kept when {@code keepTabs}. Not cut.
     */
    public static String visible(String text, boolean keepTabs) {
        if (text == null) {
            return null;
        }
        StringBuilder out = null;
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            boolean unsafe;
            if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                if (out != null) {
                    out.append(c).append(text.charAt(i + 1));
                }
                i++;
                continue;
            }
            unsafe = Character.isSurrogate(c) || (isUnsafe(c) && !(keepTabs && c == '\t'));
            if (!unsafe) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(length + 16);
                out.append(text, 0, i);
            }
            appendEscape(out, c);
        }
        return out == null ? text : out.toString();
    }

    /**
     * How many characters {@code text.charAt(i)} takes once made {@link #visible}: 6 when it is
     * escaped, 0 for the second half of a surrogate pair (the pair counts once), else 1.
     */
    static int visibleWidth(String text, int i, boolean keepTabs) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
            return 1;
        }
        if (Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1))) {
            return 0;
        }
        return (Character.isSurrogate(c) || isUnsafe(c)) && !(keepTabs && c == '\t') ? 6 : 1;
    }

    static void appendEscape(StringBuilder out, char c) {
        out.append("\\u").append(HEX[(c >> 12) & 0xF]).append(HEX[(c >> 8) & 0xF])
                .append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
    }

    /** At most {@code max} characters of {@code text} (not splitting a surrogate pair), with … when cut. */
    public static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        return text.substring(0, boundary(text, max)) + ELLIPSIS;
    }

    /**
     * SARIF plain-text message content (SARIF 2.1.0 §3.11.6): unsafe characters visible, and
     * {@code \}, {@code [} and {@code ]} escaped with a backslash, so text from the tree such as
     * {@code [Click](https://evil.example)} can never form an embedded link. Cut at
     * {@value #MAX_TEXT_CHARS}.
     */
    public static String sarif(String text) {
        if (text == null) {
            return null;
        }
        return Message.of(terminal(text)).sarif();
    }

    /**
     * A finding's message as SARIF text: each span made safe as {@link #sarif(String)}, the spans
     * that name a related location written as racelint's own {@code [text](id)} links
     * (id = index + 1), the only links in the output. Cut after {@value #MAX_TEXT_CHARS}
     * characters in all.
     */
    public static String sarif(Message message) {
        Message.Builder safe = Message.builder();
        int budget = MAX_TEXT_CHARS;
        for (Message.Segment segment : message.segments()) {
            if (budget <= 0) {
                safe.text(ELLIPSIS);
                break;
            }
            String text = segment.text() == null ? "" : segment.text();
            String shown = visible(cut(text, budget), false);
            budget -= text.length();
            if (segment.relatedIndex() >= 0) {
                safe.link(shown, segment.relatedIndex());
            } else {
                safe.text(shown);
            }
        }
        return safe.build().sarif();
    }

    /**
     * The part of a source line to show: the whole line when it has at most
     * {@value #MAX_LINE_CHARS} characters, else that many around the reported column (starting up
     * to {@value #CONTEXT_BEFORE_COLUMN} characters before it), so the column stays in view.
     *
     * @param line  the source line (raw)
     * @param from  0-based UTF-16 index of the reported column
     */
    public static Window window(String line, int from) {
        return window(line, from, MAX_LINE_CHARS);
    }

    /** {@link #window(String, int)} with at most {@code max} characters, a third of them before the column. */
    public static Window window(String line, int from, int max) {
        int length = line.length();
        if (length <= max) {
            return new Window(line, 0, false, false);
        }
        int before = Math.min(CONTEXT_BEFORE_COLUMN, max / 3);
        int start = Math.max(0, Math.min(Math.max(0, from), length) - before);
        int end = Math.min(length, start + max);
        start = Math.max(0, end - max);
        start = boundaryForward(line, start);
        end = boundary(line, end);
        return new Window(line.substring(start, end), start, start > 0, end < length);
    }

    /**
     * A cut of a source line.
     *
     * @param text       the characters shown (raw, not yet made visible)
     * @param offset     index in the line of {@code text}'s first character
     * @param cutBefore  characters before {@code text} were left out
     * @param cutAfter   characters after {@code text} were left out
     */
    public record Window(String text, int offset, boolean cutBefore, boolean cutAfter) {}

    /** {@code index} moved back off the middle of a surrogate pair. */
    static int boundary(String text, int index) {
        if (index > 0 && index < text.length() && Character.isLowSurrogate(text.charAt(index))
                && Character.isHighSurrogate(text.charAt(index - 1))) {
            return index - 1;
        }
        return index;
    }

    private static int boundaryForward(String text, int index) {
        if (index > 0 && index < text.length() && Character.isLowSurrogate(text.charAt(index))
                && Character.isHighSurrogate(text.charAt(index - 1))) {
            return index + 1;
        }
        return index;
    }
}
