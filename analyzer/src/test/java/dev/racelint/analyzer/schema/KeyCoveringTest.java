package dev.racelint.analyzer.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A checked column set covered by a key, a soft-delete column with a constant DEFAULT filling the gap. */
class KeyCoveringTest {

    private static final String DUMP = """
            CREATE TABLE `Shelf` (
              `Id` int(10) unsigned NOT NULL AUTO_INCREMENT,
              `StoreId` varchar(64) NOT NULL DEFAULT '' COMMENT 'store',
              `Label` varchar(32) NOT NULL DEFAULT '' COMMENT 'label',
              `DeletedAt` BIGINT(20) NOT NULL DEFAULT '0' COMMENT 'ms',
              `Touched` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
              `Note` varchar(10) DEFAULT 'x',
              PRIMARY KEY (`Id`),
              UNIQUE KEY `UK_Store_Label_DeletedAt` (`StoreId`,`Label`,`DeletedAt`)
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='shelves';
            CREATE TABLE bins (id BIGINT PRIMARY KEY, shelf_id BIGINT NOT NULL, code VARCHAR(8) NOT NULL,
                version_stamp BIGINT NOT NULL DEFAULT 0);
            CREATE UNIQUE INDEX ux_bins ON bins (shelf_id, code, version_stamp);
            """;

    @Test
    void constantDefaultsAreTheNotNullColumnsWithOneValue() {
        SchemaModel schema = DdlReader.empty().readText(DUMP).model();
        assertThat(schema.constantDefaults("shelf")).containsExactlyInAnyOrder("storeid", "label", "deletedat");
        assertThat(schema.constantDefaults("bins")).containsExactly("version_stamp");
    }

    @Test
    void aSoftDeleteColumnCompletesTheKey() {
        SchemaModel schema = DdlReader.empty().readText(DUMP).model();
        SchemaModel.Table shelf = schema.table("Shelf").orElseThrow();
        Set<String> defaults = schema.constantDefaults("shelf");
        assertThat(shelf.keyCovering(List.of("store_id", "label"), defaults)).isPresent();
        assertThat(shelf.keyCovering(List.of("id"), defaults)).isPresent();
        // a check on no key column is covered by no key, however many key columns are defaulted
        assertThat(shelf.keyCovering(List.of("note"), defaults)).isEmpty();
        SchemaModel.Table bins = schema.table("bins").orElseThrow();
        assertThat(bins.keyCovering(List.of("shelf_id", "code"), schema.constantDefaults("bins"))).isPresent();
        assertThat(bins.keyCovering(List.of("code"), schema.constantDefaults("bins"))).isEmpty();
    }
}
