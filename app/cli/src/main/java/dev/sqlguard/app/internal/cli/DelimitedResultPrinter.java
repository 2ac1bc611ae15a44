package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolResult;

/**
 * CSV (RFC 4180) or TSV on stdout: a header line with the column names, then one line per row, each
 * ending in {@code \n}. Nothing else goes to stdout, so the output can be piped into a file or
 * another tool; the SQL, status, limits hit and errors go to stderr ({@link ResultSummary}). A result
 * without columns (a refusal, an error) prints nothing on stdout. With a batch, each result is one
 * block (header and rows), blocks separated by an empty line.
 *
 * <p>CSV: a field is quoted when it holds a comma, a double quote (doubled inside), a line break, or
 * leading or trailing blanks; NULL is an empty field and the empty string a quoted empty field
 * ({@code ""}), as psql {@code --csv} writes them. TSV: NULL is {@code \N} and a tab, line break or
 * backslash in a value is written {@code \t}, {@code \n}, {@code \r}, {@code \\} (PostgreSQL's text
 * format), so a line is always one row.
 */
final class DelimitedResultPrinter implements ResultPrinter {
    enum Style { CSV, TSV }

    private final PrintStream out;
    private final PrintStream err;
    private final Style style;
    private boolean printedBlock;

    DelimitedResultPrinter(PrintStream out, PrintStream err, Style style) {
        this.out = requireNonNull(out, "out is null");
        this.err = err;
        this.style = requireNonNull(style, "style is null");
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
        for (int i = 0; i < columns.size(); i++) {
            text.append(i == 0 ? "" : separator()).append(field(columns.get(i).name()));
        }
        text.append('\n');
        for (List<Object> row : result.rows()) {
            for (int i = 0; i < row.size(); i++) {
                text.append(i == 0 ? "" : separator()).append(field(CellText.of(row.get(i))));
            }
            text.append('\n');
        }
        out.print(text);
        out.flush();
        printedBlock = true;
    }

    private String separator() {
        return style == Style.CSV ? "," : "\t";
    }

    private String field(String value) {
        return style == Style.CSV ? csv(value) : tsv(value);
    }

    /** One RFC 4180 field; null is the empty field, the empty string {@code ""}. */
    static String csv(String value) {
        if (value == null) {
            return "";
        }
        boolean quote = value.isEmpty() || value.indexOf(',') >= 0 || value.indexOf('"') >= 0
                || value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0
                || Character.isWhitespace(value.charAt(0)) || Character.isWhitespace(value.charAt(value.length() - 1));
        return quote ? '"' + value.replace("\"", "\"\"") + '"' : value;
    }

    /** One TSV field: {@code \N} for null, tab, line breaks and backslash escaped. */
    static String tsv(String value) {
        if (value == null) {
            return "\\N";
        }
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
