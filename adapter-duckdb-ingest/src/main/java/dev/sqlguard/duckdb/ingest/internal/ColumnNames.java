package dev.sqlguard.duckdb.ingest.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Column names from header texts, one rule for every format: a name that repeats an earlier one
 * (compared case-insensitively, as DuckDB compares names) gets {@code _2}, then {@code _3}, ...
 * ({@code a, A, a} become {@code a, A_2, a_3}), skipping any name already taken.
 */
final class ColumnNames {
    private ColumnNames() {
    }

    static List<String> unique(List<String> bases) {
        List<String> names = new ArrayList<>(bases.size());
        Set<String> seen = new HashSet<>();
        for (String base : bases) {
            String candidate = base;
            for (int n = 2; !seen.add(candidate.toLowerCase(Locale.ROOT)); n++) {
                candidate = base + "_" + n;
            }
            names.add(candidate);
        }
        return names;
    }
}
