package dev.sqlguard.app.logging;

import java.util.List;
import java.util.Map;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableAllowlist;

/**
 * A service embedding sqlguard with its defaults: a DuckDB source that works and PostgreSQL and
 * MySQL sources whose servers are not there. Runs a query on each, closes, and then prints on
 * stdout what reached SLF4J ({@code EVENT <logger> <level> <first line>}), when the capturing
 * provider is the one in use.
 *
 * <p>Arguments: the DuckDB file, a port nothing listens on.
 */
public final class EmbeddedRun {
    private EmbeddedRun() {
    }

    public static void main(String[] args) throws Exception {
        String deadPort = args[1];
        GuardrailPolicy allowlisted = GuardrailPolicy.defaults()
                .withTables(TableAllowlist.of(Map.of("t", List.of(TableAllowlist.ALL_COLUMNS))));
        try (SqlGuard guard = SqlGuard.builder()
                .source("duck", "duckdb", Map.of("database", args[0]), GuardrailPolicy.defaults())
                .source("pg", "postgresql", Map.of("url", "jdbc:postgresql://127.0.0.1:" + deadPort + "/test",
                        "username", "nobody", "password", "wrong"), allowlisted)
                .source("my", "mysql", Map.of("url", "jdbc:mysql://127.0.0.1:" + deadPort + "/test",
                        "username", "nobody", "password", "wrong"), allowlisted)
                .build()) {
            for (String source : List.of("duck", "pg", "my")) {
                System.out.println("RESULT " + source + " " + SqlGuard.toJson(guard.query(source, "SELECT 1 AS n")));
            }
        }
        for (CapturingSlf4jProvider.Event event : CapturingSlf4jProvider.EVENTS) {
            System.out.println("EVENT " + event.logger() + " " + event.level() + " " + event.message().lines().findFirst().orElse(""));
        }
        System.out.flush();
    }
}
