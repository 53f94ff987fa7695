package dev.racelint.analyzer.cache;

import com.github.javaparser.JavaParser;
import dev.racelint.analyzer.finding.Fingerprints;
import dev.racelint.analyzer.parse.ParsedFile;
import dev.racelint.analyzer.parse.TreeCodec;
import dev.racelint.analyzer.parse.TreeStore;
import dev.racelint.analyzer.report.AtomicReplace;
import dev.racelint.analyzer.source.SourceFile;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The syntax trees of the last scan, one per file contents (SHA-256), in a single file of the cache:
 * {@code <cache>/v1/trees-<root>-<code>.bin}, where {@code <root>} names the scanned root (a pack is
 * never shared between roots) and {@code <code>} the JavaParser and racelint that wrote it, so
 * another version never reads it. A re-scan reads the trees of unchanged files from
 * here and parses only the files whose contents changed; the pack is then rewritten with exactly the
 * current files' trees, so it does not grow with edits.
 *
 * <p>Layout: a header (magic, format, code identity), the entries one after the other (each a
 * {@link TreeCodec} blob), then the index (digest, offset, length, CRC-32C and MAC per entry), the
 * index's MAC, its offset and an end mark. The MACs are the user's ({@link UserKey}): an entry's
 * covers the file digest and the tree's bytes, so no pack but this user's can map a file's contents
 * to a tree, and the index's covers the header and the whole index. A pack or entry whose MAC fails
 * is ignored with the cache's one note; anything else that does not check out (a damaged entry's
 * CRC) is ignored silently: the file is parsed as if nothing were cached.
 */
public final class TreePack implements TreeStore, Closeable {

    private static final byte[] MAGIC = "racelint syntax trees\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "RLTREND\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DIGEST_BYTES = 32;
    private static final int MAC_BYTES = UserKey.MAC_BYTES;
    private static final int INDEX_ENTRY_BYTES = DIGEST_BYTES + Long.BYTES + Integer.BYTES + Integer.BYTES + MAC_BYTES;
    private static final String TREE_MAC = "racelint syntax tree";
    private static final String INDEX_MAC = "racelint syntax tree index";

    /** Where an entry is in its pack, and its checks. */
    private record Entry(long offset, int length, int checksum, byte[] mac) {}

    private final ScanCache cache;
    private final Path entries;
    private final Path file;
    /** {@code trees-<root>-}: the packs of this root, whichever racelint wrote them. */
    private final String rootPrefix;
    private final String identity;
    private final CacheKey.Inputs inputs;
    private final FileChannel previous;
    /** Digest to the entry the last scan left. */
    private final Map<String, Entry> previousIndex;
    private final Set<String> reused = ConcurrentHashMap.newKeySet();
    private final AtomicInteger filesReused = new AtomicInteger();
    /** Written to {@link #temp} this scan: digest to entry. Guarded by {@code this}. */
    private final Map<String, Entry> written = new HashMap<>();
    private Path temp;
    private FileChannel out;
    private IOException failure;
    /** Set by {@link #close()}: a parser worker given up as too slow may still offer its tree afterwards. */
    private boolean closed;

    private TreePack(ScanCache cache, String rootPrefix, String identity, CacheKey.Inputs inputs,
            FileChannel previous, Map<String, Entry> previousIndex) {
        this.cache = cache;
        this.entries = cache.entries();
        this.rootPrefix = rootPrefix;
        this.file = entries.resolve(rootPrefix + Fingerprints.sha256(identity).substring(0, 16) + ".bin");
        this.identity = identity;
        this.inputs = inputs;
        this.previous = previous;
        this.previousIndex = previousIndex;
    }

