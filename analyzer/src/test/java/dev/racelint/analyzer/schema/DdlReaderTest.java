package dev.racelint.analyzer.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.racelint.analyzer.finding.Diagnostic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DdlReaderTest {

    private static SchemaModel read(String script) {
        return DdlReader.empty().readText(script).model();
    }

    private static List<Set<String>> keys(SchemaModel schema, String table) {
        return schema.table(table).orElseThrow().keys();
    }

    @Test
    void createTableKeysFromColumnsAndTableConstraints() {
        SchemaModel schema = read("""
                CREATE TABLE IF NOT EXISTS shop.orders (
                    id BIGINT PRIMARY KEY,
                    email VARCHAR(100) NOT NULL UNIQUE,
                    tenant_id BIGINT NOT NULL,
                    number VARCHAR(20) NOT NULL,
                    CONSTRAINT uq_orders_number UNIQUE (tenant_id, number)
                );
                CREATE TABLE "Order_Lines" (order_id BIGINT, sku TEXT, qty INT, PRIMARY KEY (order_id, sku));
                """);
        assertThat(keys(schema, "orders")).containsExactlyInAnyOrder(Set.of("id"), Set.of("email"),
                Set.of("tenant_id", "number"));
        assertThat(keys(schema, "SHOP.\"ORDERS\"")).hasSize(3);
        assertThat(keys(schema, "order_lines")).containsExactly(Set.of("order_id", "sku"));
        assertThat(schema.table("customers")).isEmpty();
    }

    @Test
    void uniqueIndexesAndAlterTableAddKeys() {
        SchemaModel schema = read("""
                CREATE TABLE accounts (id BIGINT NOT NULL, login VARCHAR(40), region INT, external_ref TEXT);
                ALTER TABLE accounts ADD PRIMARY KEY (id);
                ALTER TABLE accounts ADD CONSTRAINT uk_login UNIQUE (login);
                CREATE UNIQUE INDEX ux_accounts_ref ON accounts (region, external_ref);
                CREATE INDEX ix_accounts_region ON accounts (region);
                """);
        assertThat(keys(schema, "accounts")).containsExactlyInAnyOrder(Set.of("id"), Set.of("login"),
                Set.of("region", "external_ref"));
    }

    @Test
    void mysqlDumpNoiseIsReadByTheTolerantReader() {
        SchemaModel schema = read("""
                -- MySQL dump 10.13
                /*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
                DROP TABLE IF EXISTS `app_token`;
                CREATE TABLE `app_token` (
                  `id` bigint(20) unsigned NOT NULL AUTO_INCREMENT COMMENT 'row id',
                  `app_id` bigint(20) NOT NULL,
                  `token` varchar(64) CHARACTER SET utf8mb4 NOT NULL,
                  `is_deleted` tinyint(1) NOT NULL DEFAULT '0',
                  PRIMARY KEY (`id`) USING BTREE,
                  UNIQUE KEY `uk_token` (`token`(32)),
                  KEY `idx_app` (`app_id`),
                  CONSTRAINT `fk_app` FOREIGN KEY (`app_id`) REFERENCES `app` (`id`)
                ) ENGINE=InnoDB AUTO_INCREMENT=42 DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC COMMENT='tokens; one per app';
                LOCK TABLES `app_token` WRITE;
                INSERT INTO `app_token` VALUES (1,2,'x;y',0),(2,3,'O\\'Brien; ok',0);
                UNLOCK TABLES;
                CREATE TABLE `app` (`id` bigint NOT NULL, `slug` varchar(20), PRIMARY KEY (`id`), UNIQUE KEY `uk_slug` (`slug`));
                """);
        assertThat(keys(schema, "app_token")).containsExactlyInAnyOrder(Set.of("id"), Set.of("token"));
        assertThat(keys(schema, "app")).as("after a value with an escaped quote")
                .containsExactlyInAnyOrder(Set.of("id"), Set.of("slug"));
    }

    @Test
    void pinsOneRowOnlyWhenEqualitiesCoverAKey() {
        SchemaModel schema = read("""
                CREATE TABLE app_token (id BIGINT PRIMARY KEY, app_id BIGINT, slot INT, UNIQUE (app_id, slot));
                """);
        SchemaModel.Table table = schema.table("app_token").orElseThrow();
        assertThat(table.pinsOneRow(List.of("id", "is_deleted"))).isTrue();
        assertThat(table.pinsOneRow(List.of("APP_ID", "slot"))).isTrue();
        assertThat(table.pinsOneRow(List.of("app_id"))).isFalse();
        assertThat(table.pinsOneRow(List.of())).isFalse();
        assertThat(table.pinsOneRow(List.of("appId", "slot"))).as("a JPQL field path names the column").isTrue();
        assertThat(table.keyed()).isTrue();
        assertThat(read("CREATE TABLE audit (at TIMESTAMP, what TEXT);").table("audit").orElseThrow().keyed()).isFalse();
    }

    @Test
    void filesAreReadWithinTheLimitAndUnparseableTextIsSkipped(@TempDir Path dir) throws IOException {
        Path small = Files.writeString(dir.resolve("V1__init.sql"),
                "create table coupons (code varchar(10) primary key);\nthis is not sql at all;\n");
        Path large = Files.writeString(dir.resolve("dump.sql"), "create table big (id int primary key);" + " ".repeat(2000));
        List<Diagnostic> diagnostics = new ArrayList<>();
        DdlReader reader = DdlReader.read(List.of(small, large), diagnostics, 1000, 60_000);
        assertThat(reader.files()).isEqualTo(1);
        assertThat(reader.model().table("coupons")).isPresent();
        assertThat(reader.model().table("big")).isEmpty();
        assertThat(diagnostics).singleElement().satisfies(d -> assertThat(d.code()).isEqualTo("file-too-large"));
    }

    @Test
    void aMigrationThatRenamesAKeyedColumnOrItsTableKeepsTheKey() {
        SchemaModel schema = DdlReader.empty()
                .readText("CREATE TABLE device (id BIGINT PRIMARY KEY, guid VARCHAR(48) NOT NULL,"
                        + " CONSTRAINT device_guid_unique UNIQUE (guid));")
                .readText("ALTER TABLE device RENAME guid TO device_id;")
                .readText("CREATE TABLE \"user\" (id BIGINT PRIMARY KEY, login VARCHAR(64) UNIQUE);")
                .readText("ALTER TABLE \"user\" RENAME TO \"dh_user\";")
                .readText("ALTER TABLE dh_user RENAME COLUMN login TO login_name;")
                .readText("CREATE TABLE sku (id INT PRIMARY KEY, code VARCHAR(9), UNIQUE KEY uk_code (code));")
                .readText("ALTER TABLE sku CHANGE COLUMN code sku_code VARCHAR(12) NOT NULL, ADD UNIQUE KEY uk_id (id, sku_code);")
                .model();
        assertThat(keys(schema, "device")).containsExactlyInAnyOrder(Set.of("id"), Set.of("device_id"));
        assertThat(schema.table("user")).as("renamed away").isEmpty();
        assertThat(keys(schema, "dh_user")).containsExactlyInAnyOrder(Set.of("id"), Set.of("login_name"));
        assertThat(keys(schema, "sku")).contains(Set.of("sku_code"), Set.of("id", "sku_code"));
    }
}
