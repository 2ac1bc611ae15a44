package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;

/**
 * A readable table for terminals. Control characters in data are shown as {@code ?} so that a
 * value cannot drive the terminal; wide cells are cut with an ellipsis.
 */
final class TableResultPrinter implements ResultPrinter {
    static final int MAX_WIDTH = 40;

    private final PrintStream out;

    TableResultPrinter(PrintStream out) {
        this.out = requireNonNull(out, "out is null");
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
        text.append('(').append(result.returnedCount()).append(result.returnedCount() == 1 ? " row" : " rows")
                .append(", ").append(result.status());
        if (result.truncated()) {
            text.append(", truncated");
        }
        if (!result.limitsHit().isEmpty()) {
            text.append(", limits hit: ").append(result.limitsHit().stream().sorted()
                    .map(LimitKind::wireName).collect(Collectors.joining(", ")));
        }
        text.append(", ").append(result.elapsedMs()).append(" ms)\n");
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
            width[i] = header[i].length();
        }
        for (List<Object> row : result.rows()) {
            String[] line = new String[n];
            for (int i = 0; i < n; i++) {
                line[i] = fit(cell(row.get(i)));
                width[i] = Math.max(width[i], line[i].length());
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
            String pad = " ".repeat(width[i] - cells[i].length());
            text.append(right[i] ? pad + cells[i] : cells[i] + (i == cells.length - 1 ? "" : pad));
        }
        text.append('\n');
    }

    private static String cell(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return clean(String.valueOf(value));
    }

    private static String fit(String s) {
        return s.length() <= MAX_WIDTH ? s : s.substring(0, MAX_WIDTH - 1) + "\u2026";
    }

    /** Replaces control characters (escape sequences, newlines, tabs) with {@code ?}. */
    static String clean(String s) {
        StringBuilder out = new StringBuilder(s.length());
        s.codePoints().forEach(c -> out.appendCodePoint(Character.isISOControl(c) || c == 0x2028 || c == 0x2029 ? '?' : c));
        return out.toString();
    }
}
