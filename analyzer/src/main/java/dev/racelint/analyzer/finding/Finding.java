package dev.racelint.analyzer.finding;

import java.util.List;
import java.util.Objects;

/**
 * One reported problem.
 *
 * @param ruleId        the public rule id, e.g. {@code io-in-transaction}
 * @param level         severity
 * @param message       the formatted message; its first sentence is the alert title
 * @param primary       where the problem is reported (a tight region)
 * @param related       other places the message refers to, in link order
 * @param codeFlow      the path that proves it, from the entry (transaction, handler, lock) to the
 *                      effect; empty when the problem sits in one statement
 * @param fix           one line saying what to do instead
 * @param fingerprint   stable identity across edits that move lines: rule + enclosing method
 *                      signature + normalised statement, hashed
 * @param enclosingMethod signature of the method the finding is reported in
 * @param otherFlows    paths that run concurrently with {@code codeFlow} on other threads (a
 *                      deadlock's other side); empty for single-path findings
 */
public record Finding(
        String ruleId,
        Level level,
        Message message,
        CodeLocation primary,
        List<CodeLocation> related,
        List<CodeLocation> codeFlow,
        String fix,
        String fingerprint,
        String enclosingMethod,
        List<List<CodeLocation>> otherFlows) {

    public Finding(String ruleId, Level level, Message message, CodeLocation primary, List<CodeLocation> related,
            List<CodeLocation> codeFlow, String fix, String fingerprint, String enclosingMethod) {
        this(ruleId, level, message, primary, related, codeFlow, fix, fingerprint, enclosingMethod, List.of());
    }

    public Finding {
        Objects.requireNonNull(ruleId, "ruleId");
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(primary, "primary");
        related = List.copyOf(related);
        codeFlow = List.copyOf(codeFlow);
        Objects.requireNonNull(fix, "fix");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(enclosingMethod, "enclosingMethod");
        otherFlows = otherFlows.stream().map(List::copyOf).toList();
    }
}
