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
 * The README's embedding program ({@code example.ClaimsByRegion}, quoted there word for word, as
 * {@code ReadmeSnippetTest} checks), run for real against DuckDB: in this JVM and as its own process.
 */
@Timeout(120)
class ReadmeSnippetIT {
    @TempDir
    Path dir;

    @Test
    void theReadmeProgramsQueryRuns() throws Exception {
        Path csv = dir.resolve("claims.csv");
        Files.writeString(csv, "id,region,amount,status\n1,north,100.50,DENIED\n2,north,20.00,DENIED\n3,south,7.25,APPROVED\n");
        Path database = dir.resolve("claims.duckdb");
        DataLoader loader = ServiceLoader.load(DataLoader.class).stream().map(ServiceLoader.Provider::get)
                .filter(l -> l.name().equals("duckdb")).findFirst().orElseThrow();
        loader.load(new LoadRequest(database, "claims", List.of(csv), true, Map.of("types", "amount:DECIMAL(10,2)"), s -> { }));

        ToolResult result = example.ClaimsByRegion.deniedByRegion(database);

        assertThat(result.status()).isEqualTo(ToolStatus.OK);
        assertThat(result.rows()).containsExactly(List.of("north", 2L));
    }

    /** The README's complete program, compiled as a test source and run as its own process. */
    @Test
    void theReadmeProgramRunsAsItIsWritten() throws Exception {
        Path csv = dir.resolve("claims.csv");
        Files.writeString(csv, "id,region,amount,status\n1,north,100.50,DENIED\n2,north,20.00,DENIED\n3,south,7.25,APPROVED\n");
        Path database = dir.resolve("program.duckdb");
        DataLoader loader = ServiceLoader.load(DataLoader.class).stream().map(ServiceLoader.Provider::get)
                .filter(l -> l.name().equals("duckdb")).findFirst().orElseThrow();
        loader.load(new LoadRequest(database, "claims", List.of(csv), true, Map.of(), s -> { }));

        Process program = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "example.ClaimsByRegion", database.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(program.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(program.waitFor()).as(out).isZero();
        assertThat(out).startsWith("{\"id\":").contains("\"status\":\"OK\"").contains("\"rows\":[[\"north\",2]]");
    }
}
