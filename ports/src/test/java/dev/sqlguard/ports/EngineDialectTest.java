package dev.sqlguard.ports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.TableRef;

class EngineDialectTest {
    private static final EngineDialect ANSI = new EngineDialect("Postgres", Optional.of('"'),
            Optional.of("percentile_cont({fraction}) WITHIN GROUP (ORDER BY {column})"), List.of("Dates: DATE '2024-01-31'."));

    @Test
    void quotesWithItsCharacterAndDoublesItInside() {
        assertThat(ANSI.quote("we\"ird")).contains("\"we\"\"ird\"");
        assertThat(ANSI.table(TableRef.of("sales", "orders"))).contains("\"sales\".\"orders\"");
        EngineDialect backticks = new EngineDialect("MySQL", Optional.of('`'), Optional.empty(), List.of());
        assertThat(backticks.quote("a`b")).contains("`a``b`");
    }

    @Test
    void thePlainDialectWritesPlainNamesOnly() {
        assertThat(EngineDialect.PLAIN.quote("amount")).contains("amount");
        assertThat(EngineDialect.PLAIN.quote("amount) FROM users --")).isEmpty();
        assertThat(EngineDialect.PLAIN.table(TableRef.of("sales", "orders"))).contains("sales.orders");
        assertThat(EngineDialect.PLAIN.table(TableRef.of("my sales", "orders"))).isEmpty();
        assertThat(EngineDialect.PLAIN.quantile("amount", "0.5")).isEmpty();
    }

    @Test
    void fillsTheQuantileTemplate() {
        assertThat(ANSI.quantile("\"amount\"", "0.25")).contains("percentile_cont(0.25) WITHIN GROUP (ORDER BY \"amount\")");
    }

    @Test
    void checksItself() {
        assertThatThrownBy(() -> new EngineDialect(" ", Optional.empty(), Optional.empty(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EngineDialect("x", Optional.empty(), Optional.of("median({column})"), List.of()))
                .hasMessageContaining("{fraction}");
        assertThatThrownBy(() -> new EngineDialect("x", Optional.empty(), Optional.empty(), List.of("two\nlines")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EngineDialect("x", Optional.empty(), Optional.empty(),
                Collections.nCopies(EngineDialect.MAX_NOTES + 1, "a note"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fillsDeclaredDateBucketsAndChecksTheirUnits() {
        EngineDialect months = ANSI.withDateBuckets(Map.of("month", "CAST(date_trunc('month', {column}) AS DATE)"));
        assertThat(months.dateBucket("month", "\"created\"")).contains("CAST(date_trunc('month', \"created\") AS DATE)");
        assertThat(months.dateBucket("week", "\"created\"")).isEmpty();
        assertThat(ANSI.dateBucket("month", "\"created\"")).isEmpty();
        assertThat(months.quantileTemplate()).isEqualTo(ANSI.quantileTemplate());
        assertThatThrownBy(() -> ANSI.withDateBuckets(Map.of("fortnight", "f({column})"))).hasMessageContaining("fortnight");
        assertThatThrownBy(() -> ANSI.withDateBuckets(Map.of("day", "today()"))).hasMessageContaining("{column}");
    }

    @Test
    void dateTruncBucketsCoverEveryUnitInTheEnginesDateType() {
        assertThat(EngineDialect.dateTruncBuckets("date")).containsOnlyKeys(EngineDialect.BUCKET_UNITS)
                .containsEntry("day", "CAST(date_trunc('day', {column}) AS date)")
                .containsEntry("week", "CAST(date_trunc('week', {column}) AS date)")
                .containsEntry("month", "CAST(date_trunc('month', {column}) AS date)")
                .containsEntry("year", "CAST(date_trunc('year', {column}) AS date)");
        EngineDialect duck = ANSI.withDateBuckets(EngineDialect.dateTruncBuckets("DATE"));
        assertThat(duck.dateBucket("week", "\"d\"")).contains("CAST(date_trunc('week', \"d\") AS DATE)");
    }
}
