package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

/** An output column as shown to the caller: its label and a portable type name. */
public record ResultColumn(String name, String type) {
    public ResultColumn {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }
}
