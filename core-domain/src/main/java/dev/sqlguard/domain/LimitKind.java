package dev.sqlguard.domain;

import java.util.Locale;

/** The bounds a result can hit; their wire names appear in {@code limits_hit}. */
public enum LimitKind {
    ROWS, CELLS, BYTES, TIMEOUT, MEMORY, DISK;

    /**
     * The name in {@code limits_hit}: the lower-case constant, except {@link #CELLS}, which is
     * {@code cell_chars} (a cell was cut to its character bound; no cell was dropped).
     */
    public String wireName() {
        return this == CELLS ? "cell_chars" : name().toLowerCase(Locale.ROOT);
    }
}
