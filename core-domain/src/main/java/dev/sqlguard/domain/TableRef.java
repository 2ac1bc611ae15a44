package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/** A base table, optionally schema-qualified. Names are folded to lower case. */
public record TableRef(Optional<String> schema, String table) {
    public TableRef {
        requireNonNull(schema, "schema is null");
        schema = schema.map(s -> Names.fold(Names.requireName(s, "schema")));
        table = Names.fold(Names.requireName(table, "table"));
    }

    public static TableRef of(String table) {
        return new TableRef(Optional.empty(), table);
    }

    public static TableRef of(String schema, String table) {
        return new TableRef(Optional.ofNullable(schema), table);
    }

    /** {@code schema.table} or {@code table}. */
    public String qualifiedName() {
        return schema.map(s -> s + "." + table).orElse(table);
    }

    @Override
    public String toString() {
        return qualifiedName();
    }
}
