package dev.racelint.field;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** field/manifest.tsv: the services of the corpus, each at a pinned commit. */
final class Manifest {
    static final List<String> COLUMNS = List.of("repository", "commit", "root", "kind", "data_apis", "brokers");
    private static final Pattern REPOSITORY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*");
    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}");

    private Manifest() {}

    /**
     * One service: {@code root} is the folder scanned, relative to the repository, with no way out of
     * it ({@code .} for the whole repository).
     */
    record Service(String repository, String commit, String root, String kind, String dataApis, String brokers) {
        /** The snapshot's folder name: {@code owner+name}. */
        String folderName() {
            return repository.replace('/', '+');
        }
    }

    static List<Service> read(Path file) throws IOException {
        List<Service> services = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Tsv.Row row : Tsv.read(file, COLUMNS)) {
            List<String> f = row.fields();
            String where = file.getFileName() + ":" + row.line() + ": ";
            if (!REPOSITORY.matcher(f.get(0)).matches()) {
                throw new FieldError(where + "repository '" + f.get(0) + "' is not owner/name");
            }
            if (!COMMIT.matcher(f.get(1)).matches()) {
                throw new FieldError(where + "commit '" + f.get(1) + "' is not a full 40-digit commit id");
            }
            Path root = Path.of(f.get(2)).normalize();
            if (f.get(2).isEmpty() || root.isAbsolute() || root.startsWith("..")) {
                throw new FieldError(where + "root '" + f.get(2) + "' must be a folder inside the repository");
            }
            if (!seen.add(f.get(0))) {
                throw new FieldError(where + f.get(0) + " is listed twice");
            }
            services.add(new Service(f.get(0), f.get(1), f.get(2), f.get(3), f.get(4), f.get(5)));
        }
        return services;
    }
}
