package dev.sqlguard.jdbc.ansi;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import dev.sqlguard.domain.ColumnMask;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.RowFilter;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.SourceSettings;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

/**
 * The start of an engine that renders through the {@link AnsiRenderer} with a row policy (row filters
 * and column masks per caller): the policy's unqualified tables resolve in the engine's default schema
 * ({@link #inSchema}), and each filter and mask is checked once against the catalog ({@link #check}):
 * its table must be one the source reads, each masked column one of that table's, and
 * {@code SELECT <columns, masked> FROM <table> WHERE (<filter>)}, the derived table the renderer puts in
 * place of every reference to the table, must be analysed by the engine (its EXPLAIN or PREPARE) with
 * each attribute placeholder as a value of the type a call binds. A failure stops the start with
 * {@code CONFIGURATION_ERROR} naming the table, never the driver's text.
 */
public final class RowPolicyCheck {
    /** Asks the engine to analyse a statement without running it. */
    @FunctionalInterface
    public interface Probe {
        /**
         * @param sql the statement, each attribute placeholder written as the engine's marker
         * @param placeholders how many of the markers are bind parameters ({@code ?}) to bind as NULL
         * @throws SQLException when the engine cannot analyse it
         */
        void analyse(String sql, int placeholders) throws SQLException;
    }

    private RowPolicyCheck() {
    }

    /**
     * {@code policy} with its row policy's unqualified tables in {@code schema}, as the table allowlist's
     * are ({@link SourceSettings#allowlistIn}); the policy itself when it has no row policy.
     *
     * @throws GuardException CONFIGURATION_ERROR when the row policy names a default schema of its own that
     *     is not {@code schema}, or names one table twice once the schema is applied
     */
    public static GuardrailPolicy inSchema(String source, GuardrailPolicy policy, String schema) {
        RowPolicy rows = policy.rows();
        if (rows.isEmpty()) {
            return policy;
        }
        String folded = schema.toLowerCase(Locale.ROOT);
        if (rows.defaultSchema().isPresent() && !rows.defaultSchema().get().equals(folded)) {
            throw SourceSettings.bad(source, "the row policy's default schema differs from the source's.");
        }
        try {
            return policy.withRows(new RowPolicy(Optional.of(folded), rows.filters(), rows.masks()));
        } catch (IllegalArgumentException e) {
            throw SourceSettings.bad(source, "the row policy names a table or column twice (once with the default schema, once without).");
        }
    }

