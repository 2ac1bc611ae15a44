package dev.sqlguard.duckdb.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlguard.ports.ingest.LoadRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load killed half-way (SIGKILL) leaves the DuckDB file as large as what it had written: DuckDB
 * writes a big transaction's blocks into the file before it commits. The old tables stay intact,
 * and the next load that commits reclaims the space (DuckDB checkpoints when the loader closes the
 * database and truncates the free blocks at the end of the file).
 */
@Timeout(300)
class KilledLoadSpaceTest {
    private static final long GROWN = 40L << 20;

    @TempDir
    Path dir;

    @Test
    void theNextLoadReclaimsTheSpaceOfAKilledOne() throws Exception {
        Path db = dir.resolve("data.duckdb");
        Databases.execute(db, "CREATE TABLE claims (id BIGINT, amount DOUBLE)", "INSERT INTO claims VALUES (1, 10.5), (2, 20.25)");
        long before = Files.size(db);

        Process load = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), HalfLoad.class.getName(), db.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            while (Files.size(db) < GROWN) {
                assertThat(load.isAlive()).as("the half-load is still writing").isTrue();
                Thread.sleep(50);
            }
        } finally {
            load.destroyForcibly(); // SIGKILL: no rollback, no checkpoint
            load.waitFor();
        }
        long killed = Files.size(db);
        System.err.printf("[measure] DuckDB file: %d bytes before, %d after the killed load%n", before, killed);
        assertThat(killed).isGreaterThanOrEqualTo(GROWN);
        assertThat(Databases.tables(db)).containsExactly("claims");

        Path csv = Fixtures.text(dir, "more.csv", "id,amount\n3,30\n");
        new DuckDbLoader().load(new LoadRequest(db, "claims", List.of(csv), false, Map.of(), line -> { }));

        long after = Files.size(db);
        System.err.printf("[measure] DuckDB file after the next load: %d bytes%n", after);
        assertThat(after).as("the next load gave the space back").isLessThan(before + (4L << 20));
        assertThat(Databases.tables(db)).containsExactly("claims");
    }
}
