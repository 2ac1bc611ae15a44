package dev.sqlguard.postgresql.internal;

import java.sql.SQLException;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.ansi.AnsiRenderer;
import dev.sqlguard.jdbc.ansi.EngineReading;

/**
 * The server's reading of the text as written against its reading of the rendered text. JSqlParser
 * does not always read PostgreSQL's grammar as PostgreSQL does (measured with 5.4: {@code a BETWEEN b
 * AND c = d}, {@code 'x' || 3 - 2}); the renderer writes what JSqlParser read, with every operator
 * parenthesized, so a misreading makes the rendered text mean something else. Rather than guess the
 * grammar, both texts are planned by the server ({@code EXPLAIN}, which checks without running) and
 * their {@link PlanShape}s compared: a difference refuses the statement with advice to write it more
 * plainly; a rendering the server cannot analyse is refused the same way ({@link #renderedFailed}).
 *
 * <p>Hidden columns are absent: the text as written is planned with each reference to a table that hides a
 * column replaced by the derived table of its visible columns under the same name
 * ({@link dev.sqlguard.jdbc.ansi.VisibleTables}; the planner pulls it up, so the plan's tree is the one the
 * table gives), so that the server reads it as the check does, in every clause (a name another table shows
 * too, {@code NATURAL}, {@code USING}, a star, a subquery), with no name renamed; a hidden column's name and a
 * name that exists nowhere then get the same decision. Where no table is replaced, and in the fallbacks below,
 * the text over the tables is planned with each name that only hidden columns have renamed to one that exists
 * nowhere ({@link dev.sqlguard.jdbc.AbsentNames}). Where the reading over the visible columns cannot group (a primary key in
 * GROUP BY does not vouch for its table's other columns through a derived table) or its shape differs from the
 * rendered one (PostgreSQL qualifies columns by the range table's length, which a derived table changes; merged
 * USING columns over pulled-up constants), the text over the tables themselves is read and compared as before
 * the splice. Where the text as written still reads a hidden column, the two readings differ by design and the
 * rendered one stands (its own reading is still cross-checked). Where the server
 * cannot plan the rendered text, that failure decides ({@link #renderedFailed}); where it plans the
 * rendered text but not the text as written, the guard refuses too ({@link #asWritten}).
 *
 * <p>The text as written has passed the lexical pre-check (one statement, no comment or quoting form
 * that parsers read differently) and the render; {@code EXPLAIN} plans it without running it.
 */
final class ReadingComparison {
    private static final Logger LOG = LoggerFactory.getLogger(ReadingComparison.class);

    /** Plans a text. */
    @FunctionalInterface
    interface Explainer {
        String explain(String sql) throws SQLException;
    }

    private ReadingComparison() {
    }

