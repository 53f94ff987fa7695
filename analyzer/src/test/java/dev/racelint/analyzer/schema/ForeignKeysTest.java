package dev.racelint.analyzer.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Foreign keys from DDL, by child and parent table, with whether a parent's delete is refused. */
class ForeignKeysTest {

    private static SchemaModel schema(String script) {
        return DdlReader.empty().readText(script).model();
    }

    @Test
    void inlineAndAlterDeclarationsWithTheirDeleteAction() {
        SchemaModel s = schema("""
                CREATE TABLE shelf (id BIGINT PRIMARY KEY);
                CREATE TABLE item (id BIGINT PRIMARY KEY, shelf_id BIGINT,
                    CONSTRAINT fk_item_shelf FOREIGN KEY (shelf_id) REFERENCES shelf (id) ON UPDATE RESTRICT ON DELETE RESTRICT);
                CREATE TABLE `note` (id BIGINT PRIMARY KEY, shelf_id BIGINT, FOREIGN KEY (shelf_id) REFERENCES `shelf`(id));
                CREATE TABLE tag (id BIGINT PRIMARY KEY, shelf_id BIGINT);
                alter table tag
                    add constraint fk_tag_shelf
                    foreign key (shelf_id)
                    references shelf (id)
                    on delete set null;
                ALTER TABLE app.slot ADD CONSTRAINT fk_slot_shelf FOREIGN KEY (shelf_id) REFERENCES app.shelf (id) ON DELETE CASCADE;
                """);
        assertThat(s.restrictsDelete("item", "shelf")).isTrue();
        assertThat(s.restrictsDelete("note", "shelf")).isTrue(); // no action given: NO ACTION
        assertThat(s.restrictsDelete("tag", "shelf")).isFalse();
        assertThat(s.restrictsDelete("slot", "shelf")).isFalse();
        assertThat(s.restrictsDelete("shelf", "item")).isFalse();
        assertThat(s.restrictsDelete("unknown", "shelf")).isFalse();
    }

    @Test
    void aKeyRedeclaredWithCascadeNoLongerRestricts() {
        // one script per database, or a migration that drops and re-adds the key: all must restrict
        SchemaModel s = schema("""
                alter table ds_module add constraint fk_m foreign key (module_id) references module (id);
                alter table ds_module drop foreign key fk_m;
                alter table ds_module add constraint fk_m foreign key (module_id) references module (id) on delete cascade;
                """);
        assertThat(s.restrictsDelete("ds_module", "module")).isFalse();
    }
}
