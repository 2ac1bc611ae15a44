package dev.sqlguard.app.tools.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.app.internal.json.JsonParams;
import dev.sqlguard.domain.Limits;

/** {@code query_data}: one guarded, read-only, bounded SQL query. */
public final class QueryDataTool extends Tool {
    public static final String NAME = "query_data";
    static final int MAX_PARAMS = 100;

    private final ToolContext context;

    public QueryDataTool(ToolContext context) {
        super(NAME, "Runs one read-only SELECT on a source and returns the executed SQL, the columns, the rows (bounded),"
                + " whether limits were hit, or a safe error with a code and whether a retry can help.", schema(context), true);
        this.context = context;
    }

    private static ArgSchema.Obj schema(ToolContext context) {
        Map<String, ArgSchema> props = new LinkedHashMap<>();
        props.put("source", ArgSchema.Str.sourceId("The data source to query.", context.sourceIds()));
        props.put("sql", ArgSchema.Str.sql("Exactly one read-only SELECT statement. Use ? placeholders for values.",
                Limits.DEFAULT_MAX_SQL_LENGTH));
        props.put("params", new ArgSchema.Arr("Values for the ? placeholders, in order.",
                new ArgSchema.Scalar("A placeholder value."), MAX_PARAMS, false));
        return new ArgSchema.Obj("", props, Set.of("source", "sql"));
    }

    @Override
    public ToolOutcome call(JsonNode arguments) {
        JsonNode values = arguments.get("params");
        List<Object> params = values == null ? List.of() : JsonParams.fromArray(values);
        return ToolContext.outcome(NAME, context.run(context.source(arguments.get("source").textValue()),
                arguments.get("sql").textValue(), params));
    }
}
