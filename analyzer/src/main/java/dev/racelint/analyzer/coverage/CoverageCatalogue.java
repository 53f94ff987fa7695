package dev.racelint.analyzer.coverage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racelint.analyzer.config.Glob;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The data the coverage summary decides from ({@value #RESOURCE}): inert types, data-access
 * packages, and the supertypes and annotations that declare a type as data access. Kept as data,
 * not as names in code, so that what counts is visible and a project can add to it.
 */
public final class CoverageCatalogue {

    public static final String RESOURCE = "racelint/coverage-catalogue.json";

    private final Set<String> inertExact = new LinkedHashSet<>();
    private final List<Glob> inertPatterns = new ArrayList<>();
    private final List<String> dataAccessPackages = new ArrayList<>();
    private final Set<String> notDataAccessImports = new LinkedHashSet<>();
    private final Set<String> dataAccessSupertypes = new LinkedHashSet<>();
    private final Set<String> dataAccessAnnotations = new LinkedHashSet<>();
    private final Set<String> generatedMembers = new LinkedHashSet<>();
    private final Map<String, Boolean> inertByType = new ConcurrentHashMap<>();
    /** The inert patterns added to the built-in ones, in order: what {@link #fingerprint()} hashes. */
    private final List<String> added = new ArrayList<>();

    private CoverageCatalogue() {}

    public static CoverageCatalogue builtIn() {
        try (InputStream in = CoverageCatalogue.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            CoverageCatalogue catalogue = new CoverageCatalogue();
            JsonNode root = new ObjectMapper().readTree(in);
            catalogue.addInert(strings(root.path("inert")));
            catalogue.dataAccessPackages.addAll(strings(root.path("dataAccessPackages")));
            catalogue.notDataAccessImports.addAll(strings(root.path("notDataAccessImports")));
            catalogue.dataAccessSupertypes.addAll(strings(root.path("dataAccessSupertypes")));
            catalogue.dataAccessAnnotations.addAll(strings(root.path("dataAccessAnnotations")));
            catalogue.generatedMembers.addAll(strings(root.path("generatedMembers")));
            return catalogue;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The built-in data plus a project's own inert types (racelint.yml {@code coverage: inert:}). */
    public static CoverageCatalogue withInert(List<String> patterns) {
        CoverageCatalogue catalogue = builtIn();
        catalogue.addInert(patterns);
        catalogue.added.addAll(patterns);
        return catalogue;
    }

    /**
     * A hash of what a project added (the built-in data ships in racelint's jar, which the cache key
     * names already): equal fingerprints give equal coverage.
     */
    public String fingerprint() {
        return dev.racelint.analyzer.finding.Fingerprints.sha256(String.join("\n", added));
    }

    private void addInert(List<String> patterns) {
        inertByType.clear();
        for (String pattern : patterns) {
            if (pattern.contains("*")) {
                inertPatterns.add(Glob.typeName(pattern));
            } else {
                inertExact.add(pattern);
            }
        }
    }

    /** Whether calls on this type (a qualified name) never matter to the rules; memoised, every call asks. */
    public boolean isInert(String type) {
        if (inertExact.contains(type)) {
            return true;
        }
        return inertByType.computeIfAbsent(type, name -> {
            for (Glob p : inertPatterns) {
                if (p.matches(name)) {
                    return true;
                }
            }
            return false;
        });
    }

    /**
     * The data-access package an import (a qualified name) lies in, or null, also when a
     * {@code notDataAccessImports} entry (a type, or a package with its subpackages) covers it.
     */
    public String dataAccessPackage(String imported) {
        for (String not : notDataAccessImports) {
            if (imported.equals(not) || imported.startsWith(not + ".")) {
                return null;
            }
        }
        for (String pkg : dataAccessPackages) {
            if (imported.equals(pkg) || imported.startsWith(pkg + ".")) {
                return pkg;
            }
        }
        return null;
    }

    public Set<String> dataAccessSupertypes() {
        return dataAccessSupertypes;
    }

    public Set<String> dataAccessAnnotations() {
        return dataAccessAnnotations;
    }

    /** Annotations (Lombok's) that have methods written into a scanned type that its source does not show. */
    public Set<String> generatedMembers() {
        return generatedMembers;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
