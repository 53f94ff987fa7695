package dev.racelint.analyzer.locks;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import dev.racelint.analyzer.callgraph.EffectSite;
import dev.racelint.analyzer.effects.EffectKind;
import dev.racelint.analyzer.index.CatchTypes;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.persistence.MethodFlow;
import dev.racelint.analyzer.resolve.CallResolver;
import java.util.Set;

/**
 * Locks every instance of the service sees, taken so that the instance which does not get them
 * leaves: a lock API of the catalogue (a Curator {@code InterProcessMutex}, a team's lock declared
 * in racelint.yml) tried with its result tested, and a record that cannot exist twice (an ephemeral
 * ZooKeeper node) whose "already exists" failure makes the caller leave. A lock that is waited for
 * is not one of them: the second instance runs the same work after the first lets go.
 */
public final class CrossInstanceLocks {

    /**
     * ZooKeeper's failure for a node that is already there, and the family it belongs to, by their
     * qualified names: a project's own exception of the same simple name is another failure.
     */
    private static final Set<String> NODE_EXISTS = Set.of("org.apache.zookeeper.KeeperException.NodeExistsException",
            "org.apache.zookeeper.KeeperException");

    private CrossInstanceLocks() {}

    /** Does this call decide, for every instance at once, that only one of them goes on? */
    public static boolean losingRunLeaves(EffectSite site, ProgramIndex index) {
        if (site.effect().kind() == EffectKind.LOCK) {
            // a try-acquire answers whether this instance got the lock; a blocking acquire returns nothing to test
            return MethodFlow.resultUsed(CallResolver.chainEnd(site.call()));
        }
        return site.effect().kind() == EffectKind.EXCLUSIVE_CREATE && leavesWhenItExists(site.call(), index);
    }

    /** The create sits in a try whose handler for "the node exists" returns or throws. */
    private static boolean leavesWhenItExists(Node call, ProgramIndex index) {
        Node child = call;
        for (Node parent = call.getParentNode().orElse(null); parent != null && !(parent instanceof CallableDeclaration<?>);
                parent = parent.getParentNode().orElse(null)) {
            if (parent instanceof TryStmt t && t.getTryBlock() == child) {
                for (CatchClause c : t.getCatchClauses()) {
                    if (CatchTypes.qualifiedNames(c, index).stream().anyMatch(NODE_EXISTS::contains) && leaves(c)) {
                        return true;
                    }
                }
            }
            child = parent;
        }
        return false;
    }

    private static boolean leaves(CatchClause clause) {
        return !clause.getBody().findAll(ReturnStmt.class).isEmpty() || !clause.getBody().findAll(ThrowStmt.class).isEmpty();
    }
}
