package dev.sqlguard.app.tools.internal;

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
 * @param bucket an optional grouping of a DATE or TIMESTAMP x into days, weeks, months or years
 */
public record ChartSpec(Type type, String table, String x, Optional<String> y, Aggregation aggregation,
                        Optional<String> series, List<Filter> filters, Optional<String> title, Optional<DateBucket> bucket) {
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
        requireNonNull(bucket, "bucket is null");
        if (bucket.isPresent() && aggregation == Aggregation.NONE) {
            throw new ArgSchema.InvalidArgumentException("chart.bucket groups rows, so it needs an aggregation other than 'none'.");
        }
    }

    /** A chart without date buckets. */
    public ChartSpec(Type type, String table, String x, Optional<String> y, Aggregation aggregation,
                     Optional<String> series, List<Filter> filters, Optional<String> title) {
        this(type, table, x, y, aggregation, series, filters, title, Optional.empty());
    }

    /** The field of the measured value in the Vega-Lite data: {@code count}, {@code sum(amount)}, or the column. */
    public String valueField() {
        return switch (aggregation) {
            case COUNT -> "count";
            case NONE -> y.orElseThrow();
            default -> aggregation.wireName() + "(" + y.orElseThrow() + ")";
        };
    }

    /**
     * The label of the measured value: {@code Number of rows}, {@code Total amount}, {@code Average
     * amount}, {@code Minimum amount}, {@code Maximum amount}, or the column ({@code Amount}).
     */
    public String yLabel() {
        return switch (aggregation) {
            case COUNT -> "Number of rows";
            case SUM -> "Total " + words(y.orElseThrow());
            case AVG -> "Average " + words(y.orElseThrow());
            case MIN -> "Minimum " + words(y.orElseThrow());
            case MAX -> "Maximum " + words(y.orElseThrow());
            case NONE -> capitalized(y.orElseThrow());
        };
    }

    /** The label of the x axis: the column in words, {@code Policy type}, with its bucket: {@code Created (month)}. */
    public String xLabel() {
        return capitalized(x) + bucketSuffix();
    }

    private String bucketSuffix() {
        return bucket.map(b -> " (" + b.wireName() + ")").orElse("");
    }

    /** The label of the series column, {@code Policy type}. */
    public Optional<String> seriesLabel() {
        return series.map(ChartSpec::capitalized);
    }

    /** The title given, else {@code Average amount by region and policy type}. */
    public String displayTitle() {
        return title.orElseGet(() -> yLabel() + " by " + words(x) + bucketSuffix() + series.map(s -> " and " + words(s)).orElse(""));
    }

    /** A column name as words: underscores become spaces ({@code policy_type} is {@code policy type}). */
    static String words(String column) {
        String spaced = column.replace('_', ' ').strip().replaceAll(" {2,}", " ");
        return spaced.isEmpty() ? column : spaced;
    }

    private static String capitalized(String column) {
        String words = words(column);
        return words.substring(0, 1).toUpperCase(Locale.ROOT) + words.substring(1);
    }
}
