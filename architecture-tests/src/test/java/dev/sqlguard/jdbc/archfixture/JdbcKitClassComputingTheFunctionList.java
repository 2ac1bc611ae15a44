package dev.sqlguard.jdbc.archfixture;

import java.util.Set;

import dev.sqlguard.domain.GuardrailPolicy;

/** Deliberately bad: the JDBC kit computing a policy's table-function list instead of asking the domain. */
public final class JdbcKitClassComputingTheFunctionList {
    public boolean allows(GuardrailPolicy policy, String name) {
        return policy.tableFunctionsOr(Set.of("generate_series")).contains(name);
    }
}
