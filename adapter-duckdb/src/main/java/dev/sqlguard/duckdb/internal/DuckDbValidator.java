package dev.sqlguard.duckdb.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.Bindings;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Parameters;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.port.RecordedFacts;
import dev.sqlguard.domain.port.StatementValidator;

/**
 * Checks model SQL in two passes, both DuckDB's own. First DuckDB's parse tree, before anything
 * binds or prepares the text: exactly one SELECT, allowlisted tables and columns, functions and table
 * functions the policy's decision allows ({@link dev.sqlguard.domain.GuardrailPolicy#requireFunction},
 * asked here because binding can touch files), supported constructs (nothing binds a statement that
 * has not passed this gate). Then DuckDB's bound plan of the exact text that will run (DuckDB's
 * rendering of the checked tree, wrapped in a row bound): what DuckDB itself reads, where each
 * column's value is used and through which functions, each output's lineage, every amplifying call.
 * The plan is the reference: names the parse tree did not see DuckDB read (a bare table name is a
 * whole row, an alias shadows a column in ORDER BY) are refused, and the policy decides on the
 * plan's facts, among them the functions and table functions the query calls (the bound plan's own
 * calls, operators included, are each checked for a cost class). Each output the policy redacts is masked in the wrapper ({@link #isMaskedWrapperAround}),
 * so its values never leave DuckDB.
 *
 * <p>On a source with a row policy (multi-tenancy), the facts stay those of the query as written, and the text
 * that runs is rendered last from the checked tree with each reference to a governed table as its derived
 * table ({@link FilteredTree}), attributes bound as parameters after the caller's; it runs only if DuckDB parses
 * it back to exactly that tree and its bound plan scans each filtered table only below a filter. Thread-safe;
 * plans are reused by the engine's {@link dev.sqlguard.domain.port.CachingValidator}.
 */
public final class DuckDbValidator implements StatementValidator {
    static final String RESULT_ALIAS = "sqlguard_result";

    private final String sourceId;
    private final GuardrailPolicy policy;
    private final DuckDbCatalog catalog;
    private final DuckDbParser parser;
    private final GovernedTables governed;

    DuckDbValidator(String sourceId, GuardrailPolicy policy, DuckDbCatalog catalog, DuckDbParser parser, GovernedTables governed) {
        this.sourceId = requireNonNull(sourceId, "sourceId is null");
        this.governed = requireNonNull(governed, "governed is null");
        this.policy = requireNonNull(policy, "policy is null").orEngineFunctions(FunctionDefaults.CLASSES);
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.parser = requireNonNull(parser, "parser is null");
    }

