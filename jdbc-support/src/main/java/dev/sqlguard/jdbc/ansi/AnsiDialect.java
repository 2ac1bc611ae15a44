package dev.sqlguard.jdbc.ansi;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.IntervalExpression;

/**
 * What one engine renders differently from the shared {@link AnsiRenderer}: its names, literals and
 * function rules (its {@link Lexicon}, data), a few rendering hooks, and which optional constructs it
 * accepts. Everything else (double-quoted identifiers, a generated alias for every FROM item, every
 * column qualified by that alias, every expression fully parenthesised, the facts recorded for the
 * domain) is the renderer's and the same for every engine.
 *
 * <p>Each hook either returns the engine's exact text for a node or throws a {@code GuardException}
 * (use {@link AnsiErrors}); a construct hook that answers {@code false} makes the renderer refuse
 * the construct with a stable error code. Hooks must be pure: the renderer may call them in any order.
 */
public interface AnsiDialect {
    /**
     * What an engine's SQL is made of, as data: its names, functions, keywords and literal forms.
     *
     * @param engine the engine's name in refusal messages ("PostgreSQL", "Trino")
     * @param names how the engine reads a name as written, and how sqlguard quotes names and strings
     * @param functions the engine's function rules (classes, never-list, aggregates, window functions)
     * @param functionSchema the schema every function call is rendered in ({@code pg_catalog} on
     *     PostgreSQL, so a user schema can never supply a function), or empty when calls are rendered
     *     by their bare names and every qualified name is refused; names in
     *     {@link FunctionRules#syntax()} are never qualified
     * @param hiddenSchemas schemas no query may name (the engine's own catalogs)
     * @param sqlValueKeywords words the engine reads as SQL value functions when unquoted
     *     (current_user, ...), whatever columns exist: as a bare column name each is a call, never a column
     * @param zeroArgumentFunctions functions that may be called with no argument (pi(), row_number(), ...)
     * @param reservedWords the engine's reserved words (lower case): none may stand as an unquoted table
     *     or subquery alias (JSqlParser reads {@code a LEFT NATURAL JOIN b} as {@code a} aliased
     *     {@code LEFT} joined {@code NATURAL} with {@code b}, a query the engine itself rejects)
     * @param extractFields the fields EXTRACT takes (lower case)
     * @param extractFieldsMessage the refusal message for another EXTRACT field, listing the ones it takes
     * @param dateTimeLiterals the DATE, TIME, TIMESTAMP (or other) literals the engine takes, each with
     *     the exact form of its quoted text; a literal of another kind or form is refused
     * @param castTypes the CAST target types the engine allows; a cast to a type rendered {@code text},
     *     {@code varchar...} or {@code char...} counts as a total step, any other as a partial one
     */
    record Lexicon(String engine, AnsiNames names, FunctionRules functions, Optional<String> functionSchema,
                   Set<String> hiddenSchemas, Set<String> sqlValueKeywords, Set<String> zeroArgumentFunctions,
                   Set<String> reservedWords, Set<String> extractFields, String extractFieldsMessage,
                   Map<DateTimeLiteralExpression.DateTime, Pattern> dateTimeLiterals, CastTypes castTypes) {
        public Lexicon {
            requireNonNull(engine, "engine is null");
            requireNonNull(names, "names is null");
            requireNonNull(functions, "functions is null");
            requireNonNull(functionSchema, "functionSchema is null");
            hiddenSchemas = Set.copyOf(hiddenSchemas);
            sqlValueKeywords = Set.copyOf(sqlValueKeywords);
            zeroArgumentFunctions = Set.copyOf(zeroArgumentFunctions);
            reservedWords = Set.copyOf(reservedWords);
            extractFields = Set.copyOf(extractFields);
            requireNonNull(extractFieldsMessage, "extractFieldsMessage is null");
            dateTimeLiterals = Map.copyOf(dateTimeLiterals);
            requireNonNull(castTypes, "castTypes is null");
        }
    }

    /** The engine's names, functions, keywords and literal forms. */
    Lexicon lexicon();

    /** An INTERVAL literal in the engine's form; refuses any other. */
    String interval(IntervalExpression e);

    /** The engine's own name for an unaliased output column at {@code position} (from 0). */
    String label(Expression e, int position);

    /**
     * The row limit and offset clauses, with a leading space, for {@code rows} (null for none) and
     * {@code offset} (0 for none).
     */
    String limitClause(Long rows, long offset);

    /**
     * Whether the row cap (max rows + 1) is written into a top-level grouped aggregate that has no
     * ORDER BY, DISTINCT or row limit of its own. True by default. Such a query computes every group
     * before its first row whatever the LIMIT, so the cap saves the engine nothing, while on an
     * engine that plans a LIMIT as a stage of its own (Trino gathers it on one node) it costs a hop;
     * the domain reads at most max rows + 1 rows either way, and closing the cursor stops the rest.
     */
    default boolean capsGroupedAggregates() {
        return true;
    }

    /** Whether {@code SELECT DISTINCT ON (...)} exists on the engine. */
    default boolean distinctOn() {
        return false;
    }

    /** Whether {@code GROUPING SETS}, {@code ROLLUP}, {@code CUBE} and {@code GROUPING(...)} are rendered. */
    default boolean groupingSets() {
        return false;
    }

    /** Whether {@code FETCH FIRST n ROWS ONLY} is accepted (rendered as a row limit). */
    default boolean fetchFirst() {
        return false;
    }

