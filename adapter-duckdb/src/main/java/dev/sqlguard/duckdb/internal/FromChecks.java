package dev.sqlguard.duckdb.internal;

import static dev.sqlguard.duckdb.internal.ParseScope.concat;
import static dev.sqlguard.duckdb.internal.ParseScope.findColumn;
import static dev.sqlguard.duckdb.internal.ParseScope.metadata;
import static dev.sqlguard.duckdb.internal.ParseScope.rename;
import static dev.sqlguard.duckdb.internal.ParseScope.single;
import static dev.sqlguard.duckdb.internal.ParseTrees.array;
import static dev.sqlguard.duckdb.internal.ParseTrees.construct;
import static dev.sqlguard.duckdb.internal.ParseTrees.field;
import static dev.sqlguard.duckdb.internal.ParseTrees.fold;
import static dev.sqlguard.duckdb.internal.ParseTrees.isNullField;
import static dev.sqlguard.duckdb.internal.ParseTrees.strings;
import static dev.sqlguard.duckdb.internal.ParseTrees.text;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.duckdb.internal.ParseScope.Col;
import dev.sqlguard.duckdb.internal.ParseScope.Cte;
import dev.sqlguard.duckdb.internal.ParseScope.Ctes;
import dev.sqlguard.duckdb.internal.ParseScope.From;
import dev.sqlguard.duckdb.internal.ParseScope.Lineage;
import dev.sqlguard.duckdb.internal.ParseScope.Scope;
import dev.sqlguard.duckdb.internal.ParseScope.Source;

/** The FROM items of the parse-tree gate: base tables, joins, table functions, VALUES, PIVOT, SHOW. */
final class FromChecks {
    private final CheckState state;
    private final TreeChecker queries;
    private final ExpressionChecks expressions;
    private final FunctionRules functionRules;

    FromChecks(CheckState state, TreeChecker queries, ExpressionChecks expressions, FunctionRules functionRules) {
        this.state = state;
        this.queries = queries;
        this.expressions = expressions;
        this.functionRules = functionRules;
    }

    /** The statistics SUMMARIZE reports after column_name and column_type, in DuckDB's order. */
    static final List<String> SUMMARY_STATS = List.of(
            "min", "max", "approx_unique", "avg", "std", "q25", "q50", "q75", "count", "null_percentage");

    // ---------------------------------------------------------------- FROM

    From from(JsonNode ref, Scope outer, Ctes env) {
        state.enter();
        try {
            state.visit(ref);
            sample(ref.get("sample"));
            String type = text(ref, "type");
            return switch (type) {
                case "EMPTY" -> From.EMPTY;
                case "BASE_TABLE" -> baseTable(ref, outer, env);
                case "JOIN" -> join(ref, outer, env);
                case "SUBQUERY" -> {
                    JsonNode subquery = field(ref, "subquery");
                    state.visit(subquery);
                    expressions.checkParameterMap(subquery.path("named_param_map"));
                    // a derived table: its columns carry their lineage to wherever the outer query uses them
                    List<Col> cols = rename(queries.node(field(subquery, "node"), outer, env),
                            strings(ref.path("column_name_alias")));
                    String alias = ref.path("alias").asText("");
                    From derived = single(alias, Optional.empty(), cols);
                    if (alias.isEmpty() && ref instanceof ObjectNode named) {
                        state.unnamedDerivedTables.put(derived.sources().get(0), named);
                    }
                    yield derived;
                }
                case "TABLE_FUNCTION" -> tableFunction(ref, outer, env);
                case "EXPRESSION_LIST" -> values(ref, outer, env);
                case "SHOW_REF" -> show(ref, outer, env);
                case "PIVOT" -> pivot(ref, outer, env);
                default -> throw construct("The query uses a FROM construct that is not supported here.");
            };
        } finally {
            state.depth--;
        }
    }

