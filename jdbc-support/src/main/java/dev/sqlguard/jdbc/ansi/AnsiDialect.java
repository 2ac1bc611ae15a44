package dev.sqlguard.jdbc.ansi;

import java.util.Optional;
import java.util.Set;

import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.statement.create.table.ColDataType;

/**
 * What one engine renders differently from the shared {@link AnsiRenderer}: its names and literals,
 * its function rules, and which optional constructs it accepts. Everything else (double-quoted
 * identifiers, a generated alias for every FROM item, every column qualified by that alias, every
 * expression fully parenthesised, the facts recorded for the domain) is the renderer's and the same
 * for every engine.
 *
 * <p>Each hook either returns the engine's exact text for a node or throws a {@code GuardException}
 * (use {@link AnsiErrors}); a construct hook that answers {@code false} makes the renderer refuse
 * the construct with a stable error code. Hooks must be pure: the renderer may call them in any order.
 */
public interface AnsiDialect {
    /** The engine's name in refusal messages ("PostgreSQL", "Trino"). */
    String engine();

    /** The engine's function rules (classes, never-list, aggregates, window functions). */
    FunctionRules functions();

    /** The name the engine reads for a name as written (quotes removed, folded as the engine folds). */
    String name(String raw);

    /** The quoted identifier for an exact name; refuses names the engine would truncate or cannot hold. */
    String identifier(String name);

    /** A string literal the engine reads as exactly {@code value}; refuses what it cannot render safely. */
    String string(String value);

    /**
     * The schema every function call is rendered in ({@code pg_catalog} on PostgreSQL, so a user schema
     * can never supply a function), or empty when calls are rendered by their bare names and every
     * qualified name is refused. Names in {@link FunctionRules#syntax()} are never qualified.
     */
    Optional<String> functionSchema();

    /** Schemas no query may name (the engine's own catalogs). */
    Set<String> hiddenSchemas();

    /**
     * Words the engine reads as SQL value functions when unquoted (current_user, ...), whatever
     * columns exist: as a bare column name each is a call, never a column.
     */
    Set<String> sqlValueKeywords();

    /** Functions that may be called with no argument (pi(), row_number(), ...). */
    Set<String> zeroArgumentFunctions();

    /**
     * The engine's reserved words (lower case): none may stand as an unquoted table or subquery
     * alias. JSqlParser reads {@code a LEFT NATURAL JOIN b} as {@code a} aliased {@code LEFT} joined
     * {@code NATURAL} with {@code b}, a query the engine itself rejects.
     */
    Set<String> reservedWords();

    /** The fields EXTRACT takes (lower case). */
    Set<String> extractFields();

    /** The refusal message for another EXTRACT field, listing the ones it takes. */
    String extractFieldsMessage();

    /** A DATE, TIME, TIMESTAMP (or other) literal in the engine's form; refuses any other. */
    String dateTime(DateTimeLiteralExpression e);

    /** An INTERVAL literal in the engine's form; refuses any other. */
    String interval(IntervalExpression e);

    /**
     * The engine's name for a CAST target type; refuses types it does not allow. A cast to a type
     * rendered {@code text}, {@code varchar...} or {@code char...} counts as a total step, any other as
     * a partial one.
     */
    String castType(ColDataType type);

    /** The engine's own name for an unaliased output column at {@code position} (from 0). */
    String label(Expression e, int position);

    /**
     * The row limit and offset clauses, with a leading space, for {@code rows} (null for none) and
     * {@code offset} (0 for none).
     */
    String limitClause(Long rows, long offset);

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

    /** Whether {@code JOIN ... USING (...)} and {@code NATURAL JOIN} are rendered (as explicit ON conditions). */
    default boolean joinUsing() {
        return false;
    }

    /** Whether {@code LATERAL (subquery)} may follow another FROM item. */
    default boolean lateral() {
        return false;
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
}
