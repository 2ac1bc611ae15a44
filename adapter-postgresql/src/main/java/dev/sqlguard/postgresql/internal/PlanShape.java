package dev.sqlguard.postgresql.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;


/**
 * PostgreSQL's own reading of a statement, as its {@code EXPLAIN (VERBOSE, COSTS OFF, FORMAT JSON)}
 * writes it, reduced to what the statement means: each plan node's type, join type, strategy, relation
 * and expressions (output, filters, join conditions, sort and group keys), written by PostgreSQL's
 * deparser, which parenthesizes every operator by the tree it built. Two texts whose shapes are equal
 * were read the same way by the server; a difference in operator precedence or in what a name means
 * shows in the expressions.
 *
 * <p>Reduced so that a rendered text and the text it was rendered from compare equal when they mean the
 * same: qualifiers (relation and subquery aliases, which sqlguard renames) are numbered in the order of the plan's
 * nodes (then, for any other qualifier, in order of appearance), {@code Limit}
 * nodes are skipped (sqlguard adds its row cap), and a merged {@code USING}/{@code NATURAL} column,
 * which sqlguard writes as {@code COALESCE(l.k, r.k)} where the server's own join uses {@code l.k}, is
 * reduced to its first column on both sides, as is a bare column's relabel to {@code character varying}. Below the root, a node's output list is compared as a set;
 * repeated sort and group keys once; an aggregate's grouping strategy (sorted, hashed or mixed) as one; a constant's type modifier ({@code ::character(4)}) is dropped; scan and
 * join filters are compared as one sorted list, wherever the planner applies them; below the root, a bare
 * column a node passes up is not compared (what is computed from it is).
 */
record PlanShape(String skeleton, String detail) {
    private static final List<String> FIELDS = List.of("Node Type", "Join Type", "Strategy", "Partial Mode", "Relation Name", "Function Name",
            "Subplan Name", "Scan Direction", "Output", "Filter", "Index Cond", "Recheck Cond", "Join Filter", "Hash Cond",
            "Merge Cond", "Sort Key", "Group Key", "Presorted Key", "One-Time Filter", "Run Condition", "Function Call", "Table Function Call",
            "Inner Unique", "Setop", "Command");
    private static final Set<String> SKIPPED = Set.of("Limit");
    /** An aggregate's strategies that group: which one the planner takes is its cost estimate, not the query's meaning. */
    private static final Set<String> GROUPED = Set.of("Sorted", "Hashed", "Mixed");
    /** Qualifiers compared as one sorted list for the whole plan, wherever the planner applies them. */
    private static final Set<String> PLACED = Set.of("Filter", "Join Filter");
    /**
     * A bare column a node below the root passes up: which ones are carried is the planner's choice (a merged
     * USING column rendered as COALESCE(l.k, r.k) carries r.k too); what is computed from them is compared.
     */
    private static final Pattern CARRIED = Pattern.compile("a[0-9]+\\.(?:\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)");
    /**
     * A typed NULL a node below the root outputs in place of a subquery's column that nothing above reads (the
     * planner prunes it): which columns a derived table has beyond those read is the text's wording, not its meaning.
     */
    private static final Pattern PRUNED = Pattern.compile("NULL::[a-z][a-z ]*(\\([0-9, ]+\\))?(\\[\\])?");
    private static final Pattern SUBPLAN = Pattern.compile("((?:SubPlan|InitPlan|CTE) )[0-9a-z_]+(?: \\(returns [$0-9,]+\\))?");
    private static final Pattern TYPMOD = Pattern.compile("::([a-z][a-z ]*)\\([0-9, ]+\\)");
    private static final Pattern PARAM = Pattern.compile("\\$[0-9]+");
    /**
     * A bare column in parentheses that no function name precedes: the deparser wraps a sort key that is an
     * expression ({@code (COALESCE(a0.k, a1.k)) DESC}), which the merged-column reduction leaves as {@code (a0.k)}.
     */
    private static final Pattern BARE_COLUMN = Pattern.compile("(?<![A-Za-z0-9_$\"])\\((a[0-9]+\\.(?:\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*))\\)");
    /**
     * A column relabelled to {@code character varying} without a length: the server's merged column of a USING/NATURAL
     * join of a {@code varchar(n)} and a text is the left column so relabelled (buildMergedJoinVar drops the length),
     * which the rendered {@code CASE WHEN FALSE THEN r.k ELSE l.k END} folds to without the relabel; a relabel
     * changes no value (differential seed 400063, {@code regions NATURAL JOIN (SELECT 'north' AS region) p}).
     */
    private static final Pattern VARCHAR_RELABEL = Pattern.compile("(a[0-9]+\\.(?:\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*))::character varying(?![A-Za-z0-9_(\\[])");
    private static final Pattern COALESCE_MERGED = Pattern.compile("COALESCE\\(((?:[A-Za-z0-9_]+\\.)?)([A-Za-z0-9_\"]+), (?:[A-Za-z0-9_]+\\.)?\\2\\)");

