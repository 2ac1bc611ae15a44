package dev.sqlguard.testing.differential;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.ErrorType;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;

/** Turning what an engine test gets into {@link Outcome}s, and checking a {@link Differential.Report}. */
public final class Outcomes {
    private Outcomes() {
    }

    /**
     * The codes by which the guard may refuse a statement the engine runs: every POLICY code and the
     * cost refusals (UNBOUNDED_COST, QUERY_TOO_COMPLEX). A USER code (syntax, unknown or ambiguous
     * column) on a statement the engine runs is a misreading, not policy.
     */
    public static Set<String> policyCodes() {
        return codes(false);
    }

    /**
     * {@link #policyCodes()} and SYNTAX_ERROR: the guard's parser reads less SQL than the engine
     * (JSqlParser 5.4 refuses {@code TRUE <> NOT TRUE} and {@code - - 1}), which refuses a statement
     * but never answers it otherwise. Each run reports how many cases each code refused.
     */
    public static Set<String> refusalCodes() {
        return codes(true);
    }

    private static Set<String> codes(boolean parser) {
        Set<String> out = new java.util.TreeSet<>();
        for (ErrorCode code : ErrorCode.values()) {
            if (code.type() == ErrorType.POLICY || code == ErrorCode.UNBOUNDED_COST || code == ErrorCode.QUERY_TOO_COMPLEX) {
                out.add(code.name());
            }
        }
        if (parser) {
            out.add(ErrorCode.SYNTAX_ERROR.name());
        }
        return out;
    }

    /** A guarded result: its rows (each cell written by {@code cell}), or its error's code and message. */
    public static Outcome guarded(ToolResult result, Function<Object, String> cell) {
        if (result.status() == ToolStatus.OK || result.status() == ToolStatus.NO_EVIDENCE) {
            if (result.truncated()) {
                return new Outcome.Failed("TRUNCATED", "the result was cut at the row or cell limit");
            }
            return new Outcome.Rows(cells(result.rows(), cell));
        }
        return result.error().<Outcome>map(e -> new Outcome.Failed(e.code().name(), e.message()))
                .orElse(new Outcome.Failed(result.status().name(), ""));
    }

    /** {@code sql} run on a new statement of {@code connection} (DuckDB's driver closes a statement whose query failed). */
    public static Outcome raw(java.sql.Connection connection, String sql, Function<Object, String> cell) {
        try (Statement statement = connection.createStatement()) {
            return raw(statement, sql, cell);
        } catch (SQLException e) {
            return new Outcome.Failed("RAW", String.valueOf(e.getMessage()));
        }
    }

    /** {@code sql} run on {@code statement}, every cell read with {@code getObject} and written by {@code cell}. */
    public static Outcome raw(Statement statement, String sql, Function<Object, String> cell) {
        try (ResultSet rs = statement.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
            return new Outcome.Rows(cells(rows, cell));
        } catch (SQLException e) {
            return new Outcome.Failed("RAW", String.valueOf(e.getMessage()));
        }
    }

    /** Fails with every finding (seed, minimal case, generated case) when the report holds any; prints the summary. */
    public static void assertNoFindings(Differential.Report report) {
        System.out.println(report.summary());
        report.findings().forEach(f -> System.out.println(f));
        assertThat(report.findings()).as("%s\nreproduce with -Dsqlguard.differential.seed=<seed> and a count of 1", report.summary())
                .isEmpty();
    }

    /** {@code sql} runs raw, and the guard answers it with the same rows. */
    public static void assertAnswersAsRaw(Target target, String sql) {
        Outcome raw = target.raw(sql);
        assertThat(raw).as(sql).isInstanceOf(Outcome.Rows.class);
        assertThat(target.guarded(sql)).as(sql).isEqualTo(raw);
    }

    private static List<List<String>> cells(List<? extends List<?>> rows, Function<Object, String> cell) {
        List<List<String>> out = new ArrayList<>(rows.size());
        for (List<?> row : rows) {
            out.add(row.stream().map(cell).toList());
        }
        return out;
    }
}
