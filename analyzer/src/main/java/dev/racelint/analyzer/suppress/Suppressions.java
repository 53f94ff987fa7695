package dev.racelint.analyzer.suppress;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.SourceRegion;
import dev.racelint.analyzer.index.SourceLocations;
import dev.racelint.analyzer.parse.ParsedFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Suppressions written in the source, and which findings they cover:
 * <ul>
 *   <li>{@code @SuppressWarnings("racelint:<rule-id>")} (or {@code "racelint"} for every rule) on a
 *       type, method, constructor or field covers findings reported inside that declaration; the
 *       reason is a {@code //} comment on the annotation's line or the line above it;</li>
 *   <li>{@code // racelint:ignore <rule-id> <reason>} covers findings reported on its own line or
 *       the line below.</li>
 * </ul>
 * A suppression without a reason still applies, and is itself reported as a note.
 */
public final class Suppressions {

    public static final String PREFIX = "racelint";
    private static final Pattern IGNORE = Pattern.compile("//\\s*racelint:ignore\\b\\s*(\\S*)\\s*(.*)");

    /** One file's suppressions: annotated declarations by line range, comments by line. */
    private record FileSuppressions(List<Scoped> annotations, Map<Integer, List<Suppression>> comments) {}

    private record Scoped(int firstLine, int lastLine, Suppression suppression) {}

    /** The split of a run's findings. */
    public record Result(List<Finding> kept, List<SuppressedFinding> suppressed, List<Diagnostic> notes) {}

    private Suppressions() {}

    public static Result apply(List<Finding> findings, List<ParsedFile> files) {
        Map<Path, FileSuppressions> byFile = new HashMap<>();
        List<Diagnostic> notes = new ArrayList<>();
        for (ParsedFile file : files) {
            FileSuppressions found = read(file);
            if (!found.annotations().isEmpty() || !found.comments().isEmpty()) {
                byFile.put(file.path(), found);
                found.annotations().forEach(s -> noteIfUnjustified(s.suppression(), notes));
                found.comments().values().forEach(list -> list.forEach(s -> noteIfUnjustified(s, notes)));
            }
        }
        List<Finding> kept = new ArrayList<>();
        List<SuppressedFinding> suppressed = new ArrayList<>();
        for (Finding finding : findings) {
            Suppression by = find(finding, byFile.get(finding.primary().file()));
            if (by == null) {
                kept.add(finding);
            } else {
                suppressed.add(new SuppressedFinding(finding, by));
            }
        }
        return new Result(kept, suppressed, notes);
    }

    private static Suppression find(Finding finding, FileSuppressions in) {
        SourceRegion region = finding.primary().region();
        if (in == null || region == null) {
            return null;
        }
        int line = region.startLine();
        for (int l : new int[] {line, line - 1}) {
            for (Suppression s : in.comments().getOrDefault(l, List.of())) {
                if (s.covers(finding.ruleId())) {
                    return s;
                }
            }
        }
        Scoped best = null;
        for (Scoped s : in.annotations()) {
            // the innermost declaration wins, so its reason is the one reported
            if (s.firstLine() <= line && line <= s.lastLine() && s.suppression().covers(finding.ruleId())
                    && (best == null || s.firstLine() >= best.firstLine())) {
                best = s;
            }
        }
        return best == null ? null : best.suppression();
    }

    private static void noteIfUnjustified(Suppression s, List<Diagnostic> notes) {
        if (!s.hasJustification()) {
            SourceRegion at = s.location().region();
            String what = s.kind() == Suppression.Kind.COMMENT ? "// racelint:ignore " + s.ruleId()
                    : "@SuppressWarnings for " + (s.ruleId().equals(Suppression.ALL_RULES) ? "all racelint rules" : s.ruleId());
            notes.add(new Diagnostic(s.location().file(), at == null ? 0 : at.startLine(), at == null ? 0 : at.startColumn(),
                    Level.NOTE, Diagnostic.SUPPRESSION_WITHOUT_REASON, what + " gives no reason: say why the code is safe ("
                    + (s.kind() == Suppression.Kind.COMMENT ? "after the rule id" : "in a // comment on or above the annotation")
                    + ")."));
        }
    }

    /** Every suppression written in the file, whether or not it covers a finding, in line order. */
    public static List<Suppression> in(ParsedFile file) {
        FileSuppressions found = read(file);
        List<Suppression> all = new ArrayList<>();
        found.annotations().forEach(s -> all.add(s.suppression()));
        found.comments().values().forEach(all::addAll);
        all.sort(java.util.Comparator.comparingInt((Suppression s) -> s.location().region() == null ? 0
                : s.location().region().startLine()).thenComparing(Suppression::ruleId));
        return all;
    }

    // ---- reading ---------------------------------------------------------------------------------

    private static FileSuppressions read(ParsedFile file) {
        if (!file.mentionsRacelint()) {
            // every suppression names racelint in a string literal or a comment
            return new FileSuppressions(List.of(), Map.of());
        }
        CompilationUnit unit = file.unit();
        Map<Integer, String> raw = file.lineComments();
        Map<Integer, String> lineComments = new HashMap<>();
        raw.forEach((line, text) -> lineComments.put(line, text.substring(2).strip()));
        List<Scoped> annotations = new ArrayList<>();
        for (AnnotationExpr annotation : unit.findAll(AnnotationExpr.class)) {
            if (!annotation.getNameAsString().equals("SuppressWarnings")
                    && !annotation.getNameAsString().equals("java.lang.SuppressWarnings")) {
                continue;
            }
            Node declaration = annotation.getParentNode().orElse(null);
            if (!(declaration instanceof BodyDeclaration<?>) || declaration.getRange().isEmpty()
                    || annotation.getRange().isEmpty()) {
                continue;
            }
            int annotationLine = annotation.getRange().get().begin.line;
            String reason = lineComments.getOrDefault(annotationLine, lineComments.getOrDefault(annotationLine - 1, ""));
            CodeLocation at = SourceLocations.of(file.path(), annotation, "suppression");
            for (String value : values(annotation)) {
                String rule = ruleOf(value);
                if (rule != null) {
                    annotations.add(new Scoped(declaration.getRange().get().begin.line, declaration.getRange().get().end.line,
                            new Suppression(Suppression.Kind.ANNOTATION, rule, reason, at)));
                }
            }
        }
        Map<Integer, List<Suppression>> comments = new HashMap<>();
        for (Map.Entry<Integer, String> comment : raw.entrySet()) {
            Matcher m = IGNORE.matcher(comment.getValue());
            if (!m.lookingAt()) {
                continue;
            }
            String rule = m.group(1).isEmpty() || m.group(1).equals(PREFIX) ? Suppression.ALL_RULES : m.group(1);
            CodeLocation at = new CodeLocation(file.path(), new SourceRegion(comment.getKey(), 1, comment.getKey(), 1),
                    "racelint:ignore");
            comments.computeIfAbsent(comment.getKey(), k -> new ArrayList<>())
                    .add(new Suppression(Suppression.Kind.COMMENT, rule, m.group(2).strip(), at));
        }
        return new FileSuppressions(annotations, comments);
    }

    /** {@code racelint:<id>} gives the id, {@code racelint} every rule; anything else is not ours. */
    private static String ruleOf(String value) {
        if (value.equals(PREFIX)) {
            return Suppression.ALL_RULES;
        }
        if (value.startsWith(PREFIX + ":") && value.length() > PREFIX.length() + 1) {
            return value.substring(PREFIX.length() + 1).strip();
        }
        return null;
    }

    private static List<String> values(AnnotationExpr annotation) {
        List<String> out = new ArrayList<>();
        Expression value = null;
        if (annotation instanceof SingleMemberAnnotationExpr single) {
            value = single.getMemberValue();
        } else if (annotation instanceof NormalAnnotationExpr normal) {
            value = normal.getPairs().stream().filter(p -> p.getNameAsString().equals("value"))
                    .map(p -> p.getValue()).findFirst().orElse(null);
        }
        if (value != null) {
            value.findAll(StringLiteralExpr.class).forEach(s -> out.add(s.getValue()));
            if (value instanceof StringLiteralExpr s && out.isEmpty()) {
                out.add(s.getValue());
            }
        }
        return out;
    }
}
