package dev.racelint.analyzer.index;

import java.util.List;

/**
 * What a type name in source refers to. Without a classpath a name may have several candidate
 * qualified names (one per on-demand import); {@code project} is set when it is a scanned type.
 */
public record TypeRef(List<String> candidates, TypeInfo project) {

    public static final TypeRef UNKNOWN = new TypeRef(List.of(), null);

    public static TypeRef project(TypeInfo type) {
        return new TypeRef(List.of(type.qualifiedName()), type);
    }

    public static TypeRef external(List<String> candidates) {
        return new TypeRef(List.copyOf(candidates), null);
    }

    public boolean isKnown() {
        return project != null || !candidates.isEmpty();
    }

    public boolean isProject() {
        return project != null;
    }

    /** The best guess at the qualified name, or null. */
    public String name() {
        return candidates.isEmpty() ? null : candidates.get(0);
    }

    public String simpleName() {
        String n = name();
        if (n == null) {
            return "?";
        }
        int dot = n.lastIndexOf('.');
        return dot < 0 ? n : n.substring(dot + 1);
    }
}
