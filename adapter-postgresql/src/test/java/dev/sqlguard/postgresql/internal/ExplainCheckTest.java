package dev.sqlguard.postgresql.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.ansi.EngineReading;

/** Reading EXPLAIN (VERBOSE, FORMAT JSON) output as PostgreSQL 15 prints it (plans captured from the server). */
class ExplainCheckTest {
    private static final TableRef USERS = TableRef.of("s", "users");
    private static final List<String> USER_COLUMNS = List.of("id", "name", "password");

    private static EngineReading read(String json) {
        return ExplainCheck.read(json, t -> t.equals(USERS) ? USER_COLUMNS : null);
    }

    @Test
    void aPhysicalTargetListIsCarriedNotRead() {
        // SELECT count(*) FROM users WHERE name = 'x': the scan under the aggregate emits the whole row
        EngineReading r = read("""
                [{"Plan": {"Node Type": "Aggregate", "Output": ["count(*)"], "Plans": [
                  {"Node Type": "Seq Scan", "Relation Name": "users", "Schema": "s", "Alias": "t1",
                   "Output": ["t1.id", "t1.name", "t1.password"], "Filter": "((t1.name)::text = 'x'::text)"}]}}]""");
        assertThat(r.tables()).containsExactly(USERS);
        assertThat(r.columns()).containsExactly(new ColumnRef(USERS, "name"));
        assertThat(r.complete()).isTrue();
    }

    @Test
    void aProjectedColumnAndAParentsReferenceAreRead() {
        EngineReading r = read("""
                [{"Plan": {"Node Type": "Sort", "Output": ["t1.id", "t1.password"], "Sort Key": ["t1.password"], "Plans": [
                  {"Node Type": "Seq Scan", "Relation Name": "users", "Schema": "s", "Alias": "t1",
                   "Output": ["t1.id", "t1.password"], "Filter": "('t9.name' = 'x'::text)"}]}}]""");
        assertThat(r.columns()).containsExactlyInAnyOrder(new ColumnRef(USERS, "id"), new ColumnRef(USERS, "password"));
    }

    @Test
    void aWholeRowIsSeen() {
        EngineReading r = read("""
                [{"Plan": {"Node Type": "Seq Scan", "Relation Name": "users", "Schema": "s", "Alias": "t1",
                  "Output": ["t1.*"], "Filter": "((t1.*)::text ~~ 'a%'::text)"}}]""");
        assertThat(r.complete()).isFalse();
    }

    @Test
    void aPhysicalRowWithKeywordNamedColumnsIsCarriedNotRead() {
        // PostgreSQL quotes every keyword that is not unreserved (quote_identifier): t2."time", and a quoted alias too
        TableRef a = TableRef.of("s", "a");
        EngineReading r = ExplainCheck.read("""
                [{"Plan": {"Node Type": "Hash Join", "Output": ["t2.note"], "Hash Cond": "(t2.id = \\"order\\".id)", "Plans": [
                  {"Node Type": "Seq Scan", "Relation Name": "a", "Schema": "s", "Alias": "t2",
                   "Output": ["t2.id", "t2.\\"time\\"", "t2.note", "t2.\\"Position\\""]},
                  {"Node Type": "Seq Scan", "Relation Name": "users", "Schema": "s", "Alias": "order",
                   "Output": ["\\"order\\".id", "\\"order\\".name", "\\"order\\".password"]}]}}]""",
                t -> t.equals(a) ? List.of("id", "time", "note", "Position") : t.equals(USERS) ? USER_COLUMNS : null);
        assertThat(r.columns()).containsExactlyInAnyOrder(new ColumnRef(a, "note"), new ColumnRef(a, "id"), new ColumnRef(USERS, "id"));
        assertThat(r.complete()).isTrue();
    }

    @Test
    void anOutputThatIsNotThePhysicalRowIsRead() {
        TableRef a = TableRef.of("s", "a");
        EngineReading r = ExplainCheck.read("""
                [{"Plan": {"Node Type": "Seq Scan", "Relation Name": "a", "Schema": "s", "Alias": "t2",
                   "Output": ["t2.id", "(t2.\\"time\\" + 1)", "t2.note"]}}]""",
                t -> t.equals(a) ? List.of("id", "time", "note") : null);
        assertThat(r.columns()).containsExactlyInAnyOrder(new ColumnRef(a, "id"), new ColumnRef(a, "time"), new ColumnRef(a, "note"));
    }
}
