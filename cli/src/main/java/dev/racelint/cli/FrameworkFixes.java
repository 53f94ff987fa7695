package dev.racelint.cli;

import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.finding.Finding;
import dev.racelint.analyzer.report.ReportPaths;
import dev.racelint.analyzer.report.ReportText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The part of a rule page that fits one finding: the frameworks named in the finding's message and
 * path pick the page's "- **Framework**: fix" bullets whose title names them.
 */
final class FrameworkFixes {

    /** A word seen in a finding, and the words a fix bullet's title uses for that framework. */
    private static final Map<String, List<String>> FRAMEWORKS = new LinkedHashMap<>();

    static {
        FRAMEWORKS.put("@Transactional", List.of("@transactional", "spring"));
        FRAMEWORKS.put("TransactionTemplate", List.of("transactiontemplate"));
        FRAMEWORKS.put("jOOQ", List.of("jooq"));
        FRAMEWORKS.put("DSLContext", List.of("jooq"));
        FRAMEWORKS.put("JdbcTemplate", List.of("jdbc"));
        FRAMEWORKS.put("PreparedStatement", List.of("jdbc"));
        FRAMEWORKS.put("setAutoCommit", List.of("jdbc"));
        FRAMEWORKS.put("EntityManager", List.of("jpa", "entitymanager"));
        FRAMEWORKS.put("save()", List.of("spring data", "jpa"));
        FRAMEWORKS.put("Repository", List.of("spring data", "jpa"));
        FRAMEWORKS.put("Mapper", List.of("mybatis"));
        FRAMEWORKS.put("Jdbi", List.of("jdbi"));
        FRAMEWORKS.put("Kafka", List.of("kafka", "broker"));
        FRAMEWORKS.put("Rabbit", List.of("rabbit", "broker"));
        FRAMEWORKS.put("Jms", List.of("jms", "broker"));
        FRAMEWORKS.put("Sqs", List.of("sqs", "broker"));
        FRAMEWORKS.put("Sns", List.of("sns", "broker"));
        FRAMEWORKS.put("broker publish", List.of("broker", "publish"));
        FRAMEWORKS.put("mail", List.of("mail"));
        FRAMEWORKS.put("HTTP", List.of("http", "rest"));
        FRAMEWORKS.put("RestTemplate", List.of("resttemplate", "http"));
        FRAMEWORKS.put("WebClient", List.of("webclient", "http"));
        FRAMEWORKS.put("@Retryable", List.of("spring retry", "@retryable"));
        FRAMEWORKS.put("RetryTemplate", List.of("retrytemplate", "spring retry"));
        FRAMEWORKS.put("Resilience4j", List.of("resilience4j"));
        FRAMEWORKS.put("Failsafe", List.of("failsafe"));
        FRAMEWORKS.put("Guava-retrying", List.of("guava"));
        FRAMEWORKS.put("@Cacheable", List.of("@cacheable", "spring cache"));
        FRAMEWORKS.put("Redis", List.of("redis"));
        FRAMEWORKS.put("@Scheduled", List.of("@scheduled", "shedlock"));
        FRAMEWORKS.put("Quartz", List.of("quartz"));
        FRAMEWORKS.put("Thread.sleep", List.of("sleep"));
        FRAMEWORKS.put("synchronized", List.of("synchronized", "java lock", "monitor"));
        FRAMEWORKS.put("lock()", List.of("java lock", "lock"));
        FRAMEWORKS.put("FOR UPDATE", List.of("for update", "row lock"));
        FRAMEWORKS.put("@KafkaListener", List.of("kafka", "listener"));
        FRAMEWORKS.put("@RabbitListener", List.of("rabbit", "listener"));
        FRAMEWORKS.put("@JmsListener", List.of("jms", "listener"));
    }

    private FrameworkFixes() {}

    static String forFinding(Finding finding, String help, Path root) {
        StringBuilder text = new StringBuilder();
        CodeLocation at = finding.primary();
        String where = ReportPaths.display(root.toAbsolutePath().normalize(), at.file())
                + (at.region() == null ? "" : ":" + at.region().startLine());
        // the finding's place and words come from the scanned tree: shown escaped on the terminal
        text.append(ReportText.terminal(where)).append(": [").append(finding.ruleId()).append("] ")
                .append(ReportText.terminal(finding.message().plain())).append("\n\n");

        Set<String> seen = new LinkedHashSet<>();
        Set<String> titleWords = new LinkedHashSet<>();
        String evidence = evidence(finding);
        for (Map.Entry<String, List<String>> f : FRAMEWORKS.entrySet()) {
            if (evidence.contains(f.getKey().toLowerCase(Locale.ROOT))) {
                seen.add(f.getKey());
                titleWords.addAll(f.getValue());
            }
        }
        List<String> fitting = new ArrayList<>();
        for (String bullet : bullets(help)) {
            String title = bullet.substring(4, Math.max(4, bullet.indexOf("**", 4))).toLowerCase(Locale.ROOT);
            if (titleWords.stream().anyMatch(title::contains)) {
                fitting.add(bullet);
            }
        }
        if (!fitting.isEmpty()) {
            text.append("The fix for the code in this finding (").append(String.join(", ", seen)).append("):\n\n");
            fitting.forEach(b -> text.append(b).append('\n'));
        } else {
            text.append("How to fix it:\n\n").append(section(help, "## How to fix it")).append('\n');
        }
        text.append("\nFix in one line: ").append(ReportText.terminal(finding.fix())).append('\n');
        text.append("The whole rule page: racelint explain ").append(finding.ruleId()).append('\n');
        return text.toString();
    }

    /** What the finding says about the code: its message and every label along its paths. */
    private static String evidence(Finding finding) {
        StringBuilder all = new StringBuilder(finding.message().plain());
        List<CodeLocation> places = new ArrayList<>(finding.codeFlow());
        places.addAll(finding.related());
        finding.otherFlows().forEach(places::addAll);
        for (CodeLocation c : places) {
            if (c.label() != null) {
                all.append(' ').append(c.label());
            }
        }
        return all.toString().toLowerCase(Locale.ROOT);
    }

    /** "- **Title**: text" bullets with their continuation lines. */
    private static List<String> bullets(String markdown) {
        List<String> out = new ArrayList<>();
        StringBuilder current = null;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("- **")) {
                if (current != null) {
                    out.add(current.toString());
                }
                current = new StringBuilder(line);
            } else if (current != null && line.startsWith("  ") && !line.isBlank()) {
                current.append('\n').append(line);
            } else if (current != null) {
                out.add(current.toString());
                current = null;
            }
        }
        if (current != null) {
            out.add(current.toString());
        }
        return out;
    }

    private static String section(String markdown, String heading) {
        int start = markdown.indexOf(heading);
        if (start < 0) {
            return "";
        }
        int body = markdown.indexOf('\n', start) + 1;
        int end = markdown.indexOf("\n## ", body);
        return markdown.substring(body, end < 0 ? markdown.length() : end).strip();
    }
}
