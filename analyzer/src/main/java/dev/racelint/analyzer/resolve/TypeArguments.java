package dev.racelint.analyzer.resolve;

import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.Type;
import java.util.ArrayList;
import java.util.List;

/** Type arguments as written, reduced to erased simple names ({@code Map<String, List<X>>} gives [String, List]). */
final class TypeArguments {
    /** Stands for an argument that says nothing about the type (a wildcard or diamond). */
    static final String ANY = "?";

    private TypeArguments() {}

    static List<String> of(Type type) {
        if (!(type instanceof ClassOrInterfaceType c) || c.getTypeArguments().isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Type arg : c.getTypeArguments().get()) {
            out.add(arg instanceof ClassOrInterfaceType a ? a.getNameAsString() : ANY);
        }
        return out;
    }
}
