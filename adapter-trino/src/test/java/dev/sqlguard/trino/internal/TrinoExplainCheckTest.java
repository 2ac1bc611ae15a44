package dev.sqlguard.trino.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.ansi.EngineReading;

/** Reading Trino 483's EXPLAIN JSON, on plans captured from the test cluster (trimmed of estimates). */
class TrinoExplainCheckTest {
    private static final TableRef CLAIMS = TableRef.of("s1", "claims");
    private static final Map<TableRef, List<String>> PHYSICAL = Map.of(CLAIMS, List.of("id", "region", "amount", "ssn"));

    private static final String LOGICAL = """
            {"0": {"id": "10", "name": "Output", "descriptor": {"columnNames": "[_col0, _col1]"},
                   "outputs": [{"type": "varchar", "name": "expr"}], "details": ["_col0 := expr", "_col1 := expr_0"],
                   "children": [{"id": "3", "name": "ScanFilterProject",
                       "descriptor": {"table": "memory:s1.claims", "filterPredicate": "(integer '1' < id)"},
                       "outputs": [{"type": "varchar", "name": "expr"}],
                       "details": ["expr := concat(CAST(upper(region) AS varchar), varchar 'x')",
                                   "expr_0 := $operator$multiply(amount, decimal(10,0) '2')",
                                   "region := region:varchar(5)", "id := id:integer", "amount := amount:decimal(3,1)"],
                       "children": []}]}}
            """;
    private static final String IO = """
            {"inputTableColumnInfos": [{"table": {"catalog": "memory", "schemaTable": {"schema": "s1", "table": "claims"}},
              "constraint": {"none": false, "columnConstraints": [{"columnName": "id", "type": "integer"}]}}]}
            """;

    @Test
    void readsScanAssignmentsAndConstrainedColumnsButNotProjections() {
        EngineReading r = ExplainCheck.read(LOGICAL, IO, "memory", PHYSICAL);
        assertThat(r.complete()).isTrue();
        assertThat(r.tables()).containsExactly(CLAIMS);
        assertThat(r.columns()).containsExactlyInAnyOrder(new ColumnRef(CLAIMS, "region"), new ColumnRef(CLAIMS, "id"),
                new ColumnRef(CLAIMS, "amount"));
    }

    @Test
    void readsTheTpchHandleForm() {
        String logical = """
                {"1": {"id": "3", "name": "ScanFilterProject", "descriptor": {"table": "tpch:tiny:lineitem"},
                       "details": ["shipdate := tpch:shipdate", "quantity := tpch:quantity"], "children": []}}
                """;
        TableRef lineitem = TableRef.of("tiny", "lineitem");
        EngineReading r = ExplainCheck.read(logical, "{\"inputTableColumnInfos\": []}", "tpch",
                Map.of(lineitem, List.of("orderkey", "quantity", "shipdate")));
        assertThat(r.complete()).isTrue();
        assertThat(r.columns()).containsExactlyInAnyOrder(new ColumnRef(lineitem, "shipdate"), new ColumnRef(lineitem, "quantity"));
    }

    @Test
    void anUnknownTableAnUnreadableHandleOrATableFunctionMakeTheReadingIncomplete() {
        String otherTable = LOGICAL.replace("memory:s1.claims", "memory:s1.users");
        assertThat(ExplainCheck.read(otherTable, IO, "memory", PHYSICAL).complete()).isFalse();
        String otherCatalog = LOGICAL.replace("memory:s1.claims", "system:runtime.queries");
        assertThat(ExplainCheck.read(otherCatalog, IO, "memory", PHYSICAL).complete()).isFalse();
        String unreadable = LOGICAL.replace("region := region:varchar(5)", "region := weird:handle:x");
        assertThat(ExplainCheck.read(unreadable, IO, "memory", PHYSICAL).complete()).isFalse();
        String function = LOGICAL.replace("\"name\": \"ScanFilterProject\"", "\"name\": \"TableFunctionProcessor\"");
        assertThat(ExplainCheck.read(function, IO, "memory", PHYSICAL).complete()).isFalse();
        String ioOther = IO.replace("\"memory\"", "\"system\"");
        assertThat(ExplainCheck.read(LOGICAL, ioOther, "memory", PHYSICAL).complete()).isFalse();
    }

