package dev.racelint.field;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How findings take their verdicts from labels, and what counts as found. */
class ScoringTest {
    private static final String REPO = "acme/shop";
    private static final String SHOP = "src/main/java/Shop.java";
    private static final String STORE = "src/main/java/Store.java";

    @Test
    void aFindingTakesTheVerdictOfTheLabelHoldingItsLine() {
        Label racy = label(1, SHOP, 10, 20, "check-then-act", false, Label.Source.RECALL);
        Label safe = label(2, SHOP, 30, 40, "check-then-act", true, Label.Source.RECALL);
        Label otherRule = label(3, SHOP, 50, 60, "lost-update", false, Label.Source.RECALL);

        List<Scoring.Judged> judged = Scoring.judge(REPO, List.of(finding(SHOP, 12), finding(SHOP, 35),
                finding(SHOP, 55), finding(SHOP, 21)), List.of(racy, safe, otherRule));

        assertThat(judged).extracting(Scoring.Judged::outcome).containsExactly(Scoring.Outcome.TRUE,
                Scoring.Outcome.FALSE, Scoring.Outcome.UNLABELLED, Scoring.Outcome.UNLABELLED);
    }

    @Test
    void aPositiveLabelIsAlsoMatchedAlongTheTraceButANegativeOnlyOnTheFindingsOwnLine() {
        Label racyInStore = label(1, STORE, 5, 9, "check-then-act", false, Label.Source.RECALL);
        Label safeInStore = label(2, STORE, 30, 39, "check-then-act", true, Label.Source.RECALL);
        Finding throughRacy = finding(SHOP, 12, new Finding.Place(STORE, 7));
        Finding throughSafe = finding(SHOP, 14, new Finding.Place(STORE, 33));

        List<Scoring.Judged> judged = Scoring.judge(REPO, List.of(throughRacy, throughSafe), List.of(racyInStore, safeInStore));
        Map<String, Scoring.RuleScore> scores = Scoring.score(REPO, judged, List.of(racyInStore, safeInStore));

        assertThat(judged).extracting(Scoring.Judged::outcome).containsExactly(Scoring.Outcome.TRUE,
                Scoring.Outcome.UNLABELLED);
        assertThat(scores.get("check-then-act").positiveLabelsFound).isEqualTo(1);
        assertThat(scores.get("check-then-act").negativeLabelsHit).isZero();
    }

    @Test
    void aRereadBeatsAJudgementWhichBeatsARecallLabelAndANarrowRangeBeatsAWideOne() {
        Label recall = label(1, SHOP, 1, 100, "check-then-act", false, Label.Source.RECALL);
        Label judged = label(2, SHOP, 10, 20, "check-then-act", true, Label.Source.PRECISION);
        Label reread = label(3, SHOP, 1, 100, "check-then-act", false, Label.Source.REREAD);
        Label narrowRecall = label(4, SHOP, 11, 12, "check-then-act", true, Label.Source.RECALL);

        assertThat(outcome(finding(SHOP, 11), recall, judged)).isEqualTo(Scoring.Outcome.FALSE);
        assertThat(outcome(finding(SHOP, 11), recall, judged, reread)).isEqualTo(Scoring.Outcome.TRUE);
        assertThat(outcome(finding(SHOP, 11), recall, narrowRecall)).isEqualTo(Scoring.Outcome.FALSE);
        assertThat(outcome(finding(SHOP, 50), recall, narrowRecall)).isEqualTo(Scoring.Outcome.TRUE);
    }

    @Test
    void recallIsOverTheLabelsOfBlindReadersAndPrecisionIsTrueOverLabelled() {
        Label blind = label(1, SHOP, 10, 20, "lost-update", false, Label.Source.RECALL);
        Label missed = label(2, SHOP, 40, 50, "lost-update", false, Label.Source.RECALL);
        Label fromAJudge = label(3, SHOP, 60, 70, "lost-update", false, Label.Source.PRECISION);
        Label lowFromAJudge = new Label(4, REPO, SHOP, "Shop.m", 80, 90, "lost-update", false, Label.Verdict.TRUE_LOW,
                Label.Source.PRECISION, "small");
        List<Label> labels = List.of(blind, missed, fromAJudge, lowFromAJudge);
        List<Finding> findings = List.of(finding(SHOP, 15, "lost-update"), finding(SHOP, 65, "lost-update"),
                finding(SHOP, 85, "lost-update"), finding(SHOP, 99, "lost-update"));

        Scoring.RuleScore s = Scoring.score(REPO, Scoring.judge(REPO, findings, labels), labels).get("lost-update");

        assertThat(s.findings).isEqualTo(4);
        assertThat(s.truePositives).isEqualTo(2);
        assertThat(s.trueLow).isEqualTo(1);
        assertThat(s.unlabelled).isEqualTo(1);
        assertThat(s.strictPrecision()).hasValueSatisfying(p -> assertThat(p).isEqualTo(2.0 / 3));
        assertThat(s.positiveLabels).as("the judge's labels are not blind: left out of recall").isEqualTo(2);
        assertThat(s.recall()).hasValue(0.5);
    }

    @Test
    void labelsOfOneRuleAndPlaceThatDisagreeAreDisputedUntilAReread() {
        Label yes = label(1, SHOP, 10, 20, "check-then-act", false, Label.Source.RECALL);
        Label no = label(2, SHOP, 15, 16, "check-then-act", true, Label.Source.PRECISION);
        Label elsewhere = label(3, SHOP, 30, 40, "check-then-act", true, Label.Source.PRECISION);
        Label otherRule = label(4, SHOP, 10, 20, "lost-update", true, Label.Source.PRECISION);
        Label reread = label(5, SHOP, 14, 17, "check-then-act", true, Label.Source.REREAD);

        assertThat(Scoring.disputes(List.of(yes, no, elsewhere, otherRule))).singleElement()
                .satisfies(d -> assertThat(List.of(d.first().line(), d.second().line())).containsExactly(1, 2));
        assertThat(Scoring.disputes(List.of(yes, no, elsewhere, otherRule, reread))).isEmpty();
    }

    private static Scoring.Outcome outcome(Finding finding, Label... labels) {
        return Scoring.judge(REPO, List.of(finding), List.of(labels)).get(0).outcome();
    }

    private static Label label(int line, String file, int start, int end, String rule, boolean negative, Label.Source source) {
        return new Label(line, REPO, file, "Shop.m", start, end, rule, negative,
                negative ? Label.Verdict.FALSE : Label.Verdict.TRUE, source, "why");
    }

    private static Finding finding(String file, int line, Finding.Place... trace) {
        return new Finding("check-then-act", file, line, "Shop#m()", "message", List.of(trace));
    }

    private static Finding finding(String file, int line, String rule) {
        return new Finding(rule, file, line, "Shop#m()", "message", List.of());
    }
}
