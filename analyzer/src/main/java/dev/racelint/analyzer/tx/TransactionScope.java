package dev.racelint.analyzer.tx;

import com.github.javaparser.ast.Node;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.function.Predicate;

/**
 * A stretch of code that runs inside a database transaction.
 *
 * @param kind        how the transaction is opened
 * @param method      the method holding the scope
 * @param anchor      where findings about the scope are reported: the method name, the
 *                    {@code execute}/{@code transaction} call, or {@code setAutoCommit(false)}
 * @param title       how messages name the scope, e.g. {@code placeOrder()} or
 *                    {@code the TransactionTemplate.execute() callback in refund()}
 * @param origin      what opens it, e.g. {@code @Transactional}
 * @param anchorText  the normalised source of the anchor, for fingerprints
 * @param covers      which nodes of the method body run inside the transaction
 */
public record TransactionScope(Kind kind, MethodInfo method, CodeLocation anchor, String title, String origin,
        String anchorText, Predicate<Node> covers) {

    public enum Kind {
        /** A proxied method with @Transactional (Spring or Jakarta), on it or its class. */
        ANNOTATED_METHOD,
        /** A callback run by TransactionTemplate or jOOQ's transaction(). */
        CALLBACK,
        /** JDBC code between setAutoCommit(false) and commit()/rollback(). */
        JDBC
    }
}