    @Override
    public QueryPlan validate(QueryRequest request) {
        QueryPlan plan;
        try {
            plan = plan(request.sql(), request.params().size());
        } catch (StackOverflowError e) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query is nested too deeply.");
        }
        return plan.withParameters(request.params());
    }

    private QueryPlan plan(String sql, int values) {
        LeadingPragma.requireNoLeadingPragma(sql);
        // The text as written inside the row bound is parsed in the same call as the text: when DuckDB
        // parses it to exactly the wrapper around the checked tree, it means what was checked and runs
        // as written, and rendering the tree and parsing the rendering are saved.
        // A statement-ending ';' (and what follows it on the line: blanks) cannot stand inside the
        // wrapper; without it the text as written usually parses to the checked tree, so the SQL that
        // runs keeps the shape it was written in instead of DuckDB's rendering (count(*) as count_star()).
        String executable = wrapText(withoutStatementEnd(sql));
        String[] trees = parser.serializeTexts(sql, executable);
        JsonNode statement = single(DuckDbParser.parse(trees[0]));
        TreeChecker.Result result = checker().check(statement);
        // a wrong count is refused as such before DuckDB binds the text, which can fail first for
        // the same cause (the type of ? + ? comes from its values): one cause, one code on every engine
        Parameters.requireCount(result.parameterCount(), values);
        for (Map.Entry<JsonNode, JsonNode> item : result.relabelled().entrySet()) {
            ((ObjectNode) item.getKey()).put("alias", label(item.getValue()));
        }
        int bound = policy.limits().maxRows() + 1;
        JsonNode parsed = DuckDbParser.parse(trees[1]);
        JsonNode wrapped;
        if (isWrapperAround(parsed, statement)) {
            wrapped = parsed.path("statements").get(0);
        } else {
            executable = wrap(statement);
            wrapped = single(parser.serialize(executable));
        }
        if (!isWrapper(wrapped, bound)) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "The query cannot be executed exactly as checked; simplify it.");
        }
        JsonNode inner = wrapped.path("node").path("from_table").path("subquery");
        JsonNode checkedNode = statement.path("node"); // the tree whose nodes the result's references are
        // an alias DuckDB cannot bind is a fact of the text as written: the tree that runs holds the alias's expression
        // in its place, so its own check cannot see it (probe seed 4840: a WHERE with LIKE ... ESCAPE, which DuckDB
        // renders in another form, made the tree that runs the one checked, and the refusal was lost)
        boolean unbindableAsWritten = result.unbindableAlias();
        if (!sameTree(inner.path("node"), statement.path("node"), true)) {
            // DuckDB rendered the tree in another form (e.g. VALUES as a subquery): check the tree
            // of the text that will run, which is what the plan then describes. (A star's qualified
            // EXCLUDE list is a set to DuckDB, which renders it in its own order: the checker's list in
            // another order is the same tree.)
            result = checker().check(inner);
            checkedNode = inner.path("node");
        }
        List<String> names = new ArrayList<>();
        result.outputs().forEach(o -> names.add(o.name()));
        List<JsonNode> summaries = new ArrayList<>();
        for (DuckDbCatalog.Table table : result.summarized()) {
            summaries.add(parser.plan(BoundPlanReader.summaryStatement(table)));
        }
        if (unbindableAsWritten || result.unbindableAlias()) {
            // DuckDB binds no alias of an expression holding a subquery in the select list or ORDER BY, nor a subquery's
            // name it reads as a column outside its group: refused as the plan of the text as written is (BoundPlanReader.bindError)
            throw new GuardException(ErrorCode.QUERY_FAILED, "The query could not be bound; check its column names and the types of its operands.");
        }
        JsonNode boundPlan = parser.plan(executable);
        if (result.parameterCount() > 0 && boundPlan.path("error").asBoolean(false)
                && boundPlan.path("error_type").asText("").equals("internal")) {
            // DuckDB cannot serialize the plan of a parameter whose type only its value gives (SELECT ? AS x,
            // range(?), ? + 1, $1 used twice), which raw DuckDB binds when the value comes: plan the same tree
            // with each parameter a NULL literal, which reads the same tables and columns (a value names none)
            boundPlan = parser.plan(renderStatement(withNullParameters(wrapped.deepCopy())));
        }
        PlanFacts facts = new BoundPlanReader(catalog, policy, result.inspection(), executable.length(),
                FixedPrograms.of(summaries)).read(boundPlan, names);
        requireSameReads(result, facts);
        for (JsonNode inspected : inspectedQueries(inner.path("node"), new ArrayList<>())) {
            // DESCRIBE and SHOW of a query plan as constant rows computed from the query's types:
            // bind the query itself, so what it reads (a whole row's hidden columns) is checked too
            String text = render(inspected);
            PlanFacts inspectedFacts = new BoundPlanReader(catalog, policy, Inspection.NONE, text.length())
                    .read(parser.plan(text), null);
            requireSameReads(result, inspectedFacts);
            facts.include(inspectedFacts);
        }
        if (facts.deferred().isPresent()) {
            // a sensitive value in the same place is refused as such first, as the policy would
            dev.sqlguard.domain.SensitiveFlow.check(facts.recorded().uses(), policy::isSensitive);
            throw facts.deferred().get();
        }
        List<Object> placeholders = new ArrayList<>(Collections.nCopies(result.parameterCount(), null));
        RecordedFacts recorded = facts.recorded();
        // (RecordedFacts.outputs() is a new view on each call: whether this is a listing is decided once, not by identity;
        // comparing the lists by identity made every query a listing, so no label was ever masked as such, and a label
        // made sensitive by an alias named in it, rank() OVER (ORDER BY ssn_zz), was refused where its hidden twin ran)
        boolean listing = catalogListing(result, recorded.outputs());
        List<OutputColumn> outputs = listing
                ? recorded.outputs().stream().map(o -> OutputColumn.catalogListing(o.name())).toList() : recorded.outputs();
        // the facts are those of the checked query; the outputs that must not leave the engine are masked around it
        // (by lineage and name, and by the label the caller sees, which DuckDB may have made unique)
        Set<Integer> masked = new TreeSet<>(policy.outputsToMask(outputs));
        Optional<List<String>> labels = labels(boundPlan, outputs.size());
        labels.filter(all -> !listing).ifPresent(all -> {
            for (int i = 0; i < all.size(); i++) {
                if (policy.isSensitive(all.get(i))) {
                    masked.add(i);
                }
            }
        });
        // on a source with a row policy, the text that runs reads each governed table through its derived table
        Bindings bindings = Bindings.parameters(result.parameterCount());
        JsonNode runs = wrapped;
        Optional<FilteredTree.Built> filtered = governed.active()
                ? FilteredTree.build(wrapped, checkedNode, result, governed, parser, catalog.database()) : Optional.empty();
        if (filtered.isPresent()) {
            labels.ifPresent(all -> keepLabelsAsWritten(filtered.get().statement(), all));
            executable = renderStatement(filtered.get().statement());
            JsonNode reparsed = parser.serialize(executable);
            if (reparsed.path("error").asBoolean(true) || reparsed.path("statements").size() != 1
                    || !FilteredTree.parsesTo(reparsed.path("statements").get(0), filtered.get())) {
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "The query cannot be executed exactly as checked; simplify it.");
            }
            runs = reparsed.path("statements").get(0);
            bindings = filtered.get().bindings();
        }
        if (!masked.isEmpty()) {
            executable = masked(executable, runs, labels.orElseThrow(DuckDbValidator::cannotMask), masked);
        }
        if (filtered.isPresent()) {
            requireFilteredScans(executable, runs);
        }
        // the caller sees DuckDB's own labels (count(*) is count_star(), not the tree's count_star)
        if (labels.isPresent()) {
            List<OutputColumn> named = new ArrayList<>();
            for (int i = 0; i < outputs.size(); i++) {
                OutputColumn o = outputs.get(i);
                named.add(new OutputColumn(labels.get().get(i), o.lineage(), o.lineageComplete(), o.catalogListing()));
            }
            outputs = named;
        }
        return new QueryPlan(sourceId, sql, executable, placeholders, recorded.tables(), recorded.uses(),
                result.functions(), outputs, recorded.amplifications(), policy.limits(), masked, bindings, Map.of(),
                result.tableFunctions());
    }

    /**
     * DuckDB's own reading of the text that runs: its bound plan must scan each filtered table only as the
     * direct input of a filter (the derived table's WHERE), or the query is refused. The plan of the same tree
     * with NULL in place of each parameter stands in when DuckDB cannot serialize one whose parameter types
     * only the values give.
     */
    private void requireFilteredScans(String executable, JsonNode runs) {
        JsonNode plan = parser.plan(executable);
        if (plan.path("error").asBoolean(false) && "internal".equals(plan.path("error_type").asText(""))) {
            plan = parser.plan(renderStatement(withNullParameters(runs.deepCopy())));
        }
        if (plan.path("error").asBoolean(true)) {
            throw BoundPlanReader.bindError(plan);
        }
        // (a WITH query that nothing reads is not in the plan: a governed table may be named and never scanned)
        boolean[] unfiltered = {false};
        PlanScans.collect(plan.path("plans"), (scan, input) -> {
            Optional<DuckDbCatalog.Table> table = PlanScans.tableOf(scan, catalog);
            if (table.isPresent() && governed.filters(table.get())
                    && (input == null || !"LOGICAL_FILTER".equals(input.path("type").asText()))) {
                unfiltered[0] = true;
            }
        });
        if (unfiltered[0]) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "DuckDB's plan of this query reads a filtered table "
                    + "outside its row filter; simplify the query.");
        }
    }

    /**
     * Whether the outputs are those of a bare catalog listing ({@code SHOW TABLES}, {@code DESCRIBE t}; see
     * {@link TreeChecker#isCatalogListing}): the checker says so and the bound plan agrees that none of them
     * derives from a table's values.
     */
    private static boolean catalogListing(TreeChecker.Result result, List<OutputColumn> outputs) {
        return !result.outputs().isEmpty() && result.outputs().stream().allMatch(OutputColumn::catalogListing)
                && result.outputs().size() == outputs.size()
                && outputs.stream().allMatch(o -> o.lineageComplete() && o.lineage().isEmpty());
    }

    /**
     * The labels the caller sees, as DuckDB binds them: the aliases of the row-bound wrapper's projection
     * in the bound plan ({@code SELECT *} over the derived table gives each output its own name, two
     * outputs named {@code a} coming back as {@code a} and {@code a_1}).
     */
    private static Optional<List<String>> labels(JsonNode boundPlan, int width) {
        JsonNode limit = boundPlan.path("plans").path(0);
        JsonNode projection = limit.path("children").path(0);
        JsonNode expressions = projection.path("expressions");
        if (!"LOGICAL_LIMIT".equals(limit.path("type").asText()) || limit.path("children").size() != 1
                || !"LOGICAL_PROJECTION".equals(projection.path("type").asText()) || expressions.size() != width) {
            return Optional.empty();
        }
        List<String> out = new ArrayList<>();
        for (JsonNode e : expressions) {
            JsonNode alias = e.get("alias");
            if (alias == null || !alias.isTextual() || alias.asText().isEmpty()) {
                return Optional.empty();
            }
            out.add(alias.asText());
        }
        return Optional.of(out);
    }

    /**
     * Gives each unaliased item of the filtered statement's select list the label DuckDB gives it as written: DuckDB
     * labels an item without an alias by its text, which in the filtered statement holds the derived tables (a subquery
     * over {@code claims} came back labelled with {@code (SELECT id, ..., ssn FROM "data".main.claims WHERE (region =
     * $1))}, which told the caller the filter and had the output redacted by the name in it; tenant seeds 2679, 2842).
     * The select list that labels the outputs is that of the query, or of the first SELECT of a set operation. One star
     * in it stands for as many labels as the others leave (tenant seed 1458 of the fourth wave, {@code SELECT s2.*,
     * 'APPROVED' IN (SELECT c8.status FROM claims c8 ...)}); with two stars the split is unknown and DuckDB's labels stay.
     */
    private static void keepLabelsAsWritten(JsonNode statement, List<String> labels) {
        JsonNode inner = statement.path("node").path("from_table").path("subquery").path("node");
        while ("SET_OPERATION_NODE".equals(inner.path("type").asText())) {
            inner = inner.path("left").isObject() ? inner.path("left") : inner.path("children").path(0);
        }
        JsonNode items = inner.path("select_list");
        if (!"SELECT_NODE".equals(inner.path("type").asText()) || !items.isArray()) {
            return;
        }
        int stars = 0;
        for (JsonNode item : items) {
            if ("STAR".equals(item.path("class").asText())) {
                stars++;
            }
        }
        int expansion = labels.size() - (items.size() - stars);
        if (stars > 1 || (stars == 0 && expansion != 0) || expansion < 0) {
            return;
        }
        int position = 0;
        for (JsonNode item : items) {
            if ("STAR".equals(item.path("class").asText())) {
                position += expansion;
                continue;
            }
            if (item.path("alias").asText("").isEmpty()) {
                ((ObjectNode) item).put("alias", labels.get(position));
            }
            position++;
        }
    }

    /** Where DuckDB's reading of the outputs cannot be masked exactly: the output is refused, never sent. */
    private static GuardException cannotMask() {
        return new GuardException(ErrorCode.SENSITIVE_OUTPUT_NOT_MASKED, "A sensitive output could not be masked inside the engine; "
                + "give the outputs plain, distinct names, or leave the sensitive one out.");
    }

    /**
     * The row-bound wrapper with each masked output replaced by a constant of its type under its own label:
     * {@code SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result."label" END AS "label", ...) FROM (...)
     * AS sqlguard_result LIMIT n}. The replacement comes after the query's own DISTINCT, grouping, ordering
     * and set operations, one row out per row in, in order; DuckDB folds the never-true branch to a NULL of
     * the column's type, so no byte of the value leaves the engine. The text is parsed again and runs only
     * as exactly that masked wrapper around the checked tree ({@link #isMaskedWrapperAround}).
     */
    private String masked(String executable, JsonNode wrapped, List<String> labels, Set<Integer> masked) {
        String prefix = "SELECT * FROM (";
        if (!executable.startsWith(prefix)) {
            throw new IllegalStateException("not the row-bound wrapper");
        }
        List<String> replaced = new ArrayList<>();
        List<String> items = new ArrayList<>();
        for (int i : masked) {
            String label = DuckDbCatalog.quote(labels.get(i));
            replaced.add(labels.get(i));
            items.add("CASE WHEN 1 = 0 THEN " + RESULT_ALIAS + "." + label + " END AS " + label);
        }
        String text = "SELECT * REPLACE (" + String.join(", ", items) + ") FROM (" + executable.substring(prefix.length());
        JsonNode parsed = parser.serialize(text);
        if (parsed.path("error").asBoolean(true) || parsed.path("statements").size() != 1
                || !isMaskedWrapperAround(parsed.path("statements").get(0), wrapped, replaced)) {
            throw cannotMask();
        }
        return text;
    }

    /**
     * Whether {@code statement} is exactly {@code wrapper} (a row-bound wrapper, as {@link #isWrapper}
     * accepts it) with a star {@code REPLACE} list that masks the outputs labelled {@code labels}, in
     * this order, each as {@code CASE WHEN 1 = 0 THEN sqlguard_result."label" END}, and nothing else.
     */
    static boolean isMaskedWrapperAround(JsonNode statement, JsonNode wrapper, List<String> labels) {
        JsonNode star = statement.path("node").path("select_list").path(0);
        JsonNode replace = star.path("replace_list");
        if (!star.isObject() || !replace.isArray() || replace.size() != labels.size() || labels.isEmpty()) {
            return false;
        }
        for (int i = 0; i < labels.size(); i++) {
            JsonNode entry = replace.get(i);
            if (entry.size() != 2 || !labels.get(i).equals(entry.path("key").asText(null)) || !isMask(entry.path("value"), labels.get(i))) {
                return false;
            }
        }
        JsonNode unmasked = statement.deepCopy();
        ((ObjectNode) unmasked.path("node").path("select_list").get(0)).putArray("replace_list");
        return sameTree(unmasked, wrapper);
    }

    /** {@code CASE WHEN 1 = 0 THEN sqlguard_result."label" END}, as DuckDB parses it. */
    private static boolean isMask(JsonNode value, String label) {
        JsonNode checks = value.path("case_checks");
        if (!"CASE".equals(value.path("class").asText()) || !value.path("alias").asText("x").isEmpty() || checks.size() != 1
                || !"NULL_LITERAL".equals(value.path("else_expr").path("literal").path("kind").asText())
                || !"CONSTANT".equals(value.path("else_expr").path("class").asText())) {
            return false;
        }
        JsonNode when = checks.get(0).path("when_expr");
        JsonNode then = checks.get(0).path("then_expr");
        return "COMPARE_EQUAL".equals(when.path("type").asText()) && "COMPARISON".equals(when.path("class").asText())
                && isInteger(when.path("left"), "1") && isInteger(when.path("right"), "0")
                && "COLUMN_REF".equals(then.path("class").asText()) && then.path("alias").asText("x").isEmpty()
                && then.path("column_names").size() == 2 && RESULT_ALIAS.equals(then.path("column_names").get(0).asText(null))
                && label.equals(then.path("column_names").get(1).asText(null));
    }

    private static boolean isInteger(JsonNode constant, String text) {
        return "CONSTANT".equals(constant.path("class").asText()) && constant.path("alias").asText("x").isEmpty()
                && "INTEGER".equals(constant.path("literal").path("kind").asText()) && text.equals(constant.path("literal").path("text").asText());
    }

    /**
     * Refuses a statement whose bound plan reads a base table or column its parse tree does not name:
     * DuckDB resolved a name differently from how it reads (a bare table or alias name is its whole
     * row; in ORDER BY, HAVING, QUALIFY and DISTINCT ON a select-list alias comes before a column).
     */
    private static void requireSameReads(TreeChecker.Result parsed, PlanFacts bound) {
        if (!parsed.tables().containsAll(bound.recorded().tables()) || !parsed.columns().containsAll(bound.reads())) {
            throw new GuardException(ErrorCode.COLUMN_NOT_ALLOWED, "DuckDB reads a name in this query differently from "
                    + "how it is written (a bare table or alias name stands for its whole row; an output alias can "
                    + "shadow a column); qualify each column with its table alias and give outputs distinct names.");
        }
    }

    /** The query nodes of every SHOW_REF (DESCRIBE, SHOW, SUMMARIZE of a query) in a tree. */
    private static List<JsonNode> inspectedQueries(JsonNode node, List<JsonNode> out) {
        if (node.isObject() && "SHOW_REF".equals(node.path("type").asText()) && node.path("query").isObject()) {
            out.add(node.path("query"));
        }
        for (JsonNode child : node) {
            if (child.isContainerNode()) {
                inspectedQueries(child, out);
            }
        }
        return out;
    }

    /** {@code node} with every parameter replaced by a NULL literal in its place and with its alias. */
    private static JsonNode withNullParameters(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if ("PARAMETER".equals(object.path("class").asText())) {
                ObjectNode constant = JsonNodeFactory.instance.objectNode();
                constant.put("class", "CONSTANT");
                constant.put("type", "VALUE_CONSTANT");
                constant.set("alias", object.path("alias"));
                constant.set("query_location", object.path("query_location"));
                constant.putObject("literal").put("kind", "NULL_LITERAL").put("text", "");
                return constant;
            }
            if (object.has("named_param_map")) {
                object.putArray("named_param_map");
            }
            for (java.util.Map.Entry<String, JsonNode> e : new ArrayList<>(object.properties())) {
                object.set(e.getKey(), withNullParameters(e.getValue()));
            }
            return object;
        }
        if (node instanceof com.fasterxml.jackson.databind.node.ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, withNullParameters(array.get(i)));
            }
        }
        return node;
    }

    /**
     * The label DuckDB gives a select item without an alias: its rendering of the expression as written (measured on
     * DuckDB 2.0.0: {@code SELECT <item>} renders as {@code SELECT } and the item's text).
     */
    private String label(JsonNode expression) {
        JsonNode statement = single(parser.serialize("SELECT 1"));
        ((com.fasterxml.jackson.databind.node.ArrayNode) statement.path("node").path("select_list")).set(0, expression);
        String text = renderStatement(statement);
        if (!text.startsWith("SELECT ")) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "The query cannot be executed exactly as checked; simplify it.");
        }
        return text.substring("SELECT ".length());
    }

    /** DuckDB's rendering of one query node as a statement. */
    private String render(JsonNode queryNode) {
        ObjectNode statement = JsonNodeFactory.instance.objectNode();
        statement.set("node", queryNode);
        statement.putArray("named_param_map");
        return renderStatement(statement);
    }

    /** DuckDB's rendering of one statement tree ({@code {"node": ..., "named_param_map": ...}}). */
    private String renderStatement(JsonNode statement) {
        ObjectNode document = JsonNodeFactory.instance.objectNode();
        document.put("error", false);
        document.putArray("statements").add(statement);
        return parser.deserialize(DuckDbParser.write(document));
    }

    /** Exactly one SELECT statement of DuckDB's tree, or a refusal with the matching code. */
    static JsonNode single(JsonNode tree) {
        if (tree.path("error").asBoolean(true)) {
            String type = tree.path("error_type").asText("");
            String message = tree.path("error_message").asText("");
            if (message.contains("Only SELECT statements")) {
                throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED);
            }
            if (message.contains("expression depth")) {
                throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query is nested too deeply.");
            }
            if ("parser".equals(type)) {
                String position = tree.path("position").asText("");
                throw new GuardException(ErrorCode.SYNTAX_ERROR, position.matches("[0-9]{1,7}")
                        ? "The SQL could not be parsed near character " + position + "; check it against DuckDB's SQL syntax."
                        : "The SQL could not be parsed; check it against DuckDB's SQL syntax.");
            }
            throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED);
        }
        JsonNode statements = tree.path("statements");
        if (!statements.isArray() || statements.isEmpty()) {
            throw new GuardException(ErrorCode.EMPTY_QUERY);
        }
        if (statements.size() > 1) {
            throw new GuardException(ErrorCode.MULTIPLE_STATEMENTS,
                    "The SQL holds " + statements.size() + " statements; send exactly one SELECT.");
        }
        return statements.get(0);
    }

    private TreeChecker checker() {
        return new TreeChecker(catalog, policy, policy.tables().restricted(), policy.limits(), governed);
    }

    /**
     * The text to run: DuckDB's rendering of the checked tree inside
     * {@code SELECT * FROM (...) AS sqlguard_result LIMIT n}. The caller parses it again and
     * accepts it only as that wrapper around a tree that passes the checks.
     */
    private String wrap(JsonNode statement) {
        return wrapText(renderStatement(statement));
    }

    /**
     * {@code SELECT * FROM (<text>) AS sqlguard_result LIMIT n}, with a line break before the closing
     * parenthesis when the text may end in a line comment, which would otherwise swallow the
     * wrapper's end. (Whatever the text holds, the caller accepts the result only if DuckDB parses it
     * to exactly the wrapper around the checked tree.)
     */
    private String wrapText(String text) {
        return "SELECT * FROM (" + text + (text.contains("--") ? "\n" : "") + ") AS " + RESULT_ALIAS
                + " LIMIT " + (policy.limits().maxRows() + 1);
    }

    /**
     * Whether DuckDB's parse of a text is one statement, exactly this validator's row-bound wrapper
     * around {@code checked}'s query node, with no named parameter of its own.
     */
    private boolean isWrapperAround(JsonNode parsed, JsonNode checked) {
        if (parsed.path("error").asBoolean(true) || parsed.path("statements").size() != 1) {
            return false;
        }
        JsonNode statement = parsed.path("statements").get(0);
        return isWrapperAround(statement, checked.path("node"), policy.limits().maxRows() + 1)
                && sameTree(statement.path("named_param_map"), checked.path("named_param_map"));
    }

    /** Whether {@code statement} is exactly the row-bound wrapper around {@code checkedNode}. */
    static boolean isWrapperAround(JsonNode statement, JsonNode checkedNode, int bound) {
        return isWrapper(statement, bound)
                && sameTree(statement.path("node").path("from_table").path("subquery").path("node"), checkedNode);
    }

    /** Whether {@code statement} is {@code SELECT * FROM (<one query>) AS sqlguard_result LIMIT bound} and nothing else. */
    static boolean isWrapper(JsonNode statement, int bound) {
        JsonNode node = statement.path("node");
        if (!"SELECT_NODE".equals(node.path("type").asText()) || !node.path("cte_map").path("map").isEmpty()
                || node.path("select_list").size() != 1 || !isNull(node, "where_clause") || !isNull(node, "having")
                || !isNull(node, "qualify") || !isNull(node, "sample") || !node.path("group_expressions").isEmpty()) {
            return false;
        }
        JsonNode star = node.path("select_list").get(0);
        if (!"STAR".equals(star.path("class").asText()) || !star.path("relation_name").asText().isEmpty()
                || star.path("columns").asBoolean(true) || !star.path("exclude_list").isEmpty()
                || !star.path("replace_list").isEmpty() || !star.path("rename_list").isEmpty()) {
            return false;
        }
        JsonNode modifiers = node.path("modifiers");
        if (modifiers.size() != 1) {
            return false;
        }
        JsonNode limit = modifiers.get(0);
        if (!"LIMIT_MODIFIER".equals(limit.path("type").asText()) || !isNull(limit, "offset")
                || !"CONSTANT".equals(limit.path("limit").path("class").asText())
                || !Integer.toString(bound).equals(limit.path("limit").path("literal").path("text").asText())) {
            return false;
        }
        JsonNode from = node.path("from_table");
        return "SUBQUERY".equals(from.path("type").asText()) && RESULT_ALIAS.equals(from.path("alias").asText())
                && isNull(from, "sample") && from.path("column_name_alias").isEmpty()
                && from.path("subquery").path("node").isObject();
    }

    private static boolean isNull(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull();
    }

    /** Structural equality that ignores DuckDB's source positions. */
    static boolean sameTree(JsonNode a, JsonNode b) {
        return sameTree(a, b, false);
    }

    /**
     * Structural equality that ignores DuckDB's source positions and, when {@code excludeSets}, the order
     * of a star's {@code qualified_exclude_list} (DuckDB keeps it as a set: measured on DuckDB 2.0.0,
     * {@code * EXCLUDE (a.ssn, b.ssn)} is rendered back as {@code * EXCLUDE (b.ssn, a.ssn)}).
     */
    static boolean sameTree(JsonNode a, JsonNode b, boolean excludeSets) {
        if (a.isObject() && b.isObject()) {
            Iterator<String> names = a.fieldNames();
            int count = 0;
            while (names.hasNext()) {
                String name = names.next();
                if (isLocation(name)) {
                    continue;
                }
                count++;
                JsonNode other = b.get(name);
                if (other == null) {
                    return false;
                }
                boolean same = excludeSets && "qualified_exclude_list".equals(name)
                        ? sameSet(a.get(name), other) : sameTree(a.get(name), other, excludeSets);
                if (!same) {
                    return false;
                }
            }
            int otherCount = 0;
            for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) {
                if (!isLocation(it.next())) {
                    otherCount++;
                }
            }
            return count == otherCount;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!sameTree(a.get(i), b.get(i), excludeSets)) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    /** Whether two arrays of distinct elements hold the same elements, in any order. */
    private static boolean sameSet(JsonNode a, JsonNode b) {
        if (!a.isArray() || !b.isArray() || a.size() != b.size()) {
            return false;
        }
        for (JsonNode x : a) {
            int matches = 0;
            for (JsonNode y : b) {
                if (sameTree(x, y)) {
                    matches++;
                }
            }
            int own = 0;
            for (JsonNode z : a) {
                if (sameTree(x, z)) {
                    own++;
                }
            }
            if (matches != own) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code sql} without its trailing {@code ;} characters and the blanks around them. Only a
     * candidate: the caller runs it only if DuckDB parses its wrapper to exactly the checked tree.
     */
    static String withoutStatementEnd(String sql) {
        int end = sql.length();
        while (end > 0 && (sql.charAt(end - 1) == ';' || Character.isWhitespace(sql.charAt(end - 1)))) {
            end--;
        }
        return end == sql.length() || sql.substring(end).indexOf(';') < 0 ? sql : sql.substring(0, end);
    }

    private static boolean isLocation(String field) {
        return "query_location".equals(field) || "query_location_length".equals(field);
    }
}
