package dev.racelint.analyzer.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The per-user secret that signs every cache entry (HMAC-SHA256), so that a cache committed to the
 * scanned tree, or made on another machine or by another user, is never taken for this user's own.
 * It lives outside any scanned tree: {@code -Dracelint.keyFile=FILE}, else the environment variable
 * {@code RACELINT_KEY_FILE}, else {@code $XDG_CACHE_HOME/racelint/cache-key}, else
 * {@code ~/.cache/racelint/cache-key}; it is made on first use (32 random bytes, owner-only
 * permissions where the file system has them).
 */
public final class UserKey {

    /** System property naming the key file (tests, unusual setups). */
    public static final String PROPERTY = "racelint.keyFile";
    /** Environment variable naming the key file, when the system property is not set. */
    public static final String ENVIRONMENT = "RACELINT_KEY_FILE";
    /** How the location is named in messages (never the machine's absolute path). */
    static final String SHOWN = "the per-user cache key (" + ENVIRONMENT + ", default ~/.cache/racelint/cache-key)";

    static final int BYTES = 32;
    static final int MAC_BYTES = 32;
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec secret;

    private UserKey(byte[] secret) {
        this.secret = new SecretKeySpec(secret, ALGORITHM);
    }

    /** A key of these bytes; for embedding racelint (and for tests that play another machine). */
    public static UserKey of(byte[] secret) {
        if (secret.length < BYTES) {
            throw new IllegalArgumentException("a cache key has at least " + BYTES + " bytes");
        }
        return new UserKey(secret.clone());
    }

    /** Why there is no key; the message names no absolute path. */
    public static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }

    /** Where the key is kept, from the system property, the environment or the user's cache folder. */
    static Optional<Path> location(Properties properties, Map<String, String> environment) {
        String named = properties.getProperty(PROPERTY);
        if (named == null || named.isBlank()) {
            named = environment.get(ENVIRONMENT);
        }
        try {
            if (named != null && !named.isBlank()) {
                return Optional.of(Path.of(named).toAbsolutePath().normalize());
            }
            String xdg = environment.get("XDG_CACHE_HOME");
            // the XDG spec: a relative value is invalid and ignored
            if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
                return Optional.of(Path.of(xdg, "racelint", "cache-key").normalize());
            }
            String home = properties.getProperty("user.home");
            if (home != null && !home.isBlank() && Path.of(home).isAbsolute()) {
                return Optional.of(Path.of(home, ".cache", "racelint", "cache-key").normalize());
            }
        } catch (java.nio.file.InvalidPathException e) {
            // an unusable setting: no key, so no cache
        }
        return Optional.empty();
    }

    /** This user's key, made on first use. */
    public static UserKey load() throws Unavailable {
        Optional<Path> file = location(System.getProperties(), System.getenv());
        if (file.isEmpty()) {
            throw new Unavailable(SHOWN + " has no location: no home folder and no " + ENVIRONMENT);
        }
        return load(file.get());
    }

    /**
     * The key in {@code file}, made there when absent. Two scans making it at once end with one key:
     * each writes a complete temporary file and links it into place, and the one that loses reads
     * the winner's.
     */
    static UserKey load(Path file) throws Unavailable {
        try {
            if (!Files.exists(file)) {
                create(file);
            }
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length != BYTES) {
                throw new Unavailable(SHOWN + " is not " + BYTES + " bytes long; delete it to have a new one made");
            }
            return new UserKey(bytes);
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            throw new Unavailable(SHOWN + " cannot be made or read: " + ScanCache.reason(e));
        }
    }

    private static void create(Path file) throws IOException {
        Path folder = file.getParent();
        boolean posix = Files.getFileStore(existingAncestor(folder)).supportsFileAttributeView("posix");
        if (posix) {
            Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(folder);
        }
        FileAttribute<?>[] ownerOnly = posix
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
        byte[] secret = new byte[BYTES];
        new SecureRandom().nextBytes(secret);
        Path temp = Files.createTempFile(folder, ".cache-key", ".tmp", ownerOnly);
        try {
            Files.write(temp, secret);
            try {
                // link() fails if the name exists, so of two racing scans exactly one key is kept
                Files.createLink(file, temp);
            } catch (FileAlreadyExistsException lost) {
                // another scan made it first: its key is read
            } catch (UnsupportedOperationException | FileSystemException noHardLinks) {
                try {
                    Files.move(temp, file);
                } catch (FileAlreadyExistsException lost) {
                    // another scan made it first
                }
            }
        } finally {
            Files.deleteIfExists(temp);
            Arrays.fill(secret, (byte) 0);
        }
    }

    private static Path existingAncestor(Path folder) {
        Path at = folder;
        while (at != null && !Files.exists(at)) {
            at = at.getParent();
        }
        return at == null ? folder.getRoot() : at;
    }

    /** The HMAC of {@code purpose} and {@code parts}, each part length-prefixed so no two inputs run together. */
    byte[] mac(String purpose, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(secret);
            update(mac, purpose.getBytes(StandardCharsets.UTF_8));
            for (byte[] part : parts) {
                update(mac, part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is part of every JDK", e);
        }
    }

    /** Whether {@code expected} is the MAC of {@code purpose} and {@code parts}, compared in constant time. */
    boolean verify(byte[] expected, String purpose, byte[]... parts) {
        return expected != null && MessageDigest.isEqual(expected, mac(purpose, parts));
    }

    private static void update(Mac mac, byte[] part) {
        mac.update(ByteBuffer.allocate(Integer.BYTES).putInt(part.length).array());
        mac.update(part);
    }
}
