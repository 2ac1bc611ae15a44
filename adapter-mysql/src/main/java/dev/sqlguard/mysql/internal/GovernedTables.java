package dev.sqlguard.mysql.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import dev.sqlguard.domain.ColumnMask;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.RowFilter;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

/**
 * The row filters and column masks of a source ({@link RowPolicy}) as this engine renders them: every
 * reference to a governed base table becomes a derived table of the caller's rows,
 * {@code (SELECT `c1`, (<mask>) AS `c2`, ... FROM `schema`.`t` WHERE (<filter>) LIMIT <max>)}, with every column of
 * the table in catalog order, and each attribute placeholder of the filter a marker that
 * {@link ParameterMarkers#bind} turns into a bound {@code ?}. The filter and mask texts are the
 * operator's SQL, spliced as written. Immutable.
 */
final class GovernedTables {
    /** The server's catalog schemas: their views and statistics show every tenant's rows and counts. */
    private static final Set<String> CATALOG_SCHEMAS = Set.of("information_schema", "mysql", "performance_schema", "sys");

    /**
     * Keeps the derived table from being merged into the query around it, and that query's conditions from
     * being pushed into it (MariaDB and MySQL merge or push into no derived table with a LIMIT): merged, the
     * model's WHERE, ON and HAVING conditions run beside the filter, on every tenant's rows, and a condition
     * that fails on another tenant's row (an out-of-range value, a subquery of several rows) tells that the
     * row exists (measured on MariaDB 10.11: {@code CASE WHEN id = 2 THEN CAST(0 AS UNSIGNED) - 1 ELSE 0 END = 0}
     * failed for a row of another region). The server materializes the tenant's rows instead. A statement
     * without any such condition, and without a subquery in an expression (which the server may turn into
     * one), leaves the derived tables mergeable ({@link #barriers}): the model's
     * other expressions (select list, aggregates, grouping, ordering, windows) run only on the rows the
     * filter passed.
     */
    static final String BARRIER = " LIMIT 18446744073709551615";
    /** Where {@link #BARRIER} goes while the statement is rendered (NUL delimits no other marker of this name). */
    private static final String BARRIER_SLOT = "\u0000barrier\u0000";

    private final RowPolicy rows;
    private final String defaultSchema;

