package dev.racelint.analyzer.persistence;

/**
 * The API a database operation was recognised in, as {@link DbOpClassifier} tells them apart: what
 * the coverage summary counts operations by.
 *
 * @param id    the stable name in JSON and SARIF
 * @param label how the text report names it
 */
public enum DbApiFamily {
    SPRING_DATA("spring-data", "Spring Data"),
    JPA("jpa", "JPA EntityManager"),
    HIBERNATE("hibernate", "Hibernate Session"),
    JDBC("jdbc", "JDBC"),
    JDBC_TEMPLATE("jdbc-template", "JdbcTemplate"),
    JDBC_CLIENT("jdbc-client", "JdbcClient"),
    MYBATIS("mybatis", "MyBatis"),
    MYBATIS_PLUS("mybatis-plus", "MyBatis-Plus"),
    JOOQ("jooq", "jOOQ"),
    JDBI("jdbi", "JDBI"),
    OTHER("other", "other");

    private final String id;
    private final String label;

    DbApiFamily(String id, String label) {
        this.id = id;
        this.label = label;
    }

    public String id() {
        return id;
    }

    public String label() {
        return label;
    }
}
