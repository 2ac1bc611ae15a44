package dev.sqlguard.app.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.port.AuditSink;

/**
 * A process serving a DuckDB source until it is ended by a signal: prints its working folder
 * once the engine has started, then waits. Never closes the facade itself.
 */
public final class ServeUntilKilled {
    private ServeUntilKilled() {
    }

    public static void main(String[] args) throws Exception {
        SqlGuard guard = SqlGuard.builder()
                .source("s", "duckdb", Map.of("database", args[0]), GuardrailPolicy.defaults())
                .auditSink(AuditSink.discarding()).build();
        guard.query("s", "SELECT 1 AS n");
        Path temp = Path.of(System.getProperty("java.io.tmpdir"));
        String prefix = "sqlguard-work-" + ProcessHandle.current().pid() + "-";
        try (Stream<Path> entries = Files.list(temp)) {
            List<Path> mine = entries.filter(p -> p.getFileName().toString().startsWith(prefix)).toList();
            System.out.println(mine.get(0));
        }
        System.out.flush();
        Thread.sleep(600_000);
    }
}
