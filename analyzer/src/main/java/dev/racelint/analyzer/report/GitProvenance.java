package dev.racelint.analyzer.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which commit of which repository a scan read, for SARIF's {@code versionControlProvenance}, taken
 * from the files of the {@code .git} folder at the source root.
 *
 * <p>The scanned tree is untrusted (a pull request from a fork), so git is never run on it (a
 * repository's config can name programs git would start) and nothing outside the source root is
 * read: a {@code .git} file that points elsewhere (a linked work tree, a submodule) or a link that
 * leads out gives no provenance. Each file is read only up to a small limit, and every value is
 * checked before it goes into the report: a revision is hexadecimal, a branch a plain ref name, the
 * repository an absolute URI without credentials.
 */
public final class GitProvenance {

    /** Bytes read at most from HEAD and a loose ref. */
    static final int SMALL_FILE_LIMIT = 4096;
    /** Bytes read at most from config and packed-refs (a repository with very many refs gets no revision). */
    static final int LARGE_FILE_LIMIT = 1 << 20;

    private static final Pattern REVISION = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
    private static final Pattern BRANCH = Pattern.compile("[A-Za-z0-9._/-]{1,200}");
    private static final Pattern SECTION = Pattern.compile("\\s*\\[\\s*remote\\s+\"([^\"]*)\"\\s*]\\s*");
    private static final Pattern URL = Pattern.compile("\\s*url\\s*=\\s*(\\S+)\\s*");
    /** {@code git@host:owner/name.git}, the scp-like form git accepts for ssh. */
    private static final Pattern SCP_LIKE = Pattern.compile("(?:[A-Za-z0-9._-]+@)?([A-Za-z0-9.-]+):([A-Za-z0-9._~/-]+)");

    /**
     * @param repository the remote {@code origin} (or the only remote), as an https or ssh URI without user info
     * @param revision   the commit checked out
     * @param branch     the branch checked out, or null when HEAD is detached
     */
    public record Provenance(URI repository, String revision, String branch) {
    }

    private GitProvenance() {
    }

    /** The provenance of the work tree whose root is {@code sourceRoot}, or empty when it is not one (or unreadable). */
    public static Optional<Provenance> of(Path sourceRoot) {
        try {
            Path root = sourceRoot.toRealPath();
            Path gitDir = root.resolve(".git");
            if (!Files.isDirectory(gitDir, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.empty();
            }
            String head = firstLine(gitDir.resolve("HEAD"), SMALL_FILE_LIMIT);
            if (head == null) {
                return Optional.empty();
            }
            String branch = null;
            String revision;
            if (head.startsWith("ref: refs/heads/")) {
                branch = head.substring("ref: refs/heads/".length()).trim();
                if (!BRANCH.matcher(branch).matches() || branch.contains("..")) {
                    return Optional.empty();
                }
                revision = refRevision(gitDir, "refs/heads/" + branch);
            } else {
                revision = head.trim();
            }
            if (revision == null || !REVISION.matcher(revision.toLowerCase(Locale.ROOT)).matches()) {
                return Optional.empty();
            }
            String checkedOut = revision.toLowerCase(Locale.ROOT);
            String onBranch = branch;
            return remote(gitDir.resolve("config")).map(uri -> new Provenance(uri, checkedOut, onBranch));
        } catch (IOException | RuntimeException e) {
            // an unreadable or odd .git folder is no provenance, never a failed scan
            return Optional.empty();
        }
    }

    private static String refRevision(Path gitDir, String ref) throws IOException {
        Path loose = gitDir.resolve(ref);
        if (Files.isRegularFile(loose, LinkOption.NOFOLLOW_LINKS)) {
            return firstLine(loose, SMALL_FILE_LIMIT);
        }
        Path packed = gitDir.resolve("packed-refs");
        if (!Files.isRegularFile(packed, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (BufferedReader lines = reader(packed, LARGE_FILE_LIMIT)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                int space = line.indexOf(' ');
                if (space > 0 && line.substring(space + 1).equals(ref)) {
                    return line.substring(0, space);
                }
            }
        }
        return null;
    }

    /** The url of remote {@code origin}, else of the first remote, as an absolute URI without credentials. */
    static Optional<URI> remote(Path config) throws IOException {
        if (!Files.isRegularFile(config, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        String first = null;
        String origin = null;
        try (BufferedReader lines = reader(config, LARGE_FILE_LIMIT)) {
            String remote = null;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                Matcher section = SECTION.matcher(line);
                if (section.matches()) {
                    remote = section.group(1);
                    continue;
                }
                if (line.trim().startsWith("[")) {
                    remote = null;
                    continue;
                }
                Matcher url = URL.matcher(line);
                if (remote != null && url.matches()) {
                    if (first == null) {
                        first = url.group(1);
                    }
                    if (remote.equals("origin") && origin == null) {
                        origin = url.group(1);
                    }
                }
            }
        }
        return repositoryUri(origin != null ? origin : first);
    }

    /** An https/ssh/git URI with user info, query and fragment dropped; the scp-like ssh form is rewritten. */
    static Optional<URI> repositoryUri(String url) {
        if (url == null) {
            return Optional.empty();
        }
        try {
            URI uri;
            Matcher scp = SCP_LIKE.matcher(url);
            if (!url.contains("://") && scp.matches()) {
                uri = new URI("ssh", scp.group(1), "/" + scp.group(2), null);
            } else {
                uri = new URI(url);
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("https") || scheme.equals("http") || scheme.equals("ssh") || scheme.equals("git"))
                    || uri.getHost() == null) {
                return Optional.empty();
            }
            // user info may hold a token (https://x-access-token:...@github.com/...): never report it
            return Optional.of(new URI(scheme, null, uri.getHost(), uri.getPort(), uri.getPath(), null, null));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    private static String firstLine(Path file, int limit) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (BufferedReader lines = reader(file, limit)) {
            return lines.readLine();
        }
    }

    private static BufferedReader reader(Path file, int limit) throws IOException {
        InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS);
        return new BufferedReader(new InputStreamReader(new BoundedInputStream(in, limit), StandardCharsets.UTF_8));
    }

    /** Reads at most {@code limit} bytes, then reports the end of the stream. */
    private static final class BoundedInputStream extends java.io.FilterInputStream {
        private long left;

        BoundedInputStream(InputStream in, long limit) {
            super(in);
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) {
                return -1;
            }
            int b = super.read();
            if (b >= 0) {
                left--;
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = super.read(buffer, offset, (int) Math.min(length, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }
    }
}
