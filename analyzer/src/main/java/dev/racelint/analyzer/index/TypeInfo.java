package dev.racelint.analyzer.index;

import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import java.util.ArrayList;
import java.util.HashMap;
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
    private final List<MethodInfo> methods = new ArrayList<>();
    /** The same methods by name (constructors under {@code <init>}), in declaration order: call resolution looks up by name. */
    private final Map<String, List<MethodInfo>> methodsByName = new HashMap<>();
    final Map<String, com.github.javaparser.ast.type.Type> fieldTypes = new LinkedHashMap<>();
    /** The declarator of each field declared here (the first, should a name repeat), for look-ups by name. */
    final Map<String, VariableDeclarator> fieldDeclarators = new HashMap<>();
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

    /** The methods declared here with this name ({@code <init>} for constructors), in declaration order. */
    public List<MethodInfo> methodsNamed(String name) {
        return methodsByName.getOrDefault(name, List.of());
    }

    void addMethod(MethodInfo method) {
        methods.add(method);
        methodsByName.computeIfAbsent(method.name(), k -> new ArrayList<>()).add(method);
    }

    /** Declared type of a field (or record component) declared directly in this type. */
    public com.github.javaparser.ast.type.Type fieldType(String name) {
        return fieldTypes.get(name);
    }

    /**
     * The declarator of the field {@code name} declared directly here (not record components or enum
     * constants), or null: {@code TypeDeclaration.getFieldByName} without stepping over every member.
     */
    public VariableDeclarator fieldDeclarator(String name) {
        return fieldDeclarators.get(name);
    }

    public List<TypeRef> supertypes() {
        return supertypes;
    }

    @Override
    public String toString() {
        return qualifiedName;
    }
}
