package dev.sqlguard.duckdb.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * DuckDB's own parser, reached through {@code json_serialize_sql(?)} and
 * {@code json_deserialize_sql(?)} on locked connections of the engine's instance. The SQL text is
 * only ever a bound parameter here: nothing prepares or runs it. Sessions (a duplicate connection
 * and its two prepared statements) are pooled; the class is thread-safe.
 */
final class DuckDbParser implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DuckDbParser.class);
    /** Longest tree accepted from DuckDB, in characters. */
    static final int MAX_JSON_CHARS = 16 * 1024 * 1024;
    /** Deepest JSON nesting accepted (DuckDB itself stops expressions at depth 1000). */
    static final int MAX_JSON_DEPTH = 600;

    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_JSON_DEPTH)
                    .maxDocumentLength(MAX_JSON_CHARS)
                    .maxStringLength(MAX_JSON_CHARS)
                    .build())
            .build());

    private record Session(Connection connection, PreparedStatement serialize, PreparedStatement serializeTwo,
                           PreparedStatement deserialize, PreparedStatement plan) {
    }

    private enum Call { SERIALIZE, SERIALIZE_TWO, DESERIALIZE, PLAN }

    private final DuckDbInstance instance;
    private final ConcurrentLinkedQueue<Session> idle = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    DuckDbParser(DuckDbInstance instance) {
        this.instance = instance;
    }

    /** DuckDB's parse tree of {@code sql}, as JSON. */
    JsonNode serialize(String sql) {
        return parse(call(Call.SERIALIZE, sql)[0]);
    }

    /**
     * DuckDB's parse trees of two texts, as JSON text, in one call (one round trip instead of two):
     * the caller reads the second only once the first has passed its checks.
     */
    String[] serializeTexts(String first, String second) {
        return call(Call.SERIALIZE_TWO, first, second);
    }

    /** The SQL text DuckDB renders for a tree ({@code {"error":false,"statements":[...]}}). */
    String deserialize(String json) {
        return call(Call.DESERIALIZE, json)[0];
    }

    /**
     * DuckDB's bound, unoptimized logical plan of {@code sql}, as JSON. Binding runs table-function
     * binders, which can touch files: only call it on text whose parse tree passed the checks.
     */
    JsonNode plan(String sql) {
        return parse(call(Call.PLAN, sql)[0]);
    }

    static JsonNode parse(String json) {
        if (json == null || json.length() > MAX_JSON_CHARS) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query is too large to check.");
        }
        try {
            return JSON.readTree(json);
        } catch (StreamConstraintsException e) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query is nested too deeply.");
        } catch (JsonProcessingException e) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, "The parse tree could not be read.", e);
        }
    }

    static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, "The parse tree could not be written.", e);
        }
    }

    /** One call of DuckDB's parser on {@code arguments}, each bound as a parameter; one text out per argument. */
    private String[] call(Call kind, String... arguments) {
        Session session = take();
        boolean healthy = false;
        try {
            PreparedStatement ps = switch (kind) {
                case SERIALIZE -> session.serialize();
                case SERIALIZE_TWO -> session.serializeTwo();
                case DESERIALIZE -> session.deserialize();
                case PLAN -> session.plan();
            };
            for (int i = 0; i < arguments.length; i++) {
                ps.setString(i + 1, arguments[i]);
            }
            String[] out = new String[arguments.length];
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                for (int i = 0; i < out.length; i++) {
                    out[i] = rs.getString(i + 1);
                }
            }
            healthy = true;
            return out;
        } catch (SQLException e) {
            LOG.debug("DuckDB parser call failed", e);
            throw switch (kind) {
                case SERIALIZE, SERIALIZE_TWO -> new GuardException(ErrorCode.SYNTAX_ERROR, "The SQL could not be parsed.", e);
                case DESERIALIZE -> new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED,
                        "The query cannot be executed exactly as checked.", e);
                case PLAN -> new GuardException(ErrorCode.QUERY_FAILED, "DuckDB could not bind the query.", e);
            };
        } finally {
            if (healthy && !closed) {
                idle.offer(session);
            } else {
                discard(session);
            }
        }
    }

    private Session take() {
        Session session = idle.poll();
        if (session != null) {
            return session;
        }
        Connection connection = instance.duplicate();
        try {
            return new Session(connection, connection.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)"),
                    connection.prepareStatement("SELECT json_serialize_sql(?::VARCHAR), json_serialize_sql(?::VARCHAR)"),
                    connection.prepareStatement("SELECT json_deserialize_sql(?::JSON)"),
                    connection.prepareStatement("SELECT json_serialize_plan(?::VARCHAR, optimize := false, "
                            + "skip_null := true, skip_empty := true)"));
        } catch (SQLException e) {
            DuckDbInstance.closeQuietly(connection);
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The DuckDB parser is unavailable.", e);
        }
    }

    private static void discard(Session session) {
        DuckDbInstance.closeQuietly(session.serialize());
        DuckDbInstance.closeQuietly(session.serializeTwo());
        DuckDbInstance.closeQuietly(session.deserialize());
        DuckDbInstance.closeQuietly(session.plan());
        DuckDbInstance.closeQuietly(session.connection());
    }

    @Override
    public void close() {
        closed = true;
        Session session;
        while ((session = idle.poll()) != null) {
            discard(session);
        }
    }
}
