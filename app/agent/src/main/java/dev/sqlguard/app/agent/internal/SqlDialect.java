package dev.sqlguard.app.agent.internal;

import java.util.Locale;

import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;

/**
 * How the agent writes identifiers and statistics for one engine. Only names already checked
 * against the source's catalog reach these methods, and every one is quoted (or, for an unknown
 * engine, required to be a plain name).
 */
public enum SqlDialect {
    /** DuckDB: double-quoted identifiers, {@code stddev_samp}, {@code quantile_cont}. */
    DUCKDB,
    /** MySQL and MariaDB: backtick identifiers, {@code stddev_samp}, no quantile aggregate. */
    MYSQL,
    /** Any other engine: plain identifiers only, standard aggregates; the rest is tried and degraded. */
    PLAIN;

    public static SqlDialect forEngine(String engineName) {
        return switch (engineName.toLowerCase(Locale.ROOT)) {
            case "duckdb" -> DUCKDB;
            case "mysql", "mariadb" -> MYSQL;
            default -> PLAIN;
        };
    }

    /** The identifier, quoted for this dialect. */
    public String quote(String identifier) {
        return switch (this) {
            case DUCKDB -> "\"" + identifier.replace("\"", "\"\"") + "\"";
            case MYSQL -> "`" + identifier.replace("`", "``") + "`";
            case PLAIN -> {
                if (!Names.isPlain(identifier)) {
                    throw new ArgSchema.InvalidArgumentException("The name " + SafeText.identifier(identifier)
                            + " needs quoting, which the agent cannot do for this engine; use query_data instead.");
                }
                yield identifier;
            }
        };
    }

    public String table(TableRef table) {
        return table.schema().map(s -> quote(s) + ".").orElse("") + quote(table.table());
    }

    /** Whether the engine has an ordered-set quantile aggregate the agent knows how to call. */
    public boolean hasQuantiles() {
        return this == DUCKDB;
    }

    /** A continuous quantile of {@code column} (already quoted). */
    public String quantile(String quotedColumn, String fraction) {
        if (this != DUCKDB) {
            throw new IllegalStateException("no quantile aggregate in " + this);
        }
        return "quantile_cont(" + quotedColumn + ", " + fraction + ")";
    }
}
