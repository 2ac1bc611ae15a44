package dev.sqlguard.trino.internal;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.ports.EngineConfig;

/**
 * The checked configuration of one Trino source. The URL is parsed strictly: {@code jdbc:trino://}
 * one plain host and an optional port, nothing else (no catalog or schema in the path, no driver
 * properties): sqlguard sets every driver property itself, so that none can re-open a hole
 * (session properties, extra credentials, a role, a client-side path).
 *
 * @param host the host and optional port, as written
 * @param catalog the catalog every table name resolves to
 * @param schema the schema unqualified table names resolve to
 * @param ssl whether the driver speaks TLS (required by the driver when a password is set)
 * @param trustStorePath a trust store for TLS, if any
 * @param trustStorePassword its password, if any
 */
public record TrinoSettings(String host, String user, String password, String catalog, String schema, boolean ssl,
                            Optional<String> trustStorePath, Optional<String> trustStorePassword, boolean requireReadOnlyAccount) {
    public static final String URL = "url";
    public static final String USER = "user";
    public static final String PASSWORD = "password";
    public static final String CATALOG = "catalog";
    public static final String SCHEMA = "schema";
    public static final String SSL = "ssl";
    public static final String SSL_TRUST_STORE_PATH = "sslTrustStorePath";
    public static final String SSL_TRUST_STORE_PASSWORD = "sslTrustStorePassword";
    public static final String REQUIRE_READ_ONLY_ACCOUNT = "requireReadOnlyAccount";

    private static final Pattern URL_SHAPE = Pattern.compile("jdbc:trino://([A-Za-z0-9.\\-]+|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?/?");
    private static final Pattern PLAIN_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,127}");
    private static final Pattern USER_NAME = Pattern.compile("[A-Za-z0-9_.@\\-]{1,128}");

    public TrinoSettings {
        requireNonNull(host, "host is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        requireNonNull(catalog, "catalog is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(trustStorePath, "trustStorePath is null");
        requireNonNull(trustStorePassword, "trustStorePassword is null");
    }

    /** Parses and checks the source's properties (their keys were checked against the factory's specs). */
    public static TrinoSettings parse(EngineConfig config) {
        String source = config.sourceId();
        String url = config.requireProperty(URL).strip();
        Matcher m = URL_SHAPE.matcher(url);
        if (!m.matches()) {
            throw bad(source, "'url' must be jdbc:trino://host[:port] with one plain host"
                    + " (no catalog, schema or driver properties in the URL: set 'catalog' and 'schema').");
        }
        String host = m.group(1) + (m.group(2) == null ? "" : m.group(2));
        String user = config.requireProperty(USER).strip();
        if (!USER_NAME.matcher(user).matches()) {
            throw bad(source, "'user' must be 1 to 128 letters, digits, '_', '.', '@' or '-'.");
        }
        String catalog = plainName(source, CATALOG, config.requireProperty(CATALOG));
        String schema = plainName(source, SCHEMA, config.requireProperty(SCHEMA));
        String password = config.property(PASSWORD).orElse("");
        boolean ssl = config.booleanProperty(SSL, false);
        if (!password.isEmpty() && !ssl) {
            throw bad(source, "'password' needs 'ssl: true' (Trino accepts passwords over TLS only).");
        }
        Optional<String> trustStore = config.property(SSL_TRUST_STORE_PATH).map(String::strip).filter(s -> !s.isEmpty());
        Optional<String> trustStorePassword = config.property(SSL_TRUST_STORE_PASSWORD).filter(s -> !s.isEmpty());
        if ((trustStore.isPresent() || trustStorePassword.isPresent()) && !ssl) {
            throw bad(source, "'sslTrustStorePath' and 'sslTrustStorePassword' need 'ssl: true'.");
        }
        return new TrinoSettings(host, user, password, catalog, schema, ssl, trustStore, trustStorePassword,
                config.booleanProperty(REQUIRE_READ_ONLY_ACCOUNT, true));
    }

    private static String plainName(String source, String key, String value) {
        String v = value.strip();
        if (!PLAIN_NAME.matcher(v).matches()) {
            throw bad(source, "'" + key + "' must be a plain lower-case name.");
        }
        return v;
    }

    /** The URL the driver gets: the host only. */
    public String jdbcUrl() {
        return "jdbc:trino://" + host;
    }

    /**
     * The driver properties: the credentials, TLS, the catalog and schema, and the session
     * properties that bound a query on the server ({@code query_max_execution_time},
     * {@code query_max_run_time}, {@code query_max_memory}) from the limits.
     */
    public Properties driverProperties(Limits limits) {
        Properties p = new Properties();
        p.setProperty("user", user);
        if (!password.isEmpty()) {
            p.setProperty("password", password);
        }
        if (ssl) {
            p.setProperty("SSL", "true");
            trustStorePath.ifPresent(v -> p.setProperty("SSLTrustStorePath", v));
            trustStorePassword.ifPresent(v -> p.setProperty("SSLTrustStorePassword", v));
        }
        p.setProperty("catalog", catalog);
        p.setProperty("schema", schema);
        p.setProperty("source", "sqlguard");
        // one round trip per query (EXECUTE IMMEDIATE '<sql>' USING ...) instead of PREPARE then EXECUTE, and the
        // cluster's query list shows the SQL that ran instead of "EXECUTE statement1"
        p.setProperty("explicitPrepare", "false");
        p.setProperty("sessionProperties", sessionProperties(limits));
        return p;
    }

    /** The session properties sent with every query, in the driver's {@code name:value;...} form. */
    public static String sessionProperties(Limits limits) {
        long seconds = Math.max(1, (limits.timeout().toMillis() + 999) / 1000);
        long megabytes = Math.max(1, limits.memoryBytes() / (1024 * 1024));
        return "query_max_execution_time:" + seconds + "s;query_max_run_time:" + seconds + "s;query_max_memory:" + megabytes + "MB";
    }

    private static GuardException bad(String source, String message) {
        return new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + source + "': " + message);
    }

    @Override
    public String toString() {
        return "TrinoSettings[host=" + host + ", user=" + user + ", catalog=" + catalog + ", schema=" + schema + ", ssl=" + ssl + "]";
    }
}
