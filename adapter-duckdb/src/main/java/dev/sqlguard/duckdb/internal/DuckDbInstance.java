package dev.sqlguard.duckdb.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.duckdb.DuckDBConnection;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * One locked read-only DuckDB instance per database file and process, shared by every engine
 * over that file and reference-counted.
 *
 * <p>The DuckDB driver caches one instance per path per JVM and refuses a second configuration,
 * so engines over the same file must agree on every instance-wide setting: a request with other
 * settings is refused with {@code CONFIGURATION_ERROR}. The last {@link #release()} closes the
 * root connection, which frees the instance; a later engine may then open it with other settings.
 *
 * <p>The root connection is trusted and never runs model SQL: it only verifies the settings,
 * reads the catalog and hands out {@link #duplicate() duplicates}, which inherit every setting.
 */
public final class DuckDbInstance {
    private static final Logger LOG = LoggerFactory.getLogger(DuckDbInstance.class);
    private static final Map<String, DuckDbInstance> OPEN = new HashMap<>();

    private final DuckDbSettings settings;
    private final DuckDBConnection root;
    private int references;

    private final Optional<SpillGuard> spillGuard;

    private DuckDbInstance(DuckDbSettings settings, DuckDBConnection root) {
        this.settings = settings;
        this.root = root;
        this.spillGuard = settings.tempDirectory().flatMap(folder -> settings.maxTempSize()
                .map(size -> new SpillGuard(folder, DuckDbSettings.bytes(size))));
    }

    /** The guard holding the spill folder to its bound, when spilling is on and bounded. */
    Optional<SpillGuard> spillGuard() {
        return spillGuard;
    }

    /** Opens (or shares) the instance for {@code settings.database()}. */
    public static DuckDbInstance acquire(DuckDbSettings settings) {
        requireNonNull(settings, "settings is null");
        String key = settings.database().toString();
        synchronized (OPEN) {
            DuckDbInstance existing = OPEN.get(key);
            if (existing != null) {
                if (!existing.settings.equals(settings)) {
                    throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                            "This database is already open in this process with other memory, thread or temp-directory settings; "
                                    + "sources over one DuckDB file must use the same limits.");
                }
                existing.references++;
                return existing;
            }
            DuckDbInstance opened = open(settings);
            opened.references = 1;
            OPEN.put(key, opened);
            return opened;
        }
    }

    private static DuckDbInstance open(DuckDbSettings settings) {
        Connection connection;
        try {
            connection = DuckDbDriver.connect(settings.jdbcUrl(), settings.connectionProperties());
        } catch (SQLException e) {
            LOG.debug("DuckDB open failed", e);
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE,
                    "The DuckDB database could not be opened read-only; is another process writing to it?", e);
        }
        try {
            if (!(connection instanceof DuckDBConnection duck)) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The DuckDB driver returned an unexpected connection type.");
            }
            verify(duck, settings);
            return new DuckDbInstance(settings, duck);
        } catch (RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
    }

    /** Reads the settings back on the trusted root connection and refuses to start unless each one holds. */
    static void verify(Connection root, DuckDbSettings settings) {
        Map<String, String> actual = new HashMap<>();
        List<String> allowedDirectories = new ArrayList<>();
        List<String> allowedPaths = new ArrayList<>();
        String expectedMemory;
        String expectedTempSize = null;
        try (PreparedStatement ps = root.prepareStatement(
                "SELECT current_setting('access_mode'), current_setting('enable_external_access'), "
                        + "current_setting('autoinstall_known_extensions'), current_setting('autoload_known_extensions'), "
                        + "current_setting('lock_configuration'), current_setting('threads'), current_setting('memory_limit'), "
                        + "current_setting('temp_directory'), current_setting('max_temp_directory_size'), "
                        + "current_setting('allowed_directories'), current_setting('allowed_paths'), "
                        + "format_bytes(?::BIGINT), format_bytes(?::BIGINT)")) {
            ps.setLong(1, settings.memoryBytes());
            ps.setLong(2, settings.maxTempSize().map(DuckDbSettings::bytes).orElse(0L));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                String[] names = {"access_mode", "enable_external_access", "autoinstall_known_extensions",
                        "autoload_known_extensions", "lock_configuration", "threads", "memory_limit", "temp_directory",
                        "max_temp_directory_size"};
                for (int i = 0; i < names.length; i++) {
                    actual.put(names[i], String.valueOf(rs.getObject(i + 1)).trim().toLowerCase(java.util.Locale.ROOT));
                }
                addAll(allowedDirectories, rs.getArray(10));
                addAll(allowedPaths, rs.getArray(11));
                expectedMemory = rs.getString(12).trim().toLowerCase(java.util.Locale.ROOT);
                if (settings.maxTempSize().isPresent()) {
                    expectedTempSize = rs.getString(13).trim().toLowerCase(java.util.Locale.ROOT);
                }
            }
        } catch (SQLException e) {
            LOG.debug("DuckDB settings check failed", e);
            throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED,
                    "The DuckDB settings could not be verified, so no query will run.", e);
        }
        require(actual, "access_mode", "read_only");
        require(actual, "enable_external_access", "false");
        require(actual, "autoinstall_known_extensions", "false");
        require(actual, "autoload_known_extensions", "false");
        require(actual, "lock_configuration", "true");
        require(actual, "threads", Integer.toString(settings.threads()));
        require(actual, "memory_limit", expectedMemory);
        String temp = settings.tempDirectory().map(p -> p.toString().toLowerCase(java.util.Locale.ROOT)).orElse("");
        require(actual, "temp_directory", temp);
        if (expectedTempSize != null) {
            require(actual, "max_temp_directory_size", expectedTempSize);
        }
        String db = settings.database().toString();
        for (String path : allowedPaths) {
            if (!path.equals(db) && !path.startsWith(db + ".wal")) {
                throw notEnforced("allowed_paths");
            }
        }
        for (String dir : allowedDirectories) {
            String folder = dir.endsWith("/") ? dir.substring(0, dir.length() - 1) : dir;
            if (settings.tempDirectory().isEmpty() || !folder.equals(settings.tempDirectory().get().toString())) {
                throw notEnforced("allowed_directories");
            }
        }
    }

    private static void addAll(List<String> out, Array array) throws SQLException {
        if (array == null) {
            return;
        }
        Object[] values = (Object[]) array.getArray();
        for (Object value : values) {
            out.add(String.valueOf(value));
        }
    }

    private static void require(Map<String, String> actual, String name, String expected) {
        if (!expected.equals(actual.get(name))) {
            throw notEnforced(name);
        }
    }

    private static GuardException notEnforced(String setting) {
        return new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED,
                "The DuckDB setting " + setting + " does not hold after opening, so no query will run.");
    }

    public DuckDbSettings settings() {
        return settings;
    }

    /** The trusted root connection: catalog reads and settings checks only, never model SQL. */
    Connection root() {
        return root;
    }

    /** A fresh connection with every setting of the instance (~5 µs); the caller closes it. */
    public Connection duplicate() {
        try {
            return root.duplicate();
        } catch (SQLException e) {
            LOG.debug("DuckDB duplicate failed", e);
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The DuckDB database is closed or unavailable.", e);
        }
    }

    /** Drops one reference; the last one closes the root connection and frees the instance. */
    public void release() {
        synchronized (OPEN) {
            references--;
            if (references > 0) {
                return;
            }
            OPEN.remove(settings.database().toString(), this);
            closeQuietly(root);
            spillGuard.ifPresent(SpillGuard::close);
        }
    }

    static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.debug("close failed", e);
        }
    }
}