    /**
     * @throws GuardException CONFIGURATION_ERROR when a filter or mask holds a control character (the
     *     renderer's markers are delimited by NUL, which no configured text may carry), or when the policy
     *     resolves unqualified tables in another schema than the source does
     */
    GovernedTables(RowPolicy rows, String defaultSchema) {
        this.rows = requireNonNull(rows, "rows is null");
        this.defaultSchema = requireNonNull(defaultSchema, "defaultSchema is null");
        if (rows.defaultSchema().isPresent() && !rows.defaultSchema().get().equals(Names.fold(defaultSchema))) {
            // an unqualified key would name one table for the policy and another for the engine
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The row filters and masks name their unqualified tables in"
                    + " another default schema than the source's.");
        }
        rows.filters().forEach((table, filter) -> requirePrintable(filter.predicate(), table.qualifiedName()));
        rows.masks().forEach((column, mask) -> requirePrintable(mask.expression(), column.table().qualifiedName()));
    }

    private static void requirePrintable(String text, String table) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r') {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The row filter or a column mask of table "
                        + SafeText.identifier(table) + " holds a control character.");
            }
        }
    }

    /**
     * The rendered statement with each derived table's barrier placed, or left out when the statement has no
     * condition at all (see {@link #BARRIER}).
     *
     * @param conditions whether the statement has a WHERE, ON (a USING or NATURAL join included), HAVING or
     *     subquery in an expression anywhere
     */
    static String barriers(String rendered, boolean conditions) {
        return rendered.replace(BARRIER_SLOT, conditions ? BARRIER : "");
    }

    /** Whether the source has any row filter or mask (then catalog relations are refused). */
    boolean active() {
        return !rows.isEmpty();
    }

    /** The policy's name of a resolved table: unqualified in the default schema, else qualified. */
    private TableRef shown(TableInfo info) {
        return Names.fold(info.schema()).equals(Names.fold(defaultSchema)) ? TableRef.of(info.name()) : info.ref();
    }

    /** The name under which the policy governs this table, if it does. */
    private Optional<TableRef> key(TableInfo info) {
        TableRef shown = shown(info);
        if (rows.governs(shown)) {
            return Optional.of(shown);
        }
        return rows.governs(info.ref()) ? Optional.of(info.ref()) : Optional.empty();
    }

    /**
     * What a reference to the table renders as before its alias: the quoted table, or the derived table
     * of the caller's rows when the table is governed.
     */
    String source(TableInfo info) {
        String table = MySqlQuoting.identifier(info.schema()) + "." + MySqlQuoting.identifier(info.name());
        Optional<TableRef> key = key(info);
        if (key.isEmpty()) {
            return table;
        }
        return "(" + select(info, key.get(), ParameterMarkers::attribute) + BARRIER_SLOT + ")";
    }

    /**
     * {@code SELECT <columns, masked> FROM `schema`.`t` [WHERE (<filter>)]}, each placeholder of the filter
     * replaced by {@code marker}.
     */
    private String select(TableInfo info, TableRef key, Function<String, String> marker) {
        Map<String, ColumnMask> masks = rows.masksOf(key);
        List<String> columns = new ArrayList<>();
        for (ColumnInfo c : info.columns()) {
            String name = MySqlQuoting.identifier(c.name());
            ColumnMask mask = masks.get(Names.fold(c.name()));
            columns.add(mask == null ? name : "(" + mask.expression() + ") AS " + name);
        }
        Optional<RowFilter> filter = rows.filterOf(key);
        return "SELECT " + String.join(", ", columns) + " FROM " + MySqlQuoting.identifier(info.schema()) + "."
                + MySqlQuoting.identifier(info.name()) + filter.map(f -> " WHERE (" + f.render(marker) + ")").orElse("");
    }

    /**
     * Refuses a WITH query named like a governed table: a reference to that name would read the query,
     * and a reader of the text could take it for the table.
     */
    void checkWithName(String name) {
        for (TableRef t : rows.governedTables()) {
            if (Names.fold(t.table()).equals(Names.fold(name))) {
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "A WITH query is named like the table "
                        + SafeText.identifier(t.table()) + ", whose rows are filtered per caller; give it another name.");
            }
        }
    }

    /** Refuses a catalog relation (information_schema, mysql, performance_schema, sys) while rows are filtered. */
    void checkNotCatalog(String schema, String table) {
        if (active() && CATALOG_SCHEMAS.contains(Names.fold(schema))) {
            throw new GuardException(ErrorCode.TABLE_NOT_ALLOWED, "The query names " + SafeText.identifier(schema + "." + table)
                    + ", a catalog relation; this source filters rows per caller, and catalog relations show every caller's rows.");
        }
    }

    /**
     * The start-time check of one governed table: the derived table's query, with {@code ?} for each
     * attribute and no rows ({@code LIMIT 0}).
     *
     * @return the text and the number of placeholders
     */
    CheckQuery checkQuery(TableInfo info) {
        TableRef key = key(info).orElseThrow(() -> new IllegalArgumentException("not governed: " + info.ref()));
        int placeholders = rows.filterOf(key).map(f -> f.placeholders().size()).orElse(0);
        return new CheckQuery(select(info, key, a -> "?") + " LIMIT 0", placeholders);
    }

    /** A start-time check query and how many {@code ?} it takes. */
    record CheckQuery(String sql, int placeholders) {
    }

    /** Every governed table, as the policy names it. */
    Set<TableRef> tables() {
        return rows.governedTables();
    }

    /** The table the policy key names, in the engine's terms (an unqualified key lives in the default schema). */
    TableRef resolve(TableRef key) {
        return key.schema().isPresent() ? key : TableRef.of(defaultSchema, key.table());
    }

    /** Masked columns of a governed table that the table does not have. */
    List<String> missingMaskedColumns(TableInfo info) {
        TableRef key = key(info).orElseThrow(() -> new IllegalArgumentException("not governed: " + info.ref()));
        List<String> out = new ArrayList<>();
        for (String column : rows.masksOf(key).keySet()) {
            if (info.columnIgnoringCase(column).isEmpty()) {
                out.add(column);
            }
        }
        return out;
    }
}
