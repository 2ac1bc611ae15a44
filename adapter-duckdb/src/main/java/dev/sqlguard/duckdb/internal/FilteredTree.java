package dev.sqlguard.duckdb.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.Bindings;

/**
 * The tree that runs on a source with a row policy (multi-tenancy): the checked tree with each reference
 * that the checker resolved to a governed catalog table (never a WITH query of that name) replaced by the
 * derived table {@code (SELECT <columns, masked> FROM "db"."schema"."table" WHERE (<filter>)) AS <alias or
 * table name>}, and each column reference qualified with a schema ({@code main.claims.id}) through such a
 * table named by that alias alone. Attribute placeholders become DuckDB parameters numbered after the
 * caller's ({@code $n+1, ...}, one number per attribute), listed in that order in the {@link Bindings}.
 * The subtrees of the derived tables are DuckDB's own parse of their text ({@link GovernedTables#derivedTree}),
 * so the filter cannot reach out of its node.
 */
final class FilteredTree {
    /**
     * A tree to render and run.
     *
     * @param statement the row-bound wrapper around the rewritten query ({@code {"node": ..., "named_param_map": ...}})
     * @param bindings the caller's parameters, then the attributes, in parameter-number order
     * @param filtered the filtered tables the tree reads (each scan of them must be under its filter)
     * @param parameters every parameter number the rendered text holds
     */
    record Built(JsonNode statement, Bindings bindings, Set<DuckDbCatalog.Table> filtered, Set<String> parameters) {
    }

    private final GovernedTables governed;
    private final TreeChecker.Result result;
    private final Map<DuckDbCatalog.Table, JsonNode> derived = new LinkedHashMap<>();

    private FilteredTree(GovernedTables governed, TreeChecker.Result result) {
        this.governed = governed;
        this.result = result;
    }

    /**
     * The filtered form of {@code wrapper} (the row-bound wrapper whose inner query is {@code checkedNode}, the
     * node {@code result} describes), or empty when the query reads no governed table.
     */
    static Optional<Built> build(JsonNode wrapper, JsonNode checkedNode, TreeChecker.Result result, GovernedTables governed,
                                 DuckDbParser parser, String database) {
        FilteredTree tree = new FilteredTree(governed, result);
        List<DuckDbCatalog.Table> tables = tree.governedReferences(checkedNode, new ArrayList<>());
        if (tables.isEmpty()) {
            return Optional.empty();
        }
        int callerParameters = result.parameterCount();
        Map<String, Integer> numbers = new LinkedHashMap<>();
        for (DuckDbCatalog.Table table : tables) {
            for (String attribute : governed.of(table).orElseThrow().attributes()) {
                numbers.putIfAbsent(attribute, callerParameters + numbers.size() + 1);
            }
        }
        Set<DuckDbCatalog.Table> filtered = new LinkedHashSet<>();
        for (DuckDbCatalog.Table table : tables) {
            GovernedTables.Governed g = governed.of(table).orElseThrow();
            if (tree.derived.containsKey(table)) {
                continue;
            }
            tree.derived.put(table, governed.derivedTree(g, database, numbers, parser));
            if (g.filter().isPresent()) {
                filtered.add(table);
            }
        }
        ObjectNode statement = (ObjectNode) wrapper.deepCopy();
        ObjectNode subquery = (ObjectNode) statement.path("node").path("from_table").path("subquery");
        subquery.set("node", tree.rewrite(checkedNode));
        Set<String> parameters = new TreeSet<>();
        ArrayNode map = (ArrayNode) statement.path("named_param_map");
        for (JsonNode entry : map) {
            parameters.add(entry.path("key").asText(""));
        }
        for (int number : numbers.values()) {
            map.addObject().put("key", Integer.toString(number)).put("value", number);
            parameters.add(Integer.toString(number));
        }
        Bindings.Builder bindings = Bindings.builder();
        for (int i = 0; i < callerParameters; i++) {
            bindings.parameter();
        }
        numbers.keySet().forEach(bindings::attribute);
        return Optional.of(new Built(statement, bindings.build(), filtered, parameters));
    }

    /** The governed tables of the base-table references under {@code node}, in document order, each time it is named. */
    private List<DuckDbCatalog.Table> governedReferences(JsonNode node, List<DuckDbCatalog.Table> out) {
        if (node.isObject()) {
            DuckDbCatalog.Table table = result.baseTables().get(node);
            if (table != null && governed.of(table).isPresent()) {
                out.add(table);
            }
        }
        for (JsonNode child : node) {
            if (child.isContainerNode()) {
                governedReferences(child, out);
            }
        }
        return out;
    }

