package dev.sqlguard.duckdb.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

import org.duckdb.DuckDBDriver;

/**
 * Opens DuckDB connections through DuckDB's own driver, not {@link java.sql.DriverManager}: the
 * first {@code DriverManager.getConnection} in a process loads and initializes every JDBC driver on
 * the class path (in the shipped jar that is also MySQL's, which starts a cleanup thread,
 * PostgreSQL's and Trino's), which a process that only reads DuckDB never needs.
 */
public final class DuckDbDriver {
    private static final DuckDBDriver DRIVER = new DuckDBDriver();

    private DuckDbDriver() {
    }

    /** The extracted native library once found; looked up again until it is (it exists after the first connect). */
    private static volatile Optional<Path> extracted = Optional.empty();

    /**
     * The copy of DuckDB's native library that the driver extracted into the temporary folder and
     * this process loaded ({@code libduckdb_java<digits>.so}, about 69 MiB), read from the process's
     * own memory map ({@code /proc/self/maps}) so that it is this process's copy and no other. The
     * driver deletes it when the JVM exits normally; a killed process leaves it. Empty before the
     * first connection, on systems without {@code /proc}, and when the library was loaded otherwise.
     */
    public static Optional<Path> extractedLibrary() {
        Optional<Path> known = extracted;
        if (known.isPresent()) {
            return known;
        }
        Path maps = Path.of("/proc/self/maps");
        if (!Files.isReadable(maps)) {
            return Optional.empty();
        }
        Path temp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
        try (Stream<String> lines = Files.lines(maps)) {
            known = lines.map(line -> {
                        int slash = line.indexOf('/');
                        return slash < 0 ? "" : line.substring(slash).strip();
                    })
                    .filter(path -> path.endsWith(".so"))
                    .map(Path::of)
                    .filter(path -> path.getFileName().toString().startsWith("libduckdb_java") && temp.equals(path.getParent()))
                    .findFirst();
        } catch (IOException | UncheckedIOException | java.nio.file.InvalidPathException e) {
            return Optional.empty();
        }
        extracted = known;
        return known;
    }

    /** A connection to {@code url} ({@code jdbc:duckdb:...}) with {@code properties}. */
    public static Connection connect(String url, Properties properties) throws SQLException {
        Connection connection = DRIVER.connect(url, properties);
        if (connection == null) {
            throw new SQLException("not a DuckDB URL");
        }
        return connection;
    }
}
