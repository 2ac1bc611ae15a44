package dev.sqlguard.app.tools.internal;

import static java.util.Objects.requireNonNull;

import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.ports.EngineDialect;

/**
 * Writes the agent's own SQL (statistics, charts) in a source's {@link EngineDialect}. Only names
 * already checked against the source's catalog reach these methods, and every one is quoted, or,
 * for a dialect without quoting, required to be a plain name.
 */
public final class SqlWriter {
    private final EngineDialect dialect;

    public SqlWriter(EngineDialect dialect) {
        this.dialect = requireNonNull(dialect, "dialect is null");
    }

    /** The identifier as the dialect writes it. */
    public String quote(String identifier) {
        return dialect.quote(identifier).orElseThrow(() -> needsQuoting(identifier));
    }

    public String table(TableRef table) {
        return dialect.table(table).orElseThrow(() -> needsQuoting(table.qualifiedName()));
    }

    /** Whether the dialect has a quantile aggregate the agent knows how to call. */
    public boolean hasQuantiles() {
        return dialect.quantileTemplate().isPresent();
    }

    /** A continuous quantile of {@code quotedColumn} at {@code fraction}. */
    public String quantile(String quotedColumn, String fraction) {
        return dialect.quantile(quotedColumn, fraction)
                .orElseThrow(() -> new IllegalStateException("no quantile aggregate in " + dialect.name()));
    }

    private static ArgSchema.InvalidArgumentException needsQuoting(String name) {
        return new ArgSchema.InvalidArgumentException("The name " + SafeText.identifier(name)
                + " needs quoting, which the agent cannot do for this engine; use query_data instead.");
    }

    /**
     * The DATE a {@code unit} bucket of {@code quotedColumn} starts on.
     *
     * @throws ArgSchema.InvalidArgumentException when the dialect cannot bucket dates by that unit
     */
    public String dateBucket(String unit, String quotedColumn) {
        return dialect.dateBucket(unit, quotedColumn).orElseThrow(() -> new ArgSchema.InvalidArgumentException(
                "chart.bucket '" + unit + "' is not available on this engine; group dates with query_data instead."));
    }
}
