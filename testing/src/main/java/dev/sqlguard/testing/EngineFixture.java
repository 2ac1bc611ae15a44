package dev.sqlguard.testing;

import java.util.List;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.port.ExecutionPort;
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
     * Test-only, never the product's way in: the port {@link EngineLevelProofs} hands statements that
     * skipped the validator, to prove what the engine itself refuses. By default {@code engine}'s own
     * execution port, given plans the suite builds by hand; it runs a plan's executable text as it
     * is. An engine whose execution port changes the text (wraps it, re-renders it) returns a port
     * that runs the text as given on the same sessions, with the same settings and deadline.
     */
    default ExecutionPort rawPort(Engine engine) {
        return engine.binding().execution();
    }

    /**
     * Writes the engine must refuse (or, for a setting or temp table, keep inside the call), one of
     * each {@link EngineWrite.Kind} at least: start from {@link EngineWrite#standard()} and add the
     * engine's setting and sequence advance, in forms its driver runs as a query.
     */
    default List<EngineWrite> engineWrites() {
        return EngineWrite.standard();
    }

    /**
     * An engine like {@link #engine(String, GuardrailPolicy)}, from the same settings, built by
     * {@code factory}: the suite passes an instance of {@link #factory()}'s class loaded through the
     * plug-in class loader. {@link PrivateDatabaseFixture} implements it.
     */
    default Engine engine(EngineFactory factory, String sourceId, GuardrailPolicy policy) {
        throw new UnsupportedOperationException("the fixture cannot build an engine from another factory instance");
    }

    /**
     * Classes whose jars (or class folders) form the adapter's plug-in: the factory's and, for an
     * engine whose driver ships in the plug-in folder, the driver's. The suite loads them through the
     * plug-in class loader, with every other class from the host. Empty for an engine that is no
     * plug-in (the kit's in-memory engine).
     */
    default List<Class<?>> pluginClasses() {
        return List.of(factory().getClass());
    }

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
