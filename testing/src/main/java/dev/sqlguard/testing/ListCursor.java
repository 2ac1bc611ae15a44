package dev.sqlguard.testing;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.port.ResultCursor;

/**
 * A cursor over rows held in memory, for fake engines: {@code next()} after {@link #cancel()} or
 * {@link #close()} fails with {@code CANCELLED}, as a real engine's stopped query does.
 */
public final class ListCursor implements ResultCursor {
    private final List<ResultColumn> columns;
    private final List<List<Object>> rows;
    private int position = -1;
    private volatile boolean stopped;

    /**
     * @param columns the result's columns
     * @param rows the rows, each with one value per column ({@code null} for SQL NULL)
     */
    public ListCursor(List<ResultColumn> columns, List<? extends List<?>> rows) {
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        List<List<Object>> copy = new ArrayList<>();
        for (List<?> row : requireNonNull(rows, "rows is null")) {
            if (row.size() != this.columns.size()) {
                throw new IllegalArgumentException("a row has " + row.size() + " values for " + this.columns.size() + " columns");
            }
            copy.add(java.util.Collections.unmodifiableList(new ArrayList<>(row)));
        }
        this.rows = List.copyOf(copy);
    }

    @Override
    public List<ResultColumn> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        if (stopped) {
            throw new GuardException(ErrorCode.CANCELLED);
        }
        return ++position < rows.size();
    }

    @Override
    public Object get(int index) {
        if (position < 0 || position >= rows.size()) {
            throw new IllegalStateException("no current row");
        }
        return rows.get(position).get(index);
    }

    @Override
    public void cancel() {
        stopped = true;
    }

    @Override
    public void close() {
        stopped = true;
    }
}
