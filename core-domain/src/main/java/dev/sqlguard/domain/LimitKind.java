package dev.sqlguard.domain;

import java.util.Locale;

/** The bounds a result can hit; their lower-case names appear in {@code limits_hit}. */
public enum LimitKind {
    ROWS, CELLS, BYTES, TIMEOUT, MEMORY, DISK;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
