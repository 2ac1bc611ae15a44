package dev.sqlguard.app.internal.demo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.zip.CRC32;

import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.app.SqlGuardConfig.AuditConfig;
import dev.sqlguard.app.SqlGuardConfig.SourceConfig;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.ports.ingest.DataLoader;
import dev.sqlguard.ports.ingest.LoadRequest;

/**
 * The zero-setup source {@code demo}: a DuckDB database of synthetic insurance claims, built on
 * first use from the CSV inside the jar into the user's cache folder. The file name carries the
 * app version and the CSV's CRC-32, so a new dataset gets a new file. Building happens in a private
 * temporary folder and ends with an atomic rename, so two processes racing to build it are safe:
 * each reader sees either no file or a complete one.
 */
public final class DemoDatabase {
    public static final String SOURCE_ID = "demo";
    public static final String TABLE = "claims";
    static final String RESOURCE = "/demo/claims.csv";
    static final List<String> COLUMNS = List.of("id", "region", "policy_type", "amount", "status", "created", "claimant_ssn");
    /** Column types for the loader, so amounts stay exact decimals. */
    static final String TYPES = "id:BIGINT,amount:DECIMAL(12,2),created:DATE";

    private DemoDatabase() {
    }

    /** {@code $XDG_CACHE_HOME/sqlguard}, else {@code $HOME/.cache/sqlguard}, else {@code user.home/.cache/sqlguard}. */
    public static Path cacheDirectory(Map<String, String> env) {
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "sqlguard");
        }
        String home = env.get("HOME");
        if (home == null || home.isBlank()) {
            home = System.getProperty("user.home");
        }
        return Path.of(home, ".cache", "sqlguard");
    }

    /** The demo configuration over {@code database}: the claims table, every column allowlisted. */
    public static SqlGuardConfig config(Path database) {
        GuardrailPolicy policy = GuardrailPolicy.defaults().withTables(TableAllowlist.of(Map.of(TABLE, COLUMNS)));
        SourceConfig source = new SourceConfig(SOURCE_ID, "duckdb", Map.of("database", database.toString()), Set.of(), policy);
        Map<String, SourceConfig> sources = new LinkedHashMap<>();
        sources.put(SOURCE_ID, source);
        return new SqlGuardConfig(sources, Optional.empty(), AuditConfig.stderr());
    }

    /** The demo database file in {@code cacheDirectory}, built with {@code loader} when missing. */
    public static Path ensure(Path cacheDirectory, Optional<DataLoader> loader, Consumer<String> progress) {
        return ensure(cacheDirectory, () -> loader, progress);
    }

    /**
     * The demo database file in {@code cacheDirectory}, built with the loader {@code loader} finds
     * when missing. Once the file exists, neither the loader nor the dataset is touched: its name
     * comes from the dataset's CRC-32, which the jar's index already holds.
     */
    public static Path ensure(Path cacheDirectory, Supplier<Optional<DataLoader>> loader, Consumer<String> progress) {
        // the dataset's checksum names the file, so a new dataset gets a new file
        String name = "demo-claims-" + version() + "-" + Long.toHexString(checksum() | 0x1_0000_0000L).substring(1) + ".duckdb";
        Path target = cacheDirectory.resolve(name);
        if (Files.isRegularFile(target)) {
            return target;
        }
        byte[] csv = resource();
        DataLoader duckdb = loader.get().orElseThrow(() -> new GuardException(ErrorCode.ENGINE_UNAVAILABLE,
                "The demo needs the DuckDB loader, which is not on the class path."));
        Path work = null;
        try {
            Files.createDirectories(cacheDirectory);
            work = Files.createTempDirectory(cacheDirectory, ".build-");
            Path input = work.resolve("claims.csv");
            Files.write(input, csv);
            Path database = work.resolve("demo.duckdb");
            progress.accept("sqlguard: building the demo database (first run only) in " + cacheDirectory);
            duckdb.load(new LoadRequest(database, TABLE, List.of(input), true,
                    Map.of("format", "csv", "header", "true", "types", TYPES), progress));
            try {
                Files.move(database, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException e) {
                // another process finished first; its file is complete
            } catch (AtomicMoveNotSupportedException e) {
                if (!Files.exists(target)) {
                    Files.move(database, target);
                }
            }
            return target;
        } catch (IOException e) {
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The demo database could not be built in the cache folder.", e);
        } finally {
            if (work != null) {
                deleteTree(work);
            }
        }
    }

    /**
     * The CRC-32 of the dataset: from the jar's index when it runs from a jar (a start-up then
     * neither inflates nor hashes the 167 KB file), else computed over the bytes. Both are the
     * CRC-32 of the same bytes. It names the file rather than identifying content against an
     * adversary: the dataset is part of sqlguard's own jar.
     */
    public static long checksum() {
        java.net.URL url = DemoDatabase.class.getResource(RESOURCE);
        if (url == null) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, "The demo dataset is missing from the jar.");
        }
        try {
            if (url.openConnection() instanceof java.net.JarURLConnection jar) {
                long crc = jar.getJarEntry().getCrc();
                if (crc >= 0) {
                    return crc;
                }
            }
        } catch (IOException e) {
            // computed from the bytes below
        }
        CRC32 crc = new CRC32();
        crc.update(resource());
        return crc.getValue();
    }

    static byte[] resource() {
        try (InputStream in = DemoDatabase.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new GuardException(ErrorCode.INTERNAL_ERROR, "The demo dataset is missing from the jar.");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, "The demo dataset could not be read.", e);
        }
    }

    static String version() {
        String v = DemoDatabase.class.getPackage().getImplementationVersion();
        return v == null || !v.matches("[A-Za-z0-9._-]{1,40}") ? "dev" : v;
    }

    private static void deleteTree(Path root) {
        // a leftover build folder is harmless; the next build uses a new one
        dev.sqlguard.app.internal.wiring.WorkFolders.deleteTree(root);
    }
}
