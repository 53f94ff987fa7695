package dev.racelint.analyzer.rule;

import java.util.Collection;
import java.util.Optional;
import org.apache.commons.text.similarity.LevenshteinDistance;

/** Helps with a mistyped rule id: the nearest known one, when it is near enough to be the one meant. */
public final class RuleIds {

    private RuleIds() {}

    public static Optional<String> nearest(String given, Collection<String> known) {
        String typed = given.strip().toLowerCase(java.util.Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String id : known) {
            int d = LevenshteinDistance.getDefaultInstance().apply(typed, id);
            if (d < bestDistance || d == bestDistance && best != null && id.compareTo(best) < 0) {
                best = id;
                bestDistance = d;
            }
        }
        // a third of the id's length: catches typos and dropped words, not unrelated ids
        return best != null && bestDistance <= Math.max(2, best.length() / 3) ? Optional.of(best) : Optional.empty();
    }

    /** " (did you mean 'x'?)" or "". */
    public static String didYouMean(String given, Collection<String> known) {
        return nearest(given, known).map(id -> " (did you mean '" + id + "'?)").orElse("");
    }
}
