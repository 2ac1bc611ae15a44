package dev.sqlguard.jdbc;

import java.util.Collection;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;

/**
 * What a catalog loader says at startup about an allowlisted name the server does not have: it
 * warns and goes on, since the allowlist may name a table that comes later, and the validator
 * refuses queries on what is missing as on any unknown name.
 */
public final class AllowlistCheck {
    private static final Logger LOG = LoggerFactory.getLogger(AllowlistCheck.class);

    private AllowlistCheck() {
    }

    /**
     * Whether the server has the allowlisted {@code table}, given the names of the columns it
     * reported for it. None means it does not exist or the account cannot see it: warns and returns
     * false. Otherwise warns about each allowlisted column (other than {@code *}) it lacks.
     *
     * @param allowlisted the table's allowlisted columns
     * @param columns the server's column names, compared exactly
     */
    public static boolean found(String sourceId, TableRef table, Set<String> allowlisted, Collection<String> columns) {
        if (columns.isEmpty()) {
            LOG.warn("source '" + sourceId + "': allowlisted table " + table + " does not exist or is not visible; queries on it are refused");
            return false;
        }
        for (String column : allowlisted) {
            if (!TableAllowlist.ALL_COLUMNS.equals(column) && !columns.contains(column)) {
                LOG.warn("source '" + sourceId + "': allowlisted column " + table + "." + column + " does not exist");
            }
        }
        return true;
    }
}
