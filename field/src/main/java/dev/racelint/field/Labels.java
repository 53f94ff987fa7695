package dev.racelint.field;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** field/labels.tsv, checked line by line: a mistake is named with its line, never scored. */
final class Labels {
    static final List<String> COLUMNS = List.of("repository", "file", "method", "lines", "rule", "verdict",
            "source", "reason");
    private static final Pattern LINES = Pattern.compile("(\\d+)-(\\d+)");
    private static final Pattern RULE = Pattern.compile("(!?)([a-z][a-z0-9]*(?:-[a-z0-9]+)*)");

    private Labels() {}

    /** The labels of {@code file}; each names a repository of {@code repositories} and a rule of {@code rules}. */
    static List<Label> read(Path file, Set<String> repositories, Set<String> rules) throws IOException {
        List<Label> labels = new ArrayList<>();
        for (Tsv.Row row : Tsv.read(file, COLUMNS)) {
            List<String> f = row.fields();
            String where = file.getFileName() + ":" + row.line() + ": ";
            if (!repositories.contains(f.get(0))) {
                throw new FieldError(where + "repository '" + f.get(0) + "' is not in the manifest");
            }
            if (f.get(1).isEmpty() || f.get(1).startsWith("/") || f.get(1).contains("\\")
                    || Path.of(f.get(1)).normalize().startsWith("..")) {
                throw new FieldError(where + "file '" + f.get(1) + "' must be a '/'-separated path in the repository");
            }
            Matcher lines = LINES.matcher(f.get(3));
            if (!lines.matches()) {
                throw new FieldError(where + "lines '" + f.get(3) + "' must be START-END");
            }
            int start = Integer.parseInt(lines.group(1));
            int end = Integer.parseInt(lines.group(2));
            if (start < 1 || end < start) {
                throw new FieldError(where + "lines '" + f.get(3) + "': START must be at least 1 and END at least START");
            }
            Matcher rule = RULE.matcher(f.get(4));
            if (!rule.matches() || !rules.contains(rule.group(2))) {
                throw new FieldError(where + "rule '" + f.get(4) + "' is not a rule id (or !rule-id) of racelint");
            }
            boolean negative = !rule.group(1).isEmpty();
            Label.Verdict verdict = verdict(f.get(5), where);
            if (negative != (verdict == Label.Verdict.FALSE)) {
                throw new FieldError(where + (negative ? "a !rule label's verdict is FALSE"
                        : "a rule label's verdict is TRUE or TRUE-LOW (FALSE is written !rule)"));
            }
            Label.Source source = source(f.get(6), where);
            if (f.get(7).isEmpty()) {
                throw new FieldError(where + "a label needs its reason");
            }
            labels.add(new Label(row.line(), f.get(0), f.get(1), f.get(2), start, end, rule.group(2), negative,
                    verdict, source, f.get(7)));
        }
        return labels;
    }

    private static Label.Verdict verdict(String text, String where) {
        return switch (text) {
            case "TRUE" -> Label.Verdict.TRUE;
            case "TRUE-LOW" -> Label.Verdict.TRUE_LOW;
            case "FALSE" -> Label.Verdict.FALSE;
            default -> throw new FieldError(where + "verdict '" + text + "' is not TRUE, TRUE-LOW or FALSE");
        };
    }

    private static Label.Source source(String text, String where) {
        try {
            return Label.Source.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new FieldError(where + "source '" + text + "' is not recall, precision or reread");
        }
    }
}
