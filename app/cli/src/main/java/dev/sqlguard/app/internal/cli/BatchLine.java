package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

import dev.sqlguard.app.internal.json.JsonParams;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.SafeText;

/**
 * One parsed line of a {@code --batch} input: {@code {"id": ..., "sql": "...", "params": [...]}}.
 * {@code id} (a string or an integer) is optional and echoed; {@code params} is optional. A line
 * that cannot be used carries the error to report for it instead of a request.
 *
 * @param id the line's own id, or JSON null when it has none
 * @param readable whether the line was a JSON object with a usable id (or none); when false the
 *     result echoes a null id
 * @param sql the SQL text, or empty when the line is bad
 * @param params the typed parameters
 * @param error why the line cannot run, if it cannot
 */
public record BatchLine(JsonNode id, boolean readable, String sql, List<Object> params, Optional<GuardException> error) {
    private static final Set<String> KEYS = Set.of("id", "sql", "params");

    public BatchLine {
        requireNonNull(id, "id is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(params, "params is null");
        requireNonNull(error, "error is null");
    }

    /** Whether the line supplied its own id (a string or an integer). */
    public boolean hasId() {
        return !id.isNull();
    }

    public static BatchLine parse(String line) {
        JsonNode root;
        try {
            root = JsonParams.read(line);
        } catch (JsonProcessingException e) {
            return unreadable("The line is not valid JSON.");
        }
        if (root == null || !root.isObject()) {
            return unreadable("Each line must be a JSON object with \"sql\" and optional \"id\" and \"params\".");
        }
        JsonNode id = root.get("id");
        if (id == null || id.isNull()) {
            id = NullNode.getInstance();
        } else if (!id.isTextual() && !id.isIntegralNumber()) {
            return unreadable("\"id\" must be a string or an integer.");
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!KEYS.contains(name)) {
                return bad(id, "Unknown field " + SafeText.identifier(name) + "; a line has \"id\", \"sql\" and \"params\".");
            }
        }
        JsonNode sql = root.get("sql");
        if (sql == null || !sql.isTextual()) {
            return bad(id, "Each line needs a string field \"sql\".");
        }
        JsonNode params = root.get("params");
        List<Object> values = List.of();
        if (params != null && !params.isNull()) {
            if (!params.isArray()) {
                return new BatchLine(id, true, sql.textValue(), List.of(), Optional.of(new GuardException(
                        ErrorCode.INVALID_ARGUMENT, "\"params\" must be an array of values.")));
            }
            try {
                values = JsonParams.fromArray(params);
            } catch (GuardException e) {
                return new BatchLine(id, true, sql.textValue(), List.of(), Optional.of(e));
            }
        }
        return new BatchLine(id, true, sql.textValue(), values, Optional.empty());
    }

    /** A line too long to read, reported without parsing it. */
    public static BatchLine tooLong(int maxChars) {
        return new BatchLine(NullNode.getInstance(), false, "", List.of(), Optional.of(new GuardException(
                ErrorCode.QUERY_TOO_LONG, "The line is longer than " + maxChars + " characters.")));
    }

    private static BatchLine unreadable(String message) {
        return new BatchLine(NullNode.getInstance(), false, "", List.of(),
                Optional.of(new GuardException(ErrorCode.INVALID_ARGUMENT, message)));
    }

    private static BatchLine bad(JsonNode id, String message) {
        return new BatchLine(id, true, "", List.of(), Optional.of(new GuardException(ErrorCode.INVALID_ARGUMENT, message)));
    }
}
