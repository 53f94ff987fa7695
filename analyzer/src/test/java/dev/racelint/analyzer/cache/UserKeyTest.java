package dev.racelint.analyzer.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserKeyTest {

    @TempDir
    Path temp;

    @Test
    void theKeyIsNamedByThePropertyThenTheEnvironmentThenTheUsersCacheFolder() {
        Properties properties = new Properties();
        properties.setProperty("user.home", "/home/me");
        assertThat(UserKey.location(properties, Map.of())).contains(Path.of("/home/me/.cache/racelint/cache-key"));
        assertThat(UserKey.location(properties, Map.of("XDG_CACHE_HOME", "relative/ignored")))
                .contains(Path.of("/home/me/.cache/racelint/cache-key"));
        assertThat(UserKey.location(properties, Map.of("XDG_CACHE_HOME", "/xdg")))
                .contains(Path.of("/xdg/racelint/cache-key"));
        assertThat(UserKey.location(properties, Map.of("XDG_CACHE_HOME", "/xdg", UserKey.ENVIRONMENT, "/env/key")))
                .contains(Path.of("/env/key"));
        properties.setProperty(UserKey.PROPERTY, "/property/key");
        assertThat(UserKey.location(properties, Map.of(UserKey.ENVIRONMENT, "/env/key")))
                .contains(Path.of("/property/key"));
        assertThat(UserKey.location(new Properties(), Map.of())).as("no home, nothing named").isEmpty();
    }

    @Test
    void theKeyIsMadeOnFirstUseForTheOwnerOnlyAndKept() throws Exception {
        Path file = temp.resolve("home/.cache/racelint/cache-key");
        UserKey made = UserKey.load(file);
        assertThat(file).hasSize(UserKey.BYTES);
        if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
                    .isEqualTo("rwx------");
        }
        byte[] data = "entry".getBytes(StandardCharsets.UTF_8);
        assertThat(UserKey.load(file).verify(made.mac("p", data), "p", data)).as("the same key next time").isTrue();
        assertThat(made.verify(made.mac("p", data), "other purpose", data)).isFalse();
        assertThat(made.verify(made.mac("p", data), "p", "entrY".getBytes(StandardCharsets.UTF_8))).isFalse();
        try (var left = Files.list(file.getParent())) {
            assertThat(left).as("no temporary file left").containsExactly(file);
        }
    }

    @Test
    void scansRacingToMakeTheKeyEndWithOne() throws Exception {
        Path file = temp.resolve("cache/racelint/cache-key");
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<String>> macs = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Callable<String> load = () -> {
                    start.await();
                    return HexFormat.of().formatHex(UserKey.load(file).mac("p", new byte[] {1}));
                };
                macs.add(pool.submit(load));
            }
            start.countDown();
            Set<String> distinct = new java.util.HashSet<>();
            for (Future<String> mac : macs) {
                distinct.add(mac.get());
            }
            assertThat(distinct).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aKeyThatCannotBeHadSaysSoWithoutTheMachinesPath() throws Exception {
        Path damaged = Files.writeString(temp.resolve("short-key"), "short");
        assertThatThrownBy(() -> UserKey.load(damaged)).isInstanceOf(UserKey.Unavailable.class)
                .hasMessageContaining("not 32 bytes").hasMessageNotContaining(temp.toString());
        Path blocked = Files.writeString(temp.resolve("a-file"), "in the way").resolve("cache-key");
        assertThatThrownBy(() -> UserKey.load(blocked)).isInstanceOf(UserKey.Unavailable.class)
                .hasMessageContaining("cannot be made or read").hasMessageNotContaining(temp.toString());
    }

    @Test
    void aKeyInsideTheScannedTreeIsRefused() throws Exception {
        Path root = Files.createDirectories(temp.resolve("repo"));
        String before = System.getProperty(UserKey.PROPERTY);
        System.setProperty(UserKey.PROPERTY, root.resolve(".racelint/key").toString());
        try {
            assertThatThrownBy(() -> ScanCache.open(root.resolve(".racelint/cache"), root))
                    .isInstanceOf(ScanCache.Refused.class).hasMessageContaining("inside the scanned tree");
            assertThat(root.resolve(".racelint")).doesNotExist();
        } finally {
            if (before == null) {
                System.clearProperty(UserKey.PROPERTY);
            } else {
                System.setProperty(UserKey.PROPERTY, before);
            }
        }
    }
}
