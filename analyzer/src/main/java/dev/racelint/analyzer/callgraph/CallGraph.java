package dev.racelint.analyzer.callgraph;

import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import java.util.ArrayList;
import java.util.List;

/** Who calls whom among the scanned methods, on the same thread, with each method's facts. */
public final class CallGraph {
    private final ProgramIndex index;
    private final MethodFacts[] facts;
    private final List<List<CallEdge>> incoming;

    CallGraph(ProgramIndex index, MethodFacts[] facts) {
        this.index = index;
        this.facts = facts;
        this.incoming = new ArrayList<>(facts.length);
        for (int i = 0; i < facts.length; i++) {
            incoming.add(new ArrayList<>());
        }
        for (MethodFacts f : facts) {
            for (CallEdge e : f.calls()) {
                incoming.get(e.callee().id()).add(e);
            }
        }
    }

    public ProgramIndex index() {
        return index;
    }

    public MethodFacts facts(MethodInfo method) {
        return facts[method.id()];
    }

    public List<CallEdge> callers(MethodInfo method) {
        return incoming.get(method.id());
    }

    public int methodCount() {
        return facts.length;
    }

    public int edgeCount() {
        int n = 0;
        for (MethodFacts f : facts) {
            n += f.calls().size();
        }
        return n;
    }
}
