package dev.sqlguard.duckdb.ingest;

import static dev.sqlguard.duckdb.ingest.Databases.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.ingest.LoadReport;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each column's type comes with its reason, a column of two date formats says why it stayed text,
 * the rejects option keeps the rows that do not fit (with their line and why) instead of failing, and
 * null_padding loads short rows.
 */
@Timeout(120)
class ColumnTypesAndRejectsTest extends LoadTestSupport {
    private static final String TWO_FORMATS = "id,day,amount\n1,01.02.2024,10.50\n2,02.02.2024,20.25\n3,2024-02-03,7\n";

    private static String reason(LoadReport report, String column) {
        return report.types().stream().filter(t -> t.name().equals(column)).findFirst().orElseThrow().reason();
    }

    @Test
    void aColumnOfTwoDateFormatsSaysWhyItStayedText() throws Exception {
        Path csv = Fixtures.text(dir, "two.csv", TWO_FORMATS);

        LoadReport report = load("t", false, Map.of("dateformat", "%d.%m.%Y"), csv);

        assertThat(report.types()).extracting(LoadReport.ColumnType::type).containsExactly("BIGINT", "VARCHAR", "DECIMAL(18,2)");
        assertThat(reason(report, "id")).isEqualTo("inferred by DuckDB from the values");
        assertThat(reason(report, "amount")).isEqualTo("fixed-point numbers with at most 2 decimals");
        assertThat(reason(report, "day")).isEqualTo("2 of 3 sampled values are dates in %d.%m.%Y, the others are not"
                + " (line 4: \"2024-02-03\"); types=day:DATE with rejects=TABLE loads them as DATE and keeps the others aside");
        assertThat(progress).contains("two.csv: column \"day\" loaded as VARCHAR: " + reason(report, "day"))
                .contains("Column \"day\": VARCHAR (" + reason(report, "day") + ")");
    }

    @Test
    void rejectsKeepTheRowsThatDoNotFitWithTheirLineAndWhy() throws Exception {
        Path csv = Fixtures.text(dir, "two.csv", "id,note,day\n1,\"a\nb\",01.02.2024\n2,x,02.02.2024\n3,y,2024-02-03\n");

        LoadReport report = load("t", false, Map.of("dateformat", "%d.%m.%Y", "types", "day:DATE", "rejects", "t_rejects"), csv);

        assertThat(report.rowsLoaded()).isEqualTo(2);
        assertThat(report.rowsRejected()).isEqualTo(1);
        assertThat(report.rejectsTable()).contains("t_rejects");
        assertThat(reason(report, "day")).isEqualTo("types option");
        assertThat(rows(db(), "SELECT file || ' ' || line || ' ' || \"column\" || ' ' || error FROM t_rejects"))
                .containsExactly("two.csv 5 day CAST");
        assertThat(rows(db(), "SELECT message FROM t_rejects").get(0)).contains("2024-02-03");
        assertThat(progress).contains("two.csv: 1 row did not load; kept in table \"t_rejects\" with the reason");
    }

    @Test
    void withoutRejectsTheSameFileFailsAndChangesNothing() throws Exception {
        Path csv = Fixtures.text(dir, "two.csv", TWO_FORMATS);

        GuardException e = catchThrowableOfType(GuardException.class,
                () -> load("t", false, Map.of("dateformat", "%d.%m.%Y", "types", "day:DATE"), csv));

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).startsWith("two.csv, line 4: the value \"2024-02-03\" in column \"day\" is not a valid DATE.");
    }

    @Test
    void nullPaddingLoadsShortRowsAndOptionsAreChecked() throws Exception {
        Path csv = Fixtures.text(dir, "short.csv", "id,region,amount\n1,north,10\n2,south\n3\n");

        LoadReport report = load("t", false, Map.of("null_padding", "true"), csv);

        assertThat(report.rowsLoaded()).isEqualTo(3);
        assertThat(rows(db(), "SELECT count(*) FILTER (WHERE amount IS NULL) FROM t")).containsExactly("2");
        GuardException bad = catchThrowableOfType(GuardException.class,
                () -> load("t", false, Map.of("rejects", "t"), csv));
        assertThat(bad.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        GuardException flag = catchThrowableOfType(GuardException.class,
                () -> load("t", false, Map.of("null_padding", "yes"), csv));
        assertThat(flag.getMessage()).isEqualTo("The null_padding option must be true or false.");
    }
}
