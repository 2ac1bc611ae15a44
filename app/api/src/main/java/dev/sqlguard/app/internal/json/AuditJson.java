package dev.sqlguard.app.internal.json;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonGenerator;

import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.LifecycleRecord;

/** Audit events and lifecycle records as single JSON lines. They carry a SQL hash, never SQL or data. */
public final class AuditJson {
    private AuditJson() {
    }

    public static String write(AuditEvent e) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = ToolResultJson.FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("type", "audit");
            g.writeStringField("at", e.at().toString());
            g.writeStringField("request_id", e.requestId());
            g.writeStringField("source", e.source());
            g.writeStringField("operation", e.operation().wireName());
            g.writeStringField("verdict", e.verdict().name());
            g.writeFieldName("code");
            if (e.code().isPresent()) {
                g.writeString(e.code().get().name());
            } else {
                g.writeNull();
            }
            g.writeStringField("sql_sha256", e.sqlSha256());
            g.writeArrayFieldStart("limits_hit");
            for (LimitKind kind : LimitKind.values()) {
                if (e.limitsHit().contains(kind)) {
                    g.writeString(kind.wireName());
                }
            }
            g.writeEndArray();
            g.writeNumberField("duration_ms", e.durationMs());
            g.writeNumberField("row_count", e.rowCount());
            if (e.caller().isPresent()) {
                // written only when known, so that records of the other surfaces keep their shape
                g.writeStringField("client_request_id", e.caller().get().requestId());
                g.writeStringField("client", e.caller().get().client());
            }
            if (!e.attributes().isEmpty()) {
                // the caller's attributes that the row filters bound, written only when some did
                g.writeObjectFieldStart("attributes");
                for (java.util.Map.Entry<String, String> a : new java.util.TreeMap<>(e.attributes()).entrySet()) {
                    g.writeStringField(a.getKey(), a.getValue());
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return out.toString();
    }

    public static String write(LifecycleRecord r) {
        StringWriter out = new StringWriter(160);
        try (JsonGenerator g = ToolResultJson.FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("type", "lifecycle");
            g.writeStringField("at", r.at().toString());
            g.writeStringField("request_id", r.requestId());
            g.writeStringField("source", r.source());
            g.writeStringField("phase", r.phase().name());
            g.writeFieldName("code");
            if (r.code().isPresent()) {
                g.writeString(r.code().get().name());
            } else {
                g.writeNull();
            }
            g.writeEndObject();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return out.toString();
    }
}
