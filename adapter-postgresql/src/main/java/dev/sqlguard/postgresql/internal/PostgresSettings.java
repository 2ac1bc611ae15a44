package dev.sqlguard.postgresql.internal;

import static dev.sqlguard.jdbc.SourceSettings.DEFAULT_SCHEMA;
import static dev.sqlguard.jdbc.SourceSettings.PASSWORD;
import static dev.sqlguard.jdbc.SourceSettings.REQUIRE_READ_ONLY_ACCOUNT;
import static dev.sqlguard.jdbc.SourceSettings.URL;
import static dev.sqlguard.jdbc.SourceSettings.USERNAME;
import static java.util.Objects.requireNonNull;

import java.util.Set;
import java.util.regex.Pattern;

import dev.sqlguard.jdbc.JdbcUrl;
import dev.sqlguard.jdbc.SourceSettings;
import dev.sqlguard.ports.EngineConfig;

/**
 * The checked configuration of one PostgreSQL source. The JDBC URL is parsed strictly by the kit's
 * {@link JdbcUrl}: one plain host, an optional port, one database, and only connection properties on
 * a short allowlist (TLS and timeouts). Properties that would re-open holes sqlguard closes
 * ({@code options}, {@code socketFactory}, {@code sslfactory}, {@code loggerFile}, simple query mode,
 * credentials in the URL) are refused by name.
 *
 * @param url the parsed URL: host, database and the allowlisted properties
 * @param schema the schema unqualified table names resolve to
 * @param poolSize connections in the query pool
 */
public record PostgresSettings(JdbcUrl url, String username, String password, String schema, boolean requireReadOnlyAccount,
                               int poolSize) {
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

    static final JdbcUrl.Rules URL_RULES = new JdbcUrl.Rules("postgresql", true, SAFE_URL_PROPERTIES, DANGEROUS_URL_PROPERTIES,
            "TLS and timeout properties");

    private static final Pattern PLAIN_NAME = Pattern.compile("[a-z_][a-z0-9_$]{0,62}");

    public PostgresSettings {
        requireNonNull(url, "url is null");
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
        JdbcUrl url = JdbcUrl.parse(source, URL, config.requireProperty(URL), URL_RULES);
        String username = config.requireProperty(USERNAME);
        String password = config.property(PASSWORD).orElse("");
        String schema = config.property(DEFAULT_SCHEMA).map(String::strip).orElse(DEFAULT_SCHEMA_VALUE);
        if (!PLAIN_NAME.matcher(schema).matches()) {
            throw SourceSettings.bad(source, "'defaultSchema' must be a plain lower-case schema name.");
        }
        int poolSize = SourceSettings.poolSize(config);
        return new PostgresSettings(url, username, password, schema, config.booleanProperty(REQUIRE_READ_ONLY_ACCOUNT, true), poolSize);
    }

    /** The URL the driver gets: host, database and the allowlisted properties only. */
    public String jdbcUrl() {
        return url.text();
    }

    @Override
    public String toString() {
        return "PostgresSettings[host=" + url.host() + ", database=" + url.database().orElse("") + ", schema=" + schema
                + ", poolSize=" + poolSize + ", password=****]";
    }
}
