package dev.racelint.field;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Where a service's code is, without the network. {@code SNAPSHOTS_DIR/owner+name} is either a
 * fetched git snapshot ({@code owner+name/repo}, a bare git directory or one holding {@code .git}),
 * whose pinned commit is extracted by field/extract into the work folder once, or a tree already
 * extracted at that commit.
 */
final class Snapshots {
    private final Path snapshots;
    private final Path workDir;
    private final Path extractScript;

    Snapshots(Path snapshots, Path workDir, Path extractScript) {
        this.snapshots = snapshots;
        this.workDir = workDir;
        this.extractScript = extractScript;
    }

    /** The repository tree of {@code service}, or why there is none. */
    Result tree(Manifest.Service service) throws IOException, InterruptedException {
        Path entry = snapshots.resolve(service.folderName());
        if (!Files.isDirectory(entry)) {
            return Result.missing("no snapshot " + service.folderName() + " in " + snapshots.getFileName());
        }
        Optional<Path> gitDir = gitDir(entry.resolve("repo"));
        if (gitDir.isEmpty()) {
            return Result.at(entry);
        }
        Path tree = workDir.resolve(service.folderName() + "@" + service.commit().substring(0, 12));
        Path done = workDir.resolve(tree.getFileName() + ".done");
        if (Files.exists(done)) {
            return Result.at(tree);
        }
        if (run(List.of("git", "--git-dir=" + gitDir.get(), "cat-file", "-e", service.commit() + "^{commit}")) != 0) {
            return Result.missing("the snapshot of " + service.repository() + " has no commit " + service.commit());
        }
        Files.createDirectories(workDir);
        if (run(List.of("bash", extractScript.toString(), gitDir.get().toString(), service.commit(), tree.toString())) != 0) {
            return Result.missing("field/extract failed for " + service.repository());
        }
        Files.writeString(done, service.commit() + "\n");
        return Result.at(tree);
    }

    /** A tree, or the reason a service cannot be scanned. */
    record Result(Optional<Path> tree, String missing) {
        static Result at(Path tree) {
            return new Result(Optional.of(tree), "");
        }

        static Result missing(String why) {
            return new Result(Optional.empty(), why);
        }
    }

    private static Optional<Path> gitDir(Path repo) {
        if (Files.isDirectory(repo.resolve(".git"))) {
            return Optional.of(repo.resolve(".git"));
        }
        if (Files.isRegularFile(repo.resolve("HEAD")) && Files.isDirectory(repo.resolve("objects"))) {
            return Optional.of(repo);
        }
        return Optional.empty();
    }

    private static int run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(new ArrayList<>(command)).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        if (!process.waitFor(30, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }
}
