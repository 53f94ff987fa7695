package dev.racelint.analyzer.tx;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.EffectSite;
import java.util.List;

/**
 * An effect reached from a scope: the external call, and the calls from the scope's code down
 * to it (empty when the scope's own code makes the call).
 */
public record ReachedEffect(EffectSite site, List<CallEdge> calls) {}
