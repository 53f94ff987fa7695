package dev.racelint.analyzer.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.index.Annotations;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which project interfaces are MyBatis mappers, so that their conventional methods (MyBatis
 * Generator's, tk.mybatis' query by record) are read as the statements the framework issues: an
 * interface registered by an annotation ({@code @Mapper}), one deriving from a generic mapper base
 * type ({@code tk.mybatis.mapper.common.Mapper<T>}), or one a mapper XML of the tree is bound to
 * ({@code <mapper namespace="...">}). The annotation and base types are catalogue data
 * ({@value #RESOURCE}); what the interface is called plays no part.
 */
public final class MapperInterfaces {

    static final String RESOURCE = "racelint/mybatis-mappers.json";

    private record Catalogue(Set<String> annotations, Set<String> bases) {}

    private static final Catalogue CATALOGUE = load();

    private final ProgramIndex index;
    private final Annotations annotations;
    private final MyBatisXml xml;
    private final Map<TypeInfo, Boolean> memo = new ConcurrentHashMap<>();

    MapperInterfaces(ProgramIndex index, Annotations annotations, MyBatisXml xml) {
        this.index = index;
        this.annotations = annotations;
        this.xml = xml;
    }

    /** The generic mapper base types of the catalogue (for a test that checks them against the real jars). */
    public static Set<String> baseTypes() {
        return CATALOGUE.bases;
    }

    /** Is {@code type} an interface MyBatis makes a mapper of? */
    boolean isMapper(TypeInfo type) {
        return type.isInterface() && memo.computeIfAbsent(type, t -> annotations.has(t.declaration(), CATALOGUE.annotations)
                || index.isSubtypeOf(t, CATALOGUE.bases) || xml.declaresNamespace(t.qualifiedName()));
    }

    private static Catalogue load() {
        try (InputStream in = MapperInterfaces.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the analyzer jar");
            }
            JsonNode root = new ObjectMapper().readTree(in);
            return new Catalogue(strings(root.path("registrationAnnotations")), strings(root.path("bases")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> strings(JsonNode node) {
        Set<String> out = new LinkedHashSet<>();
        node.forEach(n -> out.add(n.asText()));
        return Set.copyOf(out);
    }
}
