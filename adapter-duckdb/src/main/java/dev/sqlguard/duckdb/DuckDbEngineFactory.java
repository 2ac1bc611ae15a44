package dev.sqlguard.duckdb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.duckdb.internal.DuckDbEngine;
import dev.sqlguard.duckdb.internal.DuckDbSettings;
import dev.sqlguard.ports.AbstractEngineFactory;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.PropertySpec;

/**
 * The embedded DuckDB engine, named {@code duckdb}.
 *
 * <p>Settings ({@link #properties()}): {@code database} (required: an existing DuckDB file),
 * {@code tempDirectory} (the spill folder, default a private folder under the host's work
 * directory; {@code disabled} turns spilling off) and {@code maxTempSize} (default {@code 1GB}).
 * Memory and threads come from the policy's limits. See {@code docs/engines/duckdb.md}.
 */
public final class DuckDbEngineFactory extends AbstractEngineFactory {
    public static final String NAME = "duckdb";
    public static final String DATABASE = "database";
    public static final String TEMP_DIRECTORY = "tempDirectory";
    public static final String MAX_TEMP_SIZE = "maxTempSize";
    /** The spill bound when {@link #MAX_TEMP_SIZE} is not set. */
    public static final String DEFAULT_MAX_TEMP_SIZE = "1GB";
    /** The {@code tempDirectory} value that disables spilling ({@code temp_directory=''}). */
    public static final String DISABLED = "disabled";

    private static final List<PropertySpec> PROPERTIES = List.of(
            PropertySpec.required(DATABASE,
                    "Path of an existing DuckDB file, made by trusted ingestion (sqlguard load). It is opened read-only; "
                            + "a relative path is relative to the configuration file's folder.").asPath(),
            PropertySpec.optional(TEMP_DIRECTORY, "a private folder under the host's work directory",
                    "Where large sorts and aggregates spill. It must lie outside the database's folder; "
                            + "'" + DISABLED + "' turns spilling off, and such queries then fail with a memory error."),
            PropertySpec.optional(MAX_TEMP_SIZE, DEFAULT_MAX_TEMP_SIZE,
                    "The most the spill folder may hold, e.g. 1GB or 512MiB. Not allowed with tempDirectory: " + DISABLED + "."));

    /**
     * DuckDB's SQL as the host writes it: double-quoted identifiers, {@code quantile_cont}, and date
     * buckets by {@code date_trunc} (whose weeks start on Monday).
     */
    private static final EngineDialect DIALECT = new EngineDialect("DuckDB", Optional.of('"'),
            Optional.of("quantile_cont({column}, {fraction})"), List.of(
                    "Quote identifiers with double quotes and text with single quotes.",
                    "median(x) and quantile_cont(x, 0.9) compute medians and percentiles.",
                    "Dates: DATE '2024-01-31', date_trunc('month', d), date_part('year', d)."),
            EngineDialect.dateTruncBuckets("DATE"));

    public DuckDbEngineFactory() {
        super(NAME, PROPERTIES, DIALECT);
    }

    @Override
    public Engine create(EngineConfig config, EngineContext context) {
        Engine engine = DuckDbEngine.open(config.sourceId(), config.policy(), settings(config, context));
        // the driver's extracted native library goes with the work folder if this process is killed
        dev.sqlguard.duckdb.internal.DuckDbDriver.extractedLibrary().ifPresent(context::leavesBehind);
        return engine;
    }

    /** The checked instance settings for a configuration. */
    public static DuckDbSettings settings(EngineConfig config, EngineContext context) {
        config.check(PROPERTIES);
        String source = config.sourceId();
        Path database = database(config);
        Optional<Path> temp = tempDirectory(config, context, database);
        Optional<String> maxTempSize = config.property(MAX_TEMP_SIZE).map(String::trim);
        if (maxTempSize.isPresent() && !DuckDbSettings.isSize(maxTempSize.get())) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                    "Source '" + source + "': property '" + MAX_TEMP_SIZE + "' must be a size such as 512MB or 1GB.");
        }
        if (maxTempSize.isPresent() && temp.isEmpty()) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                    "Source '" + source + "': property '" + MAX_TEMP_SIZE + "' needs spilling; it cannot be set with tempDirectory=disabled.");
        }
        if (maxTempSize.isEmpty() && temp.isPresent()) {
            maxTempSize = Optional.of(DEFAULT_MAX_TEMP_SIZE); // spilling is always bounded
        }
        Limits limits = config.policy().limits();
        return new DuckDbSettings(database, temp, maxTempSize, limits.memoryBytes(), limits.threads());
    }

    private static Path database(EngineConfig config) {
        String value = config.requireProperty(DATABASE);
        try {
            Path path = Path.of(value).toAbsolutePath();
            if (!Files.isRegularFile(path)) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                        "Source '" + config.sourceId() + "': property '" + DATABASE + "' must name an existing DuckDB file.");
            }
            return path.toRealPath();
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                    "Source '" + config.sourceId() + "': property '" + DATABASE + "' must name an existing DuckDB file.");
        }
    }

    private static Optional<Path> tempDirectory(EngineConfig config, EngineContext context, Path database) {
        Optional<String> configured = config.property(TEMP_DIRECTORY).map(String::trim);
        if (configured.isPresent() && configured.get().toLowerCase(Locale.ROOT).equals(DISABLED)) {
            return Optional.empty();
        }
        Path folder;
        try {
            folder = configured.isPresent()
                    ? Path.of(configured.get()).toAbsolutePath()
                    // one folder per database file, so every engine over the file asks for the same settings
                    : context.workDirectory().toAbsolutePath().resolve("duckdb-temp").resolve(shortHash(database.toString()));
            Files.createDirectories(folder);
            folder = folder.toRealPath();
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                    "Source '" + config.sourceId() + "': the temp directory could not be created.");
        }
        Path databaseFolder = database.getParent();
        if (databaseFolder != null && (folder.startsWith(databaseFolder) || databaseFolder.startsWith(folder))) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + config.sourceId()
                    + "': the temp directory must be outside the database's folder (DuckDB lets queries write there).");
        }
        return Optional.of(folder);
    }

    /** The first 16 hex digits of the text's SHA-256. */
    private static String shortHash(String text) {
        return QueryService.sha256(text).substring(0, 16);
    }
}
