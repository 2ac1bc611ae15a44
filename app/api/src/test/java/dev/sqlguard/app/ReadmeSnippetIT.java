package dev.sqlguard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.ports.ingest.DataLoader;
import dev.sqlguard.ports.ingest.LoadRequest;

/**
 * The embedding snippet of the README, run for real against DuckDB. The text between the tags is
 * copied verbatim into {@code README.md}; {@code ReadmeSnippetTest} checks they match.
 */
@Timeout(120)
class ReadmeSnippetIT {
    @TempDir
    Path dir;

    @Test
    void theReadmeSnippetRuns() throws Exception {
        Path csv = dir.resolve("claims.csv");
        Files.writeString(csv, "id,region,amount,status\n1,north,100.50,DENIED\n2,north,20.00,DENIED\n3,south,7.25,APPROVED\n");
        Path database = dir.resolve("claims.duckdb");
        DataLoader loader = ServiceLoader.load(DataLoader.class).stream().map(ServiceLoader.Provider::get)
                .filter(l -> l.name().equals("duckdb")).findFirst().orElseThrow();
        loader.load(new LoadRequest(database, "claims", List.of(csv), true, Map.of("types", "amount:DECIMAL(10,2)"), s -> { }));

        ToolResult result = snippet(database);

        assertThat(result.status()).isEqualTo(ToolStatus.OK);
        assertThat(result.rows()).containsExactly(List.of("north", 2L));
    }

    private static ToolResult snippet(Path database) {
        // tag::embed[]
        GuardrailPolicy policy = GuardrailPolicy.defaults()
                .withTables(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount", "status"))))
                .withLimits(Limits.defaults().withMaxRows(100));

        try (SqlGuard guard = SqlGuard.builder()
                .source("claims", "duckdb", Map.of("database", database.toString()), policy)
                .build()) {
            ToolResult result = guard.query("claims",
                    "SELECT region, count(*) AS n FROM claims WHERE status = ? GROUP BY region",
                    List.of("DENIED"));
            // status is OK, NO_EVIDENCE, REJECTED or ERROR; error() says why; never throws for a bad query
            System.err.println(SqlGuard.toJson(result)); // the same JSON line the CLI prints
            return result;
        }
        // end::embed[]
    }
}
