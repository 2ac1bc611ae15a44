package dev.sqlguard.duckdb.archfixture;

import dev.sqlguard.testing.ContractDataset;

/** Deliberately bad: production code of an adapter using the testing kit. */
public final class DuckDbClassUsingTheTestKit {
    public int secrets() {
        return ContractDataset.SECRETS.size();
    }
}
