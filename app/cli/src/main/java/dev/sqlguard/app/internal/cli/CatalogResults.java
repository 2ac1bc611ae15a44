package dev.sqlguard.app.internal.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.Suggestions;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.ports.TableDescription;

/**
 * The catalog listings of the CLI ({@code tables}, {@code describe}, {@code sources} as rows) and of
 * the shell ({@code \dt}, {@code \d TABLE}): built from the facade's {@code describe()}, the
 * allowlisted tables and columns, never from a model query, so nothing in them goes through data
 * redaction (a redacted column is listed with {@code redacted = true}). They are shaped as results so
 * that every output format prints them.
 */
final class CatalogResults {
    private CatalogResults() {
    }

    /** One line per allowlisted table: {@code table, row_count, columns}. */
    static ToolResult tables(String source, List<TableDescription> tables) {
        List<List<Object>> rows = new ArrayList<>();
        for (TableDescription t : tables) {
            rows.add(Arrays.asList(t.table().qualifiedName(), t.rowCount().isPresent() ? (Object) t.rowCount().getAsLong() : null,
                    (long) t.columns().size()));
        }
        return result(source, List.of(new ResultColumn("table", "VARCHAR"), new ResultColumn("row_count", "BIGINT"),
                new ResultColumn("columns", "BIGINT")), rows);
    }

    /** One line per allowlisted column of {@code table}: {@code column, type, redacted}. */
    static ToolResult columns(String source, TableDescription table) {
        List<List<Object>> rows = new ArrayList<>();
        for (TableDescription.ColumnDescription c : table.columns()) {
            rows.add(Arrays.asList(c.name(), c.type(), c.redacted()));
        }
        return result(source, List.of(new ResultColumn("column", "VARCHAR"), new ResultColumn("type", "VARCHAR"),
                new ResultColumn("redacted", "BOOLEAN")), rows);
    }

    /** One line per allowlisted column of every table: {@code table, column, type, redacted}. */
    static ToolResult allColumns(String source, List<TableDescription> tables) {
        List<List<Object>> rows = new ArrayList<>();
        for (TableDescription t : tables) {
            for (TableDescription.ColumnDescription c : t.columns()) {
                rows.add(Arrays.asList(t.table().qualifiedName(), c.name(), c.type(), c.redacted()));
            }
        }
        return result(source, List.of(new ResultColumn("table", "VARCHAR"), new ResultColumn("column", "VARCHAR"),
                new ResultColumn("type", "VARCHAR"), new ResultColumn("redacted", "BOOLEAN")), rows);
    }

    /**
     * The table {@code name} names: its qualified name, or its own name when that is unique; compared
     * case-insensitively, as the engines compare unquoted names.
     */
    static Optional<TableDescription> find(List<TableDescription> tables, String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        for (TableDescription t : tables) {
            if (t.table().qualifiedName().toLowerCase(Locale.ROOT).equals(wanted)) {
                return Optional.of(t);
            }
        }
        List<TableDescription> byName = tables.stream()
                .filter(t -> t.table().table().toLowerCase(Locale.ROOT).equals(wanted)).toList();
        return byName.size() == 1 ? Optional.of(byName.get(0)) : Optional.empty();
    }

    /** {@code no table is named 'x' in source s; did you mean ...? The tables are: a, b.} */
    static String unknownTable(String source, List<TableDescription> tables, String name) {
        List<String> names = tables.stream().map(t -> t.table().qualifiedName()).toList();
        String shown = names.size() <= 20 ? String.join(", ", names) : String.join(", ", names.subList(0, 20)) + ", ...";
        return "no allowlisted table is named '" + TableResultPrinter.clean(name) + "' in source " + source + "."
                + Suggestions.didYouMean(name, Set.copyOf(names)) + (names.isEmpty() ? " It has no tables."
                : " Its tables: " + shown + ".");
    }

    private static ToolResult result(String source, List<ResultColumn> columns, List<List<Object>> rows) {
        return new ToolResult("catalog", rows.isEmpty() ? ToolStatus.NO_EVIDENCE : ToolStatus.OK, source, Optional.empty(),
                columns, rows, false, Set.of(), Optional.empty(), 0);
    }
}
