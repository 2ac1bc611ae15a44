package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

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
}
