package dev.racelint.analyzer.callgraph;

import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import java.util.ArrayList;
import java.util.List;

/**
 * A method that implements an operation of one of the tree's own interfaces which nothing in the
 * tree calls, while the tree does call other operations of that interface: the interface is the
 * application's internal API, used here, and this operation of it is dead in this tree. A method
 * on a class with no project interface may be called from outside (a library's API, a framework
 * callback) and is never taken as dead; neither is an interface the tree annotates (a Feign or RPC
 * client, entered from another process) nor one whose operations nobody calls at all.
 */
public final class UncalledInterfaceMethods {

    private UncalledInterfaceMethods() {}

    /** The project interfaces' declarations of {@code method} when it is dead in the tree as above; else empty. */
    public static List<MethodInfo> deadDeclarations(CallGraph graph, MethodInfo method) {
        if (method.isStatic() || method.isConstructor() || method.isAnonymous() || !graph.callers(method).isEmpty()
                || !method.declaration().isPublic()) {
            return List.of();
        }
        ProgramIndex index = graph.index();
        TypeInfo owner = method.declaringType();
        if (owner.isInterface()) {
            return List.of();
        }
        List<MethodInfo> declared = new ArrayList<>();
        boolean interfaceUsed = false;
        for (TypeRef ref : index.supertypeClosure(owner)) {
            if (!ref.isProject() || !ref.project().isInterface()) {
                continue;
            }
            TypeInfo api = ref.project();
            if (!api.declaration().getAnnotations().isEmpty()) {
                return List.of(); // a client or remoting interface: its callers are elsewhere
            }
            for (MethodInfo operation : api.methods()) {
                boolean same = operation.name().equals(method.name())
                        && operation.parameterCount() == method.parameterCount();
                if (same) {
                    if (!graph.callers(operation).isEmpty()) {
                        return List.of();
                    }
                    declared.add(operation);
                } else if (!graph.callers(operation).isEmpty() || owner.methodsNamed(operation.name()).stream()
                        .anyMatch(m -> m.parameterCount() == operation.parameterCount() && !graph.callers(m).isEmpty())) {
                    interfaceUsed = true; // calls through the interface may be bound to the implementation
                }
            }
        }
        return interfaceUsed ? declared : List.of();
    }
}
