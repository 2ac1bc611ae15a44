package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;

class TableResultPrinterTest {
    private static String print(List<ResultColumn> columns, List<List<Object>> rows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new TableResultPrinter(new PrintStream(out, true, StandardCharsets.UTF_8)).print(new ToolResult("r", ToolStatus.OK, "s",
                Optional.empty(), columns, rows, false, Set.of(), Optional.empty(), 1), null);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void nullAndTheTextNullNeverLookAlike() {
        String table = print(List.of(new ResultColumn("v", "VARCHAR")),
                List.of(Arrays.asList((Object) null), List.of("NULL")));
        assertThat(table.lines().toList()).contains("NULL", "\"NULL\"");
    }

    @Test
    void controlCharactersAreEscapedNotReplaced() {
        String table = print(List.of(new ResultColumn("v", "VARCHAR")), List.of(List.of("a\nb\tc\u001b[31m")));
        assertThat(table).contains("a\\nb\\tc\\u001b[31m").doesNotContain("\u001b");
    }

    @Test
    void columnsAlignByDisplayWidthWithWideCharacters() {
        String table = print(List.of(new ResultColumn("name", "VARCHAR"), new ResultColumn("n", "BIGINT")),
                List.of(List.of("東京", 1L), List.of("abcd", 22L)));
        List<String> lines = table.lines().filter(l -> l.contains("|")).toList();
        // every row's separator sits at the same display column: "東京" takes 4 columns like "abcd"
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).isEqualTo("東京 |  1");
        assertThat(lines.get(2)).isEqualTo("abcd | 22");
    }

    @Test
    void nestedValuesShowAsJson() {
        String table = print(List.of(new ResultColumn("l", "VARCHAR[]"), new ResultColumn("s", "STRUCT")),
                List.of(List.of(List.of("a, b"), Map.of("k", 1L))));
        assertThat(table).contains("[\"a, b\"]").contains("{\"k\":1}");
    }
}