    /**
     * The pack in {@code cache} for these inputs, with whatever trees the last scan left there; empty
     * when trees cannot be cached (racelint's code cannot be identified, or JavaParser's internals
     * are out of reach).
     */
    public static Optional<TreePack> open(ScanCache cache, Path root, CacheKey.Inputs inputs) {
        Optional<String> code = CacheKey.codeIdentity(List.of(JavaParser.class, TreeCodec.class));
        if (code.isEmpty() || !TreeCodec.available()) {
            return Optional.empty();
        }
        String rootName = root.toAbsolutePath().normalize().toString();
        String rootPrefix = "trees-" + Fingerprints.sha256(rootName).substring(0, 12) + "-";
        String identity = "trees " + TreeCodec.FORMAT + " java " + Runtime.version().feature() + " root " + rootName
                + " code " + code.get();
        TreePack empty = new TreePack(cache, rootPrefix, identity, inputs, null, Map.of());
        if (!ScanCache.isPlainFile(empty.file)) {
            if (Files.exists(empty.file, LinkOption.NOFOLLOW_LINKS)) {
                // a link or a folder in the pack's place: never this racelint's
                cache.ignoredForeignEntry();
            }
            return Optional.of(empty);
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(empty.file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            Map<String, Entry> index = readIndex(channel, identity, cache.key(), 2L * inputs.files().size() + 1024);
            return Optional.of(new TreePack(cache, rootPrefix, identity, inputs, channel, index));
        } catch (ForeignPack e) {
            closeQuietly(channel);
            cache.ignoredForeignEntry();
            return Optional.of(empty);
        } catch (IOException | RuntimeException e) {
            // damaged, truncated or another format: start afresh
            closeQuietly(channel);
            return Optional.of(empty);
        }
    }

    /** A pack that does not carry this user's MAC. */
    private static final class ForeignPack extends IOException {
        ForeignPack() {
            super("not signed with this user's key", null);
        }
    }

    /**
     * The index, if it carries this user's MAC. A pack holds the last scan's files, seldom many more
     * than this scan's, so an index beyond {@code maxEntries} is refused before it is read (a pack
     * committed to the tree cannot make the scan allocate gigabytes).
     */
    private static Map<String, Entry> readIndex(FileChannel channel, String identity, UserKey key, long maxEntries)
            throws IOException {
        long size = channel.size();
        byte[] header = header(identity);
        long trailer = MAC_BYTES + Long.BYTES + END.length;
        if (size < header.length + Integer.BYTES + trailer
                || !Arrays.equals(read(channel, 0, header.length), header)
                || !Arrays.equals(read(channel, size - END.length, END.length), END)) {
            throw new IOException("not a tree pack of this racelint");
        }
        byte[] offsetBytes = read(channel, size - END.length - Long.BYTES, Long.BYTES);
        long indexOffset = ByteBuffer.wrap(offsetBytes).getLong();
        long indexBytes = size - trailer - indexOffset;
        long mostBytes = Integer.BYTES + maxEntries * INDEX_ENTRY_BYTES;
        if (indexOffset < header.length || indexBytes < Integer.BYTES || indexBytes > mostBytes) {
            throw new IOException("bad index");
        }
        byte[] indexArray = read(channel, indexOffset, (int) indexBytes);
        byte[] indexMac = read(channel, size - trailer, MAC_BYTES);
        if (!key.verify(indexMac, INDEX_MAC, header, indexArray, offsetBytes)) {
            throw new ForeignPack();
        }
        ByteBuffer index = ByteBuffer.wrap(indexArray);
        int count = index.getInt();
        if ((long) count * INDEX_ENTRY_BYTES != indexBytes - Integer.BYTES) {
            throw new IOException("bad index");
        }
        Map<String, Entry> out = new HashMap<>();
        byte[] digest = new byte[DIGEST_BYTES];
        for (int i = 0; i < count; i++) {
            index.get(digest);
            long offset = index.getLong();
            int length = index.getInt();
            int checksum = index.getInt();
            byte[] mac = new byte[MAC_BYTES];
            index.get(mac);
            if (offset < header.length || length < 0 || offset + length > indexOffset) {
                throw new IOException("bad index");
            }
            out.put(HexFormat.of().formatHex(digest), new Entry(offset, length, checksum, mac));
        }
        return out;
    }

    @Override
    public ParsedFile load(SourceFile source) {
        String digest = inputs.contentHash(source.path());
        Entry entry = digest == null ? null : previousIndex.get(digest);
        if (entry == null) {
            return null;
        }
        try {
            byte[] bytes = read(previous, entry.offset(), entry.length());
            if (checksum(bytes) != entry.checksum()) {
                return null;
            }
            if (!cache.key().verify(entry.mac(), TREE_MAC, HexFormat.of().parseHex(digest), bytes)) {
                // intact, but not this user's tree for these contents
                cache.ignoredForeignEntry();
                return null;
            }
            ParsedFile tree = TreeCodec.decode(bytes, 0, bytes.length, source.path());
            reused.add(digest);
            filesReused.incrementAndGet();
            return tree;
        } catch (IOException | RuntimeException | StackOverflowError e) {
            // a damaged entry: the file is parsed, and its tree written anew
            return null;
        }
    }

    @Override
    public void save(SourceFile source, ParsedFile tree) {
        String digest = inputs.contentHash(source.path());
        if (digest == null || reused.contains(digest)) {
            return;
        }
        byte[] bytes;
        byte[] mac;
        try {
            bytes = TreeCodec.encode(tree);
            mac = cache.key().mac(TREE_MAC, HexFormat.of().parseHex(digest), bytes);
        } catch (TreeCodec.UnsupportedTree | RuntimeException | StackOverflowError e) {
            // that file is parsed every time
            return;
        }
        synchronized (this) {
            if (closed || failure != null || written.containsKey(digest)) {
                return;
            }
            try {
                FileChannel channel = output();
                long offset = channel.position();
                writeFully(channel, ByteBuffer.wrap(bytes));
                written.put(digest, new Entry(offset, bytes.length, checksum(bytes), mac));
            } catch (IOException e) {
                failure = e;
            }
        }
    }

    /** How many files' trees came from the pack, rather than from the parser, in this scan. */
    public int reusedTrees() {
        return filesReused.get();
    }

    /**
     * Replaces the pack with the trees of this scan's files: those reused and those just parsed.
     * Leaves it as it is when nothing changed.
     */
    public synchronized void commit() throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (written.isEmpty() && reused.size() == previousIndex.size()) {
            return;
        }
        FileChannel channel = output();
        for (String digest : reused) {
            if (!written.containsKey(digest)) {
                Entry entry = previousIndex.get(digest);
                long offset = channel.position();
                for (long copied = 0; copied < entry.length(); ) {
                    copied += previous.transferTo(entry.offset() + copied, entry.length() - copied, channel);
                }
                written.put(digest, new Entry(offset, entry.length(), entry.checksum(), entry.mac()));
            }
        }
        long indexOffset = channel.position();
        ByteBuffer index = ByteBuffer.allocate(Integer.BYTES + written.size() * INDEX_ENTRY_BYTES);
        index.putInt(written.size());
        written.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            index.put(HexFormat.of().parseHex(e.getKey()));
            index.putLong(e.getValue().offset());
            index.putInt(e.getValue().length());
            index.putInt(e.getValue().checksum());
            index.put(e.getValue().mac());
        });
        byte[] offsetBytes = ByteBuffer.allocate(Long.BYTES).putLong(indexOffset).array();
        byte[] indexMac = cache.key().mac(INDEX_MAC, header(identity), index.array(), offsetBytes);
        writeFully(channel, index.flip());
        writeFully(channel, ByteBuffer.allocate(MAC_BYTES + Long.BYTES + END.length)
                .put(indexMac).put(offsetBytes).put(END).flip());
        channel.close();
        out = null;
        AtomicReplace.move(temp, file);
        temp = null;
        deleteOtherPacks();
    }

    @Override
    public synchronized void close() {
        closed = true;
        closeQuietly(previous);
        closeQuietly(out);
        if (temp != null) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException e) {
                // a stray temporary file in the cache; the next write leaves it be
            }
        }
    }

    private FileChannel output() throws IOException {
        if (out == null) {
            cache.prepare();
            temp = Files.createTempFile(entries, "trees", ".tmp");
            out = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING,
                    LinkOption.NOFOLLOW_LINKS);
            writeFully(out, ByteBuffer.wrap(header(identity)));
        }
        return out;
    }

    /**
     * This root's packs of other racelint or JavaParser versions (never read again by this one), and
     * temporary packs over an hour old (left by a scan that was killed while writing). Only regular
     * files: a link is never followed, nor removed.
     */
    private void deleteOtherPacks() throws IOException {
        long anHourAgo = System.currentTimeMillis() - 3_600_000L;
        try (Stream<Path> list = Files.list(entries)) {
            for (Path other : list.filter(ScanCache::isPlainFile).toList()) {
                String name = other.getFileName().toString();
                boolean olderPack = name.startsWith(rootPrefix) && name.endsWith(".bin") && !other.equals(file);
                boolean strayTemp = name.startsWith("trees") && name.endsWith(".tmp")
                        && ScanCache.modified(other).toMillis() < anHourAgo;
                if (olderPack || strayTemp) {
                    Files.deleteIfExists(other);
                }
            }
        }
    }

    private static int checksum(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return (int) crc.getValue();
    }

    private static byte[] header(String identity) {
        byte[] text = identity.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(MAGIC.length + Integer.BYTES + text.length)
                .put(MAGIC).putInt(text.length).put(text).array();
    }

    private static byte[] read(FileChannel channel, long offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, offset + buffer.position()) < 0) {
                throw new IOException("truncated");
            }
        }
        return buffer.array();
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    private static void closeQuietly(Closeable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (IOException e) {
                // read-only or already failed: nothing to keep
            }
        }
    }
}
