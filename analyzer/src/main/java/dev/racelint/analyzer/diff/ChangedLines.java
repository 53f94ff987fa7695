package dev.racelint.analyzer.diff;

import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines changed since a git revision: what {@code git diff <ref>} adds or modifies in the work
 * tree (staged or not), plus untracked files, which are new in full. A finding is part of the
 * change when its primary location or any step of its paths sits on a changed line.
 *
 * <p>git runs with external diff drivers, text conversion and fsmonitor hooks switched off, so a
 * scanned repository's configuration cannot make racelint run its programs.
 */
public final class ChangedLines {

    private static final Pattern HUNK = Pattern.compile("^@@ -\\d+(?:,\\d+)? \\+(\\d+)(?:,(\\d+))? @@");
    private static final long TIMEOUT_SECONDS = 120;

    private final Map<Path, BitSet> lines;
    private final Set<Path> wholeFiles;

    private ChangedLines(Map<Path, BitSet> lines, Set<Path> wholeFiles) {
        this.lines = lines;
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
        if (ref.isBlank() || ref.startsWith("-")) {
            throw new DiffException("not a git revision: '" + ref + "'");
        }
        Path top = Path.of(git(folder, "rev-parse", "--show-toplevel").strip()).toAbsolutePath().normalize();
        git(top, "rev-parse", "--verify", "--quiet", ref + "^{commit}");
        Map<Path, BitSet> lines = parse(git(top, "diff", "--no-ext-diff", "--no-textconv", "--no-color", "--unified=0",
                "--no-renames", ref, "--"), top);
        Set<Path> untracked = new HashSet<>();
        for (String name : git(top, "ls-files", "--others", "--exclude-standard", "-z").split("\0")) {
            if (!name.isEmpty()) {
                untracked.add(top.resolve(name).normalize());
            }
        }
        return new ChangedLines(lines, untracked);
    }

    /** Parses unified diff output with zero context: the new side's line ranges per file. */
    static Map<Path, BitSet> parse(String diff, Path top) {
        Map<Path, BitSet> out = new HashMap<>();
        BitSet current = null;
        for (String line : diff.split("\n", -1)) {
            if (line.startsWith("+++ ")) {
                String name = line.substring(4).strip();
                if (name.equals("/dev/null")) {
                    current = null;
                } else {
                    if (name.startsWith("b/")) {
                        name = name.substring(2);
                    }
                    if (name.startsWith("\"") && name.endsWith("\"") && name.length() > 1) {
                        name = name.substring(1, name.length() - 1); // quoted names with unusual characters
                    }
                    current = out.computeIfAbsent(top.resolve(name).normalize(), k -> new BitSet());
                }
                continue;
            }
            Matcher hunk = HUNK.matcher(line);
            if (hunk.find() && current != null) {
                int start = Integer.parseInt(hunk.group(1));
                int count = hunk.group(2) == null ? 1 : Integer.parseInt(hunk.group(2));
                if (count == 0) {
                    // a pure deletion: the lines around the gap changed meaning
                    current.set(Math.max(1, start), start + 2);
                } else {
                    current.set(start, start + count);
                }
            }
        }
        return out;
    }

    /** Whether the finding's primary location or any path step is on a changed line. */
    public boolean touches(Finding finding) {
        if (touches(finding.primary())) {
            return true;
        }
        for (CodeLocation step : finding.codeFlow()) {
            if (touches(step)) {
                return true;
            }
        }
        for (List<CodeLocation> flow : finding.otherFlows()) {
            for (CodeLocation step : flow) {
                if (touches(step)) {
                    return true;
                }
            }
        }
        return false;
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

    private static String git(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
                "-c", "diff.external=", "-C", dir.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(false);
        builder.environment().put("GIT_TERMINAL_PROMPT", "0");
        builder.environment().remove("GIT_EXTERNAL_DIFF");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new DiffException("cannot run git (is it installed and on the PATH?): " + e.getMessage());
        }
        byte[] out;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        // both streams are drained at once, so a chatty stderr cannot block a large diff on stdout
        Thread errReader = new Thread(() -> {
            try (InputStream stderr = process.getErrorStream()) {
                stderr.transferTo(err);
            } catch (IOException ignored) {
                // the exit code still tells failure
            }
        }, "racelint-git-stderr");
        errReader.setDaemon(true);
        errReader.start();
        try (InputStream stdout = process.getInputStream()) {
            out = stdout.readAllBytes();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new DiffException("git " + args[0] + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
            errReader.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new DiffException("interrupted while running git");
        }
        if (process.exitValue() != 0) {
            String message = err.toString(StandardCharsets.UTF_8).strip();
            if (args[0].equals("rev-parse") && args.length > 1 && args[1].equals("--verify")) {
                message = "unknown git revision '" + args[args.length - 1].replace("^{commit}", "") + "'";
            }
            throw new DiffException(message.isEmpty() ? "git " + args[0] + " failed (exit " + process.exitValue() + ")"
                    : message.lines().findFirst().orElse(message));
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