    From baseTable(JsonNode ref, Scope outer, Ctes env) {
        if (!ref.path("at_clause").isNull() && !ref.path("at_clause").isMissingNode()) {
            throw construct("AT (time travel) is not supported here.");
        }
        String catalogName = ref.path("catalog_name").asText("");
        String schema = ref.path("schema_name").asText("");
        String name = text(ref, "table_name");
        String alias = ref.path("alias").asText("");
        List<String> renames = strings(ref.path("column_name_alias"));
        boolean namesCte = catalogName.isEmpty() && schema.isEmpty() && env.find(fold(name)).isPresent();
        if (!renames.isEmpty() && state.restricted && !namesCte) {
            // renaming a table's columns by position would tell how many columns it has
            throw construct("Rename columns in the select list; a column-alias list on a table is not supported for this source.");
        }
        if (catalogName.isEmpty() && schema.isEmpty()) {
            Optional<Cte> cte = env.find(fold(name));
            if (cte.isPresent()) {
                List<Col> cols = rename(queries.cteColumns(fold(name), cte.get(), outer), renames);
                return single(alias.isEmpty() ? name : alias, Optional.empty(), cols);
            }
        }
        Optional<DuckDbCatalog.Table> found = state.catalog.find(catalogName, schema, name);
        if (found.isEmpty() || !state.catalog.allowsTable(found.get())) {
            throw Refusals.unknownTable(name);
        }
        DuckDbCatalog.Table table = found.get();
        state.tables.add(table.ref());
        state.baseTables.put(ref, table);
        List<Col> cols = new ArrayList<>();
        for (DuckDbCatalog.Column column : table.columns()) {
            cols.add(new Col(column.name(), Set.of(new ColumnRef(table.ref(), column.name())), true, table));
        }
        cols = rename(cols, renames);
        return single(alias.isEmpty() ? table.name() : alias, Optional.of(table), cols);
    }

