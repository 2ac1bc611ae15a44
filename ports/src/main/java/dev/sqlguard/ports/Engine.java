package dev.sqlguard.ports;

import java.util.Set;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.SourceBinding;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;

/** One configured source on one engine: its dialect's validator, its execution port and its catalog. */
public interface Engine extends AutoCloseable {
    /** The source id this engine serves. */
    String sourceId();

    /** The policy in force, after engine defaults were applied. */
    GuardrailPolicy policy();

    StatementValidator validator();

    ExecutionPort execution();

    CatalogView catalog();

    /** What this engine's dialect and validator support; the contract suite reads it. */
    Set<EngineCapability> capabilities();

    /** The binding the domain use case runs calls against. */
    default SourceBinding binding() {
        return new SourceBinding(sourceId(), policy(), validator(), execution());
    }

    /** Releases connections and pools. Never throws. */
    @Override
    void close();
}
