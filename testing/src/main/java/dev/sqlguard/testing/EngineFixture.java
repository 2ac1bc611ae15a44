package dev.sqlguard.testing;

import java.util.List;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineFactory;

/**
 * What an engine module provides to the contract suite: a private database holding
 * {@link ContractDataset}, engines over it, and the dialect-specific probes.
 */
public interface EngineFixture extends AutoCloseable {
    /** The engine's factory, as the host discovers it; the suite checks the settings and the dialect it declares. */
    EngineFactory factory();

    /**
     * An engine for source {@code sourceId} over the fixture's database with {@code policy},
     * built through {@link #factory()}. The suite closes it.
     */
    Engine engine(String sourceId, GuardrailPolicy policy);

    /**
     * A digest of every table's schema and data, read through a trusted path (not through the
     * engine under test). The suite compares it before and after hostile queries.
     */
    String fingerprint();

    /**
     * An allowlisted query (tables claims/regions/users, functions of
     * {@link EngineContractSuite#POLICY_FUNCTIONS}) that runs far longer than one second.
     */
    String runawayQuery();

    /** Statements of this dialect that change state or configuration; all must be refused. */
    List<String> dialectForbiddenStatements();

    /** Queries of this dialect that try to read or write files, the network or other databases. */
    List<String> dialectExternalAccess();

    /**
     * Where the engines' server listens, for a {@link FaultProxy} in front of it; empty for an
     * engine without a server (DuckDB, in memory).
     */
    default java.util.Optional<java.net.InetSocketAddress> serverAddress() {
        return java.util.Optional.empty();
    }

    /** An engine like {@link #engine}, connecting to {@code 127.0.0.1:port} instead of {@link #serverAddress()}. */
    default Engine engineThrough(int port, String sourceId, GuardrailPolicy policy) {
        throw new UnsupportedOperationException("this fixture's engines have no server");
    }

    /** Removes the database. */
    @Override
    void close();
}