    /** A copy of {@code node} with each governed reference a derived table, and each schema-qualified column through one renamed. */
    private JsonNode rewrite(JsonNode node) {
        if (node instanceof ObjectNode object) {
            DuckDbCatalog.Table table = result.baseTables().get(node);
            if (table != null && derived.containsKey(table)) {
                return derivedTable(object, table);
            }
            CheckState.QualifiedColumn qualified = result.qualifiedColumns().get(node);
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                copy.set(field.getKey(), rewrite(field.getValue()));
            }
            if (qualified != null && derived.containsKey(qualified.table())) {
                ArrayNode names = copy.putArray("column_names");
                names.add(qualified.table().name());
                JsonNode original = object.path("column_names");
                for (int i = qualified.prefix(); i < original.size(); i++) {
                    names.add(original.get(i));
                }
            }
            return copy;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            for (JsonNode element : array) {
                copy.add(rewrite(element));
            }
            return copy;
        }
        return node;
    }

    /** The {@code SUBQUERY} reference that replaces a {@code BASE_TABLE} one: same alias (or the table's name), sample and column aliases. */
    private JsonNode derivedTable(ObjectNode ref, DuckDbCatalog.Table table) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("type", "SUBQUERY");
        String alias = ref.path("alias").asText("");
        out.put("alias", alias.isEmpty() ? table.name() : alias);
        out.set("sample", ref.path("sample").isMissingNode() ? JsonNodeFactory.instance.nullNode() : ref.get("sample").deepCopy());
        out.set("query_location", ref.path("query_location"));
        out.set("query_location_length", ref.path("query_location_length"));
        ObjectNode subquery = out.putObject("subquery");
        subquery.set("node", derived.get(table).deepCopy());
        subquery.putArray("named_param_map");
        out.set("column_name_alias", ref.path("column_name_alias").isMissingNode()
                ? JsonNodeFactory.instance.arrayNode() : ref.get("column_name_alias").deepCopy());
        return out;
    }

    /**
     * Whether DuckDB's parse of the rendered text is exactly the built tree (source positions aside) with
     * exactly the parameters it was built with, up to two forms DuckDB 2.0 renders as another text of the same
     * query ({@link #canonical}).
     */
    static boolean parsesTo(JsonNode parsed, Built built) {
        Set<String> keys = new TreeSet<>();
        for (JsonNode entry : parsed.path("named_param_map")) {
            keys.add(entry.path("key").asText(""));
        }
        return keys.equals(built.parameters())
                && DuckDbValidator.sameTree(canonical(parsed.path("node")), canonical(built.statement().path("node")), true);
    }

    /** The functions DuckDB's parser makes of {@code LIKE ... ESCAPE} and its variants. */
    private static final Set<String> ESCAPE_FORMS = Set.of("like_escape", "not_like_escape", "ilike_escape", "not_ilike_escape");

    /**
     * A copy of a parse tree in which the forms that DuckDB 2.0 renders as another text of the same query read
     * alike (measured with {@code json_deserialize_sql}, each a tenant-oracle refusal of honest SQL before):
     * <ul>
     *   <li>{@code x LIKE p ESCAPE e} is the call {@code like_escape(x, p, e)} marked as an operator, rendered as the
     *       call, which parses unmarked: the mark is dropped (the same function binds either way);
     *   <li>a {@code VALUES} list in FROM is parsed as {@code SELECT * FROM (VALUES ...) AS valueslist} and rendered
     *       so, which parses as that select over another such wrapper: {@code SELECT *} over a subquery
     *       {@code valueslist} that is itself {@code SELECT *} over the list, with no clause of its own, is that
     *       subquery.
     * </ul>
     */
    static JsonNode canonical(JsonNode node) {
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            node.forEach(element -> out.add(canonical(element)));
            return out;
        }
        if (!node.isObject()) {
            return node;
        }
        if ("SELECT_NODE".equals(node.path("type").asText()) && wrapsValuesWrapper(node)) {
            return canonical(node.path("from_table").path("subquery").path("node"));
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (java.util.Map.Entry<String, JsonNode> field : node.properties()) {
            out.set(field.getKey(), canonical(field.getValue()));
        }
        if ("FUNCTION".equals(node.path("class").asText()) && ESCAPE_FORMS.contains(node.path("function_name").asText())
                && node.path("schema").asText().isEmpty() && node.path("catalog").asText().isEmpty()) {
            out.put("is_operator", false);
        }
        return out;
    }

    /** Whether {@code select} is {@code SELECT *} with no clause over a subquery {@code valueslist} that is {@code SELECT *} over a VALUES list. */
    private static boolean wrapsValuesWrapper(JsonNode select) {
        JsonNode from = select.path("from_table");
        JsonNode inner = from.path("subquery").path("node");
        if (!"SUBQUERY".equals(from.path("type").asText()) || !"valueslist".equals(from.path("alias").asText())
                || from.path("column_name_alias").size() != 0 || !(from.path("sample").isNull() || from.path("sample").isMissingNode())
                || !"SELECT_NODE".equals(inner.path("type").asText())
                || !"EXPRESSION_LIST".equals(inner.path("from_table").path("type").asText())) {
            return false;
        }
        ObjectNode outerClauses = ((ObjectNode) select).deepCopy();
        ObjectNode innerClauses = ((ObjectNode) inner).deepCopy();
        outerClauses.remove("from_table");
        innerClauses.remove("from_table");
        return DuckDbValidator.sameTree(outerClauses, innerClauses);
    }
}
