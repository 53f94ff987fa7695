package dev.racelint.analyzer.handlers;

import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.Type;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import java.util.Optional;
import java.util.Set;

/**
 * Bulk uploads: whether every entry point that reaches a method is an HTTP handler taking an uploaded
 * file (a parameter of the servlet or Spring upload type, {@code MultipartFile}, {@code Part}), so the
 * method runs for an operator's import of a file. A race between two runs then needs two imports of
 * overlapping files at once. Anything else on the way up - a handler without a file, a listener, a
 * job, a method with no caller in the tree - makes the answer no.
 */
public final class UploadEntryPoints {

    /** The upload types of the servlet API and of Spring MVC and WebFlux: what a file part is bound to. */
    static final Set<String> UPLOAD_TYPES = Set.of("org.springframework.web.multipart.MultipartFile",
            "jakarta.servlet.http.Part", "javax.servlet.http.Part", "org.springframework.http.codec.multipart.FilePart");

    /**
     * The nearest upload handler.
     *
     * @param handler the handler's display name ({@code MaterialController.importExcel()})
     * @param file    its file name
     * @param line    its line
     */
    public record Upload(String handler, String file, int line) {
        /** "every entry point reaching it takes an uploaded file (MaterialController.importExcel() at MaterialController.java:495)". */
        public String sentence() {
            return "every entry point reaching it takes an uploaded file (" + handler + " at " + file + ":" + line + ")";
        }
    }

    private UploadEntryPoints() {}

    /** The nearest upload handler when every entry point reaching {@code start} is one; empty otherwise. */
    public static Optional<Upload> only(MethodInfo start, HandlerModel handlers, Reachability reachability,
            ProgramIndex index) {
        return EveryEntryPoint.nearestIfEvery(start, handlers, reachability, m -> takesUpload(m, index)
                ? Optional.of(new Upload(m.displayName(), m.declaringType().file().path().getFileName().toString(),
                        m.declaration().getBegin().map(p -> p.line).orElse(0)))
                : Optional.empty());
    }

    /** Does the handler take a file part (alone, in an array or in a collection)? */
    private static boolean takesUpload(MethodInfo handler, ProgramIndex index) {
        if (!(handler.declaration() instanceof MethodDeclaration decl)) {
            return false;
        }
        for (Parameter p : decl.getParameters()) {
            if (isUpload(p.getType().getElementType(), decl, index)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isUpload(Type type, MethodDeclaration context, ProgramIndex index) {
        if (index.resolveType(type, context).candidates().stream().anyMatch(UPLOAD_TYPES::contains)) {
            return true;
        }
        return type instanceof ClassOrInterfaceType c && c.getTypeArguments().map(args -> args.stream()
                .anyMatch(a -> isUpload(a.getElementType(), context, index))).orElse(false);
    }
}
