package dev.sqlguard.postgresql.internal;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.EngineConfig;

/**
 * The checked configuration of one PostgreSQL source. The JDBC URL is parsed strictly: one plain
 * host, an optional port, one database, and only connection properties on a short allowlist (TLS
 * and timeouts). Properties that would re-open holes sqlguard closes ({@code options},
 * {@code socketFactory}, {@code sslfactory}, {@code loggerFile}, simple query mode, credentials in
 * the URL) are refused by name.
 *
 * @param host the host and optional port, as written
 * @param database the database named in the URL
 * @param urlProperties the allowlisted URL properties
 * @param schema the schema unqualified table names resolve to
 * @param poolSize connections in the query pool
 */
public record PostgresSettings(String host, String database, Map<String, String> urlProperties, String username, String password,
                               String schema, boolean requireReadOnlyAccount, int poolSize) {
    public static final String URL = "url";
    public static final String USERNAME = "username";
    public static final String PASSWORD = "password";
    public static final String DEFAULT_SCHEMA = "defaultSchema";
    public static final String REQUIRE_READ_ONLY_ACCOUNT = "requireReadOnlyAccount";
    public static final String POOL_SIZE = "poolSize";
    public static final int DEFAULT_POOL_SIZE = 4;
    public static final String DEFAULT_SCHEMA_VALUE = "public";

    /** URL properties that are accepted (compared case-insensitively). */
    static final Set<String> SAFE_URL_PROPERTIES = Set.of(
            "ssl", "sslmode", "sslrootcert", "sslcert", "sslkey", "sslhostnameverifier", "sslnegotiation", "channelbinding",
            "connecttimeout", "sockettimeout", "logintimeout", "tcpkeepalive", "tcpnodelay", "applicationname",
            "gssencmode", "targetservertype");

    /** URL properties that are refused with a specific message, because sqlguard sets them or they open a hole. */
    static final Set<String> DANGEROUS_URL_PROPERTIES = Set.of(
            "options", "socketfactory", "socketfactoryarg", "sslfactory", "sslfactoryarg", "sslpasswordcallback",
            "loggerfile", "loggerlevel", "user", "password", "preferquerymode", "readonly", "readonlymode",
            "autosave", "cleanupsavepoints", "currentschema", "assumeminserverversion", "stringtype",
            "authenticationpluginclassname", "sspiserviceclass", "jaasapplicationname", "kerberosservername",
            "allowencodingchanges", "escapesyntaxcallmode", "preparethreshold", "replication", "defaultrowfetchsize",
            "xmlfactoryfactory", "sslpassword", "service", "localsocketaddress");

    private static final Pattern URL_SHAPE = Pattern.compile(
            "jdbc:postgresql://([A-Za-z0-9.\\-]+|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?/([A-Za-z0-9_$\\-]+)(\\?(.*))?");
    private static final Pattern PLAIN_NAME = Pattern.compile("[a-z_][a-z0-9_$]{0,62}");

    public PostgresSettings {
        requireNonNull(host, "host is null");
        requireNonNull(database, "database is null");
        urlProperties = Map.copyOf(requireNonNull(urlProperties, "urlProperties is null"));
        requireNonNull(username, "username is null");
        requireNonNull(password, "password is null");
        requireNonNull(schema, "schema is null");
        if (poolSize < 1 || poolSize > 64) {
            throw new IllegalArgumentException("poolSize must be between 1 and 64");
        }
    }

    /** Parses and checks the source's properties (their keys were checked against the factory's specs). */
    public static PostgresSettings parse(EngineConfig config) {
        String source = config.sourceId();
        String url = config.requireProperty(URL).strip();
        Matcher m = URL_SHAPE.matcher(url);
        if (!m.matches()) {
            throw bad(source, "'url' must be jdbc:postgresql://host[:port]/database with one plain host"
                    + " (no credentials, address lists or host properties in the URL).");
        }
        String host = m.group(1) + (m.group(2) == null ? "" : m.group(2));
        Map<String, String> props = urlProperties(source, m.group(5));
        String username = config.requireProperty(USERNAME);
        String password = config.property(PASSWORD).orElse("");
        String schema = config.property(DEFAULT_SCHEMA).map(String::strip).orElse(DEFAULT_SCHEMA_VALUE);
        if (!PLAIN_NAME.matcher(schema).matches()) {
            throw bad(source, "'defaultSchema' must be a plain lower-case schema name.");
        }
        int poolSize = config.property(POOL_SIZE).map(v -> poolSize(source, v)).orElse(DEFAULT_POOL_SIZE);
        return new PostgresSettings(host, m.group(3), props, username, password, schema,
                config.booleanProperty(REQUIRE_READ_ONLY_ACCOUNT, true), poolSize);
    }

    /** The URL the driver gets: host, database and the allowlisted properties only. */
    public String jdbcUrl() {
        StringBuilder out = new StringBuilder("jdbc:postgresql://").append(host).append('/').append(database);
        String sep = "?";
        for (Map.Entry<String, String> e : new TreeMap<>(urlProperties).entrySet()) {
            out.append(sep).append(e.getKey()).append('=').append(java.net.URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
            sep = "&";
        }
        return out.toString();
    }

    private static Map<String, String> urlProperties(String source, String query) {
        Map<String, String> out = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return out;
        }
        for (String pair : query.split("&", -1)) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw bad(source, "'url' has a malformed property.");
            }
            String key = URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            String folded = key.toLowerCase(Locale.ROOT);
            if (DANGEROUS_URL_PROPERTIES.contains(folded)) {
                throw bad(source, "'url' sets '" + safeKey(key) + "', which sqlguard controls itself or refuses.");
            }
            if (!SAFE_URL_PROPERTIES.contains(folded)) {
                throw bad(source, "'url' sets the unsupported property '" + safeKey(key) + "'; supported: TLS and timeout properties.");
            }
            if (out.put(key, value) != null) {
                throw bad(source, "'url' sets '" + safeKey(key) + "' twice.");
            }
        }
        return out;
    }

    private static String safeKey(String key) {
        return key.length() <= 40 && key.matches("[A-Za-z0-9_.]+") ? key : "(withheld)";
    }

    private static int poolSize(String source, String value) {
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= 1 && n <= 64) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(source, "'poolSize' must be a whole number from 1 to 64.");
    }

    private static GuardException bad(String source, String message) {
        return new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + source + "': " + message);
    }

    @Override
    public String toString() {
        return "PostgresSettings[host=" + host + ", database=" + database + ", schema=" + schema + ", poolSize=" + poolSize
                + ", password=****]";
    }
}
