package dev.sqlguard.app.agent.internal;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A structured chart request: no model-written plotting code, only names and choices from fixed sets.
 *
 * @param type bar, line, scatter or pie
 * @param table the allowlisted table
 * @param x the column on the horizontal axis (pie: the slice labels)
 * @param y the measured column; absent only for {@code count}
 * @param aggregation how y is aggregated per x (and series)
 * @param series an optional column that splits the data into series (not for pie)
 * @param filters conditions joined with AND, values bound as parameters
 * @param title an optional title
 */
public record ChartSpec(Type type, String table, String x, Optional<String> y, Aggregation aggregation,
                        Optional<String> series, List<Filter> filters, Optional<String> title) {
    public enum Type {
        BAR, LINE, SCATTER, PIE;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public enum Aggregation {
        COUNT, SUM, AVG, MIN, MAX, NONE;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The comparison operators a filter may use. */
    public static final List<String> OPERATORS = List.of("=", "<>", "<", "<=", ">", ">=");

    /** One condition {@code column op ?}; {@code value} is a bindable scalar, never SQL text. */
    public record Filter(String column, String op, Object value) {
        public Filter {
            requireNonNull(column, "column is null");
            if (!OPERATORS.contains(op)) {
                throw new IllegalArgumentException("operator not allowed: " + op);
            }
            requireNonNull(value, "value is null");
        }
    }

    public ChartSpec {
        requireNonNull(type, "type is null");
        requireNonNull(table, "table is null");
        requireNonNull(x, "x is null");
        requireNonNull(y, "y is null");
        requireNonNull(aggregation, "aggregation is null");
        requireNonNull(series, "series is null");
        filters = List.copyOf(filters);
        requireNonNull(title, "title is null");
        if (y.isEmpty() && aggregation != Aggregation.COUNT) {
            throw new ArgSchema.InvalidArgumentException("chart.y is required unless chart.aggregation is 'count'.");
        }
        if (type == Type.PIE && series.isPresent()) {
            throw new ArgSchema.InvalidArgumentException("A pie chart has no series; drop chart.series.");
        }
    }

    /** The label of the measured value: {@code count}, {@code sum(amount)}, or the column. */
    public String yLabel() {
        return switch (aggregation) {
            case COUNT -> "count";
            case NONE -> y.orElseThrow();
            default -> aggregation.wireName() + "(" + y.orElseThrow() + ")";
        };
    }

    public String displayTitle() {
        return title.orElseGet(() -> yLabel() + " by " + x + series.map(s -> " and " + s).orElse(""));
    }
}
