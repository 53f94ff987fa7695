package dev.racelint.analyzer.parse;

/**
 * How deep a source's brackets nest, counted before parsing. JavaParser descends recursively, so a
 * file nested thousands deep overflows the parser's stack; where exactly depends on how much of the
 * parser the JIT has compiled (interpreted frames are larger), so the same file could parse in one
 * scan and not in the next. Refusing it by a count makes the outcome the same on every run.
 */
final class NestingDepth {

    /**
     * The deepest nesting of {@code ( [ \{} a file may have. Real code stays in the tens; the parser's
     * 16 MB stack holds about ten times this.
     */
    static final int MAX_NESTING = dev.racelint.analyzer.AnalysisLimits.Limit.NESTING_DEPTH.defaultValue();

    private NestingDepth() {}

    /**
     * The 1-based line where the nesting of brackets in code (not in comments, string, text-block or
     * character literals) first goes past {@code max}, or 0 when it never does.
     */
    static int lineBeyond(String text, int max) {
        int depth = 0;
        int line = 1;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> line++;
                case '(', '[', '{' -> {
                    if (++depth > max) {
                        return line;
                    }
                }
                case ')', ']', '}' -> depth = Math.max(0, depth - 1);
                case '/' -> {
                    if (i + 1 < n && text.charAt(i + 1) == '/') {
                        while (i + 1 < n && text.charAt(i + 1) != '\n') {
                            i++;
                        }
                    } else if (i + 1 < n && text.charAt(i + 1) == '*') {
                        i += 2;
                        while (i < n && !(text.charAt(i) == '*' && i + 1 < n && text.charAt(i + 1) == '/')) {
                            line += text.charAt(i) == '\n' ? 1 : 0;
                            i++;
                        }
                        i++;
                    }
                }
                case '"' -> {
                    boolean block = text.startsWith("\"\"\"", i);
                    i += block ? 3 : 1;
                    while (i < n) {
                        char d = text.charAt(i);
                        if (d == '\\') {
                            i += 2;
                            continue;
                        }
                        if (d == '\n') {
                            if (!block) {
                                break; // an unterminated string: the parser will say so
                            }
                            line++;
                        } else if (d == '"' && (!block || text.startsWith("\"\"\"", i))) {
                            i += block ? 2 : 0;
                            break;
                        }
                        i++;
                    }
                    if (i < n && text.charAt(i) == '\n') {
                        i--; // let the loop count the line
                    }
                }
                case '\'' -> {
                    i++;
                    while (i < n && text.charAt(i) != '\'' && text.charAt(i) != '\n') {
                        i += text.charAt(i) == '\\' ? 2 : 1;
                    }
                    if (i < n && text.charAt(i) == '\n') {
                        i--;
                    }
                }
                default -> {
                }
            }
        }
        return 0;
    }
}
