package dev.sqlguard.duckdb.ingest;

import dev.sqlguard.ports.ingest.LoadReport;
import dev.sqlguard.ports.ingest.LoadRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/** What the loader tests share: a fresh folder per test, one database file in it, and the loader's progress lines. */
abstract class LoadTestSupport {
    final DuckDbLoader loader = new DuckDbLoader();
    /** The progress lines of every load, in order (a load may report from several threads). */
    final List<String> progress = Collections.synchronizedList(new ArrayList<>());

    @TempDir
    Path dir;

    Path db() {
        return dir.resolve("data.duckdb");
    }

    LoadReport load(String table, boolean replace, Map<String, String> options, Path... inputs) {
        return loader.load(new LoadRequest(db(), table, List.of(inputs), replace, options, progress::add));
    }

    List<String> types(String table) throws Exception {
        return Databases.columnTypes(db(), table);
    }
}