    /**
     * Checks every governed table of {@code policy} against {@code schema} and the engine.
     *
     * @param marker how the engine's probe writes an attribute placeholder (a {@code ?}, or a typed NULL
     *     where the engine analyses no parameters)
     * @throws GuardException CONFIGURATION_ERROR naming the first table whose filter or mask fails; the
     *     {@link SQLException} of a connection that failed (SQLSTATE class 08), wrapped, for the caller's
     *     start failure to report as such
     */
    public static void check(String source, SchemaSnapshot schema, GuardrailPolicy policy, AnsiDialect dialect,
                             Function<String, String> marker, Probe probe) throws SQLException {
        requireNonNull(probe, "probe is null");
        RowPolicy rows = policy.rows();
        AnsiNames naming = dialect.lexicon().names();
        for (TableRef governed : rows.governedTables()) {
            TableRef resolved = TableRef.of(governed.schema().orElse(schema.defaultSchema()), governed.table());
            TableInfo t = schema.tables().get(resolved);
            if (t == null) {
                throw SourceSettings.bad(source, "the row policy names the table " + governed.qualifiedName()
                        + ", which this source does not allowlist or the database does not have.");
            }
            for (String column : rows.masksOf(governed).keySet()) {
                if (t.columns().stream().noneMatch(c -> c.name().toLowerCase(Locale.ROOT).equals(column))) {
                    throw SourceSettings.bad(source, "the row policy masks the column " + governed.qualifiedName() + "." + column
                            + ", which the table does not have.");
                }
            }
            for (ColumnMask mask : rows.masksOf(governed).values()) {
                requirePlain(source, governed, mask.expression());
            }
            Optional<RowFilter> filter = rows.filterOf(governed);
            if (filter.isPresent()) {
                requirePlain(source, governed, filter.get().predicate());
            }
            String qualified = schema.catalog().map(c -> naming.identifier(c) + ".").orElse("") + naming.identifier(t.schema()) + "."
                    + naming.identifier(t.name());
            String probeSql = AnsiRenderer.governedSelect(naming, qualified, t, policy, marker);
            int placeholders = filter.map(f -> f.placeholders().size()).orElse(0);
            try {
                probe.analyse(probeSql, placeholders);
            } catch (SQLException e) {
                if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                    throw e;
                }
                // the driver's text stays in the cause, for the host's logs; the message is sqlguard's own
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + source + "': the row filter or a column mask"
                        + " of the table " + governed.qualifiedName() + " cannot be read by the database against that table"
                        + " (check its column names, functions and types; an attribute is bound as text).", e);
            }
        }
    }

    private static final java.util.regex.Pattern STRING_LITERAL = java.util.regex.Pattern.compile("'(?:[^']|'')*'");
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("\"((?:[^\"]|\"\")+)\"|([A-Za-z_][A-Za-z0-9_$]*)");

    /**
     * The columns of the governed tables among {@code tables} that their row filters and masks name (and
     * each masked column): what the engine's reading of a statement may also show it reads where the
     * database enforces the same policy itself (PostgreSQL row-level security or Trino's row filters and
     * column masks, as exported), beyond the columns the statement as written reads. Names are matched
     * as words of the operator's text outside string literals, so the set is never smaller than the
     * columns the text reads.
     */
    public static Set<ColumnRef> policyColumns(GuardrailPolicy policy, SchemaSnapshot schema, Set<TableRef> tables) {
        RowPolicy rows = policy.rows();
        if (rows.isEmpty()) {
            return Set.of();
        }
        Set<ColumnRef> out = new LinkedHashSet<>();
        for (TableRef table : tables) {
            TableInfo t = schema.tables().get(table);
            if (t == null || !rows.governs(table)) {
                continue;
            }
            Set<String> words = new HashSet<>(rows.masksOf(table).keySet());
            List<String> texts = new ArrayList<>();
            rows.filterOf(table).ifPresent(f -> texts.add(f.predicate()));
            rows.masksOf(table).values().forEach(m -> texts.add(m.expression()));
            for (String text : texts) {
                java.util.regex.Matcher m = NAME.matcher(STRING_LITERAL.matcher(text).replaceAll("''"));
                while (m.find()) {
                    words.add((m.group(1) != null ? m.group(1).replace("\"\"", "\"") : m.group(2)).toLowerCase(Locale.ROOT));
                }
            }
            for (SchemaSnapshot.ColumnInfo c : t.columns()) {
                if (words.contains(c.name().toLowerCase(Locale.ROOT))) {
                    out.add(new ColumnRef(table, c.name()));
                }
            }
        }
        return out;
    }

    /**
     * The placeholders of a filtered text that take an attribute, 1-based in text order: where the
     * engine's plan of that text must show each scan of a filtered table conditioned (PostgreSQL's
     * {@code $n}, Trino's marker in place of the placeholder). Empty when no filter takes an attribute.
     */
    public static Set<Integer> attributeSlots(dev.sqlguard.domain.Bindings bindings) {
        List<Object> parameters = new ArrayList<>();
        for (int i = 0; i < bindings.parameterCount(); i++) {
            parameters.add(Boolean.FALSE);
        }
        java.util.Map<String, String> attributes = new java.util.HashMap<>();
        bindings.attributes().forEach(a -> attributes.put(a, a));
        List<Object> slots = bindings.bind(parameters, attributes);
        Set<Integer> out = new java.util.TreeSet<>();
        for (int i = 0; i < slots.size(); i++) {
            if (slots.get(i) instanceof String) {
                out.add(i + 1);
            }
        }
        return out;
    }

    /** Refuses control characters, which the renderer uses as its own markers, in a filter or a mask. */
    private static void requirePlain(String source, TableRef table, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r') {
                throw SourceSettings.bad(source, "the row filter or a column mask of the table " + table.qualifiedName()
                        + " holds a control character.");
            }
        }
    }
}
