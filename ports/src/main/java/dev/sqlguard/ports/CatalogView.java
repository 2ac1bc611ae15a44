package dev.sqlguard.ports;

import java.util.List;

/** The allowlisted schema of a source: what {@code describe} shows an agent. */
public interface CatalogView {
    /** The allowlisted tables with their allowlisted columns and types, sorted by name. */
    List<TableDescription> tables();
}