    /** Whether common table expressions may carry a column list: {@code name (a, b) AS (...)}. */
    default boolean cteColumnLists() {
        return false;
    }

    /**
     * Whether {@code WITH RECURSIVE} is rendered (its depth bounded by a counter column, see
     * {@link AnsiRenderer}). Only for an engine without a recursion limit of its own that the
     * renderer could read instead.
     */
    default boolean recursiveCtes() {
        return false;
    }

    /** Whether {@code JOIN ... USING (...)} is rendered (as an explicit ON condition and the merged columns). */
    default boolean joinUsing() {
        return false;
    }

    /** Whether {@code NATURAL JOIN} is rendered too, as USING its common columns (Trino has none). */
    default boolean naturalJoin() {
        return joinUsing();
    }

    /**
     * Whether a {@code USING} column belongs to the join alone: {@code t.k} no longer reads it and {@code t.*} leaves
     * it out (Trino 483: {@code SELECT r.*, c.id FROM regions r JOIN claims c USING (region)} gives manager only, and
     * {@code c.id} after {@code USING (id)} "cannot be resolved"). PostgreSQL keeps both.
     */
    default boolean usingColumnsLeaveTheirTables() {
        return false;
    }

    /** Whether {@code LATERAL (subquery)} may follow another FROM item. */
    default boolean lateral() {
        return false;
    }

    /**
     * Whether {@code x COLLATE name} exists on the engine (PostgreSQL; Trino has no COLLATE). The renderer
     * writes it {@code (x COLLATE "name")}, the name a quoted identifier, never a qualified one.
     */
    default boolean collate() {
        return false;
    }

    /**
     * Whether a SELECT may name its windows ({@code WINDOW w AS (...)}, {@code OVER w}). The renderer writes
     * the WINDOW clause whole, in the order written, each definition over the SELECT's input columns with
     * every name qualified, under generated names ({@code OVER "w1"}), so the engine plans the windows as it
     * plans the text as written.
     */
    default boolean namedWindows() {
        return false;
    }

    /**
     * The engine's name for column {@code position} (from 0) of a {@code VALUES} list in FROM whose alias does not
     * name it, when a query may read it by that name (PostgreSQL: {@code column1}, {@code column2}, ...); empty where
     * the engine leaves it without a name, and the alias must then name every column. Empty by default.
     */
    default Optional<String> valuesColumnName(int position) {
        return Optional.empty();
    }

    /** Whether {@code ILIKE} exists on the engine. */
    default boolean ilike() {
        return false;
    }

    /**
     * Whether {@code generate_series(start, stop[, step])} with literal arguments may stand in FROM
     * (when the policy allows the table function); every other table function is refused.
     */
    default boolean generateSeries() {
        return false;
    }

    /** Whether a subquery in FROM may stand without an alias (Trino; PostgreSQL before 16 and MariaDB refuse it). */
    default boolean unaliasedSubqueries() {
        return false;
    }

    /**
     * Whether a bare name in GROUP BY may name an output column (PostgreSQL, MariaDB). Trino refuses
     * {@code GROUP BY <output name>} when no input column has that name, and so does the renderer then,
     * exactly as for a name that exists nowhere.
     */
    default boolean outputNamesInGroupBy() {
        return true;
    }

    /**
     * Text that ends the SELECT of a filtered table's derived table, so that the engine plans the derived table
     * apart, when the statement has a predicate of its own ({@code WHERE}, {@code ON} or {@code HAVING}) anywhere,
     * or groups by {@code ROLLUP}, {@code CUBE} or {@code GROUPING SETS}. Empty where no such fence is needed.
     * PostgreSQL 15 pulls the derived table up into the statement around it:
     * <ul>
     *   <li>it then evaluates the filter beside the statement's predicates in one scan, cheapest first and, at equal
     *   cost, the statement's first (measured: {@code ('x' ~~ body) AND (region = 'north')}), so a predicate as cheap
     *   as the filter that fails on another tenant's row ({@code 'x' LIKE body} where that row's body is a lone
     *   backslash) failed the tenant's call, telling that the row exists;</li>
     *   <li>it takes {@code region = $1} for a sign that the column is constant, and then drops it as a sort key
     *   although grouping sets make it NULL in the rolled-up rows (measured: {@code GROUP BY CUBE (1, id) ORDER BY 1}
     *   came back unordered), where the same query over a copy holding only the tenant's rows orders them.</li>
     * </ul>
     * {@code OFFSET 0} keeps it from being pulled up, and no predicate is pushed into it.
     */
    default String filteredTableFence() {
        return "";
    }

    /**
     * Whether a name inside an ORDER BY expression (not a bare key) is read as an output column before
     * an input column (Trino: {@code SELECT id AS x, 0 - id AS id ... ORDER BY id + 0} orders by the
     * output {@code id}); PostgreSQL reads input columns there. Where the two readings could differ,
     * the renderer refuses with advice rather than guess.
     */
    default boolean outputNamesFirstInOrderByExpressions() {
        return false;
    }

    /**
     * Whether a bare ORDER BY, DISTINCT ON or GROUP BY name that labels several outputs of one value
     * names the first of them rather than being ambiguous (PostgreSQL compares the outputs' analysed
     * expressions: {@code SELECT created, created AS created ... ORDER BY created} runs). The renderer
     * takes two outputs for one value when it renders them to the same text. Off by default: such a
     * name is refused as ambiguous.
     */
    default boolean equalOutputsShareAName() {
        return false;
    }
}
