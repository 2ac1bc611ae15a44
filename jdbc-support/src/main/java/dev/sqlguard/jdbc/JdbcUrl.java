package dev.sqlguard.jdbc;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * A JDBC URL of a network server, parsed strictly: one plain host (a name or a bracketed IPv6
 * address), an optional port, a database, and only connection properties on the engine's allowlist.
 * Credentials, address lists, host properties and every property the engine controls itself or
 * refuses are errors naming the key (or "(withheld)" when the key itself could carry a secret), never
 * the URL. The driver gets {@link #text()}: the host, the database and the allowed properties, nothing
 * else the user wrote.
 *
 * @param scheme the driver's subprotocol ({@code postgresql}, {@code mysql})
 * @param host the host and optional port, as written
 * @param database the database named in the URL, if any
 * @param properties the allowlisted URL properties, keys as written
 */
public record JdbcUrl(String scheme, String host, Optional<String> database, Map<String, String> properties) {
    /**
     * What one engine accepts in its URL.
     *
     * @param scheme the driver's subprotocol
     * @param databaseRequired whether the URL must name a database
     * @param allowed properties accepted, lower case (compared case-insensitively)
     * @param refused properties refused by name, lower case, because the engine sets them or they open a hole
     * @param allowedKinds how the error for an unsupported property names the accepted ones ("TLS and timeout properties")
     */
    public record Rules(String scheme, boolean databaseRequired, Set<String> allowed, Set<String> refused, String allowedKinds) {
        public Rules {
            requireNonNull(scheme, "scheme is null");
            allowed = Set.copyOf(allowed);
            refused = Set.copyOf(refused);
            requireNonNull(allowedKinds, "allowedKinds is null");
            if (!scheme.matches("[a-z0-9]+")) {
                throw new IllegalArgumentException("scheme must be a plain subprotocol");
            }
        }

        /** The URL's shape as this engine's users should write it. */
        public String shape() {
            return "jdbc:" + scheme + "://host[:port]" + (databaseRequired ? "/database" : "[/database]");
        }
    }

    private static final String HOST = "([A-Za-z0-9.\\-]+|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?";

    public JdbcUrl {
        requireNonNull(scheme, "scheme is null");
        requireNonNull(host, "host is null");
        requireNonNull(database, "database is null");
        properties = Map.copyOf(requireNonNull(properties, "properties is null"));
    }

    /**
     * Parses {@code url} (surrounding blanks ignored) under {@code rules}.
     *
     * @param key the setting that holds the URL, named in every message ({@code url})
     * @throws GuardException CONFIGURATION_ERROR naming the source and the key
     */
    public static JdbcUrl parse(String source, String key, String url, Rules rules) {
        Pattern shape = Pattern.compile("jdbc:" + rules.scheme() + "://" + HOST
                + (rules.databaseRequired() ? "/([A-Za-z0-9_$\\-]+)" : "(?:/([A-Za-z0-9_$\\-]*))?") + "(\\?(.*))?");
        Matcher m = shape.matcher(url.strip());
        if (!m.matches()) {
            throw SourceSettings.bad(source, "'" + key + "' must be " + rules.shape() + " with one plain host"
                    + " (no credentials, address lists or host properties in the URL).");
        }
        String host = m.group(1) + (m.group(2) == null ? "" : m.group(2));
        Optional<String> database = Optional.ofNullable(m.group(3)).filter(s -> !s.isEmpty());
        return new JdbcUrl(rules.scheme(), host, database, properties(source, key, m.group(5), rules));
    }

    private static Map<String, String> properties(String source, String urlKey, String query, Rules rules) {
        Map<String, String> out = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return out;
        }
        for (String pair : query.split("&", -1)) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw SourceSettings.bad(source, "'" + urlKey + "' has a malformed property.");
            }
            String key = URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            String folded = key.toLowerCase(Locale.ROOT);
            if (rules.refused().contains(folded)) {
                throw SourceSettings.bad(source, "'" + urlKey + "' sets '" + safeKey(key) + "', which sqlguard controls itself or refuses.");
            }
            if (!rules.allowed().contains(folded)) {
                throw SourceSettings.bad(source, "'" + urlKey + "' sets the unsupported property '" + safeKey(key) + "'; supported: "
                        + rules.allowedKinds() + ".");
            }
            if (out.put(key, value) != null) {
                throw SourceSettings.bad(source, "'" + urlKey + "' sets '" + safeKey(key) + "' twice.");
            }
        }
        return out;
    }

    /** A key short and plain enough to name in a message; any other could be a secret pasted in the wrong place. */
    private static String safeKey(String key) {
        return key.length() <= 40 && key.matches("[A-Za-z0-9_.]+") ? key : "(withheld)";
    }

    /** The URL the driver gets: host, database and the allowlisted properties only, in key order. */
    public String text() {
        StringBuilder out = new StringBuilder("jdbc:").append(scheme).append("://").append(host).append('/').append(database.orElse(""));
        String sep = "?";
        for (Map.Entry<String, String> e : new TreeMap<>(properties).entrySet()) {
            out.append(sep).append(e.getKey()).append('=').append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
            sep = "&";
        }
        return out.toString();
    }

    /** The URL's own value of a driver property, compared case-insensitively, if it sets one. */
    public Optional<String> property(String name) {
        return properties.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue).findFirst();
    }
}
