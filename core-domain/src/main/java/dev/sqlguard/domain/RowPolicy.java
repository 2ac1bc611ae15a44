package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The rows and values each caller may see in one source (multi-tenancy): row filters per table and
 * column masks. An engine enforces both by rendering every reference to a governed table as a derived
 * table of the same name, {@code (SELECT <columns, masked> FROM t WHERE <filter>)}, whose attribute
 * placeholders are bound from the caller's attributes ({@link Bindings}). A call on a filtered table
 * without every attribute its filter needs is refused ({@link ErrorCode#MISSING_ATTRIBUTE}).
 *
 * <p>Keys are {@code table} or {@code schema.table} (filters) and {@code table.column} or
 * {@code schema.table.column} (masks); a table named without a schema lives in the default schema.
 *
 * <p>The masks are indexed by table and by column name once, here, so that {@link #governs},
 * {@link #masksOf} and {@link #masksColumnNamed} (asked on every call's authorization and rendering)
 * look up instead of scanning. Two policies are equal when their default schemas, filters and masks are.
 */
public final class RowPolicy {
    private static final RowPolicy NONE = new RowPolicy(Optional.empty(), Map.of(), Map.of());

    private final Optional<String> defaultSchema;
    private final Map<TableRef, RowFilter> filters;
    private final Map<ColumnRef, ColumnMask> masks;
    /** The masks of each masked table (canonical): column name to mask, in configuration order. */
    private final Map<TableRef, Map<String, ColumnMask>> masksByTable;
    /** The names of the masked columns, of any table. */
    private final Set<String> maskedNames;

    /**
     * @param defaultSchema the schema of a table named without one
     * @param filters the row filter of each table
     * @param masks the mask of each column
     * @throws IllegalArgumentException when a table has two filters or a column two masks (after canonicalization)
     */
    public RowPolicy(Optional<String> defaultSchema, Map<TableRef, RowFilter> filters, Map<ColumnRef, ColumnMask> masks) {
        requireNonNull(defaultSchema, "defaultSchema is null");
        defaultSchema = defaultSchema.map(Names::fold);
        Map<TableRef, RowFilter> f = new LinkedHashMap<>();
        for (Map.Entry<TableRef, RowFilter> e : requireNonNull(filters, "filters is null").entrySet()) {
            if (f.put(canonical(requireNonNull(e.getKey(), "table is null"), defaultSchema),
                    requireNonNull(e.getValue(), "filter is null")) != null) {
                throw new IllegalArgumentException("table " + e.getKey() + " has two row filters");
            }
        }
        Map<ColumnRef, ColumnMask> m = new LinkedHashMap<>();
        for (Map.Entry<ColumnRef, ColumnMask> e : requireNonNull(masks, "masks is null").entrySet()) {
            ColumnRef key = requireNonNull(e.getKey(), "column is null");
            if (m.put(new ColumnRef(canonical(key.table(), defaultSchema), key.column()), requireNonNull(e.getValue(), "mask is null")) != null) {
                throw new IllegalArgumentException("column " + key + " has two masks");
            }
        }
        Map<TableRef, Map<String, ColumnMask>> byTable = new LinkedHashMap<>();
        Set<String> names = new HashSet<>();
        m.forEach((column, mask) -> {
            byTable.computeIfAbsent(column.table(), t -> new LinkedHashMap<>()).put(column.column(), mask);
            names.add(column.column());
        });
        byTable.replaceAll((table, columns) -> Collections.unmodifiableMap(columns));
        this.defaultSchema = defaultSchema;
        this.filters = Map.copyOf(f);
        this.masks = Map.copyOf(m);
        this.masksByTable = Map.copyOf(byTable);
        this.maskedNames = Set.copyOf(names);
    }

    /** The schema of a table named without one (lower case), if the source has one. */
    public Optional<String> defaultSchema() {
        return defaultSchema;
    }

    /** The row filter of each table, keyed canonically (a table of the default schema without its schema). */
    public Map<TableRef, RowFilter> filters() {
        return filters;
    }

    /** The mask of each column, keyed canonically. */
    public Map<ColumnRef, ColumnMask> masks() {
        return masks;
    }

    /** No filter and no mask: every caller sees every row. */
    public static RowPolicy none() {
        return NONE;
    }

    /**
     * Row filters and masks from configuration text.
     *
     * @param rows {@code table} or {@code schema.table} to predicate
     * @param masks {@code table.column} or {@code schema.table.column} to expression
     * @throws IllegalArgumentException naming the key that is malformed
     */
    public static RowPolicy of(Optional<String> defaultSchema, Map<String, String> rows, Map<String, String> masks) {
        Map<TableRef, RowFilter> f = new LinkedHashMap<>();
        rows.forEach((table, predicate) -> {
            String[] parts = split(table, 1, 2, "row filter table");
            TableRef ref = parts.length == 1 ? TableRef.of(parts[0]) : TableRef.of(parts[0], parts[1]);
            try {
                f.put(ref, new RowFilter(predicate));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("row filter of " + table + ": " + e.getMessage());
            }
        });
        Map<ColumnRef, ColumnMask> m = new LinkedHashMap<>();
        masks.forEach((column, expression) -> {
            String[] parts = split(column, 2, 3, "masked column");
            TableRef table = parts.length == 2 ? TableRef.of(parts[0]) : TableRef.of(parts[0], parts[1]);
            try {
                m.put(new ColumnRef(table, parts[parts.length - 1]), new ColumnMask(expression));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("mask of " + column + ": " + e.getMessage());
            }
        });
        return new RowPolicy(defaultSchema, f, m);
    }

    private static String[] split(String key, int min, int max, String what) {
        requireNonNull(key, what + " is null");
        String[] parts = key.split("\\.", -1);
        if (parts.length < min || parts.length > max) {
            throw new IllegalArgumentException(what + " '" + key + "' must be " + (min == 1 ? "table or schema.table"
                    : "table.column or schema.table.column"));
        }
        for (String part : parts) {
            Names.requireName(part.strip(), what);
        }
        for (int i = 0; i < parts.length; i++) {
            parts[i] = parts[i].strip();
        }
        return parts;
    }

    private static TableRef canonical(TableRef ref, Optional<String> defaultSchema) {
        if (ref.schema().isPresent() && ref.schema().equals(defaultSchema)) {
            return TableRef.of(ref.table());
        }
        return ref;
    }

    public boolean isEmpty() {
        return filters.isEmpty() && masks.isEmpty();
    }

    /** The row filter of a table as the engine resolved it, if it has one. */
    public Optional<RowFilter> filterOf(TableRef table) {
        return Optional.ofNullable(filters.get(canonical(table, defaultSchema)));
    }

    /** The masks of a table's columns: column name (lower case) to mask. */
    public Map<String, ColumnMask> masksOf(TableRef table) {
        return masksByTable.getOrDefault(canonical(table, defaultSchema), Map.of());
    }

    /** Whether a reference to this table must be rendered as a derived table (it has a filter or a mask). */
    public boolean governs(TableRef table) {
        TableRef key = canonical(table, defaultSchema);
        return filters.containsKey(key) || masksByTable.containsKey(key);
    }

    /** Whether values of this column are masked. */
    public boolean isMasked(TableRef table, String column) {
        return masks.containsKey(new ColumnRef(canonical(table, defaultSchema), column));
    }

    /** Whether some table's column of this name is masked. */
    public boolean masksColumnNamed(String column) {
        return !maskedNames.isEmpty() && maskedNames.contains(Names.fold(column));
    }

    /** Every governed table (filtered or masked). */
    public Set<TableRef> governedTables() {
        Set<TableRef> out = new LinkedHashSet<>(filters.keySet());
        masks.keySet().forEach(c -> out.add(c.table()));
        return out;
    }

    /** Every attribute some filter needs. */
    public Set<String> attributes() {
        Set<String> out = new LinkedHashSet<>();
        filters.values().forEach(f -> out.addAll(f.attributes()));
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowPolicy p && p.defaultSchema.equals(defaultSchema) && p.filters.equals(filters) && p.masks.equals(masks);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(defaultSchema, filters, masks);
    }

    @Override
    public String toString() {
        return "RowPolicy[defaultSchema=" + defaultSchema + ", filters=" + filters + ", masks=" + masks + "]";
    }
}
