package dev.sqlguard.duckdb.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvScannerTest {
    @TempDir
    Path dir;

    private List<CsvScanner.Record> scan(String content, String delimiter) throws Exception {
        Path file = dir.resolve("f.csv");
        Files.writeString(file, content, StandardCharsets.UTF_8);
        List<CsvScanner.Record> records = new ArrayList<>();
        try (CsvScanner scanner = CsvScanner.open(file, false, delimiter)) {
            for (CsvScanner.Record r = scanner.next(); r != null; r = scanner.next()) {
                records.add(r);
            }
        }
        return records;
    }

    @Test
    void recordsKnowTheLineTheyStartOnAcrossQuotedLineBreaksCrLfAndBlankLines() throws Exception {
        List<CsvScanner.Record> records = scan("\uFEFFa,b\r\n\"x\r\ny\",\"say \"\"hi\"\"\"\r\n\r\n3,\r\n", ",");

        assertThat(records).containsExactly(new CsvScanner.Record(1, List.of("a", "b")),
                new CsvScanner.Record(2, List.of("x\ny", "say \"hi\"")), new CsvScanner.Record(5, List.of("3", "")));
    }

    @Test
    void multiCharacterDelimitersAndPartialMatches() throws Exception {
        assertThat(scan("a||b|c||d\n", "||")).singleElement()
                .isEqualTo(new CsvScanner.Record(1, List.of("a", "b|c", "d")));
    }

    @Test
    void anUnterminatedQuoteNamesTheLineItOpensOn() throws Exception {
        CsvScanner.UnterminatedQuote e = catchThrowableOfType(CsvScanner.UnterminatedQuote.class,
                () -> scan("id,name\n1,ok\n2,\"abc\n3,def\n", ","));

        assertThat(e.line()).isEqualTo(3);
    }

    @Test
    void readsGzip() throws Exception {
        Path file = dir.resolve("f.csv.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write("a;b\n1;2\n".getBytes(StandardCharsets.UTF_8));
        }
        try (CsvScanner scanner = CsvScanner.open(file, true, ";")) {
            assertThat(scanner.next().fields()).containsExactly("a", "b");
            assertThat(scanner.next().line()).isEqualTo(2);
            assertThat(scanner.next()).isNull();
        }
    }

    @Test
    void columnNamesRenameRepeatsCaseInsensitivelyWithoutTakingAnExistingName() {
        assertThat(ColumnNames.unique(List.of("a", "A", "a_2", "a", "b")))
                .containsExactly("a", "A_2", "a_2_2", "a_3", "b");
    }
}
