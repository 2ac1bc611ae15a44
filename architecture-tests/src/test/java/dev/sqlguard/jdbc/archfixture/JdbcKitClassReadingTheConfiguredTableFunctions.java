package dev.sqlguard.jdbc.archfixture;

import dev.sqlguard.domain.GuardrailPolicy;

/** Deliberately bad: the JDBC kit reading a configured policy's table-function list instead of answering the host. */
public final class JdbcKitClassReadingTheConfiguredTableFunctions {
    public boolean configurable(GuardrailPolicy configured) {
        return configured.tableFunctions().isEmpty();
    }
}
