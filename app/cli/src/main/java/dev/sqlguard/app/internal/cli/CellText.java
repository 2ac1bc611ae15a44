package dev.sqlguard.app.internal.cli;

import java.math.BigDecimal;

import dev.sqlguard.app.internal.json.ToolResultJson;

/** A result cell as text for the text formats: exact decimals, lists and structs as JSON, null as null. */
final class CellText {
    private CellText() {
    }

    /** The cell's text, or null for SQL NULL. */
    static String of(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof java.util.List<?> || value instanceof java.util.Map<?, ?>) {
            return ToolResultJson.write(ToolResultJson.cell(value));
        }
        return String.valueOf(value);
    }
}
