package dev.sqlguard.mysql.internal;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.EngineConfig;

/**
 * The checked configuration of one MySQL source. The JDBC URL is parsed strictly: one plain host,
 * an optional database, and only connection properties on a short allowlist (TLS, timeouts, time
 * zone). Properties that would re-open holes sqlguard closes (multi-statements, LOCAL INFILE,
 * deserialization, interceptors, session variables, credentials in the URL) are refused by name.
 *
 * @param host the host and optional port, as written
 * @param urlDatabase the database named in the URL, if any
 * @param urlProperties the allowlisted URL properties, in order
 * @param schema the default schema: the {@code defaultSchema} property, else the URL's database
 * @param poolSize connections in the query pool
 * @param maxConcurrentQueries queries of this source that may be on the server at once, running or
 *     killed and still unwinding; past it a call is refused (retryable) until one has ended
 */
public record MySqlSettings(String host, Optional<String> urlDatabase, Map<String, String> urlProperties,
                            String username, String password, String schema, boolean requireReadOnlyAccount, int poolSize,
                            int maxConcurrentQueries) {
    public static final String URL = "url";
    public static final String USERNAME = "username";
    public static final String PASSWORD = "password";
    public static final String DEFAULT_SCHEMA = "defaultSchema";
    public static final String REQUIRE_READ_ONLY_ACCOUNT = "requireReadOnlyAccount";
    public static final String POOL_SIZE = "poolSize";
    public static final String MAX_CONCURRENT_QUERIES = "maxConcurrentQueries";
    public static final Set<String> PROPERTIES = Set.of(URL, USERNAME, PASSWORD, DEFAULT_SCHEMA, REQUIRE_READ_ONLY_ACCOUNT, POOL_SIZE,
            MAX_CONCURRENT_QUERIES);
    public static final int DEFAULT_POOL_SIZE = 4;

    /** URL properties that are accepted (compared case-insensitively). */
    static final Set<String> SAFE_URL_PROPERTIES = Set.of(
            "sslmode", "usessl", "requiressl", "verifyservercertificate", "trustcertificatekeystoreurl",
            "trustcertificatekeystoretype", "clientcertificatekeystoreurl", "clientcertificatekeystoretype",
            "tlsversions", "enabledtlsprotocols", "tlsciphersuites", "enabledsslciphersuites", "fallbacktosystemtruststore",
            "fallbacktosystemkeystore", "connecttimeout", "sockettimeout", "connectiontimezone", "servertimezone",
            "forceconnectiontimezonetosession", "preserveinstants", "allowpublickeyretrieval", "tcpkeepalive",
            "tcpnodelay", "usecompression");

    /** URL properties that are refused with a specific message, because they open a known hole. */
    static final Set<String> DANGEROUS_URL_PROPERTIES = Set.of(
            "allowmultiqueries", "allowloadlocalinfile", "allowloadlocalinfileinpath", "allowurlinlocalinfile",
            "autodeserialize", "sessionvariables", "queryinterceptors", "statementinterceptors", "exceptioninterceptors",
            "connectionlifecycleinterceptors", "socketfactory", "propertiestransform", "autoreconnect",
            "autoreconnectforpools", "usecursorfetch", "user", "password", "password1", "password2", "password3",
            "initsql", "clientinfoprovider", "authenticationplugins", "defaultauthenticationplugin", "ldapserverhostname",
            "readonlypropagatestoserver", "processescapecodesforprepstmts", "characterencoding", "charactersetresults",
            "connectioncollation", "maxrows", "useserverprepstmts", "rewritebatchedstatements", "localsocket");

    private static final Pattern URL_SHAPE = Pattern.compile(
            "jdbc:mysql://([A-Za-z0-9.\\-]+|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?(/([A-Za-z0-9_$\\-]*))?(\\?(.*))?");

    public MySqlSettings {
        requireNonNull(host, "host is null");
        requireNonNull(urlDatabase, "urlDatabase is null");
        urlProperties = Map.copyOf(requireNonNull(urlProperties, "urlProperties is null"));
        requireNonNull(username, "username is null");
        requireNonNull(password, "password is null");
        requireNonNull(schema, "schema is null");
        if (poolSize < 1 || poolSize > 64) {
            throw new IllegalArgumentException("poolSize must be between 1 and 64");
        }
        if (maxConcurrentQueries < 1 || maxConcurrentQueries > 256) {
            throw new IllegalArgumentException("maxConcurrentQueries must be between 1 and 256");
        }
    }

    /** The settings without a concurrency limit of their own: it defaults to the pool size. */
    public MySqlSettings(String host, Optional<String> urlDatabase, Map<String, String> urlProperties,
                         String username, String password, String schema, boolean requireReadOnlyAccount, int poolSize) {
        this(host, urlDatabase, urlProperties, username, password, schema, requireReadOnlyAccount, poolSize, poolSize);
    }

    /** Parses and checks the source's properties. */
    public static MySqlSettings parse(EngineConfig config) {
        String source = config.sourceId();
        config.requireKnown(PROPERTIES);
        String url = config.requireProperty(URL).strip();
        Matcher m = URL_SHAPE.matcher(url);
        if (!m.matches()) {
            throw bad(source, "'url' must be a MySQL JDBC URL with one plain host, an optional port, database and properties"
                    + " (no credentials, address lists or host properties in the URL).");
        }
        String host = m.group(1) + (m.group(2) == null ? "" : m.group(2));
        Optional<String> database = Optional.ofNullable(m.group(4)).filter(s -> !s.isEmpty());
        Map<String, String> props = urlProperties(source, m.group(6));
        String username = config.requireProperty(USERNAME);
        String password = config.property(PASSWORD).orElse("");
        Optional<String> schemaProperty = config.property(DEFAULT_SCHEMA).map(String::strip);
        String schema = schemaProperty.or(() -> database).orElseThrow(() -> bad(source,
                "set 'defaultSchema' or name a database in 'url'."));
        if (schema.length() > 64 || !schema.matches("[A-Za-z0-9_$\\-]+")) {
            throw bad(source, "'defaultSchema' must be a plain database name.");
        }
        int poolSize = config.property(POOL_SIZE).map(v -> poolSize(source, v)).orElse(DEFAULT_POOL_SIZE);
        int concurrent = config.property(MAX_CONCURRENT_QUERIES).map(v -> concurrent(source, v)).orElse(poolSize);
        return new MySqlSettings(host, database, props, username, password, schema,
                config.booleanProperty(REQUIRE_READ_ONLY_ACCOUNT, false), poolSize, concurrent);
    }

    /** The URL the driver gets: host, database and the allowlisted properties only. */
    public String jdbcUrl() {
        StringBuilder out = new StringBuilder("jdbc:mysql://").append(host).append('/').append(urlDatabase.orElse(""));
        String sep = "?";
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(urlProperties).entrySet()) {
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
            if (DANGEROUS_URL_PROPERTIES.contains(folded) || DANGEROUS_URL_PROPERTIES.contains(key)) {
                throw bad(source, "'url' sets '" + safeKey(key) + "', which sqlguard controls itself or refuses.");
            }
            if (!SAFE_URL_PROPERTIES.contains(folded)) {
                throw bad(source, "'url' sets the unsupported property '" + safeKey(key) + "'; supported: TLS, timeout and time zone properties.");
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

    private static int concurrent(String source, String value) {
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= 1 && n <= 256) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(source, "'maxConcurrentQueries' must be a whole number from 1 to 256.");
    }

    /** The URL's own value of a driver property, compared case-insensitively, if it sets one. */
    public Optional<String> urlProperty(String name) {
        return urlProperties.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue).findFirst();
    }

    private static GuardException bad(String source, String message) {
        return new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + source + "': " + message);
    }

    @Override
    public String toString() {
        return "MySqlSettings[host=" + host + ", schema=" + schema + ", poolSize=" + poolSize + ", maxConcurrentQueries=" + maxConcurrentQueries + ", password=****]";
    }
}