    @Test
    void aLimitTheConnectorTookOverStillNamesTheTable() {
        // measured on Trino 483: SELECT amount FROM claims LIMIT 2 (60 rows) scans "memory:<schema>.claims limit=2"
        String logical = """
                {"0": {"id": "0", "name": "TableScan", "descriptor": {"table": "memory:s1.claims limit=2"},
                       "details": ["amount := amount:decimal(3,1)"], "children": []}}
                """;
        EngineReading r = ExplainCheck.read(logical, "{\"inputTableColumnInfos\": []}", "memory", PHYSICAL);
        assertThat(r.complete()).isTrue();
        assertThat(r.tables()).containsExactly(CLAIMS);
        assertThat(r.columns()).containsExactly(new ColumnRef(CLAIMS, "amount"));
        for (String other : List.of("memory:s1.claims limit=x", "memory:s1.claims limit=2 x", "memory:s1.users limit=2",
                "memory:s1.claims  limit=2", "memory:s1.claimslimit=2")) {
            assertThat(ExplainCheck.read(logical.replace("memory:s1.claims limit=2", other), "{\"inputTableColumnInfos\": []}",
                    "memory", PHYSICAL).complete()).as(other).isFalse();
        }
    }

    @Test
    void aCountStarScanReadsNoColumn() {
        String logical = """
                {"0": {"id": "0", "name": "TableScan", "descriptor": {"table": "memory:s1.claims"}, "outputs": [], "details": [],
                       "children": []}}
                """;
        EngineReading r = ExplainCheck.read(logical, "{\"inputTableColumnInfos\": []}", "memory", PHYSICAL);
        assertThat(r.complete()).isTrue();
        assertThat(r.tables()).isEqualTo(Set.of(CLAIMS));
        assertThat(r.columns()).isEmpty();
    }

    @Test
    void parametersAreExplainedAsNullsOutsideLiteralsAndNames() {
        assertThat(TrinoValidator.withNullParameters("SELECT \"t1\".\"a?\" FROM x WHERE (\"t1\".\"b\" = ?) AND (\"t1\".\"c\" = 'it''s ?')"))
                .isEqualTo("SELECT \"t1\".\"a?\" FROM x WHERE (\"t1\".\"b\" = NULL) AND (\"t1\".\"c\" = 'it''s ?')");
    }

    @Test
    void theMarkersOfIntersectAndExceptAreConstantsNotColumns() {
        // SELECT region FROM claims INTERSECT ...: Trino 483 adds one true and one null marker per branch
        String logical = """
                {"1": {"id": "3", "name": "ScanProject", "descriptor": {"table": "memory:s1.claims"},
                       "details": ["marker_4 := boolean 'true'", "marker_5 := null::boolean", "region_0 := region:varchar(16)"],
                       "children": []}}
                """;
        EngineReading r = ExplainCheck.read(logical, "{\"inputTableColumnInfos\": []}", "memory", PHYSICAL);
        assertThat(r.complete()).isTrue();
        assertThat(r.columns()).containsExactly(new ColumnRef(CLAIMS, "region"));
        // a column whose handle reads like a typed null is still a column
        EngineReading odd = ExplainCheck.read(logical.replace("region_0 := region:varchar(16)", "x := null::boolean"),
                "{\"inputTableColumnInfos\": []}", "memory", Map.of(CLAIMS, List.of("id", "null:")));
        assertThat(odd.columns()).containsExactly(new ColumnRef(CLAIMS, "null:"));
    }

    @Test
    void aColumnWhoseTypeIsAnotherColumnsNameIsItself() {
        // sp_matches(kickoff date, "date" varchar): the memory handle kickoff:date names kickoff
        TableRef matches = TableRef.of("s1", "sp_matches");
        String logical = """
                {"1": {"id": "3", "name": "TableScan", "descriptor": {"table": "memory:s1.sp_matches"},
                       "details": ["kickoff := kickoff:date", "date := date:varchar(10)"], "children": []}}
                """;
        EngineReading r = ExplainCheck.read(logical, "{\"inputTableColumnInfos\": []}", "memory",
                Map.of(matches, List.of("match_id", "kickoff", "date")));
        assertThat(r.complete()).isTrue();
        assertThat(r.columns()).containsExactlyInAnyOrder(new ColumnRef(matches, "kickoff"), new ColumnRef(matches, "date"));
    }

    @Test
    void aColumnNamedWithASpaceIsRead() {
        // Trino folds "First Name" to first name; the memory handle keeps the space
        TableRef drivers = TableRef.of("s1", "drivers");
        String logical = """
                {"1": {"id": "3", "name": "ScanProject", "descriptor": {"table": "memory:s1.drivers"},
                       "details": ["expr := upper(\\"first name\\")", "first name := first name:varchar(20)"], "children": []}}
                """;
        EngineReading r = ExplainCheck.read(logical, "{\"inputTableColumnInfos\": []}", "memory",
                Map.of(drivers, List.of("driverid", "first name", "api key")));
        assertThat(r.complete()).isTrue();
        assertThat(r.columns()).containsExactly(new ColumnRef(drivers, "first name"));
    }
}
