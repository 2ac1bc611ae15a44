package dev.sqlguard.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class ResultProjectorTest {
    private static final long FAR = System.nanoTime() + 60_000_000_000L;

    private static QueryPlan plan(Limits limits, OutputColumn... outputs) {
        return new QueryPlan("s", "SELECT", "SELECT", List.of(), Set.of(), Set.of(), Set.of(), List.of(outputs), List.of(), limits);
    }

    private static OutputColumn col(String name, String table, String source) {
        return OutputColumn.traced(name, Set.of(ColumnRef.of(table, source)));
    }

    private static Object[][] ids(int n) {
        return IntStream.rangeClosed(1, n).mapToObj(i -> new Object[] {(long) i}).toArray(Object[][]::new);
    }

    @Test
    void readsOneRowPastTheLimitToKnowTruncationExactly() {
        ListCursor cursor = ListCursor.of(List.of("id"), ids(10));
        Projection p = new ResultProjector(GuardrailPolicy.defaults())
                .project(cursor, plan(Limits.defaults().withMaxRows(3), col("id", "t", "id")), FAR);
        assertThat(p.rows()).containsExactly(List.of(1L), List.of(2L), List.of(3L));
        assertThat(p.truncated()).isTrue();
        assertThat(p.limitsHit()).containsExactly(LimitKind.ROWS);
        assertThat(cursor.nextCalls).isEqualTo(4); // limit + 1, never the whole result
    }

    @Test
    void exactlyLimitRowsIsNotTruncated() {
        ListCursor cursor = ListCursor.of(List.of("id"), ids(3));
        Projection p = new ResultProjector(GuardrailPolicy.defaults())
                .project(cursor, plan(Limits.defaults().withMaxRows(3), col("id", "t", "id")), FAR);
        assertThat(p.rows()).hasSize(3);
        assertThat(p.truncated()).isFalse();
        assertThat(p.limitsHit()).isEmpty();
    }

    @Test
    void cutsCellsAndFlagsThem() {
        ListCursor cursor = ListCursor.of(List.of("name"), new Object[] {"abcdef"}, new Object[] {"ab"});
        Projection p = new ResultProjector(GuardrailPolicy.defaults())
                .project(cursor, plan(Limits.defaults().withMaxCellChars(3), col("name", "t", "name")), FAR);
        assertThat(p.rows()).containsExactly(List.of("abc"), List.of("ab"));
        assertThat(p.truncated()).isTrue();
        assertThat(p.limitsHit()).containsExactly(LimitKind.CELLS);
    }

    @Test
    void stopsBeforeTheByteLimit() {
        ListCursor cursor = ListCursor.of(List.of("name"), new Object[] {"aaaaaaaaaa"}, new Object[] {"bbbbbbbbbb"},
                new Object[] {"cccccccccc"});
        // [["aaaaaaaaaa"]] is 16 bytes; two rows are 31
        Projection p = new ResultProjector(GuardrailPolicy.defaults())
                .project(cursor, plan(Limits.defaults().withMaxBytes(31), col("name", "t", "name")), FAR);
        assertThat(p.rows()).hasSize(2);
        assertThat(p.truncated()).isTrue();
        assertThat(p.limitsHit()).containsExactly(LimitKind.BYTES);
    }

    @Test
    void redactsByLineageNameAndUntracedColumns() {
        ListCursor cursor = ListCursor.of(List.of("x", "api_key", "ok", "mystery"),
                new Object[] {"hunter2", "ak_1", "fine", "?"}, new Object[] {null, null, "also", "?"});
        Projection p = new ResultProjector(GuardrailPolicy.defaults()).project(cursor, plan(Limits.defaults(),
                col("x", "users", "password"), col("api_key", "users", "id"), col("ok", "users", "name"),
                OutputColumn.untraced("mystery")), FAR);
        assertThat(p.rows()).containsExactly(
                List.of(ResultProjector.REDACTED, ResultProjector.REDACTED, "fine", ResultProjector.REDACTED),
                List.of(ResultProjector.REDACTED, ResultProjector.REDACTED, "also", ResultProjector.REDACTED));
    }

    /**
     * A masked output arrives as the engine's constant (NULL) and still reads [REDACTED], whatever its
     * name and lineage: the answer is the same as when the JVM redacted the value itself.
     */
    @Test
    void aMaskedOutputReadsRedactedWhateverTheEngineSent() {
        ListCursor cursor = ListCursor.of(List.of("id", "x"), new Object[] {1L, null}, new Object[] {2L, "anything"});
        QueryPlan masked = new QueryPlan("s", "SELECT", "SELECT", List.of(), Set.of(), Set.of(), Set.of(),
                List.of(col("id", "users", "id"), col("x", "users", "name")), List.of(), Limits.defaults(), Set.of(1));
        Projection p = new ResultProjector(GuardrailPolicy.defaults()).project(cursor, masked, FAR);
        assertThat(p.rows()).containsExactly(List.of(1L, ResultProjector.REDACTED), List.of(2L, ResultProjector.REDACTED));
    }

    @Test
    void redactsEverythingWhenThePlanDoesNotDescribeTheColumns() {
        ListCursor cursor = ListCursor.of(List.of("a", "b"), new Object[] {"1", "2"});
        Projection p = new ResultProjector(GuardrailPolicy.defaults())
                .project(cursor, plan(Limits.defaults(), col("a", "t", "a")), FAR);
        assertThat(p.rows()).containsExactly(List.of(ResultProjector.REDACTED, ResultProjector.REDACTED));
    }

    @Test
    void redactsConfiguredNames() {
        GuardrailPolicy policy = GuardrailPolicy.defaults().withRedact(Set.of("Email"));
        ListCursor cursor = ListCursor.of(List.of("who"), new Object[] {"a@b.c"});
        Projection p = new ResultProjector(policy).project(cursor, plan(Limits.defaults(), col("who", "u", "email")), FAR);
        assertThat(p.rows()).containsExactly(List.of(ResultProjector.REDACTED));
    }

    @Test
    void convertsValuesToJsonSafeScalars() {
        byte[] bytes = new byte[30];
        ListCursor cursor = new ListCursor(List.of(new ResultColumn("v", "ANY")), new ArrayList<>(List.of(
                new Object[] {new BigDecimal("12345678901234567890.123456789")},
                new Object[] {LocalDate.of(2024, 2, 29)},
                new Object[] {LocalDateTime.of(2024, 2, 29, 13, 5, 7)},
                new Object[] {7},
                new Object[] {Double.NaN},
                new Object[] {1.5f},
                new Object[] {bytes},
                new Object[] {List.of(1, 2)})));
        Projection p = new ResultProjector(GuardrailPolicy.defaults())
                .project(cursor, plan(Limits.defaults().withMaxCellChars(8), col("v", "t", "v")), FAR);
        assertThat(p.rows()).extracting(r -> r.get(0)).containsExactly(
                new BigDecimal("12345678901234567890.123456789"), "2024-02-", "2024-02-", 7L, "NaN",
                new BigDecimal("1.5"), "AAAAAAAA", List.of(1L, 2L));
        assertThat(p.limitsHit()).contains(LimitKind.CELLS);
        p.rows().forEach(r -> assertThat(JsonValues.isJsonSafe(r.get(0))).isTrue());
    }

    @Test
    void listsStructsAndMapsBecomeJsonArraysAndObjects() {
        // the two lists printed alike as text ("[a, b]") are different JSON values
        assertThat(CellValues.convert(List.of("a, b"), 100).value()).isEqualTo(List.of("a, b"));
        assertThat(CellValues.convert(List.of("a", "b"), 100).value()).isEqualTo(List.of("a", "b"));
        Map<Object, Object> struct = new java.util.LinkedHashMap<>();
        struct.put("n", 1);
        struct.put("when", java.time.LocalTime.of(10, 0));
        struct.put("tags", List.of("x", List.of(true)));
        Object converted = CellValues.convert(struct, 100).value();
        assertThat(converted).isEqualTo(Map.of("n", 1L, "when", "10:00:00", "tags", List.of("x", List.of(true))));
        assertThat(JsonValues.isJsonSafe(converted)).isTrue();
        assertThat(CellValues.convert(Map.of(7, "seven"), 100).value()).isEqualTo(Map.of("7", "seven"));
        assertThat(CellValues.convert(new Object[] {1, "a"}, 100).value()).isEqualTo(List.of(1L, "a"));
    }

    @Test
    void aFieldNamedLikeASensitiveColumnIsRedactedInsideAStruct() {
        ListCursor cursor = new ListCursor(List.of(new ResultColumn("v", "STRUCT")), new ArrayList<>(List.<Object[]>of(
                new Object[] {Map.of("name", "alice", "password", "hunter2")})));
        Projection p = new ResultProjector(GuardrailPolicy.defaults()).project(cursor, plan(Limits.defaults(), col("v", "t", "v")), FAR);
        assertThat(p.rows().get(0).get(0)).isEqualTo(Map.of("name", "alice", "password", ResultProjector.REDACTED));
    }

    @Test
    void aNestedValueIsCutToTheCellLimitAsAWhole() {
        List<String> many = java.util.Collections.nCopies(100, "abcdefghij");
        CellValues.Cell cell = CellValues.convert(many, 50);
        assertThat(cell.cut()).isTrue();
        assertThat(JsonValues.jsonBytes(cell.value())).isLessThanOrEqualTo(50 + 13);
        assertThat((List<?>) cell.value()).hasSizeLessThan(100).allMatch(v -> "abcdefghij".startsWith((String) v));
    }

    @Test
    void timesAndTimestampsAlwaysShowSeconds() {
        assertThat(CellValues.convert(java.time.LocalTime.of(10, 0), 100).value()).isEqualTo("10:00:00");
        assertThat(CellValues.convert(java.time.LocalTime.of(10, 0, 5), 100).value()).isEqualTo("10:00:05");
        assertThat(CellValues.convert(LocalDateTime.of(2024, 1, 1, 10, 0), 100).value()).isEqualTo("2024-01-01T10:00:00");
        assertThat(CellValues.convert(java.time.OffsetDateTime.of(2024, 1, 1, 10, 0, 0, 0, java.time.ZoneOffset.UTC), 100).value())
                .isEqualTo("2024-01-01T10:00:00Z");
        assertThat(CellValues.convert(LocalDate.of(2024, 1, 1), 100).value()).isEqualTo("2024-01-01");
    }

    @Test
    void binaryIsBase64CutToTheCellLimit() {
        assertThat(CellValues.convert(new byte[] {1, 2, 3}, 100)).isEqualTo(new CellValues.Cell("AQID", false));
        assertThat(CellValues.convert(new byte[] {1, 2, 3, 4, 5, 6, 7}, 8)).isEqualTo(new CellValues.Cell("AQIDBAUG", true));
    }

    @Test
    void neverSplitsASurrogatePair() {
        CellValues.Cell cell = CellValues.convert("ab\uD83D\uDE00cd", 3);
        assertThat(cell.value()).isEqualTo("ab");
        assertThat(cell.cut()).isTrue();
    }

    @Test
    void stopsAtTheDeadlineAndCancelsTheCursor() {
        ListCursor cursor = ListCursor.of(List.of("id"), ids(5));
        assertThatThrownBy(() -> new ResultProjector(GuardrailPolicy.defaults())
                .project(cursor, plan(Limits.defaults(), col("id", "t", "id")), System.nanoTime() - 1))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT));
        assertThat(cursor.cancelled).isTrue();
    }
}
