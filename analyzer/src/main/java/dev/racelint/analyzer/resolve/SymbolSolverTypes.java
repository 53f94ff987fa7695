package dev.racelint.analyzer.resolve;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.resolution.TypeSolver;
import com.github.javaparser.resolution.declarations.ResolvedReferenceTypeDeclaration;
import com.github.javaparser.resolution.model.SymbolReference;
import com.github.javaparser.resolution.types.ResolvedType;
import com.github.javaparser.symbolsolver.JavaSymbolSolver;
import com.github.javaparser.symbolsolver.javaparsermodel.JavaParserFacade;
import com.github.javaparser.symbolsolver.resolution.typesolvers.CombinedTypeSolver;
import com.github.javaparser.symbolsolver.resolution.typesolvers.JarTypeSolver;
import com.github.javaparser.symbolsolver.resolution.typesolvers.ReflectionTypeSolver;
import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import dev.racelint.analyzer.index.FileContext;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The symbol solver over the already-parsed scanned units plus the user's jars. Jars are read as
 * class files, never loaded or run; directories of classes are not read (that would mean
 * loading the scanned project's code).
 */
public final class SymbolSolverTypes implements ClasspathTypes {

    private final JavaParserFacade facade;

    private SymbolSolverTypes(JavaParserFacade facade) {
        this.facade = facade;
    }

    public static SymbolSolverTypes create(ProgramIndex index, List<Path> classpath, List<Diagnostic> diagnostics) {
        CombinedTypeSolver combined = new CombinedTypeSolver();
        combined.add(new ReflectionTypeSolver(true));
        combined.add(new ProjectTypeSolver(index));
        for (Path entry : classpath) {
            if (Files.isRegularFile(entry) && entry.getFileName().toString().endsWith(".jar")) {
                try {
                    combined.add(new JarTypeSolver(entry));
                } catch (IOException | RuntimeException e) {
                    diagnostics.add(new Diagnostic(entry, 0, 0, Level.NOTE, "classpath",
                            "classpath entry not usable: " + e.getClass().getSimpleName()));
                }
            } else {
                diagnostics.add(new Diagnostic(entry, 0, 0, Level.NOTE, "classpath",
                        "classpath entry skipped: only jar files are read"));
            }
        }
        JavaSymbolSolver solver = new JavaSymbolSolver(combined);
        for (FileContext file : index.files()) {
            file.unit().setData(Node.SYMBOL_RESOLVER_KEY, solver);
        }
        return new SymbolSolverTypes(JavaParserFacade.get(combined));
    }

    @Override
    public String qualifiedTypeOf(Expression expression) {
        try {
            ResolvedType type = facade.getType(expression);
            if (type.isReferenceType()) {
                return type.asReferenceType().getQualifiedName();
            }
            return null;
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            return null;
        }
    }

    /** Serves the scanned types from their existing trees, so nothing is parsed twice. */
    private static final class ProjectTypeSolver implements TypeSolver {
        private final ProgramIndex index;
        private TypeSolver parent;

        ProjectTypeSolver(ProgramIndex index) {
            this.index = index;
        }

        @Override
        public TypeSolver getParent() {
            return parent;
        }

        @Override
        public void setParent(TypeSolver parent) {
            this.parent = parent;
        }

        @Override
        public SymbolReference<ResolvedReferenceTypeDeclaration> tryToSolveTypeInModule(String module, String name) {
            return tryToSolveType(name);
        }

        @Override
        public SymbolReference<ResolvedReferenceTypeDeclaration> tryToSolveType(String name) {
            TypeInfo type = index.type(name);
            if (type == null) {
                return SymbolReference.unsolved();
            }
            try {
                return SymbolReference.solved(JavaParserFacade.get(getRoot()).getTypeDeclaration(type.declaration()));
            } catch (RuntimeException e) {
                return SymbolReference.unsolved();
            }
        }
    }
}
