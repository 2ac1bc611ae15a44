package dev.sqlguard.mysql.internal;

import static dev.sqlguard.jdbc.SourceSettings.DEFAULT_SCHEMA;
import static dev.sqlguard.jdbc.SourceSettings.PASSWORD;
import static dev.sqlguard.jdbc.SourceSettings.POOL_SIZE;
import static dev.sqlguard.jdbc.SourceSettings.REQUIRE_READ_ONLY_ACCOUNT;
import static dev.sqlguard.jdbc.SourceSettings.URL;
import static dev.sqlguard.jdbc.SourceSettings.USERNAME;
import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.Set;

import dev.sqlguard.jdbc.JdbcUrl;
import dev.sqlguard.jdbc.SourceSettings;
import dev.sqlguard.ports.EngineConfig;

/**
 * The checked configuration of one MySQL source. The JDBC URL is parsed strictly by the kit's
 * {@link JdbcUrl}: one plain host, an optional database, and only connection properties on a short
 * allowlist (TLS, timeouts, time zone). Properties that would re-open holes sqlguard closes
 * (multi-statements, LOCAL INFILE, deserialization, interceptors, session variables, credentials in
 * the URL) are refused by name.
 *
 * @param url the parsed URL: host, optional database and the allowlisted properties
 * @param schema the default schema: the {@code defaultSchema} property, else the URL's database
 * @param poolSize connections in the query pool
 * @param maxConcurrentQueries queries of this source that may be on the server at once, running or
 *     killed and still unwinding; past it a call is refused (retryable) until one has ended
 */
public record MySqlSettings(JdbcUrl url, String username, String password, String schema, boolean requireReadOnlyAccount, int poolSize,
                            int maxConcurrentQueries) {
    public static final String MAX_CONCURRENT_QUERIES = "maxConcurrentQueries";
    public static final Set<String> PROPERTIES = Set.of(URL, USERNAME, PASSWORD, DEFAULT_SCHEMA, REQUIRE_READ_ONLY_ACCOUNT, POOL_SIZE,
            MAX_CONCURRENT_QUERIES);

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

    static final JdbcUrl.Rules URL_RULES = new JdbcUrl.Rules("mysql", false, SAFE_URL_PROPERTIES, DANGEROUS_URL_PROPERTIES,
            "TLS, timeout and time zone properties");

    public MySqlSettings {
        requireNonNull(url, "url is null");
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

    /** Parses and checks the source's properties. */
    public static MySqlSettings parse(EngineConfig config) {
        String source = config.sourceId();
        config.requireKnown(PROPERTIES);
        JdbcUrl url = JdbcUrl.parse(source, URL, config.requireProperty(URL), URL_RULES);
        String username = config.requireProperty(USERNAME);
        String password = config.property(PASSWORD).orElse("");
        Optional<String> schemaProperty = config.property(DEFAULT_SCHEMA).map(String::strip);
        String schema = schemaProperty.or(url::database).orElseThrow(() -> SourceSettings.bad(source,
                "set 'defaultSchema' or name a database in 'url'."));
        if (schema.length() > 64 || !schema.matches("[A-Za-z0-9_$\\-]+")) {
            throw SourceSettings.bad(source, "'defaultSchema' must be a plain database name.");
        }
        int poolSize = SourceSettings.poolSize(config);
        int concurrent = SourceSettings.wholeNumber(config, MAX_CONCURRENT_QUERIES, 1, 256, poolSize);
        return new MySqlSettings(url, username, password, schema, config.booleanProperty(REQUIRE_READ_ONLY_ACCOUNT, false), poolSize,
                concurrent);
    }

    /** The URL the driver gets: host, database and the allowlisted properties only. */
    public String jdbcUrl() {
        return url.text();
    }

    /** The URL's own value of a driver property, compared case-insensitively, if it sets one. */
    public Optional<String> urlProperty(String name) {
        return url.property(name);
    }

    @Override
    public String toString() {
        return "MySqlSettings[host=" + url.host() + ", schema=" + schema + ", poolSize=" + poolSize + ", maxConcurrentQueries="
                + maxConcurrentQueries + ", password=****]";
    }
}
