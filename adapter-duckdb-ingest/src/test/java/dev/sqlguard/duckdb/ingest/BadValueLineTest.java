package dev.sqlguard.duckdb.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A value that breaks its column's type is named with the physical line of the file (as an editor
 * shows it) and quoted, short and printable: DuckDB counts records, so a quoted line break before it
 * would otherwise shift the line, and it does not quote the value in a sentence of ours.
 */
@Timeout(120)
class BadValueLineTest extends LoadTestSupport {
    private GuardException failing(Map<String, String> options, Path input) {
        return catchThrowableOfType(GuardException.class, () -> load("t", false, options, input));
    }

    @Test
    void theBadDateIsNamedWithItsLineAndQuoted() throws Exception {
        Path csv = Fixtures.text(dir, "dates.csv", "id,day\n1,2024-01-01\n2,2024-01-02\n3,2024-13-45\n");

        GuardException e = failing(Map.of("types", "day:DATE"), csv);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).startsWith("dates.csv, line 4: the value \"2024-13-45\" in column \"day\" is not a valid DATE.");
        assertThat(Files.exists(db())).isFalse();
    }

    @Test
    void aByteOrderMarkAndAQuotedLineBreakBeforeItDoNotShiftTheLine() throws Exception {
        Path csv = dir.resolve("notes.csv");
        Files.write(csv, ("\uFEFFid,note,day\n1,\"two\nlines\",2024-01-01\n2,x,2024-01-02\n3,y,31.02.2024\n")
                .getBytes(StandardCharsets.UTF_8));

        GuardException e = failing(Map.of("types", "day:DATE"), csv);

        assertThat(e.getMessage()).startsWith("notes.csv, line 5: the value \"31.02.2024\" in column \"day\" is not a valid DATE.");
    }

    @Test
    void aLongOrUnprintableValueIsCutAndMadePrintable() throws Exception {
        String bad = "x\u001b[31m" + "y".repeat(200);
        Path csv = Fixtures.text(dir, "long.csv", "id,n\n1,5\n2," + bad + "\n");

        GuardException e = failing(Map.of("types", "n:INTEGER"), csv);

        assertThat(e.getMessage()).startsWith("long.csv, line 3: the value \"x?[31m" + "y".repeat(54) + "...\" in column \"n\"")
                .doesNotContain("\u001b");
    }
}
