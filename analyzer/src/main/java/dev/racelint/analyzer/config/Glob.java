package dev.racelint.analyzer.config;

import java.util.ArrayList;
import java.util.List;

/**
 * A glob from the scanned tree's {@code racelint.yml} or the command line, matched in time
 * proportional to the input's length times the pattern's: the pattern is a small automaton whose
 * set of live states advances one character at a time, so no pattern can make a match backtrack
 * (java.util.regex and {@link java.nio.file.PathMatcher}, built on it, take exponential time on
 * {@code **a**a**a**a**aZ} against a long name).
 *
 * <p>Two syntaxes:
 * <ul>
 * <li>{@link #path} - the {@code glob:} syntax of {@link java.nio.file.FileSystem#getPathMatcher}
 *     with {@code /} as the separator: {@code *} (within a folder name), {@code **} (across
 *     folders), {@code ?}, {@code [abc]}, {@code [a-z]}, {@code [!a-z]}, {@code {a,b}} (not
 *     nested) and {@code \} to quote the next character.
 * <li>{@link #typeName} - qualified Java type names: {@code *} matches within one name segment
 *     (no {@code .}), {@code **} across segments; every other character stands for itself.
 * </ul>
 */
public final class Glob {

    private static final int LITERAL = 0;
    /** {@code ?} or a character class: one character that is not the separator. */
    private static final int ONE = 1;
    /** {@code *}: any run of characters without the separator (a loop on itself). */
    private static final int STAR = 2;
    /** {@code **}: any run of characters (a loop on itself). */
    private static final int ANY_RUN = 3;
    /** The start of a {@code {a,b}} group: moves, consuming nothing, to each alternative. */
    private static final int SPLIT = 4;
    /** The end of one alternative: moves, consuming nothing, past the group. */
    private static final int JUMP = 5;

    private final String text;
    private final int separator;
    private final int[] kinds;
    /** LITERAL: the code point; JUMP: the target state. */
    private final int[] args;
    /** ONE: the class (null for {@code ?}); SPLIT: the alternatives' first states. */
    private final Object[] extra;

    private Glob(String text, int separator, Builder built) {
        this.text = text;
        this.separator = separator;
        int n = built.kinds.size();
        this.kinds = new int[n];
        this.args = new int[n];
        this.extra = built.extra.toArray();
        for (int i = 0; i < n; i++) {
            kinds[i] = built.kinds.get(i);
            args[i] = built.args.get(i);
        }
    }

