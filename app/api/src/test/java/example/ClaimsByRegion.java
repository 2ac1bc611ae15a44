package example;

// tag::program[]
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;

/** Usage: java ClaimsByRegion data/claims.duckdb (a file made by `sqlguard load`). */
public final class ClaimsByRegion {
    public static void main(String[] args) {
        ToolResult result = deniedByRegion(Path.of(args[0]));
        System.out.println(SqlGuard.toJson(result)); // the same JSON line the CLI prints
        System.exit(result.status() == ToolStatus.OK ? 0 : 1);
    }

    public static ToolResult deniedByRegion(Path database) {
        GuardrailPolicy policy = GuardrailPolicy.defaults()
                .withTables(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount", "status"))))
                .withLimits(Limits.defaults().withMaxRows(100));

        try (SqlGuard guard = SqlGuard.builder()
                .source("claims", "duckdb", Map.of("database", database.toString()), policy)
                .build()) {
            // status is OK, NO_EVIDENCE, REJECTED or ERROR, and error() says why:
            // a bad query is a result, never an exception
            return guard.query("claims",
                    "SELECT region, count(*) AS n FROM claims WHERE status = ? GROUP BY region",
                    List.of("DENIED"));
        }
    }
}
// end::program[]
