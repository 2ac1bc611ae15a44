package dev.sqlguard.duckdb.internal;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The instance-wide settings of one locked read-only DuckDB instance. Two engines over the same
 * file share one instance only when their settings are equal.
 *
 * @param database the canonical path of the database file
 * @param tempDirectory the spill folder, or empty to disable spilling ({@code temp_directory=''})
 * @param maxTempSize DuckDB's {@code max_temp_directory_size}, e.g. {@code 1GB}; empty keeps DuckDB's default
 * @param memoryBytes DuckDB's {@code memory_limit} in bytes
 * @param threads DuckDB's {@code threads}
 */
public record DuckDbSettings(Path database, Optional<Path> tempDirectory, Optional<String> maxTempSize,
                             long memoryBytes, int threads) {
    private static final Pattern SIZE = Pattern.compile("(?i)[0-9]{1,12}(\\.[0-9]{1,3})?\\s?(B|KB|MB|GB|TB|KIB|MIB|GIB|TIB)");

    public DuckDbSettings {
        requireNonNull(database, "database is null");
        requireNonNull(tempDirectory, "tempDirectory is null");
        requireNonNull(maxTempSize, "maxTempSize is null");
        if (!database.isAbsolute()) {
            throw new IllegalArgumentException("database must be an absolute path");
        }
        tempDirectory.ifPresent(t -> {
            if (!t.isAbsolute()) {
                throw new IllegalArgumentException("tempDirectory must be an absolute path");
            }
        });
        maxTempSize.ifPresent(s -> {
            if (!isSize(s)) {
                throw new IllegalArgumentException("maxTempSize must look like 512MB or 1GB");
            }
        });
        if (memoryBytes <= 0) {
            throw new IllegalArgumentException("memoryBytes must be positive");
        }
        if (threads <= 0) {
            throw new IllegalArgumentException("threads must be positive");
        }
    }

    /** Whether {@code text} is a size DuckDB understands, such as {@code 512MB} or {@code 1GB}. */
    public static boolean isSize(String text) {
        return SIZE.matcher(text).matches();
    }

    /**
     * The open-time connection properties, in this order: extensions off, external access
     * off, resource bounds, spill folder, streaming, and {@code lock_configuration} last.
     */
    public Properties connectionProperties() {
        Map<String, String> ordered = new LinkedHashMap<>();
        ordered.put("duckdb.read_only", "true");
        ordered.put("autoinstall_known_extensions", "false");
        ordered.put("autoload_known_extensions", "false");
        ordered.put("enable_external_access", "false");
        ordered.put("memory_limit", memoryBytes + "B");
        ordered.put("threads", Integer.toString(threads));
        ordered.put("temp_directory", tempDirectory.map(Path::toString).orElse(""));
        maxTempSize.ifPresent(size -> ordered.put("max_temp_directory_size", bytes(size) + "B"));
        ordered.put("jdbc_stream_results", "true");
        ordered.put("lock_configuration", "true");
        Properties properties = new Properties();
        ordered.forEach(properties::setProperty);
        return properties;
    }

    /** The number of bytes a size such as {@code 1GB} (1000-based) or {@code 1GiB} (1024-based) stands for. */
    public static long bytes(String size) {
        if (!isSize(size)) {
            throw new IllegalArgumentException("not a size");
        }
        String upper = size.trim().toUpperCase(java.util.Locale.ROOT);
        int unitStart = 0;
        while (unitStart < upper.length() && (Character.isDigit(upper.charAt(unitStart)) || upper.charAt(unitStart) == '.')) {
            unitStart++;
        }
        java.math.BigDecimal number = new java.math.BigDecimal(upper.substring(0, unitStart));
        long factor = switch (upper.substring(unitStart).trim()) {
            case "B" -> 1L;
            case "KB" -> 1000L;
            case "MB" -> 1000L * 1000;
            case "GB" -> 1000L * 1000 * 1000;
            case "TB" -> 1000L * 1000 * 1000 * 1000;
            case "KIB" -> 1L << 10;
            case "MIB" -> 1L << 20;
            case "GIB" -> 1L << 30;
            case "TIB" -> 1L << 40;
            default -> throw new IllegalArgumentException("unknown unit");
        };
        return number.multiply(java.math.BigDecimal.valueOf(factor)).longValue();
    }

    public String jdbcUrl() {
        return "jdbc:duckdb:" + database;
    }
}
