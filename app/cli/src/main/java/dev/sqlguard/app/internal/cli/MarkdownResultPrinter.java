package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolResult;

/**
 * A GitHub-flavoured Markdown table on stdout, ready to paste into a report or an issue: a header
 * row, the alignment row (numbers right-aligned), one row per result row. A {@code |} in a value is
 * written {@code \|}, a {@code <} as {@code &lt;}, a line break as {@code <br>}, other control characters escaped as in
 * {@code --format table}; NULL is {@code NULL}. The SQL, status, limits hit and errors go to stderr.
 */
final class MarkdownResultPrinter implements ResultPrinter {
    private final PrintStream out;
    private final PrintStream err;
    private boolean printedBlock;

    MarkdownResultPrinter(PrintStream out, PrintStream err) {
        this.out = requireNonNull(out, "out is null");
        this.err = err;
    }

    @Override
    public void print(ToolResult result, JsonNode id) {
        ResultSummary.print(result, id, err);
        List<ResultColumn> columns = result.columns();
        if (columns.isEmpty()) {
            return;
        }
        StringBuilder text = new StringBuilder();
        if (printedBlock) {
            text.append('\n');
        }
        text.append('|');
        for (ResultColumn column : columns) {
            text.append(' ').append(escape(column.name())).append(" |");
        }
        text.append("\n|");
        for (int i = 0; i < columns.size(); i++) {
            boolean number = !result.rows().isEmpty() && result.rows().get(0).get(i) instanceof Number;
            text.append(number ? " ---: |" : " --- |");
        }
        text.append('\n');
        for (List<Object> row : result.rows()) {
            text.append('|');
            for (Object value : row) {
                String cell = CellText.of(value);
                text.append(' ').append(cell == null ? TableResultPrinter.NULL
                        : TableResultPrinter.NULL.equals(cell) ? "\"NULL\"" : escape(cell)).append(" |");
            }
            text.append('\n');
        }
        out.print(text);
        out.flush();
        printedBlock = true;
    }

    /** A cell's text inside a Markdown table row. */
    static String escape(String value) {
        String[] lines = value.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < lines.length; i++) {
            out.append(i == 0 ? "" : "<br>").append(TableResultPrinter.clean(lines[i]).replace("\\", "\\\\")
                    .replace("|", "\\|").replace("<", "&lt;"));
        }
        return out.toString();
    }
}
