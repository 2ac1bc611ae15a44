package dev.sqlguard.app.tools.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.sqlguard.domain.TableRef;
import dev.sqlguard.duckdb.DuckDbEngineFactory;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.TableDescription;

/** The statement plot_chart writes: catalog names quoted, values bound, date buckets from fixed text. */
class PlotChartSqlTest {
    private static final TableDescription CLAIMS = new TableDescription(TableRef.of("claims"), List.of(), OptionalLong.empty());
    /** A backtick dialect that declares only a month bucket. */
    private static final EngineDialect MONTHS_ONLY = new EngineDialect("months", Optional.of('`'), Optional.empty(), List.of())
            .withDateBuckets(java.util.Map.of("month", "month_start({column})"));

    private static SqlWriter writer(String dialect) {
        return new SqlWriter(dialect.equals("duckdb") ? new DuckDbEngineFactory().dialect() : MONTHS_ONLY);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "duckdb|day|CAST(date_trunc('day', \"created\") AS DATE)",
        "duckdb|week|CAST(date_trunc('week', \"created\") AS DATE)",
        "duckdb|month|CAST(date_trunc('month', \"created\") AS DATE)",
        "duckdb|year|CAST(date_trunc('year', \"created\") AS DATE)",
        "months|month|month_start(`created`)"
    })
    void dateBucketsAreGroupedByTheQueryFromTheDialectsTemplateAndTheQuotedColumn(String name, String bucket, String expression) {
        SqlWriter dialect = writer(name);
        ChartSpec spec = new ChartSpec(ChartSpec.Type.LINE, "claims", "created", Optional.of("amount"), ChartSpec.Aggregation.SUM,
                Optional.empty(), List.of(new ChartSpec.Filter("status", "=", "DENIED")), Optional.empty(),
                Optional.of(DateBucket.fromWire(bucket)));
        List<Object> params = new ArrayList<>();
        String sql = PlotChartTool.sql(dialect, CLAIMS, spec, params);
        String amount = dialect.quote("amount");
        assertThat(sql).isEqualTo("SELECT " + expression + " AS chart_x, sum(" + amount + ") AS chart_y FROM " + dialect.quote("claims")
                + " WHERE " + dialect.quote("status") + " = ? GROUP BY " + expression + " ORDER BY " + expression);
        assertThat(params).containsExactly("DENIED");
    }

    @ParameterizedTest
    @CsvSource({"day, 2024-03-17", "week, 2024-03-11", "month, 2024-03", "year, 2024"})
    void aBucketIsLabelledByWhatItSpans(String bucket, String label) {
        // 2024-03-11 is the Monday that starts the week of 2024-03-17; the query returns bucket starts
        String start = switch (bucket) {
            case "week" -> "2024-03-11";
            case "month" -> "2024-03-01";
            case "year" -> "2024-01-01";
            default -> "2024-03-17";
        };
        assertThat(DateBucket.fromWire(bucket).label(start)).isEqualTo(label);
        assertThat(DateBucket.fromWire(bucket).label(LocalDate.parse(start).atStartOfDay().toString())).isEqualTo(label);
    }

    @ParameterizedTest
    @CsvSource({"day", "month"})
    void anEngineWithoutADeclaredBucketRefusesIt(String bucket) {
        ChartSpec spec = new ChartSpec(ChartSpec.Type.BAR, "claims", "created", Optional.empty(), ChartSpec.Aggregation.COUNT,
                Optional.empty(), List.of(), Optional.empty(), Optional.of(DateBucket.fromWire(bucket)));
        assertThatThrownBy(() -> PlotChartTool.sql(new SqlWriter(EngineDialect.PLAIN), CLAIMS, spec, new ArrayList<>()))
                .isInstanceOf(ArgSchema.InvalidArgumentException.class).hasMessageContaining("chart.bucket");
        if (!bucket.equals("month")) {
            assertThatThrownBy(() -> PlotChartTool.sql(new SqlWriter(MONTHS_ONLY), CLAIMS, spec, new ArrayList<>()))
                    .isInstanceOf(ArgSchema.InvalidArgumentException.class).hasMessageContaining("chart.bucket '" + bucket + "'");
        }
        assertThatThrownBy(() -> new ChartSpec(ChartSpec.Type.LINE, "claims", "created", Optional.of("amount"),
                ChartSpec.Aggregation.NONE, Optional.empty(), List.of(), Optional.empty(), Optional.of(DateBucket.fromWire(bucket))))
                .isInstanceOf(ArgSchema.InvalidArgumentException.class).hasMessageContaining("aggregation");
    }
}
