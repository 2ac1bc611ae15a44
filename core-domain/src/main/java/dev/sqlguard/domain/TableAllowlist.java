package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which tables and columns a query may reference.
 *
 * <p>Keys are {@code table} or {@code schema.table}; a table named without a schema lives in the
 * default schema. A column set containing {@code "*"} allows every column of that table. An
 * <em>unrestricted</em> allowlist (no tables configured) means "every base table of the source",
 * which only engines that document it accept; the MySQL engine refuses to start without one.
 */
public record TableAllowlist(Optional<String> defaultSchema, Map<TableRef, Set<String>> tables, boolean restricted) {
    public static final String ALL_COLUMNS = "*";

    private static final TableAllowlist UNRESTRICTED = new TableAllowlist(Optional.empty(), Map.of(), false);

    public TableAllowlist {
        requireNonNull(defaultSchema, "defaultSchema is null");
        defaultSchema = defaultSchema.map(s -> Names.fold(Names.requireName(s, "defaultSchema")));
        requireNonNull(tables, "tables is null");
        Map<TableRef, Set<String>> copy = new LinkedHashMap<>();
        for (Map.Entry<TableRef, Set<String>> e : tables.entrySet()) {
            TableRef key = requireNonNull(e.getKey(), "table is null");
            Set<String> columns = new LinkedHashSet<>();
            for (String column : requireNonNull(e.getValue(), "columns of " + key + " is null")) {
                columns.add(ALL_COLUMNS.equals(column) ? ALL_COLUMNS : Names.fold(Names.requireName(column, "column of " + key)));
            }
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("table " + key + " allows no column");
            }
            if (copy.put(canonical(key, defaultSchema), Set.copyOf(columns)) != null) {
                throw new IllegalArgumentException("table " + key + " is listed twice");
            }
        }
        tables = Map.copyOf(copy);
        if (!restricted && !tables.isEmpty()) {
            throw new IllegalArgumentException("an unrestricted allowlist lists no tables");
        }
        if (restricted && tables.isEmpty()) {
            throw new IllegalArgumentException("a restricted allowlist needs at least one table");
        }
    }

    /** Every base table of the source is allowed (engines that accept this document it). */
    public static TableAllowlist unrestricted() {
        return UNRESTRICTED;
    }

    /** Exactly these tables and columns; keys are {@code table} or {@code schema.table}. */
    public static TableAllowlist of(Optional<String> defaultSchema, Map<String, ? extends Iterable<String>> tables) {
        Map<TableRef, Set<String>> parsed = new LinkedHashMap<>();
        tables.forEach((name, columns) -> {
            Set<String> set = new LinkedHashSet<>();
            columns.forEach(set::add);
            parsed.put(parseTable(name), set);
        });
        return new TableAllowlist(defaultSchema, parsed, true);
    }

    public static TableAllowlist of(Map<String, ? extends Iterable<String>> tables) {
        return of(Optional.empty(), tables);
    }

    private static TableRef parseTable(String name) {
        requireNonNull(name, "table name is null");
        int dot = name.indexOf('.');
        if (dot < 0) {
            return TableRef.of(name);
        }
        if (name.indexOf('.', dot + 1) >= 0) {
            throw new IllegalArgumentException("table name has more than one dot: " + name);
        }
        return TableRef.of(name.substring(0, dot), name.substring(dot + 1));
    }

    private static TableRef canonical(TableRef ref, Optional<String> defaultSchema) {
        if (ref.schema().isPresent() && ref.schema().equals(defaultSchema)) {
            return TableRef.of(ref.table());
        }
        return ref;
    }

    /** The allowed columns of a table, or empty when the table is not allowlisted. */
    public Optional<Set<String>> columnsOf(TableRef table) {
        return Optional.ofNullable(tables.get(canonical(table, defaultSchema)));
    }

    public boolean allowsTable(TableRef table) {
        return !restricted || tables.containsKey(canonical(table, defaultSchema));
    }

    public boolean allowsColumn(TableRef table, String column) {
        if (!restricted) {
            return true;
        }
        Set<String> columns = tables.get(canonical(table, defaultSchema));
        return columns != null && (columns.contains(ALL_COLUMNS) || columns.contains(Names.fold(column)));
    }
}
