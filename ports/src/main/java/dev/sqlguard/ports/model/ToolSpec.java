package dev.sqlguard.ports.model;

import static java.util.Objects.requireNonNull;

/** A tool offered to the model: name, description and the JSON Schema of its arguments (as JSON text). */
public record ToolSpec(String name, String description, String parametersSchemaJson) {
    public ToolSpec {
        requireNonNull(name, "name is null");
        requireNonNull(description, "description is null");
        requireNonNull(parametersSchemaJson, "parametersSchemaJson is null");
    }
}
