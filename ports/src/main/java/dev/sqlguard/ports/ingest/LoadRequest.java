package dev.sqlguard.ports.ingest;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * @param database the database file to create or update
 * @param table the target table (a plain identifier)
 * @param inputs files to load, all into the same table; the format comes from the extension
 *     ({@code .csv .tsv .parquet .json .ndjson .jsonl .xlsx}) unless {@code options} names one
 * @param replace replace the table instead of appending to it
 * @param options reader hints: {@code format}, {@code header} (true/false), {@code delimiter},
 *     {@code types} (column:TYPE,...), {@code sheet} (xlsx), {@code decimal} and {@code dateformat}
 *     (CSV, TSV)
 * @param progress receives human-readable progress lines (the CLI prints them on stderr)
 */
public record LoadRequest(Path database, String table, List<Path> inputs, boolean replace,
                          Map<String, String> options, Consumer<String> progress) {
    public LoadRequest {
        requireNonNull(database, "database is null");
        requireNonNull(table, "table is null");
        inputs = List.copyOf(requireNonNull(inputs, "inputs is null"));
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no input file");
        }
        options = Map.copyOf(requireNonNull(options, "options is null"));
        requireNonNull(progress, "progress is null");
    }
}
