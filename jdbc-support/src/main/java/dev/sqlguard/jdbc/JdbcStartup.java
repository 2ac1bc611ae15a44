package dev.sqlguard.jdbc;

import java.sql.SQLException;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * What a JDBC engine's {@code create} throws when it could not start. The host retries a source
 * whose start failed with {@code ENGINE_UNAVAILABLE} and never one that failed with
 * {@code CONFIGURATION_ERROR}, so the choice is the engine's to make from the server's error: a
 * refused login or a database the account may not use is the configuration's fault, anything else
 * (a refused connect, a timeout, a server that went away) may pass. Each message is the engine's own
 * sentence after "Source 'id': ", never the driver's text, the host, the URL or the password; a refused
 * login names the user ({@link #user}), so that the operator knows which account to check.
 */
public final class JdbcStartup {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcStartup.class);

    private JdbcStartup() {
    }

    /**
     * The failure to throw for {@code e}: {@code e} itself when it is a {@link GuardException} (a
     * check of {@code create}'s own); {@code CONFIGURATION_ERROR} with the sentence
     * {@code configuration} gives for the first {@link SQLException} among {@code e} and its causes;
     * else {@code ENGINE_UNAVAILABLE} with the sentence {@code unreachable}. The result keeps
     * {@code e} as its cause, for the logs.
     *
     * @param configuration the sentence for a server error that is the configuration's fault, e.g.
     *     "the database refused the login.", or empty
     */
    public static GuardException failure(String source, Exception e, Function<SQLException, Optional<String>> configuration,
                                         String unreachable) {
        if (e instanceof GuardException g) {
            return g;
        }
        Throwable root = e;
        while (root.getCause() != null && !(root instanceof SQLException)) {
            root = root.getCause();
        }
        if (root instanceof SQLException s) {
            Optional<String> sentence = configuration.apply(s);
            if (sentence.isPresent()) {
                return new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + source + "': " + sentence.get(), e);
            }
        }
        LOG.debug("startup failed", e);
        return new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "Source '" + source + "': " + unreachable, e);
    }

    /** A user name for a message: quoted when short and plain ({@code [A-Za-z0-9_.@-]}), else a placeholder. */
    public static String user(String name) {
        if (name == null || name.isEmpty() || name.length() > 64
                || !name.chars().allMatch(c -> c < 0x80 && (Character.isLetterOrDigit(c) || "_.@-".indexOf(c) >= 0))) {
            return "(name withheld)";
        }
        return "'" + name + "'";
    }
}
