package dev.racelint.analyzer.diff;

import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines changed since a git revision: what {@code git diff <ref>} adds or modifies in the work
 * tree (staged or not), plus untracked files, which are new in full. A finding is part of the
 * change when its primary location or any step of its paths sits on a changed line.
 *
 * <p>It also tells which lines the change adds (for the suppressions it writes) and reads files as
 * they are at the base commit (the baseline and racelint.yml the change started from).
 *
 * <p>git runs with external diff drivers, text conversion and fsmonitor hooks switched off, so a
 * scanned repository's configuration cannot make racelint run its programs (see {@link Git}).
 */
public final class ChangedLines {

    private static final Pattern HUNK = Pattern.compile("^@@ -\\d+(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@");
    private static final Pattern OBJECT_ID = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
    private static final long MAX_DIFF_BYTES = 1L << 30;
    private static final long MAX_LIST_BYTES = 64L << 20;

    private final Path top;
    private final String ref;
    private final String commit;
    private final Map<Path, BitSet> lines;
    private final Map<Path, BitSet> added;
    private final Set<Path> wholeFiles;

    private ChangedLines(Path top, String ref, String commit, Parsed diff, Set<Path> wholeFiles) {
        this.top = top;
        this.ref = ref;
        this.commit = commit;
        this.lines = diff.touched();
        this.added = diff.added();
        this.wholeFiles = wholeFiles;
    }

    /** A git command failed, or the folder is not in a git work tree, or the revision is unknown. */
    public static final class DiffException extends IOException {
        public DiffException(String message) {
            super(message);
        }
    }

    /** The changes since {@code ref} in the git work tree holding {@code folder}. */
    public static ChangedLines since(String ref, Path folder) throws IOException {
        checkRef(ref);
        Path top = Path.of(text(Git.run(folder, MAX_LIST_BYTES, "rev-parse", "--show-toplevel")).strip())
                .toAbsolutePath().normalize();
        String commit;
        try {
            commit = text(Git.run(top, MAX_LIST_BYTES, "rev-parse", "--verify", "--quiet", ref + "^{commit}")).strip();
        } catch (DiffException e) {
            throw new DiffException("unknown git revision '" + ref + "'");
        }
        if (!OBJECT_ID.matcher(commit).matches()) {
            throw new DiffException("unknown git revision '" + ref + "'");
        }
        // the commit, not the name: the diff and every file read at the base see the same revision;
        // --text because a .gitattributes in the change can call .java binary (-diff), and git would
        // print "Binary files differ" for it in place of the hunks
        Parsed diff = parse(text(Git.run(top, MAX_DIFF_BYTES, "diff", "--text", "--no-ext-diff", "--no-textconv", "--no-color",
                "--unified=0", "--no-renames", "--src-prefix=a/", "--dst-prefix=b/", commit, "--")), top);
        Set<Path> untracked = new HashSet<>();
        for (String name : text(Git.run(top, MAX_DIFF_BYTES, "ls-files", "--others", "--exclude-standard", "-z")).split("\0")) {
            inside(top, name).ifPresent(untracked::add);
        }
        untracked.addAll(converted(top));
        for (Path file : diff.touched().keySet()) {
            if (hasLoneCarriageReturn(file)) {
                untracked.add(file);
            }
        }
        return new ChangedLines(top, ref, commit, diff, untracked);
    }

    /**
     * Whether the file holds a CR not followed by LF: Java ends a line there and git does not, so
     * git's line numbers for the rest of the file would not be racelint's, and a change could put
     * its code on lines git calls unchanged. Such a changed file counts as changed in full.
     */
    private static boolean hasLoneCarriageReturn(Path file) {
        try (java.io.InputStream in = new java.io.BufferedInputStream(java.nio.file.Files.newInputStream(file,
                java.nio.file.LinkOption.NOFOLLOW_LINKS))) {
            int previous = -1;
            int c;
            while ((c = in.read()) >= 0) {
                if (previous == '\r' && c != '\n') {
                    return true;
                }
                previous = c;
            }
            return previous == '\r';
        } catch (IOException e) {
            return false; // a file racelint cannot read is not analysed either
        }
    }

    /** Attributes under which git diffs a work-tree file as converted, not as the bytes racelint reads. */
    private static final List<String> CONVERTING = List.of("working-tree-encoding", "filter");
    private static final int CHECK_ATTR_BATCH = 200;

