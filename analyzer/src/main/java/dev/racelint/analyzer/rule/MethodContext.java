package dev.racelint.analyzer.rule;

import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.tx.ReachedEffect;
import dev.racelint.analyzer.tx.TransactionModel;
import dev.racelint.analyzer.tx.TransactionScope;
import java.util.List;
import java.util.Set;

/** What a rule may ask about one method of the program. */
public final class MethodContext {
    private final MethodInfo method;
    private final TransactionModel transactions;

    public MethodContext(MethodInfo method, TransactionModel transactions) {
        this.method = method;
        this.transactions = transactions;
    }

    public MethodInfo method() {
        return method;
    }

    /** Transaction scopes that begin in this method (annotated, callback, JDBC). */
    public List<TransactionScope> transactionScopes() {
        return transactions.scopesIn(method);
    }

    /** Effects of the given kinds that run inside {@code scope}, on its transaction. */
    public List<ReachedEffect> effectsIn(TransactionScope scope, Set<EffectKind> kinds) {
        return transactions.effectsIn(scope, kinds);
    }
}
