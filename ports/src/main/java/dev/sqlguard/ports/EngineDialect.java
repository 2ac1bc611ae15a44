package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.TableRef;

/**
 * How SQL is written for one engine, as far as the host writes SQL itself: the agent's summary
 * statistics and charts (from catalog names only, run through the same checks as any model query),
 * and the system prompt that tells a model which dialect a source speaks. An engine declares it on
 * its factory ({@link EngineFactory#dialect()}); one that does not gets {@link #PLAIN}.
 *
 * @param name the dialect as a model should read it, e.g. {@code DuckDB}; the system prompt says
 *     "{@code <name> SQL}"
 * @param identifierQuote the character that quotes an identifier (doubled inside one), e.g.
 *     {@code "} or {@code `}; empty when the host may write plain names only
 * @param quantileTemplate the continuous quantile aggregate as a template with {@code {column}} and
 *     {@code {fraction}}, e.g. {@code quantile_cont({column}, {fraction})}; empty when the engine has
 *     none the host should call
 * @param notes a few short facts for the system prompt (at most {@value #MAX_NOTES}, each at most
 *     {@value #MAX_NOTE_LENGTH} characters), e.g. which functions compute a median
 * @param dateBuckets for each of {@link #BUCKET_UNITS} the engine supports, a template with
 *     {@code {column}} that gives the DATE a bucket of that unit starts on (weeks start on Monday),
 *     e.g. {@code CAST(date_trunc('month', {column}) AS DATE)}; a unit without one cannot be bucketed
 */
public record EngineDialect(String name, Optional<Character> identifierQuote, Optional<String> quantileTemplate, List<String> notes,
                            Map<String, String> dateBuckets) {
    public static final int MAX_NOTES = 6;
    public static final int MAX_NOTE_LENGTH = 200;
    /** The units a date can be bucketed by. */
    public static final Set<String> BUCKET_UNITS = Set.of("day", "week", "month", "year");

    /** The dialect of an engine that declares none: plain identifiers only, standard aggregates, no quantiles. */
    public static final EngineDialect PLAIN = new EngineDialect("standard", Optional.empty(), Optional.empty(), List.of());

    /** A dialect without date buckets. */
    public EngineDialect(String name, Optional<Character> identifierQuote, Optional<String> quantileTemplate, List<String> notes) {
        this(name, identifierQuote, quantileTemplate, notes, Map.of());
    }

    public EngineDialect {
        requireNonNull(name, "name is null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name is blank");
        }
        requireNonNull(identifierQuote, "identifierQuote is null");
        requireNonNull(quantileTemplate, "quantileTemplate is null");
        quantileTemplate.ifPresent(template -> {
            if (!template.contains("{column}") || !template.contains("{fraction}")) {
                throw new IllegalArgumentException("the quantile template needs {column} and {fraction}");
            }
        });
        notes = List.copyOf(requireNonNull(notes, "notes is null"));
        if (notes.size() > MAX_NOTES) {
            throw new IllegalArgumentException("at most " + MAX_NOTES + " notes");
        }
        for (String note : notes) {
            if (note.isBlank() || note.length() > MAX_NOTE_LENGTH || note.contains("\n")) {
                throw new IllegalArgumentException("a note must be one non-blank line of at most " + MAX_NOTE_LENGTH + " characters");
            }
        }
        dateBuckets = Map.copyOf(requireNonNull(dateBuckets, "dateBuckets is null"));
        dateBuckets.forEach((unit, template) -> {
            if (!BUCKET_UNITS.contains(unit)) {
                throw new IllegalArgumentException("unknown date bucket unit '" + unit + "'; known: " + BUCKET_UNITS);
            }
            if (!template.contains("{column}")) {
                throw new IllegalArgumentException("the date bucket template for '" + unit + "' needs {column}");
            }
        });
    }

    /**
     * Date buckets by {@code date_trunc}, whose weeks start on Monday (DuckDB, PostgreSQL and
     * Trino): for each of {@link #BUCKET_UNITS}, {@code CAST(date_trunc('<unit>', {column}) AS <dateType>)}.
     *
     * @param dateType the DATE type as the engine's dialect writes it, e.g. {@code date}
     */
    public static Map<String, String> dateTruncBuckets(String dateType) {
        requireNonNull(dateType, "dateType is null");
        Map<String, String> templates = new java.util.HashMap<>();
        for (String unit : BUCKET_UNITS) {
            templates.put(unit, "CAST(date_trunc('" + unit + "', {column}) AS " + dateType + ")");
        }
        return Map.copyOf(templates);
    }

    /** This dialect with the given date bucket templates. */
    public EngineDialect withDateBuckets(Map<String, String> templates) {
        return new EngineDialect(name, identifierQuote, quantileTemplate, notes, templates);
    }

    /**
     * The identifier as this dialect writes it: quoted, with the quote character doubled inside;
     * for a dialect without quoting, the name itself when it is plain ({@link Names#isPlain}), else
     * empty.
     */
    public Optional<String> quote(String identifier) {
        requireNonNull(identifier, "identifier is null");
        if (identifierQuote.isPresent()) {
            String q = identifierQuote.get().toString();
            return Optional.of(q + identifier.replace(q, q + q) + q);
        }
        return Names.isPlain(identifier) ? Optional.of(identifier) : Optional.empty();
    }

    /** The table's schema (if any) and name, each as {@link #quote} writes it; empty when one cannot be written. */
    public Optional<String> table(TableRef table) {
        Optional<String> name = quote(table.table());
        if (table.schema().isEmpty()) {
            return name;
        }
        return quote(table.schema().get()).flatMap(schema -> name.map(n -> schema + "." + n));
    }

    /** The quantile aggregate over {@code quotedColumn} at {@code fraction} (a numeric literal), if the dialect has one. */
    public Optional<String> quantile(String quotedColumn, String fraction) {
        return quantileTemplate.map(t -> t.replace("{column}", quotedColumn).replace("{fraction}", fraction));
    }

    /** The DATE a {@code unit} bucket of {@code quotedColumn} starts on, if the dialect can bucket by that unit. */
    public Optional<String> dateBucket(String unit, String quotedColumn) {
        return Optional.ofNullable(dateBuckets.get(unit)).map(t -> t.replace("{column}", quotedColumn));
    }
}
