package dev.sqlguard.mysql;

import java.util.Map;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.ports.Engine;

/**
 * One engine per test account over the same database: the least-privilege account ({@code ro})
 * and the over-privileged one, so a test shows the product's controls hold without help from grants.
 */
record BothAccounts(Engine readOnly, Engine overPrivileged) implements AutoCloseable {
    static BothAccounts open(String database, GuardrailPolicy policy) {
        Engine readOnly = MySqlServerTest.engine(database, false, policy, Map.of());
        try {
            return new BothAccounts(readOnly, MySqlServerTest.engine(database, true, policy, Map.of()));
        } catch (RuntimeException e) {
            readOnly.close();
            throw e;
        }
    }

    /** The engine of {@code account}: {@code "ro"} or anything else for the over-privileged one. */
    Engine engine(String account) {
        return account.equals("ro") ? readOnly : overPrivileged;
    }

    @Override
    public void close() {
        readOnly.close();
        overPrivileged.close();
    }
}
