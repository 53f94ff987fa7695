package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.body.MethodDeclaration;
import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.finding.Message;
import dev.racelint.analyzer.index.MethodInfo;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Code that only a command-line program runs: every route up the call graph (calls in the same
 * thread) ends in a Java launcher entry point, {@code public static void main(String[])}, and none
 * passes a request, message or job handler or a method with no caller in the tree (which the framework
 * or another program may call). Such code runs in the one thread of a process an operator starts -
 * an import, a generator, a migration tool - so two of its runs do not interleave within the process,
 * and what it reports is a note that says so. A race with the service running beside it is still
 * possible, which is why it stays a note and is not left out.
 */
public final class CommandLineTools {

    /** The launcher entry point the code is only reached from. */
    public record Launcher(String main, String file, int line) {
        /** "it runs only from the command-line program ImportAll.main(String[]) (at ImportAll.java:20), in one thread". */
        public String sentence() {
            return "it runs only from the command-line program " + main + " (at " + file + ":" + line
                    + "), in the one thread of a process an operator starts";
        }
    }

    private final HandlerModel handlers;
    private final Reachability reachability;
    private final Map<Integer, Optional<Launcher>> memo = new ConcurrentHashMap<>();

    public CommandLineTools(HandlerModel handlers, Reachability reachability) {
        this.handlers = handlers;
        this.reachability = reachability;
    }

    /** {@code finding} as a note that says why: only a command-line program runs it. */
    public static Finding asNote(Finding finding, Launcher launcher) {
        return new Finding(finding.ruleId(), Level.NOTE,
                Message.builder().append(finding.message()).text(" Reported as a note: " + launcher.sentence() + ".")
                        .build(),
                finding.primary(), finding.related(), finding.codeFlow(), finding.fix(), finding.fingerprint(),
                finding.enclosingMethod(), finding.otherFlows());
    }

    /** Is {@code method} the JVM's launcher entry point ({@code public static void main(String[])})? */
    static boolean isLauncher(MethodInfo method) {
        if (!(method.declaration() instanceof MethodDeclaration declaration) || !declaration.isStatic()
                || !declaration.isPublic() || !declaration.getType().isVoidType()
                || !declaration.getNameAsString().equals("main") || declaration.getParameters().size() != 1) {
            return false;
        }
        var parameter = declaration.getParameter(0);
        String type = parameter.getType().asString();
        return parameter.isVarArgs() ? type.equals("String") || type.equals("java.lang.String")
                : type.equals("String[]") || type.equals("java.lang.String[]");
    }

    /**
     * The launcher when every route up to {@code method} (itself included) ends in one, within
     * {@code reach-depth} calls; empty when a handler, a method with no caller in the tree, or callers
     * beyond that depth are reached.
     */
    public Optional<Launcher> onlyFromLauncher(MethodInfo method) {
        return memo.computeIfAbsent(method.id(), id -> walk(method));
    }

    private Optional<Launcher> walk(MethodInfo start) {
        int maxDepth = reachability.limits().reachDepth();
        MethodInfo nearest = null;
        BitSet seen = new BitSet();
        Deque<MethodInfo> work = new ArrayDeque<>();
        Deque<Integer> depths = new ArrayDeque<>();
        seen.set(start.id());
        work.add(start);
        depths.add(0);
        while (!work.isEmpty()) {
            MethodInfo m = work.poll();
            int depth = depths.poll();
            if (handlers.handler(m).isPresent()) {
                return Optional.empty();
            }
            boolean launcher = isLauncher(m);
            if (launcher && nearest == null) {
                nearest = m;
            }
            var callers = reachability.callers(m);
            if (callers.isEmpty()) {
                if (launcher) {
                    continue;
                }
                return Optional.empty(); // called from outside the tree, or an entry point of its own
            }
            for (CallEdge edge : callers) {
                if (depth >= maxDepth) {
                    return Optional.empty();
                }
                if (!seen.get(edge.caller().id())) {
                    seen.set(edge.caller().id());
                    work.add(edge.caller());
                    depths.add(depth + 1);
                }
            }
        }
        if (nearest == null) {
            return Optional.empty();
        }
        int line = nearest.nameNode().getBegin().map(p -> p.line).orElse(0);
        return Optional.of(new Launcher(nearest.displayName(), nearest.declaringType().file().path().getFileName().toString(),
                line));
    }
}