    /**
     * The server's plan of the text as written, or null when it was not asked or cannot plan it for a
     * reason the check need not follow.
     *
     * <p>The server decides whether it can read the text that was asked: where its grammar refuses it,
     * the refusal is SYNTAX_ERROR; where it parses it but cannot analyse or plan it (no such operator for
     * the types it reads, {@code FALSE BETWEEN TRUE AND 2 >= 6}; an ambiguous name; a literal of the wrong
     * type), the guard refuses with the code the server's refusal maps to, whatever the check read, since
     * there is no answer to a question the database cannot read. That second refusal is only given when
     * {@code compared}: the text binds no parameter (the plan binds each as an untyped NULL, which a call
     * with values does not). A permission refusal is not followed either: the account may be denied a
     * column the allowlist hides, which the check does not read.
     *
     * @param written the text as written, with the names only hidden columns have made absent
     *
     * @throws GuardException SYNTAX_ERROR when the server's grammar refuses the text; the mapped refusal
     *     when {@code compared} and the server cannot analyse it
     */
    static String asWritten(String written, Explainer explainer, boolean compared) {
        try {
            return explainer.explain(written);
        } catch (SQLException e) {
            LOG.debug("EXPLAIN of the text as written failed", e);
            if ("42601".equals(e.getSQLState())) {
                // the server's grammar refuses the text before it resolves any name (JSqlParser 5.4 accepts
                // FALSE NOT BETWEEN NOT TRUE AND FALSE): no answer to a question the database cannot read
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "The database cannot parse this query as written; write it more"
                        + " plainly, with parentheses around each operator and its operands.");
            }
            if (compared && !NOT_FOLLOWED.contains(String.valueOf(e.getSQLState()))) {
                throw SqlErrors.map(e);
            }
            return null;
        }
    }

    /** Refusals of the text as written that the guard does not follow: permission (a hidden column), an untyped parameter. */
    private static final java.util.Set<String> NOT_FOLLOWED = java.util.Set.of("42501", "42P18");

    /**
     * SQLStates of a statement the server cannot analyse: no such operator or function, mismatched types, a grouping
     * error, a literal that is no value of its type (22P02, 22007: raised while the statement is analysed, so by EXPLAIN).
     */
    private static final java.util.Set<String> ANALYSIS = java.util.Set.of("42883", "42804", "42803", "42725", "22P02", "22007");

    /**
     * The refusal when the server cannot plan the rendered text. An operator or type the server cannot
     * resolve, a grouping error, or a literal that is no value of the type the server gives it is what a
     * misread precedence gives ({@code 'x' || 3 - 2} read as {@code ('x' || 3) - 2}; {@code 'x' BETWEEN
     * 'a' AND 'b' <> FALSE} read as {@code 'x' BETWEEN 'a' AND ('b' <> FALSE)}, whose {@code 'b'} is no
     * boolean): UNSAFE_SYNTAX with the server's reason and advice to write the query more plainly. This
     * does not depend on the server's reading of the text as written, which could depend on a hidden
     * column. Any other failure is {@code mapped}.
     */
    static GuardException renderedFailed(SQLException e, GuardException mapped) {
        if (e.getSQLState() != null && ANALYSIS.contains(e.getSQLState())) {
            // short enough that the longest server reason keeps it under a message's bound (SafeText), which a longer
            // one crossed: a grouping error read as the code's default sentence about comments and escapes
            return new GuardException(ErrorCode.UNSAFE_SYNTAX, mapped.safeMessage() + " If it runs as written, the database reads it"
                    + " otherwise than the check; write it more plainly: parentheses around each operator (BETWEEN ... AND ..., ||),"
                    + " each column qualified.");
        }
        return mapped;
    }

    /** The refusal when the two readings differ. */
    static GuardException differs() {
        return new GuardException(ErrorCode.UNSAFE_SYNTAX, "The database reads this query differently from the check; write it more"
                + " plainly: put parentheses around each operator and its operands (for example around BETWEEN ... AND ..., ||"
                + " and comparisons of comparisons) and qualify each column name.");
    }

    /**
     * @param asWritten the server's plan of the text as written
     * @param rendered the server's plan of the executable text
     * @throws GuardException UNSAFE_SYNTAX when the readings differ
     */
    static void compare(QueryPlan plan, String asWritten, String rendered, GuardrailPolicy policy,
                        Function<TableRef, List<String>> physical, Explainer explainer) {
        EngineReading reading;
        try {
            reading = ExplainCheck.read(asWritten, physical);
        } catch (StackOverflowError e) {
            // a literal of tens of kilobytes that the rendered plan folded away (a masked output); the
            // rendered reading itself was read and cross-checked
            return;
        }
        if (!reading.complete()) {
            return;
        }
        for (ColumnRef c : reading.columns()) {
            if (!policy.tables().allowsColumn(c.table(), c.column())) {
                return; // the text as written reaches a hidden column, which for the check does not exist
            }
        }
        String unmasked = rendered;
        if (!plan.maskedOutputs().isEmpty()) {
            try {
                unmasked = explainer.explain(AnsiRenderer.unmasked(PostgresDialect.INSTANCE, plan));
            } catch (SQLException e) {
                throw differs();
            }
        }
        // a name made absent prints as such where the plan shows it (a derived column passed up); the rendered text has it as written
        PlanShape original = PlanShape.of(asWritten.replace(dev.sqlguard.jdbc.AbsentNames.SUFFIX, ""));
        PlanShape checked = PlanShape.of(unmasked);
        if (original.differsFrom(checked)) {
            LOG.atDebug().log(() -> "readings differ:\n" + original.detail() + "----\n" + checked.detail());
            throw differs();
        }
    }
}
