package dev.sqlguard.duckdb.internal;

/** Waiting for background work in the connection tests; the test's {@code @Timeout} is the hang guard. */
final class Await {
    /** A state of the background work that a test waits for. */
    @FunctionalInterface
    interface Condition {
        boolean holds() throws Exception;
    }

    private Await() {
    }

    /** Polls {@code condition} every 5 ms until it holds. */
    static void until(Condition condition) throws Exception {
        while (!condition.holds()) {
            Thread.sleep(5);
        }
    }
}