    /**
     * A '/'-separated path glob.
     *
     * @throws IllegalArgumentException when the glob is malformed (the message says how)
     */
    public static Glob path(String glob) {
        Builder b = new Builder();
        int splitAt = -1;
        List<Integer> jumps = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        int i = 0;
        while (i < glob.length()) {
            int c = glob.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '\\' -> {
                    if (i >= glob.length()) {
                        throw new IllegalArgumentException("nothing after the '\\' that quotes a character");
                    }
                    int quoted = glob.codePointAt(i);
                    i += Character.charCount(quoted);
                    b.add(LITERAL, quoted, null);
                }
                case '[' -> i = readClass(glob, i, b);
                case '{' -> {
                    if (splitAt >= 0) {
                        throw new IllegalArgumentException("a {group} cannot hold another one");
                    }
                    splitAt = b.add(SPLIT, 0, null);
                    starts.clear();
                    jumps.clear();
                    starts.add(b.size());
                }
                case ',' -> {
                    if (splitAt >= 0) {
                        jumps.add(b.add(JUMP, 0, null));
                        starts.add(b.size());
                    } else {
                        b.add(LITERAL, c, null);
                    }
                }
                case '}' -> {
                    if (splitAt >= 0) {
                        jumps.add(b.add(JUMP, 0, null));
                        for (int jump : jumps) {
                            b.args.set(jump, b.size());
                        }
                        b.extra.set(splitAt, starts.stream().mapToInt(Integer::intValue).toArray());
                        splitAt = -1;
                    } else {
                        b.add(LITERAL, c, null);
                    }
                }
                case '*' -> {
                    if (i < glob.length() && glob.charAt(i) == '*') {
                        i++;
                        b.add(ANY_RUN, 0, null);
                    } else {
                        b.add(STAR, 0, null);
                    }
                }
                case '?' -> b.add(ONE, 0, null);
                default -> b.add(LITERAL, c, null);
            }
        }
        if (splitAt >= 0) {
            throw new IllegalArgumentException("a {group} is not closed with '}'");
        }
        return new Glob(glob, '/', b);
    }

    /** A type-name pattern such as {@code software.amazon.awssdk.services.*.*Client}. */
    public static Glob typeName(String pattern) {
        Builder b = new Builder();
        int i = 0;
        while (i < pattern.length()) {
            int c = pattern.codePointAt(i);
            i += Character.charCount(c);
            if (c == '*' && i < pattern.length() && pattern.charAt(i) == '*') {
                i++;
                b.add(ANY_RUN, 0, null);
            } else if (c == '*') {
                b.add(STAR, 0, null);
            } else {
                b.add(LITERAL, c, null);
            }
        }
        return new Glob(pattern, '.', b);
    }

    /** The glob as written. */
    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }

    /** Whether the whole of {@code input} matches. */
    public boolean matches(CharSequence input) {
        int n = kinds.length;
        // generation stamps mark membership, so the state sets are never cleared
        int[] seen = new int[n + 1];
        int[] stack = new int[2 * n + 2]; // a state is pushed once per edge into it: at most 2n edges
        int[] current = new int[n + 1];
        int[] next = new int[n + 1];
        int generation = 1;
        int currentSize = close(0, current, 0, seen, generation, stack);
        int i = 0;
        while (i < input.length()) {
            if (currentSize == 0) {
                return false;
            }
            int c = Character.codePointAt(input, i);
            i += Character.charCount(c);
            generation++;
            int nextSize = 0;
            for (int k = 0; k < currentSize; k++) {
                int s = current[k];
                if (s == n) {
                    continue; // the end: nothing left to consume with
                }
                int target = switch (kinds[s]) {
                    case LITERAL -> args[s] == c ? s + 1 : -1;
                    case ONE -> c != separator && (extra[s] == null || ((CharClass) extra[s]).contains(c)) ? s + 1 : -1;
                    case STAR -> c != separator ? s : -1;
                    case ANY_RUN -> s;
                    default -> -1;
                };
                if (target >= 0) {
                    nextSize = close(target, next, nextSize, seen, generation, stack);
                }
            }
            int[] swap = current;
            current = next;
            next = swap;
            currentSize = nextSize;
        }
        return seen[n] == generation;
    }

    /** Adds {@code state} and every state it reaches without consuming to {@code set}; the new size. */
    private int close(int state, int[] set, int size, int[] seen, int generation, int[] stack) {
        int n = kinds.length;
        int top = 0;
        stack[top++] = state;
        while (top > 0) {
            int s = stack[--top];
            if (seen[s] == generation) {
                continue;
            }
            seen[s] = generation;
            if (s == n) {
                set[size++] = s;
                continue;
            }
            switch (kinds[s]) {
                case SPLIT -> {
                    for (int start : (int[]) extra[s]) {
                        stack[top++] = start;
                    }
                }
                case JUMP -> stack[top++] = args[s];
                case STAR, ANY_RUN -> {
                    set[size++] = s;
                    stack[top++] = s + 1;
                }
                default -> set[size++] = s;
            }
        }
        return size;
    }

    /** A {@code [...]} class, read as {@link java.nio.file.PathMatcher}'s glob syntax reads it; returns the index after it. */
    private static int readClass(String glob, int i, Builder b) {
        List<int[]> ranges = new ArrayList<>();
        boolean negated = false;
        if (i < glob.length() && glob.charAt(i) == '^') {
            ranges.add(new int[] {'^', '^'});
            i++;
        } else {
            if (i < glob.length() && glob.charAt(i) == '!') {
                negated = true;
                i++;
            }
            if (i < glob.length() && glob.charAt(i) == '-') {
                ranges.add(new int[] {'-', '-'});
                i++;
            }
        }
        boolean rangeCanStart = false;
        while (true) {
            if (i >= glob.length()) {
                throw new IllegalArgumentException("a [class] is not closed with ']'");
            }
            int c = glob.codePointAt(i);
            i += Character.charCount(c);
            if (c == ']') {
                break;
            }
            if (c == '/') {
                throw new IllegalArgumentException("a [class] cannot hold the separator '/'");
            }
            if (c != '-') {
                ranges.add(new int[] {c, c});
                rangeCanStart = true;
                continue;
            }
            if (!rangeCanStart) {
                throw new IllegalArgumentException("a range in a [class] has no start");
            }
            if (i >= glob.length()) {
                throw new IllegalArgumentException("a [class] is not closed with ']'");
            }
            int end = glob.codePointAt(i);
            i += Character.charCount(end);
            if (end == ']') {
                ranges.add(new int[] {'-', '-'}); // a '-' just before ']' stands for itself
                break;
            }
            int[] last = ranges.get(ranges.size() - 1);
            if (end < last[0]) {
                throw new IllegalArgumentException("a range in a [class] ends before it starts");
            }
            last[1] = end;
            rangeCanStart = false;
        }
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("a [class] is empty");
        }
        b.add(ONE, 0, new CharClass(ranges.toArray(new int[0][]), negated));
        return i;
    }

    private record CharClass(int[][] ranges, boolean negated) {
        boolean contains(int c) {
            for (int[] r : ranges) {
                if (c >= r[0] && c <= r[1]) {
                    return !negated;
                }
            }
            return negated;
        }
    }

    private static final class Builder {
        final List<Integer> kinds = new ArrayList<>();
        final List<Integer> args = new ArrayList<>();
        final List<Object> extra = new ArrayList<>();

        int add(int kind, int arg, Object more) {
            kinds.add(kind);
            args.add(arg);
            extra.add(more);
            return kinds.size() - 1;
        }

        int size() {
            return kinds.size();
        }
    }
}
