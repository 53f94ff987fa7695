package dev.racelint.field;

/**
 * One line of field/labels.tsv: what a reader says about {@code rule} in lines {@code start..end} of
 * {@code file}. A negative label ({@code !rule}) says the rule must not be reported there.
 */
record Label(int line, String repository, String file, String method, int start, int end, String rule,
        boolean negative, Verdict verdict, Source source, String reason) {

    /** What the reader said. */
    enum Verdict { TRUE, TRUE_LOW, FALSE }

    /** How the label was made; a lower rank wins when several labels speak of one finding. */
    enum Source {
        REREAD(0), PRECISION(1), RECALL(2);

        final int rank;

        Source(int rank) {
            this.rank = rank;
        }
    }

    boolean covers(String findingFile, int findingLine) {
        return file.equals(findingFile) && start <= findingLine && findingLine <= end;
    }

    boolean positive() {
        return !negative;
    }

    String where() {
        return repository + " " + file + ":" + start + "-" + end;
    }
}
