package dev.racelint.analyzer.parse;

import dev.racelint.analyzer.finding.Diagnostic;
import java.util.Comparator;

/** Deterministic order of diagnostics: file, line, column, code, message. */
public final class DiagnosticOrder implements Comparator<Diagnostic> {
    public static final DiagnosticOrder INSTANCE = new DiagnosticOrder();

    @Override
    public int compare(Diagnostic a, Diagnostic b) {
        String fa = a.file() == null ? "" : a.file().toString();
        String fb = b.file() == null ? "" : b.file().toString();
        int c = fa.compareTo(fb);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(a.line(), b.line());
        if (c != 0) {
            return c;
        }
        c = Integer.compare(a.column(), b.column());
        if (c != 0) {
            return c;
        }
        c = a.code().compareTo(b.code());
        return c != 0 ? c : a.message().compareTo(b.message());
    }
}
