package dev.racelint.analyzer.finding;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reports each defect once. Findings of one rule at one place of one method whose traces leave that
 * method through the same call are one defect reached along several paths: an interface call with
 * one implementation per broker vendor, or a callee that does two remote things. The one whose trace ends in the first effect
 * (by the effect's label, then the given order) is kept; the places where the others' traces end (the other implementations' effects)
 * and their related locations are added to its related locations, and its message names them. Traces that leave through different calls stay separate findings: each of those
 * calls is a place to fix.
 */
public final class SameDefectMerger {

    private SameDefectMerger() {}

    public static List<Finding> merge(Collection<Finding> findings, Comparator<Finding> order) {
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(order);
        Map<Key, List<Finding>> groups = new LinkedHashMap<>();
        for (Finding f : sorted) {
            groups.computeIfAbsent(Key.of(f), k -> new ArrayList<>()).add(f);
        }
        List<Finding> out = new ArrayList<>(groups.size());
        for (Map.Entry<Key, List<Finding>> group : groups.entrySet()) {
            List<Finding> same = group.getValue();
            // The one kept is chosen by what its trace ends in (a catalogued API, named by the framework),
            // so that renaming the project's classes does not change which effect the message names.
            same.sort(Comparator.comparing(SameDefectMerger::effectLabel).thenComparing(order));
            if (group.getKey().exitCall() == null || same.size() == 1) {
                out.addAll(same);
            } else {
                out.add(merged(same));
            }
        }
        return out;
    }

    private static String effectLabel(Finding f) {
        return f.codeFlow().isEmpty() ? "" : f.codeFlow().get(f.codeFlow().size() - 1).label();
    }

    private static Finding merged(List<Finding> same) {
        Finding kept = same.get(0);
        List<CodeLocation> related = new ArrayList<>(kept.related());
        List<Integer> alsoReached = new ArrayList<>();
        for (Finding other : same.subList(1, same.size())) {
            CodeLocation end = other.codeFlow().get(other.codeFlow().size() - 1);
            if (!related.contains(end)) {
                related.add(end);
                alsoReached.add(related.size() - 1);
            }
            for (CodeLocation r : other.related()) {
                if (!related.contains(r)) {
                    related.add(r);
                }
            }
        }
        Message message = kept.message();
        if (!alsoReached.isEmpty()) {
            Message.Builder text = Message.builder().append(kept.message()).text(" The same call also reaches ");
            for (int i = 0; i < alsoReached.size(); i++) {
                text.text(i == 0 ? "" : i == alsoReached.size() - 1 ? " and " : ", ");
                CodeLocation end = related.get(alsoReached.get(i));
                text.link(end.label().startsWith("calls ") ? end.label().substring("calls ".length()) : end.label(),
                        alsoReached.get(i));
            }
            message = text.text(": one defect, reported once.").build();
        }
        return new Finding(kept.ruleId(), kept.level(), message, kept.primary(), related, kept.codeFlow(),
                kept.fix(), kept.fingerprint(), kept.enclosingMethod(), kept.otherFlows());
    }

    /**
     * Rule, place, method, and the call by which the trace leaves the method: its second step when the
     * trace starts at the reported place (a transaction reported at its method), else the reported place
     * itself (a publish reported at the call, after the write that starts the trace).
     */
    private record Key(String ruleId, Place primary, String enclosingMethod, Place exitCall) {
        static Key of(Finding f) {
            Place primary = Place.of(f.primary());
            Place exit = null;
            if (!f.codeFlow().isEmpty()) {
                if (!Place.of(f.codeFlow().get(0)).equals(primary)) {
                    exit = primary;
                } else if (f.codeFlow().size() > 1) {
                    exit = Place.of(f.codeFlow().get(1));
                }
            }
            return new Key(f.ruleId(), primary, Objects.toString(f.enclosingMethod(), ""), exit);
        }
    }

    /** A location without its label and extent: file, start line, start column. */
    private record Place(String file, int line, int column) {
        static Place of(CodeLocation l) {
            return new Place(String.valueOf(l.file()), l.region().startLine(), l.region().startColumn());
        }
    }
}