    From join(JsonNode ref, Scope outer, Ctes env) {
        From left = from(field(ref, "left"), outer, env);
        // the right side may refer to the left one (LATERAL)
        Scope lateral = new Scope(outer, left, Map.of());
        From right = from(field(ref, "right"), lateral, env);
        String joinType = text(ref, "join_type");
        String refType = text(ref, "ref_type");
        if (!Set.of("INNER", "LEFT", "RIGHT", "OUTER", "FULL", "SEMI", "ANTI").contains(joinType)
                || !Set.of("REGULAR", "CROSS", "NATURAL", "ASOF", "POSITIONAL").contains(refType)) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "This kind of join is not supported here.");
        }
        JsonNode ranking = ref.get("ranking_expression");
        if (ranking != null && !ranking.isNull()) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "This kind of join is not supported here.");
        }
        if (!ref.path("duplicate_eliminated_columns").isEmpty()) {
            throw construct("Unexpected join form.");
        }
        List<Source> sources = new ArrayList<>(left.sources());
        sources.addAll(right.sources());
        From both = new From(sources, concat(left.star(), right.star()));
        expressions.optionalExpression(ref.get("condition"), new Scope(outer, both, Map.of()), env);
        Set<String> using = new LinkedHashSet<>();
        for (String column : strings(ref.path("using_columns"))) {
            using.add(fold(column));
            // each USING column must be a visible column of both sides, or it is refused like a missing one
            for (From side : List.of(left, right)) {
                Col col = findColumn(side.star(), fold(column));
                if (col == null || !state.visible(col)) {
                    throw Refusals.unknownColumn(column);
                }
            }
        }
        if ("NATURAL".equals(refType) && state.restricted) {
            // which columns a NATURAL join compares depends on columns an agent may not see
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED,
                    "Name the join columns with USING (...) or ON; NATURAL joins are not supported for this source.");
        }
        if ("NATURAL".equals(refType)) {
            Set<String> leftNames = new LinkedHashSet<>();
            left.star().forEach(c -> leftNames.add(fold(c.name())));
            for (Col c : right.star()) {
                if (leftNames.contains(fold(c.name()))) {
                    using.add(fold(c.name()));
                }
            }
        }
        for (Col c : concat(left.star(), right.star())) {
            if (using.contains(fold(c.name()))) {
                state.record(c);
            }
        }
        if (Set.of("SEMI", "ANTI").contains(joinType)) {
            return new From(left.sources(), left.star());
        }
        if (using.isEmpty()) {
            return both;
        }
        List<Col> star = new ArrayList<>();
        for (Col c : left.star()) {
            if (using.contains(fold(c.name()))) {
                Lineage merged = Lineage.of(c);
                for (Col r : right.star()) {
                    if (fold(r.name()).equals(fold(c.name()))) {
                        merged = merged.plus(Lineage.of(r));
                    }
                }
                star.add(new Col(c.name(), merged.refs(), merged.complete(), c.table()));
            } else {
                star.add(c);
            }
        }
        for (Col c : right.star()) {
            if (!using.contains(fold(c.name()))) {
                star.add(c);
            }
        }
        return new From(sources, star);
    }

    From tableFunction(JsonNode ref, Scope outer, Ctes env) {
        JsonNode function = field(ref, "function");
        state.visit(function);
        if (state.governed.active()) {
            // a file reader, a catalog function or query() could reach rows (or counts of rows) that the filters hold back
            throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED,
                    "Table functions are not allowed on this source, whose rows are filtered per caller.");
        }
        if (!"FUNCTION".equals(function.path("class").asText())) {
            throw construct("Unexpected table function form.");
        }
        String name = fold(text(function, "function_name"));
        functionRules.requireTableFunction(name, !function.path("schema").asText("").isEmpty()
                || !function.path("catalog").asText("").isEmpty());
        JsonNode orderBys = function.get("order_bys");
        if (orderBys != null && !orderBys.isNull()) {
            state.visit(orderBys);
            if (!orderBys.path("orders").isEmpty()) {
                throw construct("Unexpected table function form.");
            }
        }
        JsonNode filter = function.get("filter");
        if ((filter != null && !filter.isNull()) || function.path("distinct").asBoolean(false)
                || function.path("export_state").asBoolean(false)) {
            throw construct("Unexpected table function form.");
        }
        for (JsonNode argument : array(function, "arguments")) {
            if (!argument.path("name").asText("").isEmpty()) {
                throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "Named arguments of table functions are not allowed.");
            }
        }
        // the arguments decide how many rows the table function returns
        Lineage args = expressions.functionArguments(function, outer == null ? new Scope(null, From.EMPTY, Map.of()) : outer, env, false);
        String ordinality = ref.path("with_ordinality").asText("WITHOUT_ORDINALITY");
        List<Col> cols = new ArrayList<>();
        cols.add(Col.derived(name, args));
        if ("WITH_ORDINALITY".equals(ordinality)) {
            cols.add(Col.derived("ordinality", Lineage.EMPTY));
        } else if (!"WITHOUT_ORDINALITY".equals(ordinality)) {
            throw construct("Unexpected table function form.");
        }
        boolean knownShape = FunctionDefaults.TABLE_FUNCTIONS.contains(name);
        if (!knownShape) {
            cols.set(0, new Col(name, args.refs(), false, null));
        }
        cols = rename(cols, strings(ref.path("column_name_alias")));
        String alias = ref.path("alias").asText("");
        return single(alias.isEmpty() ? name : alias, Optional.empty(), cols);
    }

    From values(JsonNode ref, Scope outer, Ctes env) {
        if (!ref.path("expected_names").isEmpty() || !ref.path("expected_types").isEmpty()) {
            throw construct("Unexpected VALUES form.");
        }
        Scope scope = outer == null ? new Scope(null, From.EMPTY, Map.of()) : outer;
        List<Lineage> byColumn = new ArrayList<>();
        for (JsonNode row : array(ref, "values")) {
            int i = 0;
            for (JsonNode value : row) {
                Lineage l = expressions.expression(value, scope, env);
                if (i < byColumn.size()) {
                    byColumn.set(i, byColumn.get(i).plus(l));
                } else {
                    byColumn.add(l);
                }
                i++;
            }
        }
        List<Col> cols = new ArrayList<>();
        for (int i = 0; i < byColumn.size(); i++) {
            cols.add(Col.derived("col" + i, byColumn.get(i)));
        }
        String alias = ref.path("alias").asText("");
        return single(alias, Optional.empty(), cols);
    }

    /**
     * PIVOT and UNPIVOT in FROM (the statement forms parse to these too). The columns named here
     * are the parse view, for resolving outer names and for the reads DuckDB's plan must agree
     * with: DuckDB plans a PIVOT as an aggregate with one FILTER per value, an UNPIVOT as an unnest.
     */
    From pivot(JsonNode ref, Scope outer, Ctes env) {
        From source = from(field(ref, "source"), outer, env);
        Scope scope = new Scope(outer, source, Map.of());
        List<JsonNode> aggregates = new ArrayList<>();
        array(ref, "aggregates").forEach(aggregates::add);
        List<String> valueNames = strings(ref.path("unpivot_names"));
        List<JsonNode> pivots = new ArrayList<>();
        array(ref, "pivots").forEach(pivots::add);
        if (pivots.size() != 1) {
            throw construct("PIVOT over more than one set of columns is not supported here.");
        }
        JsonNode pivot = pivots.get(0);
        if (!pivot.path("pivot_enum").asText("").isEmpty()) {
            throw construct("PIVOT over an ENUM type is not supported here; list the values with IN (...).");
        }
        List<String> nameColumns = strings(pivot.path("unpivot_names"));
        Set<String> consumed = new LinkedHashSet<>();
        List<Col> out = new ArrayList<>();
        if (aggregates.isEmpty()) {
            // UNPIVOT: the listed columns become one name column and one value column per value name
            Lineage values = Lineage.EMPTY;
            for (JsonNode entry : array(pivot, "entries")) {
                state.visit(entry);
                JsonNode column = field(entry, "star_expr");
                if (!"COLUMN_REF".equals(column.path("class").asText()) || array(entry, "values").iterator().hasNext()) {
                    throw construct("UNPIVOT lists columns by name only here.");
                }
                values = values.plus(expressions.expression(column, scope, env));
                JsonNode parts = column.path("column_names");
                consumed.add(fold(parts.get(parts.size() - 1).asText()));
            }
            if (nameColumns.size() != 1 || valueNames.isEmpty()) {
                throw construct("This UNPIVOT form is not supported here.");
            }
            for (Col col : source.star()) {
                if (!consumed.contains(fold(col.name()))) {
                    out.add(col);
                }
            }
            out.add(Col.derived(nameColumns.get(0), Lineage.EMPTY));
            for (String value : valueNames) {
                out.add(Col.derived(value, values));
            }
        } else {
            if (!valueNames.isEmpty() || !nameColumns.isEmpty()) {
                throw construct("This PIVOT form is not supported here.");
            }
            Lineage pivotLineage = Lineage.EMPTY;
            for (JsonNode e : array(pivot, "pivot_expressions")) {
                pivotLineage = pivotLineage.plus(expressions.expression(e, scope, env));
                if ("COLUMN_REF".equals(e.path("class").asText())) {
                    JsonNode parts = e.path("column_names");
                    consumed.add(fold(parts.get(parts.size() - 1).asText()));
                }
            }
            Lineage aggregated = Lineage.EMPTY;
            List<String> aggregateNames = new ArrayList<>();
            for (JsonNode aggregate : aggregates) {
                aggregated = aggregated.plus(expressions.expression(aggregate, scope, env));
                for (JsonNode argument : array(aggregate, "arguments")) {
                    JsonNode arg = argument.path("expression");
                    if ("COLUMN_REF".equals(arg.path("class").asText())) {
                        JsonNode parts = arg.path("column_names");
                        consumed.add(fold(parts.get(parts.size() - 1).asText()));
                    }
                }
                aggregateNames.add(aggregate.path("alias").asText(""));
            }
            List<String> groups = strings(ref.path("groups"));
            if (groups.isEmpty()) {
                for (Col col : source.star()) {
                    if (!consumed.contains(fold(col.name()))) {
                        state.requireAllowed(col);
                        state.record(col);
                        out.add(col);
                    }
                }
            } else {
                for (String group : groups) {
                    Col col = findColumn(source.star(), fold(group));
                    if (col == null) {
                        throw Refusals.unknownColumn(group);
                    }
                    state.requireNamedVisible(col, List.of(group));
                    state.record(col);
                    out.add(col);
                }
            }
            Lineage values = aggregated.plus(pivotLineage);
            boolean suffixed = aggregates.size() > 1 || aggregateNames.stream().anyMatch(n -> !n.isEmpty());
            for (JsonNode entry : array(pivot, "entries")) {
                state.visit(entry);
                String entryName = entryName(entry, scope, env);
                for (int i = 0; i < aggregates.size(); i++) {
                    String suffix = aggregateNames.get(i).isEmpty() ? aggregates.get(i).path("function_name").asText("") : aggregateNames.get(i);
                    out.add(Col.derived(suffixed ? entryName + "_" + suffix : entryName, values));
                }
            }
        }
        List<Col> cols = rename(out, strings(ref.path("column_name_alias")));
        return single(ref.path("alias").asText(""), Optional.empty(), cols);
    }

    /** The column name a PIVOT value gets: its alias, else its literal text (several joined by '_'). */
    String entryName(JsonNode entry, Scope scope, Ctes env) {
        String alias = entry.path("alias").asText("");
        List<String> texts = new ArrayList<>();
        List<JsonNode> values = new ArrayList<>();
        JsonNode star = entry.get("star_expr");
        if (star != null && !star.isNull()) {
            values.add(star);
        }
        for (JsonNode value : array(entry, "values")) {
            if (value.isObject()) {
                values.add(value);
            } else {
                state.visitSubtree(value);
                texts.add(value.path("value").asText(value.asText()));
            }
        }
        for (JsonNode value : values) {
            if (!"CONSTANT".equals(value.path("class").asText())) {
                throw construct("PIVOT ... IN lists constants only here.");
            }
            expressions.expression(value, scope, env);
            texts.add(value.path("literal").path("text").asText(""));
        }
        return alias.isEmpty() ? String.join("_", texts) : alias;
    }

    /** SHOW, DESCRIBE and SUMMARIZE: schema inspection of allowlisted tables and checked queries. */
    From show(JsonNode ref, Scope outer, Ctes env) {
        if (state.governed.active()) {
            // SUMMARIZE computes over every row, and the listings are not filtered per caller
            throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED,
                    "SHOW, DESCRIBE and SUMMARIZE are not allowed on this source, whose rows are filtered per caller.");
        }
        String showType = text(ref, "show_type");
        String tableName = ref.path("table_name").asText("");
        JsonNode query = ref.get("query");
        boolean wholeTable = "SUMMARY".equals(showType) && (query == null || query.isNull() || isWholeTable(query));
        state.inspection = wholeTable ? Inspection.SUMMARY_OF_TABLE : Inspection.SCHEMA;
        if (wholeTable) {
            // DuckDB's program for it is planned alone and recognised in the statement's plan
            JsonNode named = query == null || query.isNull() ? ref : query.path("from_table");
            state.catalog.find(named.path("catalog_name").asText(""), named.path("schema_name").asText(""),
                    named.path("table_name").asText("")).ifPresent(state.summarized::add);
        }
        List<Col> inspected;
        if (query != null && !query.isNull()) {
            inspected = queries.node(query, outer, env);
        } else if ("SHOW_SPECIAL".equals(showType)) {
            if (state.restricted) {
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED,
                        "Listing every table is not allowed for this source; ask for the allowlisted schema instead.");
            }
            if ("\"tables\"".equals(tableName)) {
                return single("", Optional.empty(), metadata("name"));
            }
            if ("__show_tables_expanded".equals(tableName)) {
                return single("", Optional.empty(),
                        metadata("database", "schema", "name", "column_names", "column_types", "temporary"));
            }
            throw construct("This SHOW form is not supported here.");
        } else {
            Optional<DuckDbCatalog.Table> table = state.catalog.find(ref.path("catalog_name").asText(""),
                    ref.path("schema_name").asText(""), tableName);
            if (table.isEmpty() || !state.catalog.allowsTable(table.get())) {
                throw Refusals.unknownTable(tableName);
            }
            state.tables.add(table.get().ref());
            inspected = new ArrayList<>();
            for (DuckDbCatalog.Column column : table.get().columns()) {
                inspected.add(new Col(column.name(), Set.of(new ColumnRef(table.get().ref(), column.name())), true, table.get()));
            }
        }
        for (Col col : inspected) {
            state.requireAllowed(col);
        }
        switch (showType) {
            case "SHOW", "DESCRIBE" -> {
                return single("", Optional.empty(), metadata("column_name", "column_type", "null", "key", "default", "extra"));
            }
            case "SUMMARY" -> {
                Lineage all = Lineage.EMPTY;
                for (Col col : inspected) {
                    all = all.plus(Lineage.of(col));
                }
                List<Col> cols = new ArrayList<>(metadata("column_name", "column_type"));
                for (String stat : SUMMARY_STATS) {
                    cols.add(Col.derived(stat, all)); // every statistic derives from the values summarized
                }
                return single("", Optional.empty(), cols);
            }
            default -> throw construct("This SHOW form is not supported here.");
        }
    }

    /** Whether a query node is exactly {@code SELECT * FROM <table>} (how DuckDB parses SUMMARIZE of a table). */
    static boolean isWholeTable(JsonNode query) {
        JsonNode list = query.path("select_list");
        JsonNode from = query.path("from_table");
        return "SELECT_NODE".equals(query.path("type").asText()) && list.size() == 1
                && "STAR".equals(list.get(0).path("class").asText()) && list.get(0).path("relation_name").asText("").isEmpty()
                && list.get(0).path("exclude_list").isEmpty() && list.get(0).path("replace_list").isEmpty()
                && list.get(0).path("rename_list").isEmpty() && !list.get(0).path("columns").asBoolean(false)
                && (list.get(0).get("expr") == null || list.get(0).get("expr").isNull())
                && "BASE_TABLE".equals(from.path("type").asText()) && from.path("column_name_alias").isEmpty()
                && query.path("modifiers").isEmpty() && query.path("cte_map").path("map").isEmpty()
                && query.path("group_expressions").isEmpty() && isNullField(query, "where_clause")
                && isNullField(query, "having") && isNullField(query, "qualify") && isNullField(query, "sample")
                && isNullField(from, "sample") && isNullField(from, "at_clause");
    }

    void sample(JsonNode sample) {
        if (sample == null || sample.isNull()) {
            return;
        }
        Set<String> known = Set.of("sample_size", "is_percentage", "method", "seed", "repeatable", "sample_rate");
        for (Iterator<String> it = sample.fieldNames(); it.hasNext(); ) {
            if (!known.contains(it.next())) {
                throw construct("Unexpected SAMPLE form.");
            }
        }
        JsonNode size = field(sample, "sample_size");
        if (!size.path("value").isNumber()) {
            throw construct("Unexpected SAMPLE form.");
        }
        state.visitSubtree(sample);
    }
}
