package dev.racelint.analyzer.index;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MemberValuePair;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithAnnotations;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Finds annotations by qualified name on declarations, resolving the names as written through
 * the file's imports, and looking through meta-annotations declared in the scanned sources
 * (e.g. a project's {@code @TransactionalService} annotated with {@code @Transactional}).
 */
public final class Annotations {
    private final ProgramIndex index;

    public Annotations(ProgramIndex index) {
        this.index = index;
    }

    /**
     * The annotation on {@code annotated} (directly, or through project meta-annotations) whose
     * qualified name is one of {@code names}; the annotation found is the one carrying the
     * attributes (the meta-annotation's own use when found through one).
     */
    public Optional<AnnotationExpr> find(NodeWithAnnotations<?> annotated, Set<String> names) {
        return find(annotated, names, new HashSet<>());
    }

    public boolean has(NodeWithAnnotations<?> annotated, Set<String> names) {
        return find(annotated, names).isPresent();
    }

    private Optional<AnnotationExpr> find(NodeWithAnnotations<?> annotated, Set<String> names, Set<String> seen) {
        for (AnnotationExpr a : annotated.getAnnotations()) {
            TypeRef ref = resolve(a);
            for (String candidate : ref.candidates()) {
                if (names.contains(candidate)) {
                    return Optional.of(a);
                }
            }
            if (ref.isProject() && seen.add(ref.project().qualifiedName())) {
                TypeDeclaration<?> decl = ref.project().declaration();
                Optional<AnnotationExpr> meta = find(decl, names, seen);
                if (meta.isPresent()) {
                    return meta;
                }
            }
        }
        return Optional.empty();
    }

    /** The qualified name(s) an annotation use refers to. */
    public TypeRef resolve(AnnotationExpr annotation) {
        FileContext file = index.fileOf(annotation);
        if (file == null) {
            return TypeRef.UNKNOWN;
        }
        String written = annotation.getNameAsString();
        if (written.contains(".") && Character.isLowerCase(written.charAt(0))) {
            TypeInfo project = index.type(written);
            return project != null ? TypeRef.project(project) : TypeRef.external(java.util.List.of(written));
        }
        return index.resolveTypeName(written, annotation, file);
    }

    /** The value of an attribute ({@code "value"} also matches a single-member annotation). */
    public static Optional<Expression> attribute(AnnotationExpr annotation, String name) {
        if (annotation instanceof SingleMemberAnnotationExpr single && name.equals("value")) {
            return Optional.of(single.getMemberValue());
        }
        if (annotation instanceof NormalAnnotationExpr normal) {
            for (MemberValuePair pair : normal.getPairs()) {
                if (pair.getNameAsString().equals(name)) {
                    return Optional.of(pair.getValue());
                }
            }
        }
        return Optional.empty();
    }

    /** The last segment of an enum-constant attribute value: {@code Propagation.REQUIRES_NEW} -> REQUIRES_NEW. */
    public static Optional<String> enumAttribute(AnnotationExpr annotation, String name) {
        return attribute(annotation, name).map(Annotations::lastSegment);
    }

    private static String lastSegment(Node value) {
        String text = value.toString();
        int dot = text.lastIndexOf('.');
        return dot < 0 ? text : text.substring(dot + 1);
    }
}
