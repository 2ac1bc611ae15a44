package dev.sqlguard.app.internal.json;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;

/**
 * Writes a {@link ToolResult} as the public JSON object, fields in this order: {@code id, status,
 * source, sql, columns, rows, returned_count, truncated, limits_hit, error, elapsed_ms}. Decimals
 * are written exactly, in plain notation.
 */
public final class ToolResultJson {
    static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private ToolResultJson() {
    }

    /** One line of JSON, without a trailing newline. */
    public static String write(ToolResult result) {
        return write(result, null);
    }

    /**
     * One line of JSON; when {@code id} is given (a batch line's own id, possibly a JSON null),
     * it is echoed in place of the result's generated id.
     */
    public static String write(ToolResult result, JsonNode id) {
        StringWriter out = new StringWriter(256 + result.rows().size() * 32);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            if (id == null) {
                g.writeStringField("id", result.id());
            } else {
                g.writeFieldName("id");
                writeNode(g, id);
            }
            g.writeStringField("status", result.status().name());
            g.writeStringField("source", result.source());
            g.writeFieldName("sql");
            if (result.sql().isPresent()) {
                g.writeString(result.sql().get());
            } else {
                g.writeNull();
            }
            g.writeArrayFieldStart("columns");
            for (ResultColumn column : result.columns()) {
                g.writeStartObject();
                g.writeStringField("name", column.name());
                g.writeStringField("type", column.type());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("rows");
            for (List<Object> row : result.rows()) {
                g.writeStartArray();
                for (Object cell : row) {
                    writeCell(g, cell);
                }
                g.writeEndArray();
            }
            g.writeEndArray();
            g.writeNumberField("returned_count", result.returnedCount());
            g.writeBooleanField("truncated", result.truncated());
            g.writeArrayFieldStart("limits_hit");
            for (LimitKind kind : LimitKind.values()) {
                if (result.limitsHit().contains(kind)) {
                    g.writeString(kind.wireName());
                }
            }
            g.writeEndArray();
            g.writeFieldName("error");
            if (result.error().isPresent()) {
                ToolError error = result.error().get();
                g.writeStartObject();
                g.writeStringField("code", error.code().name());
                g.writeStringField("message", error.message());
                g.writeBooleanField("retryable", error.retryable());
                g.writeEndObject();
            } else {
                g.writeNull();
            }
            g.writeNumberField("elapsed_ms", result.elapsedMs());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    static void writeCell(JsonGenerator g, Object cell) throws IOException {
        if (cell == null) {
            g.writeNull();
        } else if (cell instanceof String s) {
            g.writeString(s);
        } else if (cell instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (cell instanceof Long l) {
            g.writeNumber(l);
        } else if (cell instanceof BigInteger i) {
            g.writeNumber(i);
        } else if (cell instanceof BigDecimal d) {
            g.writeNumber(d);
        } else if (cell instanceof Double d) {
            g.writeNumber(d);
        } else {
            // ToolResult admits JSON-safe scalars only; anything else is written as text
            g.writeString(String.valueOf(cell));
        }
    }

    private static void writeNode(JsonGenerator g, JsonNode node) throws IOException {
        if (node.isNull() || node.isMissingNode()) {
            g.writeNull();
        } else if (node.isTextual()) {
            g.writeString(node.textValue());
        } else if (node.isIntegralNumber()) {
            g.writeNumber(node.bigIntegerValue());
        } else {
            g.writeString(node.toString());
        }
    }
}