    /**
     * The tracked Java files git converts before diffing them: a re-encoding or a clean filter can
     * blank out or shift the lines git reports as changed (a UTF-8 file read as UTF-16 is one line),
     * or make a changed file look unchanged. A .gitattributes is part of the change, so such a file
     * counts as changed in full. Line-ending conversion keeps the line count and is left alone.
     */
    private static Set<Path> converted(Path top) throws IOException {
        List<String> javaFiles = new ArrayList<>();
        for (String name : text(Git.run(top, MAX_DIFF_BYTES, "ls-files", "--cached", "-z")).split("\0")) {
            if (name.toLowerCase(java.util.Locale.ROOT).endsWith(".java")) {
                javaFiles.add(name);
            }
        }
        Set<Path> out = new HashSet<>();
        for (int from = 0; from < javaFiles.size(); from += CHECK_ATTR_BATCH) {
            List<String> args = new ArrayList<>(List.of("check-attr", "-z"));
            args.addAll(CONVERTING);
            args.add("--");
            args.addAll(javaFiles.subList(from, Math.min(javaFiles.size(), from + CHECK_ATTR_BATCH)));
            // "<path> NUL <attribute> NUL <value> NUL", per path and attribute
            String[] fields = text(Git.run(top, MAX_LIST_BYTES, args.toArray(String[]::new))).split("\0");
            for (int i = 0; i + 2 < fields.length; i += 3) {
                String value = fields[i + 2];
                if (!value.equals("unspecified") && !value.equals("unset")) {
                    inside(top, fields[i]).ifPresent(out::add);
                }
            }
        }
        return out;
    }

    /** A revision as the user gave it; one that git could read as an option is refused before git sees it. */
    static void checkRef(String ref) throws DiffException {
        if (ref.isBlank() || ref.startsWith("-") || ref.chars().anyMatch(c -> Character.isISOControl(c) || c == ' ')) {
            throw new DiffException("not a git revision: '" + ref.replaceAll("\\p{Cntrl}", "?") + "'");
        }
    }

    /** The root of the git work tree. */
    public Path top() {
        return top;
    }

    /** The revision as given, e.g. {@code origin/main}. */
    public String ref() {
        return ref;
    }

    /** The commit the revision named when the diff was taken. */
    public String commit() {
        return commit;
    }

    /** A file's path from the work tree's root, {@code /}-separated; empty when it is outside the work tree. */
    public Optional<String> relative(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        if (!absolute.startsWith(top) && absolute.getParent() != null) {
            try {
                // git names the top by its real path (/private/tmp on macOS, where /tmp is a link)
                absolute = absolute.getParent().toRealPath().resolve(absolute.getFileName());
            } catch (IOException e) {
                return Optional.empty();
            }
        }
        if (!absolute.startsWith(top) || absolute.equals(top)) {
            return Optional.empty();
        }
        return Optional.of(top.relativize(absolute).toString().replace('\\', '/'));
    }

    /**
     * A file's contents at the base commit, read from git's object store (no checkout, no filters,
     * no text conversion); empty when the base has no file there.
     *
     * @throws DiffException when the file is outside the work tree, is a link or a folder at the
     *                       base, is larger than {@code maxBytes}, or git fails
     */
    public Optional<byte[]> atBase(Path file, long maxBytes) throws IOException {
        String name = relative(file).orElseThrow(() -> new DiffException(file.getFileName() + " is outside the git work tree"));
        String listing = text(Git.run(top, MAX_LIST_BYTES, "ls-tree", "-z", "--full-tree", commit, "--", name));
        if (listing.isEmpty()) {
            return Optional.empty();
        }
        // "<mode> SP <type> SP <object> TAB <name> NUL"
        int tab = listing.indexOf('\t');
        String[] fields = (tab < 0 ? listing : listing.substring(0, tab)).split(" ");
        if (fields.length != 3 || !fields[1].equals("blob") || !OBJECT_ID.matcher(fields[2]).matches()) {
            throw new DiffException(name + " is not a file at " + ref);
        }
        if (!fields[0].equals("100644") && !fields[0].equals("100755")) {
            throw new DiffException(name + " is a symbolic link at " + ref + ", not a file");
        }
        try {
            return Optional.of(Git.run(top, maxBytes, "cat-file", "blob", fields[2]));
        } catch (DiffException e) {
            throw new DiffException(name + " at " + ref + ": " + e.getMessage());
        }
    }

    /** Whether the change adds or rewrites any line from {@code from} to {@code to} of the file (a new file: every line). */
    public boolean adds(Path file, int from, int to) {
        Path normal = file.toAbsolutePath().normalize();
        if (wholeFiles.contains(normal)) {
            return true;
        }
        BitSet lines = added.get(normal);
        if (lines == null) {
            return false;
        }
        int next = lines.nextSetBit(Math.max(0, from));
        return next >= 0 && next <= Math.max(from, to);
    }

    /** The files the change adds lines to, untracked ones included. */
    public Set<Path> filesWithAddedLines() {
        Set<Path> out = new java.util.TreeSet<>(wholeFiles);
        added.forEach((file, lines) -> {
            if (!lines.isEmpty()) {
                out.add(file);
            }
        });
        return out;
    }

    /**
     * A parsed diff: per file, the new side's lines that count as changed for findings (added lines,
     * and the lines around a deletion), and the lines the change actually adds.
     */
    record Parsed(Map<Path, BitSet> touched, Map<Path, BitSet> added) {}

