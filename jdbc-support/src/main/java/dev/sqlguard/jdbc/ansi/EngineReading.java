package dev.sqlguard.jdbc.ansi;

import static java.util.Objects.requireNonNull;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.TableRef;

/**
 * How the engine itself reads a rendered statement (what its EXPLAIN says it reads), to cross-check
 * against the checked plan: the engine must read nothing the check did not see.
 *
 * @param tables the base tables the engine reads, in the order read
 * @param columns the base columns the engine reads
 * @param complete false when the engine's plan holds a read its reader cannot account for column by
 *     column (a whole row, a table it does not know, a node that runs code of its own)
 */
public record EngineReading(Set<TableRef> tables, Set<ColumnRef> columns, boolean complete) {
    public EngineReading {
        tables = Collections.unmodifiableSet(new LinkedHashSet<>(requireNonNull(tables, "tables is null")));
        columns = Collections.unmodifiableSet(new LinkedHashSet<>(requireNonNull(columns, "columns is null")));
    }

    /**
     * @throws GuardException UNSAFE_SYNTAX when the reading is incomplete or reaches a table or a column
     *     the checked {@code plan} does not: the engine resolved a name otherwise than the check did
     */
    public void requireWithin(QueryPlan plan) {
        requireWithin(plan, Set.of());
    }

    /**
     * {@link #requireWithin(QueryPlan)} where the engine may also read {@code policyColumns}: the columns
     * that the row policy's filters and masks name, which the database reads where it enforces the same
     * policy itself ({@link RowPolicyCheck#policyColumns}).
     */
    public void requireWithin(QueryPlan plan, Set<ColumnRef> policyColumns) {
        if (!complete || !plan.tables().containsAll(tables) || !within(plan, policyColumns)) {
            throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "The database reads this query differently from the check; rewrite it more plainly.");
        }
    }

    /** Whether every column read is one the plan reads or one of {@code policyColumns}. */
    public boolean within(QueryPlan plan, Set<ColumnRef> policyColumns) {
        Set<ColumnRef> read = plan.columns();
        for (ColumnRef c : columns) {
            if (!read.contains(c) && !policyColumns.contains(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The plan an engine's {@code EXPLAIN} answers with: the first column of the answer's first row.
     *
     * @throws GuardException INTERNAL_ERROR when the answer has no row
     */
    public static String planText(ResultSet answer) throws SQLException {
        if (!answer.next()) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, "The database returned no plan.");
        }
        return answer.getString(1);
    }
}