    /**
     * Whether the two readings are shown to differ: the same tree of plan nodes whose expressions differ.
     * Plans of different trees (the renderer writes a derived table, a {@code USING} join or a CTE in a
     * form the planner may flatten or materialize otherwise) are not compared expression by expression.
     */
    boolean differsFrom(PlanShape other) {
        return skeleton.equals(other.skeleton) && !detail.equals(other.detail);
    }

    /** The shape of one EXPLAIN answer. */
    static PlanShape of(String explainJson) {
        JsonNode root = ExplainCheck.parse(explainJson);
        Map<String, String> aliases = new HashMap<>();
        List<JsonNode> nodes = ExplainCheck.nodes(root);
        for (JsonNode node : nodes) {
            // the relations first, numbered in the order of the plan's nodes: which qualifier a field below shows
            // first (a carried column that is then not compared, a filter placed elsewhere) does not number them
            JsonNode alias = node.get("Alias");
            if (alias != null && alias.isTextual()) {
                aliases.computeIfAbsent(alias.asText(), k -> "a" + aliases.size());
            }
        }
        StringBuilder out = new StringBuilder();
        StringBuilder skeleton = new StringBuilder();
        List<String> quals = new ArrayList<>();
        for (JsonNode entry : root) {
            write(entry.get("Plan"), 0, aliases, out, skeleton, quals);
        }
        java.util.Collections.sort(quals);
        out.append("Quals=").append(String.join(" | ", quals)).append('\n');
        return new PlanShape(skeleton.toString(), out.toString());
    }


    private static void write(JsonNode node, int depth, Map<String, String> aliases, StringBuilder out, StringBuilder skeleton,
                              List<String> quals) {
        if (node == null || !node.isObject()) {
            return;
        }
        boolean skipped = SKIPPED.contains(node.path("Node Type").asText());
        if (!skipped) {
            skeleton.append("  ".repeat(depth)).append(node.path("Node Type").asText()).append(' ')
                    .append(node.path("Join Type").asText()).append(' ').append(node.path("Relation Name").asText()).append('\n');
            out.append("  ".repeat(depth));
            for (String field : FIELDS) {
                JsonNode value = node.get(field);
                if (value != null && PLACED.contains(field)) {
                    // where a qualifier is applied is the planner's choice: a merged USING column rendered as COALESCE(l.k, r.k)
                    // cannot be pushed to a scan the way l.k is, and is applied at the join instead
                    quals.add(normalize(value.asText(), aliases));
                } else if (value != null) {
                    out.append(field).append('=');
                    if (value.isArray()) {
                        // below the root a node's output order is the planner's; a repeated sort or group key changes nothing
                        java.util.Collection<String> items = depth > 0 && field.equals("Output") ? new java.util.TreeSet<>()
                                : field.endsWith("Key") ? new java.util.LinkedHashSet<>() : new ArrayList<>();
                        for (JsonNode element : value) {
                            String item = normalize(element.asText(), aliases);
                            if (!(depth > 0 && field.equals("Output") && (CARRIED.matcher(item).matches() || PRUNED.matcher(item).matches()))) {
                                items.add(item);
                            }
                        }
                        items.forEach(item -> out.append(item).append(" | "));
                    } else if (field.equals("Strategy") && GROUPED.contains(value.asText())) {
                        // sorting or hashing the groups is the planner's choice by its cost estimates, which the
                        // rendered text (another LIMIT, qualified names) can move; the groups are the Group Key's
                        out.append("Grouped");
                    } else {
                        out.append(normalize(value.asText(), aliases));
                    }
                    out.append("; ");
                }
            }
            out.append('\n');
        }
        JsonNode plans = node.get("Plans");
        if (plans != null) {
            for (JsonNode child : plans) {
                write(child, skipped ? depth : depth + 1, aliases, out, skeleton, quals);
            }
        }
    }

    private static final Pattern QUALIFIER = Pattern.compile("(?<![A-Za-z0-9_$\".])(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)\\.");

    private static String normalize(String expression, Map<String, String> aliases) {
        Matcher m = QUALIFIER.matcher(expression);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1).startsWith("\"") ? m.group(1).substring(1, m.group(1).length() - 1).replace("\"\"", "\"") : m.group(1);
            String alias = aliases.computeIfAbsent(name, k -> "a" + aliases.size());
            m.appendReplacement(out, Matcher.quoteReplacement(alias + "."));
        }
        m.appendTail(out);
        String text = PARAM.matcher(SUBPLAN.matcher(out.toString()).replaceAll("$1")).replaceAll("\\$");
        text = TYPMOD.matcher(text.replace("::character(", "::bpchar(")).replaceAll("::$1");
        String before;
        do {
            before = text;
            text = COALESCE_MERGED.matcher(text).replaceAll("$1$2");
            text = BARE_COLUMN.matcher(text).replaceAll("$1");
            text = VARCHAR_RELABEL.matcher(text).replaceAll("$1");
            if (text.startsWith("(") && text.endsWith(")") && balanced(text.substring(1, text.length() - 1))) {
                text = text.substring(1, text.length() - 1);
            }
        } while (!text.equals(before));
        return text;
    }

    /** Whether the parentheses of {@code text} (outside string literals) balance without going negative. */
    private static boolean balanced(String text) {
        int depth = 0;
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')' && --depth < 0) {
                return false;
            }
        }
        return depth == 0;
    }
}
