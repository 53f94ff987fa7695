package dev.racelint.analyzer.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Keys from Liquibase XML changelogs: the change types that declare them, and input that must not stall the reader. */
class LiquibaseXmlTest {

    private static SchemaModel read(String xml) {
        DdlReader reader = DdlReader.empty();
        LiquibaseXml.read(xml, reader.builder(), reader::readText);
        return reader.model();
    }

    @Test
    void primaryKeysAndRenamesAndSqlBlocks() {
        SchemaModel schema = read("""
                <lb:databaseChangeLog xmlns:lb="http://www.liquibase.org/xml/ns/dbchangelog">
                  <lb:changeSet id="1" author="a">
                    <lb:createTable tableName="grid_member">
                      <lb:column name="grid_id" type="BIGINT"><lb:constraints primaryKey="true"/></lb:column>
                      <lb:column name="user_id" type="VARCHAR(64)"><lb:constraints primaryKey='true'/></lb:column>
                      <lb:column name="role" type="VARCHAR(16)"/>
                    </lb:createTable>
                    <lb:addPrimaryKey tableName="thumb" columnNames="parent_id,parent_kind"/>
                    <lb:renameTable oldTableName="thumb" newTableName="thumbnail"/>
                    <lb:addColumn tableName="grid_member"><lb:column name="email" type="TEXT"><lb:constraints unique="true"/></lb:column></lb:addColumn>
                    <lb:renameColumn tableName="grid_member" oldColumnName="email" newColumnName="mail"/>
                    <lb:sql><![CDATA[CREATE UNIQUE INDEX ux_tag ON tag (name, target_kind);]]></lb:sql>
                  </lb:changeSet>
                </lb:databaseChangeLog>
                """);
        assertThat(schema.table("grid_member").orElseThrow().keys()).contains(Set.of("grid_id", "user_id"), Set.of("mail"));
        assertThat(schema.table("thumbnail").orElseThrow().pinsOneRow(List.of("parent_id", "parent_kind"))).isTrue();
        assertThat(schema.table("thumb")).isEmpty();
        assertThat(schema.table("tag").orElseThrow().pinsOneRow(List.of("name", "target_kind"))).isTrue();
    }

    @Test
    void aChangelogIsKnownByItsRootElement() {
        assertThat(LiquibaseXml.isChangelog("<databaseChangeLog xmlns=\"x\">")).isTrue();
        assertThat(LiquibaseXml.isChangelog("<mapper namespace=\"x\"><!-- databaseChangeLogs --></mapper>")).isFalse();
    }

    @Test
    void unclosedTagsAndCommentsEndTheirElementsWithoutSearchingPerTag() {
        StringBuilder xml = new StringBuilder("<databaseChangeLog>");
        for (int i = 0; i < 200_000; i++) {
            xml.append("<createIndex tableName=\"t").append(i).append("\" unique=\"true\"><column name=\"c\"/><!-- x ");
        }
        SchemaModel schema = read(xml.toString());
        // the first comment runs to the end of the text, so the first index has no closing tag and no content
        assertThat(schema.tableCount()).isZero();
    }
}
