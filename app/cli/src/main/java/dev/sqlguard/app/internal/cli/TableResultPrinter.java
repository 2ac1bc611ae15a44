package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.domain.ToolResult;

/**
 * A readable table for terminals. Control characters in data are escaped ({@code \n}, {@code \u001b})
 * so that a value cannot drive the terminal or break a row; NULL shows as {@code NULL} and the text
 * "NULL" quoted; columns are aligned by display width (CJK takes two columns); wide cells are cut
 * with an ellipsis; lists and structs show as JSON.
 */
final class TableResultPrinter implements ResultPrinter {
    static final int MAX_WIDTH = 40;

    private final PrintStream out;
    private final boolean listing;

    TableResultPrinter(PrintStream out) {
        this(out, false);
    }

    /** @param listing a catalog listing: the footer gives the row count only */
    TableResultPrinter(PrintStream out, boolean listing) {
        this.out = requireNonNull(out, "out is null");
        this.listing = listing;
    }

    @Override
    public void print(ToolResult result, JsonNode id) {
        StringBuilder text = new StringBuilder();
        if (id != null && !id.isNull()) {
            text.append("id: ").append(clean(id.asText())).append('\n');
        }
        result.sql().ifPresent(sql -> text.append("sql: ").append(clean(sql)).append('\n'));
        if (result.error().isPresent()) {
            ToolError error = result.error().get();
            text.append(result.status()).append(' ').append(error.code()).append(": ").append(clean(error.message()))
                    .append(error.retryable() ? " (retryable)" : "").append('\n');
        } else if (!result.columns().isEmpty()) {
            table(result, text);
        }
        if (listing) {
            text.append('(').append(result.returnedCount()).append(result.returnedCount() == 1 ? " row)\n" : " rows)\n");
        } else {
            text.append(ResultSummary.line(result)).append('\n');
        }
        out.print(text);
        out.flush();
    }

    private static void table(ToolResult result, StringBuilder text) {
        List<ResultColumn> columns = result.columns();
        int n = columns.size();
        List<String[]> cells = new ArrayList<>();
        int[] width = new int[n];
        String[] header = new String[n];
        for (int i = 0; i < n; i++) {
            header[i] = fit(clean(columns.get(i).name()));
            width[i] = DisplayWidth.of(header[i]);
        }
        for (List<Object> row : result.rows()) {
            String[] line = new String[n];
            for (int i = 0; i < n; i++) {
                line[i] = fit(cell(row.get(i)));
                width[i] = Math.max(width[i], DisplayWidth.of(line[i]));
            }
            cells.add(line);
        }
        appendRow(text, header, width, new boolean[n]);
        for (int i = 0; i < n; i++) {
            text.append(i == 0 ? "" : "-+-").append("-".repeat(width[i]));
        }
        text.append('\n');
        boolean[] right = new boolean[n];
        if (!result.rows().isEmpty()) {
            for (int i = 0; i < n; i++) {
                right[i] = result.rows().get(0).get(i) instanceof Number;
            }
        }
        for (String[] line : cells) {
            appendRow(text, line, width, right);
        }
    }

    private static void appendRow(StringBuilder text, String[] cells, int[] width, boolean[] right) {
        for (int i = 0; i < cells.length; i++) {
            text.append(i == 0 ? "" : " | ");
            String pad = " ".repeat(Math.max(0, width[i] - DisplayWidth.of(cells[i])));
            text.append(right[i] ? pad + cells[i] : cells[i] + (i == cells.length - 1 ? "" : pad));
        }
        text.append('\n');
    }

    /** How a SQL NULL shows; a text cell that reads the same is quoted so the two never look alike. */
    static final String NULL = "NULL";

    private static String cell(Object value) {
        if (value == null) {
            return NULL;
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof java.util.List<?> || value instanceof java.util.Map<?, ?>) {
            return clean(ToolResultJson.cell(value).toString());
        }
        String text = String.valueOf(value);
        return NULL.equals(text) ? "\"NULL\"" : clean(text);
    }

    private static String fit(String s) {
        return DisplayWidth.of(s) <= MAX_WIDTH ? s : DisplayWidth.cut(s, MAX_WIDTH - 1) + "\u2026";
    }

    /**
     * Escapes control characters so nothing the data holds can move the cursor or break a line:
     * {@code \n}, {@code \r}, {@code \t} by name, the others (escape sequences included) as
     * {@code \u001b}.
     */
    static String clean(String s) {
        StringBuilder out = new StringBuilder(s.length());
        s.codePoints().forEach(c -> {
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (Character.isISOControl(c) || c == 0x2028 || c == 0x2029) {
                        out.append(String.format(java.util.Locale.ROOT, "\\u%04x", c));
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        return out.toString();
    }
}
