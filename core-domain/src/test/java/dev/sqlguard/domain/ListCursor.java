package dev.sqlguard.domain;

import java.util.List;

import dev.sqlguard.domain.port.ResultCursor;

/**
 * A test cursor over fixed rows that records how many rows were read and whether it was closed or
 * cancelled; {@code next()} after either throws {@code CANCELLED}. Shared through core-domain's
 * test-jar (the ports fake engine returns it too).
 */
public final class ListCursor implements ResultCursor {
    private final List<ResultColumn> columns;
    private final List<Object[]> rows;
    int position = -1;
    int nextCalls;
    volatile boolean closed;
    volatile boolean cancelled;

    public ListCursor(List<ResultColumn> columns, List<Object[]> rows) {
        this.columns = columns;
        this.rows = rows;
    }

    public static ListCursor of(List<String> names, Object[]... rows) {
        return new ListCursor(names.stream().map(n -> new ResultColumn(n, "VARCHAR")).toList(), List.of(rows));
    }

    @Override
    public List<ResultColumn> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        nextCalls++;
        if (cancelled || closed) {
            throw new GuardException(ErrorCode.CANCELLED);
        }
        return ++position < rows.size();
    }

    @Override
    public Object get(int index) {
        return rows.get(position)[index];
    }

    @Override
    public void cancel() {
        cancelled = true;
    }

    @Override
    public void close() {
        closed = true;
    }
}
