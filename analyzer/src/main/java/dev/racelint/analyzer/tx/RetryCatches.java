package dev.racelint.analyzer.tx;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.stmt.CatchClause;
import dev.racelint.analyzer.index.BodyNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Retry loops around database work: catch clauses for serialization and deadlock failures
 * (SQLState 40001 / 40P01 and Spring's exceptions for them) inside a loop, so the statements run again.
 */
public final class RetryCatches {
    static final Set<String> RETRYABLE = Set.of("CannotAcquireLockException", "DeadlockLoserDataAccessException",
            "CannotSerializeTransactionException", "PessimisticLockingFailureException", "ConcurrencyFailureException",
            "TransientDataAccessException", "LockAcquisitionException", "PessimisticLockException",
            "LockTimeoutException", "SerializationFailureException");

    private RetryCatches() {}

    /** Catch clauses of a method body that catch a retryable database failure inside a loop. */
    public static List<CatchClause> inLoops(BodyNodes body) {
        List<CatchClause> out = new ArrayList<>();
        for (CatchClause c : body.catches()) {
            if (catchesRetryable(c) && insideLoop(c)) {
                out.add(c);
            }
        }
        return out;
    }

    private static boolean catchesRetryable(CatchClause clause) {
        return dev.racelint.analyzer.index.CatchTypes.catches(clause, RETRYABLE, Set.of("40001", "40P01"));
    }

    private static boolean insideLoop(Node node) {
        for (Node n = node.getParentNode().orElse(null); n != null && !(n instanceof CallableDeclaration<?>)
                && !(n instanceof LambdaExpr && !(n.getParentNode().orElse(null) instanceof com.github.javaparser.ast.expr.MethodCallExpr));
                n = n.getParentNode().orElse(null)) {
            if (BodyNodes.isLoop(n)) {
                return true;
            }
        }
        return false;
    }
}
