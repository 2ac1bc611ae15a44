package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;
import dev.sqlguard.ports.TableDescription;

/** The catalog walk every ANSI engine's loader shares, on a real catalog (an in-memory DuckDB). */
class SchemaSnapshotTest {
    private static final String COLUMNS = "SELECT column_name, data_type FROM information_schema.columns"
            + " WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position";
    private static final String COLUMNS_AND_ESTIMATE = "SELECT column_name, data_type, 42 FROM information_schema.columns"
            + " WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position";

    @Test
    void readsTheAllowlistedTablesTheServerHasUnderTheirSpelling() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE claims (id INTEGER, region VARCHAR)");
            }
            TableAllowlist allowlist = TableAllowlist.of(Map.of("CLAIMS", List.of("ID", "AMOUNT"), "MISSING", List.of("*")));
            List<TableInfo> found = SchemaSnapshot.readAllowlisted("src", allowlist, "main", name -> name.toLowerCase(Locale.ROOT),
                    SchemaSnapshot.TableReader.byQuery(c, COLUMNS));
            assertThat(found).hasSize(1);
            TableInfo claims = found.get(0);
            assertThat(claims.schema()).isEqualTo("main");
            assertThat(claims.name()).isEqualTo("claims");
            assertThat(claims.columns()).extracting(ColumnInfo::name).containsExactly("id", "region");
            assertThat(claims.approximateRows()).isEqualTo(OptionalLong.empty());

            TableInfo estimated = SchemaSnapshot.TableReader.byQuery(c, COLUMNS_AND_ESTIMATE).read("main", "claims");
            assertThat(estimated.approximateRows()).isEqualTo(OptionalLong.of(42));

            assertThat(SchemaSnapshot.of("main", found).columnNames())
                    .containsExactly(Map.entry(claims.ref(), List.of("id", "region")));
        }
    }

    @Test
    void comparesNamesExactlyOrCaseInsensitivelyAsTheSnapshotSays() {
        List<TableInfo> tables = List.of(new TableInfo("Guard", "Claims", List.of(new ColumnInfo("Region", "text")), OptionalLong.empty()));
        SchemaSnapshot exact = SchemaSnapshot.of("Guard", tables);
        assertThat(exact.find(Optional.empty(), "Claims")).isPresent();
        assertThat(exact.find(Optional.empty(), "claims")).isEmpty();
        assertThat(exact.find(Optional.of("guard"), "Claims")).isEmpty();

        SchemaSnapshot folded = SchemaSnapshot.caseInsensitive("Guard", tables);
        assertThat(folded.find(Optional.empty(), "CLAIMS")).isPresent();
        assertThat(folded.find(Optional.of("guard"), "claims")).isPresent();
        assertThat(folded.find(Optional.of("other"), "claims")).isEmpty();

        TableInfo claims = tables.get(0);
        assertThat(claims.column("region")).isEmpty();
        assertThat(claims.columnIgnoringCase("REGION")).map(ColumnInfo::name).hasValue("Region");
    }

    /**
     * Every engine shows a counted table's exact count, an estimate only as approximate (PostgreSQL's and Trino's
     * estimates were shown as exact counts before), and no count for a table a row filter governs (every caller's rows).
     */
    @Test
    void describesCountsAsCountedEstimatesAsApproximateAndGovernedTablesWithoutCounts() {
        TableInfo counted = new TableInfo("guard", "claims", List.of(new ColumnInfo("id", "int")), OptionalLong.of(5), OptionalLong.of(2));
        TableInfo estimated = new TableInfo("guard", "regions", List.of(new ColumnInfo("id", "int")), OptionalLong.of(7));
        TableInfo filtered = new TableInfo("guard", "users", List.of(new ColumnInfo("id", "int")), OptionalLong.of(9), OptionalLong.of(9));
        GuardrailPolicy policy = GuardrailPolicy.defaults()
                .withTables(TableAllowlist.of(Optional.of("guard"), Map.of("claims", List.of("*"), "regions", List.of("*"), "users", List.of("*"))))
                .withRows(RowPolicy.of(Optional.of("guard"), Map.of("users", "id = :tenant"), Map.of()));

        for (SchemaSnapshot snapshot : List.of(SchemaSnapshot.caseInsensitive("Guard", List.of(counted, estimated, filtered)),
                SchemaSnapshot.of("guard", List.of(counted, estimated, filtered)))) {
            List<TableDescription> shown = snapshot.describe(policy);
            assertThat(shown).extracting(TableDescription::table).containsExactly(TableRef.of("claims"), TableRef.of("regions"), TableRef.of("users"));
            assertThat(shown).extracting(TableDescription::rowCount)
                    .containsExactly(OptionalLong.of(5), OptionalLong.empty(), OptionalLong.empty());
            assertThat(shown).extracting(TableDescription::approximateRowCount)
                    .containsExactly(OptionalLong.empty(), OptionalLong.of(7), OptionalLong.empty());
        }
    }
}
