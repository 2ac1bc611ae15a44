package dev.sqlguard.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Function;

import dev.sqlguard.domain.ResultProjector;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;

/**
 * What the engines' masking tests share: a table of secrets of very different lengths, the outcome of
 * a call with everything a secret's length could change (status, code, limits hit, truncation, rows),
 * and the comparison of masked answers with the raw engine's rows.
 *
 * <p>The {@code vault} table: {@code (id BIGINT, owner VARCHAR(16), password <the engine's text type>)},
 * rows {@link #VAULT}. Each engine fixture creates it with its own DDL, the secrets built on the server
 * ({@code repeat} or {@code lpad}), since a 3 MB literal or parameter is not what these tests are about.
 */
public final class MaskedAnswers {
    /** The length of the long secret: past a 200 kB memory limit once padded, not alone. */
    public static final int LONG = 150_000;
    /** The length of the huge secret: larger than every limit the tests set. */
    public static final int HUGE = 3_000_000;

    /** One row of the {@code vault} table: its password is {@code length} times {@code fill}. */
    public record Secret(long id, String owner, char fill, int length) {
        public String password() {
            return String.valueOf(fill).repeat(length);
        }
    }

    /** The rows of the {@code vault} table: two one-character secrets, a long one and a huge one. */
    public static final List<Secret> VAULT = List.of(
            new Secret(1, "ann", 'p', 1),
            new Secret(2, "ann", 'x', LONG),
            new Secret(3, "bob", 'z', HUGE),
            new Secret(4, "cid", 'q', 1));

    private MaskedAnswers() {
    }

    /**
     * Everything a call's answer could reveal, except its first column (the row's id, which the tests
     * vary): status, error code, limits hit, truncation, the rows' count and every other cell.
     */
    public static String outcome(ToolResult result) {
        List<String> rows = new ArrayList<>();
        for (List<Object> row : result.rows()) {
            rows.add(String.valueOf(row.subList(Math.min(1, row.size()), row.size())));
        }
        return String.format(Locale.ROOT, "%s %s limits=%s truncated=%s rows=%d %s", result.status(),
                result.error().map(e -> e.code().name()).orElse("-"), new TreeSet<>(result.limitsHit()), result.truncated(),
                result.returnedCount(), rows);
    }

    /**
     * Runs each query raw and guarded and lists where they differ: the guarded call must answer, with
     * as many rows as the raw query, in the same order, every cell equal to the raw one except in the
     * masked columns, which read {@link ResultProjector#REDACTED} in every row; and at least one column
     * must be masked (each query has a sensitive output). An empty list means they agree.
     */
    public static List<String> differences(List<String> queries, HonestCorpus.RawRunner raw, Function<String, ToolResult> guarded,
                                           Function<Object, String> cell) {
        List<String> out = new ArrayList<>();
        for (String sql : queries) {
            List<List<Object>> expected;
            try {
                expected = raw.rows(sql);
            } catch (Exception e) {
                out.add(sql + "\n    raw failed: " + e.getMessage());
                continue;
            }
            ToolResult result = guarded.apply(sql);
            if (result.status() != ToolStatus.OK) {
                out.add(sql + "\n    guarded: " + result.status() + " " + result.error().map(e -> e.code() + " " + e.message()).orElse(""));
                continue;
            }
            if (result.rows().size() != expected.size()) {
                out.add(sql + "\n    raw rows: " + expected.size() + ", guarded rows: " + result.rows().size());
                continue;
            }
            int width = result.columns().size();
            boolean anyMasked = false;
            for (int c = 0; c < width; c++) {
                boolean masked = !result.rows().isEmpty();
                for (List<Object> row : result.rows()) {
                    masked &= ResultProjector.REDACTED.equals(row.get(c));
                }
                anyMasked |= masked;
                for (int r = 0; r < expected.size() && !masked; r++) {
                    String want = cell.apply(expected.get(r).get(c));
                    String got = cell.apply(result.rows().get(r).get(c));
                    if (!want.equals(got)) {
                        out.add(sql + "\n    row " + r + " column " + c + ": raw " + want + ", guarded " + got);
                        break;
                    }
                }
            }
            if (!anyMasked) {
                out.add(sql + "\n    no column is masked");
            }
        }
        return out;
    }
}
