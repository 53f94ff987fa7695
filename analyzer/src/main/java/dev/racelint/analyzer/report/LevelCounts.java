package dev.racelint.analyzer.report;

import dev.racelint.analyzer.finding.Finding;
import java.util.List;

/** How many findings there are at each level. */
record LevelCounts(int errors, int warnings, int notes) {
    static LevelCounts of(List<Finding> findings) {
        int errors = 0;
        int warnings = 0;
        int notes = 0;
        for (Finding finding : findings) {
            switch (finding.level()) {
                case ERROR -> errors++;
                case WARNING -> warnings++;
                case NOTE -> notes++;
            }
        }
        return new LevelCounts(errors, warnings, notes);
    }
}
