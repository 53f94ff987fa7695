package dev.racelint.field;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Tab-separated files with a header line; blank lines and lines starting with '#' are left out. */
final class Tsv {
    private Tsv() {}

    /** One data line: its 1-based number in the file and its fields. */
    record Row(int line, List<String> fields) {}

    /** The rows after the header, each checked to have the header's {@code columns}. */
    static List<Row> read(Path file, List<String> columns) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Row> rows = new ArrayList<>();
        boolean header = true;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            List<String> fields = List.of(line.split("\t", -1));
            if (header) {
                if (!fields.equals(columns)) {
                    throw new FieldError(file.getFileName() + ":" + (i + 1) + ": the header must be "
                            + String.join("<TAB>", columns));
                }
                header = false;
                continue;
            }
            if (fields.size() != columns.size()) {
                throw new FieldError(file.getFileName() + ":" + (i + 1) + ": " + fields.size() + " fields, "
                        + columns.size() + " expected (" + String.join(", ", columns) + ")");
            }
            rows.add(new Row(i + 1, fields.stream().map(String::strip).toList()));
        }
        if (header) {
            throw new FieldError(file.getFileName() + ": no header line");
        }
        return rows;
    }
}
