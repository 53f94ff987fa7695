package dev.racelint.field;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Findings against labels. A finding takes the verdict of the label that speaks of it: a label whose
 * range holds the finding's own line before one its trace only passes through (a negative label is
 * matched on the finding's own line only), a re-read before a precision judgement before a recall
 * label, a narrower range before a wider one. A positive label counts as found when some finding of
 * its rule matches it, on its own line or along its trace.
 */
final class Scoring {

    /** What one finding was judged to be. */
    enum Outcome { TRUE, TRUE_LOW, FALSE, UNLABELLED }

    record Judged(String repository, Finding finding, Outcome outcome, Optional<Label> label) {}

    /** Two labels of one rule and place that disagree: a third reader should settle them. */
    record Dispute(Label first, Label second) {}

    /** Per-rule counts. Recall is over the positive labels a blind reader made (recall and re-read). */
    static final class RuleScore {
        int findings;
        int truePositives;
        int trueLow;
        int falsePositives;
        int unlabelled;
        int positiveLabels;
        int positiveLabelsFound;
        int negativeLabels;
        int negativeLabelsHit;

        int labelled() {
            return truePositives + trueLow + falsePositives;
        }

        /** TRUE / labelled findings, or empty when none is labelled. */
        Optional<Double> strictPrecision() {
            return labelled() == 0 ? Optional.empty() : Optional.of((double) truePositives / labelled());
        }

        Optional<Double> recall() {
            return positiveLabels == 0 ? Optional.empty() : Optional.of((double) positiveLabelsFound / positiveLabels);
        }

        void add(RuleScore other) {
            findings += other.findings;
            truePositives += other.truePositives;
            trueLow += other.trueLow;
            falsePositives += other.falsePositives;
            unlabelled += other.unlabelled;
            positiveLabels += other.positiveLabels;
            positiveLabelsFound += other.positiveLabelsFound;
            negativeLabels += other.negativeLabels;
            negativeLabelsHit += other.negativeLabelsHit;
        }
    }

    private static final Comparator<Label> PREFERENCE = Comparator.<Label>comparingInt(l -> l.source().rank)
            .thenComparingInt(l -> l.end() - l.start())
            .thenComparingInt(Label::line);

    private Scoring() {}

    /** The verdict of each of {@code findings}, in their order. */
    static List<Judged> judge(String repository, List<Finding> findings, List<Label> labels) {
        List<Label> own = labels.stream().filter(l -> l.repository().equals(repository)).toList();
        List<Judged> judged = new ArrayList<>();
        for (Finding finding : findings) {
            Optional<Label> label = own.stream().filter(l -> finding.matches(l, false)).min(PREFERENCE)
                    .or(() -> own.stream().filter(l -> l.positive() && finding.matches(l, true)).min(PREFERENCE));
            Outcome outcome = label.map(l -> switch (l.verdict()) {
                case TRUE -> Outcome.TRUE;
                case TRUE_LOW -> Outcome.TRUE_LOW;
                case FALSE -> Outcome.FALSE;
            }).orElse(Outcome.UNLABELLED);
            judged.add(new Judged(repository, finding, outcome, label));
        }
        return judged;
    }

    /** Per rule id (sorted), the counts over {@code judged} and over the repository's labels. */
    static Map<String, RuleScore> score(String repository, List<Judged> judged, List<Label> labels) {
        Map<String, RuleScore> scores = new TreeMap<>();
        for (Judged j : judged) {
            RuleScore s = scores.computeIfAbsent(j.finding().rule(), r -> new RuleScore());
            s.findings++;
            switch (j.outcome()) {
                case TRUE -> s.truePositives++;
                case TRUE_LOW -> s.trueLow++;
                case FALSE -> s.falsePositives++;
                case UNLABELLED -> s.unlabelled++;
            }
        }
        for (Label label : labels) {
            if (!label.repository().equals(repository)) {
                continue;
            }
            RuleScore s = scores.computeIfAbsent(label.rule(), r -> new RuleScore());
            if (label.negative()) {
                s.negativeLabels++;
                if (judged.stream().anyMatch(j -> j.finding().matches(label, false))) {
                    s.negativeLabelsHit++;
                }
            } else if (label.source() != Label.Source.PRECISION) {
                s.positiveLabels++;
                if (judged.stream().anyMatch(j -> j.finding().matches(label, true))) {
                    s.positiveLabelsFound++;
                }
            }
        }
        return scores;
    }

    /**
     * Labels of one repository, rule and place (overlapping ranges in one file) where one says the
     * rule should be reported and the other that it must not, and no re-read settles it.
     */
    static List<Dispute> disputes(List<Label> labels) {
        List<Dispute> disputes = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            for (int k = i + 1; k < labels.size(); k++) {
                Label a = labels.get(i);
                Label b = labels.get(k);
                if (a.negative() != b.negative() && a.repository().equals(b.repository()) && a.rule().equals(b.rule())
                        && a.file().equals(b.file()) && a.start() <= b.end() && b.start() <= a.end()
                        && a.source() != Label.Source.REREAD && b.source() != Label.Source.REREAD
                        && !settled(labels, a, b)) {
                    disputes.add(new Dispute(a, b));
                }
            }
        }
        return disputes;
    }

    private static boolean settled(List<Label> labels, Label a, Label b) {
        return labels.stream().anyMatch(l -> l.source() == Label.Source.REREAD && l.repository().equals(a.repository())
                && l.rule().equals(a.rule()) && l.file().equals(a.file())
                && l.start() <= Math.min(a.end(), b.end()) && Math.max(a.start(), b.start()) <= l.end());
    }
}
