package dev.racelint.rules;

import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.handlers.PrivilegedEntryPoints.Privilege;
import dev.racelint.analyzer.rule.MethodContext;
import dev.racelint.analyzer.rule.RuleDescriptor;
import java.util.Optional;

/**
 * A race that only privileged callers can start (every entry point reaching the method requires an
 * authority): two holders of it must race, or for a retried request one of them must repeat it, so the harm
 * is small and the finding is a note that says why.
 */
final class PrivilegedCallers {

    private PrivilegedCallers() {}

    /** The rule's level, or {@link Level#NOTE} when only privileged callers reach the method. */
    static Level level(RuleDescriptor rule, MethodContext context) {
        return context.onlyPrivilegedCallers().isPresent() ? Level.NOTE : rule.level();
    }

    /** " Reported as a note: only callers holding X reach it (@A at F.java:N); two such callers must race.", or "". */
    static String sentence(MethodContext context) {
        return sentence(context, "two such callers must race");
    }

    /** " Reported as a note: only callers holding X reach it (@A at F.java:N); {@code why}.", or "". */
    static String sentence(MethodContext context, String why) {
        Optional<Privilege> privilege = context.onlyPrivilegedCallers();
        return privilege.map(p -> " Reported as a note: " + p.sentence() + "; " + why + ".").orElse("");
    }
}
