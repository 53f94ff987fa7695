package dev.racelint.analyzer.index;

import com.github.javaparser.ast.body.TypeDeclaration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A type declared in the scanned sources. */
public final class TypeInfo {
    private final String qualifiedName;
    private final TypeDeclaration<?> declaration;
    private final FileContext file;
    private final TypeInfo outer;
    private final boolean isInterface;
    final List<MethodInfo> methods = new ArrayList<>();
    final Map<String, com.github.javaparser.ast.type.Type> fieldTypes = new LinkedHashMap<>();
    /** Resolved direct supertypes (qualified names; project or external). Filled by the index. */
    final List<TypeRef> supertypes = new ArrayList<>();

    TypeInfo(String qualifiedName, TypeDeclaration<?> declaration, FileContext file, TypeInfo outer) {
        this.qualifiedName = qualifiedName;
        this.declaration = declaration;
        this.file = file;
        this.outer = outer;
        this.isInterface = declaration.isClassOrInterfaceDeclaration()
                && declaration.asClassOrInterfaceDeclaration().isInterface();
    }

    public String qualifiedName() {
        return qualifiedName;
    }

    public String simpleName() {
        return declaration.getNameAsString();
    }

    public TypeDeclaration<?> declaration() {
        return declaration;
    }

    public FileContext file() {
        return file;
    }

    /** The enclosing type for a nested type, else null. */
    public TypeInfo outer() {
        return outer;
    }

    public boolean isInterface() {
        return isInterface;
    }

    public List<MethodInfo> methods() {
        return methods;
    }

    /** Declared type of a field (or record component) declared directly in this type. */
    public com.github.javaparser.ast.type.Type fieldType(String name) {
        return fieldTypes.get(name);
    }

    public List<TypeRef> supertypes() {
        return supertypes;
    }

    @Override
    public String toString() {
        return qualifiedName;
    }
}