    /**
     * Parses unified diff output with zero context. A hunk's lines are consumed by the counts in its
     * header, so an added line that reads like a file header ({@code +++ b/Other.java}) stays a line.
     * Names that would leave the work tree are dropped.
     */
    static Parsed parse(String diff, Path top) {
        Map<Path, BitSet> touched = new HashMap<>();
        Map<Path, BitSet> added = new HashMap<>();
        BitSet current = null;
        BitSet currentAdded = null;
        long oldLeft = 0;
        long newLeft = 0;
        for (String line : diff.split("\n", -1)) {
            if (oldLeft > 0 || newLeft > 0) {
                if (line.startsWith("-")) {
                    oldLeft--;
                } else if (line.startsWith("+")) {
                    newLeft--;
                } else if (line.startsWith(" ")) {
                    oldLeft--;
                    newLeft--;
                }
                continue; // "\ No newline at end of file" counts for neither side
            }
            if (line.startsWith("+++ ")) {
                current = null;
                currentAdded = null;
                String name = line.substring(4);
                if (name.endsWith("\t")) {
                    name = name.substring(0, name.length() - 1); // git ends a name holding a space with a tab
                }
                if (name.startsWith("\"")) {
                    name = unquote(name);
                }
                if (name != null && name.startsWith("b/")) {
                    Optional<Path> file = inside(top, name.substring(2));
                    if (file.isPresent()) {
                        current = touched.computeIfAbsent(file.get(), k -> new BitSet());
                        currentAdded = added.computeIfAbsent(file.get(), k -> new BitSet());
                    }
                }
                continue;
            }
            Matcher hunk = HUNK.matcher(line);
            if (hunk.find()) {
                oldLeft = hunk.group(1) == null ? 1 : Long.parseLong(hunk.group(1));
                int start = Integer.parseInt(hunk.group(2));
                int count = hunk.group(3) == null ? 1 : Integer.parseInt(hunk.group(3));
                newLeft = count;
                if (current == null) {
                    continue;
                }
                if (count == 0) {
                    // a pure deletion: the lines around the gap changed meaning
                    current.set(Math.max(1, start), start + 2);
                } else {
                    current.set(start, start + count);
                    currentAdded.set(start, start + count);
                }
            }
        }
        return new Parsed(touched, added);
    }

    /** A name git wrote as a C string ({@code "b/caf\303\251.java"}), or null when it is not one. */
    static String unquote(String quoted) {
        if (quoted.length() < 2 || !quoted.startsWith("\"") || !quoted.endsWith("\"")) {
            return null;
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        for (int i = 1; i < quoted.length() - 1; i++) {
            char c = quoted.charAt(i);
            if (c != '\\') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            if (++i >= quoted.length() - 1) {
                return null;
            }
            char e = quoted.charAt(i);
            if (e >= '0' && e <= '7' && i + 2 < quoted.length() - 1) {
                bytes.write(Integer.parseInt(quoted.substring(i, i + 3), 8) & 0xFF);
                i += 2;
                continue;
            }
            switch (e) {
                case 'a' -> bytes.write(7);
                case 'b' -> bytes.write('\b');
                case 't' -> bytes.write('\t');
                case 'n' -> bytes.write('\n');
                case 'v' -> bytes.write(11);
                case 'f' -> bytes.write('\f');
                case 'r' -> bytes.write('\r');
                case '"', '\\' -> bytes.write(e);
                default -> {
                    return null;
                }
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** A name from git, as a path in the work tree; empty when it is absolute or climbs out. */
    private static Optional<Path> inside(Path top, String name) {
        if (name.isEmpty() || name.indexOf('\0') >= 0) {
            return Optional.empty();
        }
        try {
            Path relative = Path.of(name);
            Path resolved = top.resolve(relative).normalize();
            if (relative.isAbsolute() || !resolved.startsWith(top) || resolved.equals(top)) {
                return Optional.empty();
            }
            return Optional.of(resolved);
        } catch (java.nio.file.InvalidPathException e) {
            return Optional.empty();
        }
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Whether the finding's primary location or any path step is on a changed line. */
    public boolean touches(Finding finding) {
        return firstTouched(finding).isPresent();
    }

    /** The first of the finding's primary location and path steps that is on a changed line. */
    public Optional<CodeLocation> firstTouched(Finding finding) {
        if (touches(finding.primary())) {
            return Optional.of(finding.primary());
        }
        for (CodeLocation step : finding.codeFlow()) {
            if (touches(step)) {
                return Optional.of(step);
            }
        }
        for (List<CodeLocation> flow : finding.otherFlows()) {
            for (CodeLocation step : flow) {
                if (touches(step)) {
                    return Optional.of(step);
                }
            }
        }
        return Optional.empty();
    }

    private boolean touches(CodeLocation location) {
        if (location.file() == null) {
            return false;
        }
        Path file = location.file().toAbsolutePath().normalize();
        if (wholeFiles.contains(file)) {
            return true;
        }
        BitSet changed = lines.get(file);
        if (changed == null || location.region() == null) {
            return false;
        }
        int from = location.region().startLine();
        int to = Math.max(from, location.region().endLine());
        int next = changed.nextSetBit(from);
        return next >= 0 && next <= to;
    }

    public List<Finding> filter(List<Finding> findings) {
        List<Finding> out = new ArrayList<>();
        for (Finding f : findings) {
            if (touches(f)) {
                out.add(f);
            }
        }
        return out;
    }
}
