package dev.racelint.analyzer.cache;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.report.AtomicReplace;
import dev.racelint.analyzer.report.ReportPaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Scan results kept between scans, one entry per set of settings (see {@link CacheKey}), in
 * {@code <directory>/v<format>/<settings>.json}. Safe to delete at any time; an entry that cannot
 * be read, was written by another format or racelint, or whose inputs differ is simply not used.
 * The directory gets a {@code .gitignore} (so it is never committed) and a {@code CACHEDIR.TAG}
 * (so backup tools skip it).
 *
 * <p>The scanned tree is untrusted, and so is a cache inside it: every entry (and every tree pack,
 * see {@link TreePack}) is signed with the user's {@link UserKey}, and one that does not verify is
 * ignored (one {@link #ENTRY_IGNORED} note per scan). The cache folder and each folder on its path
 * below the root must be a real folder (not a symbolic link) owned by the user, or the cache is
 * refused; nothing in it is read or written through a link.
 */
public final class ScanCache {

    /** Where the CLI keeps the cache, relative to the scanned root. */
    public static final String DEFAULT_DIRECTORY = ".racelint/cache";

    /** Diagnostic code: the cache was not used at all (a linked or foreign folder, no user key). */
    public static final String REFUSED = "cache-refused";
    /** Diagnostic code: an entry this user did not make (or one since changed) was ignored. */
    public static final String ENTRY_IGNORED = "cache-entry-ignored";

    /** Entries kept per cache; the least recently used beyond this are deleted. */
    static final int MAX_ENTRIES = 16;
    /** Larger than any result entry (about 2 KB per finding); a bigger file is not read into memory. */
    static final long MAX_ENTRY_BYTES = 256L * 1024 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] MAC_PREFIX = "racelint-mac ".getBytes(StandardCharsets.US_ASCII);
    private static final String RESULT_MAC = "racelint scan result";
    private static final int MAC_HEX = UserKey.MAC_BYTES * 2;

    private final Path directory;
    private final Path entries;
    private final Path root;
    private final UserKey key;
    private final AtomicBoolean foreignIgnored = new AtomicBoolean();

    /** Why the cache is not used; the message names no absolute path. */
    public static final class Refused extends IOException {
        Refused(String message) {
            super(message);
        }
    }

    /**
     * A cache in {@code directory} for scans of {@code root}, its entries signed with {@code key};
     * no folder is checked until something is written ({@link #open} checks them up front).
     */
    public ScanCache(Path directory, Path root, UserKey key) {
        this.directory = directory.toAbsolutePath().normalize();
        this.entries = this.directory.resolve("v" + CacheKey.FORMAT);
        this.root = root.toAbsolutePath().normalize();
        this.key = key;
    }

    /**
     * The cache in {@code directory} for scans of {@code root}, with this user's key; refused when
     * the key cannot be had or is inside the scanned tree, or a folder of the cache is a link or
     * another user's.
     */
    public static ScanCache open(Path directory, Path root) throws Refused {
        Path base = root.toAbsolutePath().normalize();
        Optional<Path> keyFile = UserKey.location(System.getProperties(), System.getenv());
        if (keyFile.isPresent() && insideTree(base, keyFile.get())) {
            throw new Refused("scan cache not used: " + UserKey.SHOWN + " is inside the scanned tree, which anyone "
                    + "who can change the tree could then sign entries with");
        }
        UserKey key;
        try {
            key = UserKey.load();
        } catch (UserKey.Unavailable e) {
            throw new Refused("scan cache not used: " + e.getMessage());
        }
        ScanCache cache = new ScanCache(directory, base, key);
        cache.checkFolders();
        return cache;
    }

    /** An exception in words, without the absolute paths file system exceptions carry. */
    public static String reason(Exception e) {
        if (e instanceof Refused) {
            return e.getMessage();
        }
        if (e instanceof FileSystemException fs) {
            return e.getClass().getSimpleName() + (fs.getReason() == null ? "" : " (" + fs.getReason() + ")");
        }
        return e.getClass().getSimpleName();
    }

    public static Path defaultDirectory(Path root) {
        return root.resolve(DEFAULT_DIRECTORY);
    }

    public Path directory() {
        return directory;
    }

    /** The cache folder as messages name it: relative to the root when inside it, never an absolute path. */
    public String shownDirectory() {
        return shown(directory);
    }

    /** The entry for these settings, if it holds a result for exactly these inputs. */
    public Optional<CachedScan> read(String settings, String inputs) {
        Path file = entryFile(settings);
        byte[] bytes;
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile() || attributes.size() > MAX_ENTRY_BYTES) {
                // a link, a folder or a file far beyond any result: never one this racelint wrote
                foreignIgnored.set(true);
                return Optional.empty();
            }
            bytes = readNoFollow(file);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        Optional<byte[]> json = verified(settings, bytes);
        if (json.isEmpty()) {
            foreignIgnored.set(true);
            return Optional.empty();
        }
        try {
            CachedScan scan = JSON.readValue(json.get(), CachedScan.class);
            if (scan.format() != CacheKey.FORMAT || !settings.equals(scan.settings()) || !inputs.equals(scan.inputs())) {
                return Optional.empty();
            }
            if (!scan.staysInside(root)) {
                // signed, yet a path would leave the tree: never used
                foreignIgnored.set(true);
                return Optional.empty();
            }
            // restored once here, so an entry that cannot be is a miss, not a failure later
            scan.restoredFindings(root);
            scan.restoredSuppressed(root);
            scan.restoredDiagnostics(root);
            markUsed(file);
            return Optional.of(scan);
        } catch (IOException | RuntimeException e) {
            // a damaged entry: the scan runs and replaces it
            return Optional.empty();
        }
    }

    /** The one note a scan gets when it met entries not made by this user: empty when it met none. */
    public List<Diagnostic> notes() {
        if (!foreignIgnored.get()) {
            return List.of();
        }
        return List.of(new Diagnostic(null, 0, 0, Level.NOTE, ENTRY_IGNORED, "an entry in the scan cache ("
                + shownDirectory() + ") was not made by this user's racelint (another machine or user, or changed "
                + "since) and was ignored; the files were analysed afresh"));
    }

    /** The folder of this format's entries (result entries and the tree pack). */
    Path entries() {
        return entries;
    }

    Path root() {
        return root;
    }

    UserKey key() {
        return key;
    }

    /** Records that an entry failed the check (reported once, by {@link #notes()}). */
    void ignoredForeignEntry() {
        foreignIgnored.set(true);
    }

    /** Creates the entries' folder, with the marks that keep the cache out of commits and backups. */
    void prepare() throws IOException {
        List<Path> guarded = guardedFolders();
        if (guarded.get(0).getParent() != null) {
            // above the guarded folders: the root, or where the user pointed --cache-dir
            Files.createDirectories(guarded.get(0).getParent());
        }
        for (Path folder : guarded) {
            try {
                Files.createDirectory(folder);
            } catch (FileAlreadyExistsException e) {
                // checked next: a link in its place is refused before anything is made through it
            }
            checkFolder(folder);
        }
        createIfAbsent(directory.resolve(".gitignore"), "# racelint's cache: safe to delete, never to commit\n*\n");
        createIfAbsent(directory.resolve("CACHEDIR.TAG"), "Signature: 8a477f597d28d172789f06886806bc55\n"
                + "# This directory is racelint's scan cache (https://bford.info/cachedir/).\n");
    }

    /** Stores {@code scan} under its settings, replacing the entry atomically. */
    public void write(CachedScan scan) throws IOException {
        prepare();
        byte[] json = JSON.writeValueAsBytes(scan);
        byte[] mac = key.mac(RESULT_MAC, scan.settings().getBytes(StandardCharsets.UTF_8), json);
        Path target = entryFile(scan.settings());
        Path temp = Files.createTempFile(entries, "entry", ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(temp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS)) {
                out.write(MAC_PREFIX);
                out.write(HexFormat.of().formatHex(mac).getBytes(StandardCharsets.US_ASCII));
                out.write('\n');
                out.write(json);
            }
            AtomicReplace.move(temp, target);
        } finally {
            Files.deleteIfExists(temp);
        }
        prune();
    }

    /** The JSON of an entry whose first line carries this user's MAC over its settings and JSON; empty otherwise. */
    private Optional<byte[]> verified(String settings, byte[] bytes) {
        int header = MAC_PREFIX.length + MAC_HEX + 1;
        if (bytes.length < header || !Arrays.equals(bytes, 0, MAC_PREFIX.length, MAC_PREFIX, 0, MAC_PREFIX.length)
                || bytes[header - 1] != '\n') {
            return Optional.empty();
        }
        byte[] mac;
        try {
            mac = HexFormat.of().parseHex(new String(bytes, MAC_PREFIX.length, MAC_HEX, StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        byte[] json = Arrays.copyOfRange(bytes, header, bytes.length);
        return key.verify(mac, RESULT_MAC, settings.getBytes(StandardCharsets.UTF_8), json)
                ? Optional.of(json) : Optional.empty();
    }

    /**
     * The folders whose being a link or another user's could turn the cache against the user: each
     * folder from below the root down to the entries' folder, or, for a cache outside the root, the
     * cache folder and the entries' folder.
     */
    private List<Path> guardedFolders() {
        List<Path> folders = new ArrayList<>();
        if (directory.startsWith(root) && !directory.equals(root)) {
            Path at = root;
            for (Path name : root.relativize(directory)) {
                at = at.resolve(name);
                folders.add(at);
            }
        } else {
            folders.add(directory);
        }
        folders.add(entries);
        return folders;
    }

    /** Refuses a guarded folder that is a symbolic link or not the user's; stops at the first one missing. */
    void checkFolders() throws Refused {
        for (Path folder : guardedFolders()) {
            if (!checkFolder(folder)) {
                return;
            }
        }
    }

    /** False when {@code folder} is missing (or a file: reading and writing then fail, with their own note). */
    private boolean checkFolder(Path folder) throws Refused {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(folder, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | RuntimeException e) {
            return false;
        }
        if (attributes.isSymbolicLink()) {
            throw new Refused("scan cache not used: " + shown(folder) + " is a symbolic link (the cache and "
                    + "every folder on its path in the tree must be real folders)");
        }
        if (!ownedByUser(folder)) {
            throw new Refused("scan cache not used: " + shown(folder) + " is not owned by the user running racelint");
        }
        return attributes.isDirectory();
    }

    private String shown(Path folder) {
        if (folder.startsWith(root) && !folder.equals(root)) {
            return ReportPaths.relative(root, folder).orElse("the cache folder");
        }
        if (folder.equals(directory)) {
            return "the cache folder";
        }
        return "the cache folder's " + directory.relativize(folder).toString().replace('\\', '/');
    }

    private static boolean insideTree(Path root, Path file) {
        if (file.startsWith(root)) {
            return true;
        }
        try {
            return Files.exists(file) && file.toRealPath().startsWith(root.toRealPath());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean ownedByUser(Path folder) {
        Optional<UserPrincipal> user = CurrentUser.VALUE;
        if (user.isEmpty()) {
            return true;
        }
        try {
            return Files.getOwner(folder, LinkOption.NOFOLLOW_LINKS).equals(user.get());
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // a file system without owners: nothing to check
            return true;
        }
    }

    /** The user running racelint, as the file system names owners: the owner of a file it just made. */
    private static final class CurrentUser {
        static final Optional<UserPrincipal> VALUE = find();

        private static Optional<UserPrincipal> find() {
            Path probe = null;
            try {
                probe = Files.createTempFile("racelint-owner", ".tmp");
                return Optional.of(Files.getOwner(probe));
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                return Optional.empty();
            } finally {
                if (probe != null) {
                    try {
                        Files.deleteIfExists(probe);
                    } catch (IOException e) {
                        // a stray empty file in the temporary folder
                    }
                }
            }
        }
    }

    private Path entryFile(String settings) {
        return entries.resolve(settings + ".json");
    }

    static byte[] readNoFollow(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            return in.readAllBytes();
        }
    }

    /** Whether {@code file} is a regular file itself, not through a link. */
    static boolean isPlainFile(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static void markUsed(Path file) {
        try {
            Files.getFileAttributeView(file, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setTimes(FileTime.fromMillis(System.currentTimeMillis()), null, null);
        } catch (IOException | RuntimeException e) {
            // only affects which entry is pruned first
        }
    }

    private void prune() throws IOException {
        List<Path> all;
        try (Stream<Path> list = Files.list(entries)) {
            all = list.filter(p -> p.getFileName().toString().endsWith(".json")).filter(ScanCache::isPlainFile).toList();
        }
        if (all.size() <= MAX_ENTRIES) {
            return;
        }
        List<Path> oldestFirst = all.stream()
                .sorted(Comparator.comparing(ScanCache::modified).thenComparing(Path::toString))
                .toList();
        for (Path old : oldestFirst.subList(0, all.size() - MAX_ENTRIES)) {
            Files.deleteIfExists(old);
        }
    }

    static FileTime modified(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).lastModifiedTime();
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    /** Writes {@code file} unless something (a link too) is already there: never through a link. */
    private static void createIfAbsent(Path file, String text) throws IOException {
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (FileAlreadyExistsException e) {
            // kept as it is
        }
    }
}
