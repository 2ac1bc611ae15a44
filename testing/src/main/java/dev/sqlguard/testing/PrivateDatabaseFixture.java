package dev.sqlguard.testing;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.ports.EngineStart;

/**
 * An {@link EngineFixture} over a private database (or schema, or file) that the fixture created,
 * on a server named with {@link #uniqueName()}, and drops in {@link #close()}. It builds every
 * engine through {@link #factory()} from the settings of {@link #properties()}, and turns a
 * failed {@link #readFingerprint()} into an {@link IllegalStateException} that fails the test.
 */
public abstract class PrivateDatabaseFixture implements EngineFixture {
    /** The prefix of every private database name, so that a leftover one is easy to find and grant on. */
    public static final String NAME_PREFIX = "sqlguard_t_";

    /** A fresh name for a private database or schema: {@value #NAME_PREFIX} and 12 lower-case hex digits. */
    public static String uniqueName() {
        return NAME_PREFIX + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
    }

    /**
     * A {@link #runawayQuery()} with no function at all: a count over {@code ways} copies of
     * {@code claims} ({@code a}, {@code b}, ...), each joined on {@code id > 0} (the second on
     * {@code a.id}), so that a few hundred rows grow to far more combinations than a second can count.
     *
     * @param ways how many copies, from 2 to 26
     */
    public static String claimsCrossJoin(int ways) {
        if (ways < 2 || ways > 26) {
            throw new IllegalArgumentException("ways must be from 2 to 26");
        }
        StringJoiner sql = new StringJoiner(" ");
        sql.add("SELECT count(*) AS n FROM claims a");
        for (int i = 1; i < ways; i++) {
            char alias = (char) ('a' + i);
            sql.add("JOIN claims " + alias + " ON " + (i == 1 ? 'a' : alias) + ".id > 0");
        }
        return sql.toString();
    }

    /** The engine settings that reach the private database, with the account the fixture tests. */
    protected abstract Map<String, String> properties();

    /** The digest {@link #fingerprint()} returns, read through a trusted path. */
    protected abstract String readFingerprint() throws Exception;

    /** The work folder of the engines' {@link EngineContext}: {@code target}, the build's own. */
    protected Path workFolder() {
        return Path.of("target");
    }

    @Override
    public final Engine engine(String sourceId, GuardrailPolicy policy) {
        // as the host starts it: the configured function lists are decided on the engine's facts
        return EngineStart.open(factory(), new EngineConfig(sourceId, properties(), policy), EngineContext.of(workFolder()));
    }

    /** A JDBC URL that names a server: {@code jdbc:<driver>://host:port...}. */
    private static final java.util.regex.Pattern SERVER_URL = java.util.regex.Pattern.compile("(jdbc:[a-z]+://)([^:/?;]+):(\\d+)(.*)");

    /** The host and port of the {@code url} setting, when it names a server. */
    @Override
    public java.util.Optional<java.net.InetSocketAddress> serverAddress() {
        String url = properties().get("url");
        java.util.regex.Matcher m = url == null ? null : SERVER_URL.matcher(url);
        if (m == null || !m.matches()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(java.net.InetSocketAddress.createUnresolved(m.group(2), Integer.parseInt(m.group(3))));
    }

    @Override
    public Engine engineThrough(int port, String sourceId, GuardrailPolicy policy) {
        Map<String, String> settings = new java.util.HashMap<>(properties());
        java.util.regex.Matcher m = SERVER_URL.matcher(settings.getOrDefault("url", ""));
        if (!m.matches()) {
            throw new UnsupportedOperationException("this fixture's engines name no server");
        }
        settings.put("url", m.group(1) + "127.0.0.1:" + port + m.group(4));
        return EngineStart.open(factory(), new EngineConfig(sourceId, settings, policy), EngineContext.of(workFolder()));
    }

    @Override
    public final Engine engine(EngineFactory factory, String sourceId, GuardrailPolicy policy) {
        return EngineStart.open(factory, new EngineConfig(sourceId, properties(), policy), EngineContext.of(workFolder()));
    }

    @Override
    public final String fingerprint() {
        try {
            return readFingerprint();
        } catch (Exception e) {
            throw new IllegalStateException("fingerprint failed", e);
        }
    }
}
