package dev.racelint.analyzer.index;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A file's package and imports: what a simple name in that file can refer to. */
public final class FileContext {
    private final Path path;
    private final CompilationUnit unit;
    private final String packageName;
    private final Map<String, String> singleImports = new HashMap<>();
    private final List<String> onDemandImports = new ArrayList<>();
    private final Map<String, String> staticMemberImports = new HashMap<>();
    private final List<String> staticOnDemandImports = new ArrayList<>();
    private boolean declaresPatternVariables = true;

    public FileContext(Path path, CompilationUnit unit) {
        this.path = path;
        this.unit = unit;
        this.packageName = unit.getPackageDeclaration().map(p -> p.getNameAsString()).orElse("");
        for (ImportDeclaration imp : unit.getImports()) {
            String name = imp.getNameAsString();
            if (imp.isStatic()) {
                if (imp.isAsterisk()) {
                    staticOnDemandImports.add(name);
                } else {
                    int dot = name.lastIndexOf('.');
                    if (dot > 0) {
                        staticMemberImports.put(name.substring(dot + 1), name.substring(0, dot));
                    }
                }
            } else if (imp.isAsterisk()) {
                onDemandImports.add(name);
            } else {
                int dot = name.lastIndexOf('.');
                singleImports.put(dot < 0 ? name : name.substring(dot + 1), name);
            }
        }
    }

    public Path path() {
        return path;
    }

    public CompilationUnit unit() {
        return unit;
    }

    public String packageName() {
        return packageName;
    }

    /** Fully qualified name imported for a simple name, if a single-type import names it. */
    public String singleImport(String simpleName) {
        return singleImports.get(simpleName);
    }

    public List<String> onDemandImports() {
        return onDemandImports;
    }

    /** The type a statically imported member (method or field) comes from, if imported singly. */
    public String staticMemberImport(String member) {
        return staticMemberImports.get(member);
    }

    public List<String> staticOnDemandImports() {
        return staticOnDemandImports;
    }

    /** Whether the file may declare a pattern variable ({@code x instanceof Foo f}); true unless indexed without one. */
    public boolean declaresPatternVariables() {
        return declaresPatternVariables;
    }

    void noPatternVariables() {
        declaresPatternVariables = false;
    }
}
