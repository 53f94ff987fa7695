package dev.racelint.analyzer.persistence;

import dev.racelint.analyzer.finding.Diagnostic;
import dev.racelint.analyzer.finding.Level;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MyBatis XML mappers: statement text by mapper namespace (the interface) and statement id. Read
 * as text with regular expressions (no XML parser, so no external entities are ever resolved);
 * dynamic tags are flattened by the SQL model.
 */
public final class MyBatisXml {
    private static final Pattern NAMESPACE = Pattern.compile("<mapper\\s+[^>]*namespace\\s*=\\s*\"([^\"]+)\"");
    private static final Pattern STATEMENT = Pattern.compile(
            "<(select|insert|update|delete)\\b([^>]*)>(.*?)</\\1\\s*>", Pattern.DOTALL);
    private static final Pattern ID = Pattern.compile("\\bid\\s*=\\s*\"([^\"]+)\"");
    private static final Pattern FRAGMENT = Pattern.compile("<sql\\b([^>]*)>(.*?)</sql\\s*>", Pattern.DOTALL);

    /** Mapper files larger than this are not read (a diagnostic says so): no real mapper comes near it. */
    public static final long MAX_MAPPER_BYTES = 2_000_000;

    private final Map<String, String> statements = new HashMap<>();
    private final java.util.Set<String> namespaces = new java.util.HashSet<>();
    private int mapperFiles;

    /** Whether {@code text} declares a MyBatis mapper ({@code <mapper namespace="...">}). */
    public static boolean declaresMapper(String text) {
        return NAMESPACE.matcher(text).find();
    }

    public static MyBatisXml empty() {
        return new MyBatisXml();
    }

    /** Reads the mapper files among {@code files} (XML files holding a {@code <mapper namespace=...>}). */
    public static MyBatisXml read(List<Path> files, List<Diagnostic> diagnostics) {
        return read(files, diagnostics, dev.racelint.analyzer.AnalysisLimits.DEFAULT);
    }

    /** As {@link #read(List, List)}, within {@code mapper-file-bytes} per file and {@code mybatis-include-depth}. */
    public static MyBatisXml read(List<Path> files, List<Diagnostic> diagnostics, dev.racelint.analyzer.AnalysisLimits limits) {
        int maxBytes = limits.get(dev.racelint.analyzer.AnalysisLimits.Limit.MAPPER_FILE_BYTES);
        int maxIncludeDepth = limits.get(dev.racelint.analyzer.AnalysisLimits.Limit.MYBATIS_INCLUDE_DEPTH);
        MyBatisXml xml = new MyBatisXml();
        for (Path file : files) {
            try {
                if (Files.size(file) > maxBytes) {
                    diagnostics.add(new Diagnostic(file, 0, 0, Level.WARNING, "file-too-large", "MyBatis mapper not read: "
                            + "larger than " + maxBytes + " bytes (limits: mapper-file-bytes)"));
                    continue;
                }
                // Decoded leniently: a mapper saved in another encoding (GBK comments) still gives its SQL.
                String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
                Matcher ns = NAMESPACE.matcher(text);
                if (!ns.find()) {
                    continue;
                }
                xml.mapperFiles++;
                String namespace = ns.group(1);
                xml.namespaces.add(namespace);
                Map<String, String> fragments = new HashMap<>();
                Matcher f = FRAGMENT.matcher(text);
                while (f.find()) {
                    Matcher id = ID.matcher(f.group(1));
                    if (id.find()) {
                        fragments.put(id.group(1), f.group(2));
                    }
                }
                Matcher m = STATEMENT.matcher(text);
                while (m.find()) {
                    Matcher id = ID.matcher(m.group(2));
                    if (id.find()) {
                        // Flattened here, with <include refid> fragments filled in from this mapper.
                        xml.statements.put(namespace + "#" + id.group(1),
                                dev.racelint.analyzer.sql.SqlModel.stripMyBatisTags(m.group(3), fragments, maxIncludeDepth));
                    }
                }
            } catch (IOException | RuntimeException e) {
                diagnostics.add(new Diagnostic(file, 0, 0, Level.NOTE, "mapper-xml", "MyBatis mapper not read: "
                        + e.getClass().getSimpleName()));
            }
        }
        return xml;
    }

    /** The raw body (tags included) of statement {@code id} in mapper {@code namespace}. */
    public Optional<String> statement(String namespace, String id) {
        return Optional.ofNullable(statements.get(namespace + "#" + id));
    }

    /** Whether a mapper file of the tree is bound to {@code namespace} (a mapper interface's qualified name). */
    public boolean declaresNamespace(String namespace) {
        return namespaces.contains(namespace);
    }

    /** The files read that hold a {@code <mapper namespace=...>}: MyBatis mappers by their content, not their name. */
    public int mapperFiles() {
        return mapperFiles;
    }

    public int size() {
        return statements.size();
    }
}
