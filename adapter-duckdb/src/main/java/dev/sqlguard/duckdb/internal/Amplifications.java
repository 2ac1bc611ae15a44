package dev.sqlguard.duckdb.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.duckdb.internal.PlanValue.Size;

/**
 * The rules that bound what one call of an {@link dev.sqlguard.domain.CostClass#AMPLIFYING} function
 * can build, from its literal arguments: the same rules for the parse-tree gate (before DuckDB's
 * binder folds constant arguments, which evaluates them) and for the bound plan.
 */
final class Amplifications {
    /** The most one strftime specifier expands to. */
    static final int STRFTIME_WIDTH = 32;

    private static final Pattern PRINTF_SPEC = Pattern.compile("%[-+ #0']*(\\*|\\d*)(?:\\.(\\*|\\d*))?[a-zA-Z%]");
    private static final Pattern DIGITS = Pattern.compile("\\d+");

    /** A call's arguments as far as a rule needs them. */
    interface Arguments {
        int count();

        /** Argument {@code i} if it is an integer literal (under casts). */
        Optional<Long> integer(int i);

        /** Argument {@code i} if it is a text literal (under casts). */
        Optional<String> string(int i);

        /** How large argument {@code i} can be. */
        Size size(int i);

        /** Argument {@code i}'s type as DuckDB's plan writes it ({@code {"id": ...}}), where known. */
        default Optional<JsonNode> type(int i) {
            return Optional.empty();
        }
    }

    /**
     * How text is written: by {@code to_json} (every character of a string may become a six-character
     * escape, strings are quoted) or by a cast to VARCHAR (a string stays as it is,
     * inside a list or struct it is quoted and its quotes escaped).
     */
    enum Text {
        JSON(6, 6, 5),
        CAST(1, 2, 4);

        final long top;
        final long nested;
        final long perByte;

        Text(long top, long nested, long perByte) {
            this.top = top;
            this.nested = nested;
            this.perByte = perByte;
        }
    }

    /**
     * What writing a value of some type as text builds: {@code data} characters per unit of its
     * data-sized part, {@code fixed} per unit of its literal or fixed-width part, plus {@code overhead}
     * (quotes, brackets, keys).
     */
    record Render(long data, long fixed, long overhead) {
        Size of(Size in) {
            return new Size(Size.saturatedAdd(Size.saturatedMultiply(in.abs(), fixed), overhead),
                    Size.saturatedMultiply(in.rel(), data), Size.saturatedMultiply(in.elem(), data));
        }
    }

    /**
     * The most characters a fixed-width value of each type is written as (DuckDB 2.0, a cast to VARCHAR
     * or to_json, extremes included: {@code -170141183460469231731687303715884105728},
     * {@code -178000000 years -11 months -2147483647 days -2562047788:00:54.775807} is 69 characters,
     * {@code 290309-12-22 (BC) 00:00:00.123456} 33, plus up to 6 for a time zone offset; to_json writes
     * a FLOAT as a DOUBLE); a test checks
     * each against the widest values of its type.
     */
    private static final Map<String, Long> WIDTHS = Map.ofEntries(Map.entry("BOOLEAN", 5L), Map.entry("TINYINT", 4L),
            Map.entry("SMALLINT", 6L), Map.entry("INTEGER", 11L), Map.entry("BIGINT", 20L), Map.entry("HUGEINT", 40L),
            Map.entry("UTINYINT", 3L), Map.entry("USMALLINT", 5L), Map.entry("UINTEGER", 10L), Map.entry("UBIGINT", 20L),
            Map.entry("UHUGEINT", 39L), Map.entry("FLOAT", 25L), Map.entry("DOUBLE", 25L), Map.entry("DATE", 20L),
            Map.entry("TIME", 15L), Map.entry("TIME_NS", 18L), Map.entry("TIMESTAMP", 36L), Map.entry("TIMESTAMP_S", 36L),
            Map.entry("TIMESTAMP_MS", 36L), Map.entry("TIMESTAMP_NS", 32L), Map.entry("TIMESTAMP WITH TIME ZONE", 42L), Map.entry("TIMESTAMPTZ_NS", 42L),
            Map.entry("TIME WITH TIME ZONE", 24L), Map.entry("INTERVAL", 72L), Map.entry("UUID", 36L), Map.entry("SQLNULL", 4L));

    /** How a value of {@code type} is written as text; an unknown type is written like text. */
    static Render render(JsonNode type, Text text) {
        return render(type, text, false);
    }

    private static Render render(JsonNode type, Text text, boolean nested) {
        String id = type.path("id").asText("");
        JsonNode info = type.path("type_info");
        boolean quoted = nested || text == Text.JSON;
        switch (id) {
            case "LIST", "ARRAY" -> {
                return collection(render(info.path("child_type"), text, true), text);
            }
            case "MAP" -> {
                return collection(render(info.path("child_type"), text, true), text);
            }
            case "STRUCT", "UNION", "TUPLE" -> {
                // a struct built in the query counts its fixed-width fields in its literal part, one read
                // from a table counts them in its data part: the keys and the fixed-width fields' widths
                // are written once per struct whatever counts them, so they go into the overhead
                long data = 0;
                long fixed = 0;
                long overhead = 2;
                for (JsonNode field : info.path("child_types")) {
                    Render r = render(field.path("second"), text, true);
                    data = Math.max(data, r.data());
                    fixed = Math.max(fixed, r.fixed());
                    long fixedWidth = BoundExpressions.fixedType(field.path("second")) ? r.fixed() : 0;
                    overhead = Size.saturatedAdd(overhead, Size.saturatedAdd(Size.saturatedAdd(r.overhead(), fixedWidth),
                            field.path("first").asText("").length() + 4));
                }
                return new Render(data, fixed, overhead);
            }
            case "BLOB" -> {
                return new Render(text.perByte, text.perByte, quoted ? 2 : 0);
            }
            case "BIT" -> {
                return new Render(8, 8, quoted ? 2 : 0);
            }
            case "DECIMAL" -> {
                return new Render(0, Math.max(3, info.path("width").asLong(38)) + 2, 0);
            }
            default -> {
                Long width = WIDTHS.get(id);
                if (width != null) {
                    return new Render(0, width, text == Text.JSON ? 2 : 0);
                }
                if (text == Text.JSON && "JSON".equals(info.path("alias").asText(""))) {
                    return new Render(1, 1, 0); // to_json of JSON is the JSON itself
                }
                long per = nested ? text.nested : text.top;
                return new Render(per, per, quoted ? 2 : 0);
            }
        }
    }

    /** A list's elements: each counts at least one unit, written with its overhead and a separator. */
    private static Render collection(Render element, Text text) {
        long per = Size.saturatedAdd(Math.max(element.data(), element.fixed()), Size.saturatedAdd(element.overhead(), text == Text.JSON ? 1 : 2));
        return new Render(per, per, 2);
    }

    /** The size of the call's result, and the facts the domain decides on. */
    record Outcome(Size size, List<Amplification> facts) {
    }

    private Amplifications() {
    }

    static Outcome apply(String name, FunctionCosts.Rule rule, Arguments args) {
        List<Amplification> facts = new ArrayList<>();
        Size size = switch (rule) {
            case LINEAR -> throw new IllegalArgumentException("not amplifying: " + name);
            case REPEAT -> {
                Optional<Long> count = args.integer(1);
                if (count.isEmpty() || args.count() < 1) {
                    yield unbounded(name, facts);
                }
                yield recorded(name, args.size(0).times(Math.max(0, count.get())), facts);
            }
            case PAD, BITSTRING -> absolute(name, args.integer(1), facts);
            case RESIZE -> {
                // n elements, each the fill value (NULL by default) where the list is shorter
                Optional<Long> n = args.integer(1);
                if (n.isEmpty()) {
                    yield unbounded(name, facts);
                }
                Size fill = args.count() > 2 ? args.size(2).max(Size.FIXED) : Size.FIXED;
                yield recorded(name, args.size(0).plus(fill.times(Math.max(0, n.get()))), facts);
            }
            case BINS -> absolute(name, args.integer(2), facts);
            case BAR -> absolute(name, args.count() > 3 ? args.integer(3) : Optional.of(80L), facts);
            case TO_BASE -> absolute(name, args.count() > 2 ? args.integer(2).map(n -> Math.max(64, n)) : Optional.of(64L), facts);
            case FORMAT, PRINTF -> {
                Optional<String> format = args.string(0);
                long widths = format.isEmpty() ? -1 : widths(format.get(), rule == FunctionCosts.Rule.FORMAT);
                if (widths < 0) {
                    yield unbounded(name, facts);
                }
                facts.add(Amplification.absolute(name, widths));
                Size out = new Size(format.get().length() + widths, 0);
                for (int i = 1; i < args.count(); i++) {
                    out = out.plus(args.size(i));
                }
                yield out;
            }
            case SERIES -> absolute(name, seriesLength(args), facts);
            case SELECT -> {
                // each index copies one element of the list: at most as many copies as the indexes hold
                Size indexes = args.count() > 1 ? args.size(1) : Size.NONE;
                if (args.count() < 2 || indexes.dataSized()) {
                    yield unbounded(name, facts);
                }
                yield recorded(name, args.size(0).times(Math.max(1, indexes.abs())), facts);
            }
            case QUADRATIC -> {
                // the work is the product of both lengths: one side must be a literal, whose length is the factor
                long shortest = Long.MAX_VALUE;
                for (int i = 0; i < Math.min(2, args.count()); i++) {
                    Optional<String> literal = args.string(i);
                    if (literal.isPresent()) {
                        shortest = Math.min(shortest, literal.get().length());
                    }
                }
                if (shortest == Long.MAX_VALUE) {
                    yield unbounded(name, facts);
                }
                facts.add(Amplification.relative(name, Math.max(1, shortest)));
                yield Size.FIXED;
            }
            case REPLACE, REGEXP_REPLACE -> {
                Optional<String> replacement = args.string(2);
                if (replacement.isEmpty() || args.count() < 1) {
                    yield unbounded(name, facts);
                }
                long factor = Math.max(1, replacement.get().length()) + (rule == FunctionCosts.Rule.REGEXP_REPLACE ? 1 : 0);
                yield recorded(name, args.size(0).times(factor), facts);
            }
            case HEX, BIN, URL_ENCODE, BASE64, TO_JSON -> {
                if (args.count() < 1) {
                    yield unbounded(name, facts);
                }
                yield recorded(name, expanded(rule, args.size(0), args.type(0)), facts);
            }
            case JOIN -> {
                // the elements written as text, and the separator once per element
                if (args.count() < 1) {
                    yield unbounded(name, facts);
                }
                Size list = args.size(0);
                Size text = args.type(0).map(t -> render(t, Text.CAST).of(list)).orElse(list.times(WIDEST));
                Size separators = list.product(args.count() > 1 ? args.size(1) : Size.FIXED);
                yield separators.unbounded() ? unbounded(name, facts) : recorded(name, text.plus(separators), facts);
            }
            case LIST_AGGREGATE -> {
                if (args.count() < 1) {
                    yield unbounded(name, facts);
                }
                Size list = args.size(0);
                Size extra = Size.NONE;
                for (int i = 2; i < args.count(); i++) {
                    extra = extra.max(args.size(i));
                }
                Size separators = list.product(extra);
                yield separators.unbounded() ? unbounded(name, facts) : recorded(name, list.plus(separators), facts);
            }
            case CONCAT_WS -> {
                if (args.count() < 1) {
                    yield unbounded(name, facts);
                }
                Size out = args.size(0).times(Math.max(0, args.count() - 2));
                for (int i = 1; i < args.count(); i++) {
                    out = out.plus(args.size(i));
                }
                yield out;
            }
            case STRFTIME -> {
                Optional<String> format = args.string(1).or(() -> args.string(0));
                if (format.isEmpty()) {
                    yield unbounded(name, facts);
                }
                yield absolute(name, Optional.of(Size.saturatedMultiply(format.get().length(), STRFTIME_WIDTH)), facts);
            }
        };
        return new Outcome(size, facts);
    }

    /**
     * A function that applies a lambda to each element of a list: at most as many results as the list
     * has elements, each as large as the lambda's result. The result's size is {@code body.abs}
     * characters, plus {@code body.elem} times the element (all elements together are the list), plus
     * {@code body.rel} times a data-sized value it captured (another column, or the list itself). Over a
     * list of literal size that is a bounded multiple; over a data-sized list, a captured data-sized
     * value is a product of two data sizes (a 200-element list captured in a lambda over itself, twice,
     * built 8,000,000 elements): unbounded. So is the {@code work} of one application when it goes
     * through such a value ({@code list_contains(l, x)} for every element of {@code l}: 50,000
     * elements ran past a 3 s limit), though comparing an element with it is linear. {@code reduce}
     * folds results into each other, so only a fixed-width result is bounded.
     */
    static Outcome lambda(String name, Size list, Size body, Size work, boolean bodyFixed) {
        List<Amplification> facts = new ArrayList<>();
        if (work.rel() > 0 && list.dataSized()) {
            throw new GuardException(ErrorCode.UNBOUNDED_COST, SafeText.operation(name) + " applies a lambda that works "
                    + "through a value from the data (a column, or the list itself) for every element of a list from the "
                    + "data, which takes the product of both sizes: use only the lambda's own parameters, compare them "
                    + "with the value, or map over a list of literals.");
        }
        if (name.endsWith("reduce")) {
            return new Outcome(bodyFixed ? Size.FIXED : unbounded(name, facts), facts);
        }
        if (body.rel() > 0 && list.dataSized()) {
            throw new GuardException(ErrorCode.UNBOUNDED_COST, SafeText.operation(name) + " applies a lambda whose result "
                    + "holds a value from the data (a column, or the list itself) to every element of a list from the data, "
                    + "which builds the product of both sizes: use only the lambda's own parameters in its result, or map "
                    + "over a list of literals.");
        }
        Size out = list.plus(list.times(body.abs())).plus(list.times(body.elem()))
                .plus(new Size(0, Size.saturatedMultiply(list.abs(), body.rel())));
        if (out.abs() > 0) {
            facts.add(Amplification.absolute(name, out.abs()));
        }
        if (out.rel() > 1) {
            facts.add(Amplification.relative(name, out.rel()));
        }
        return new Outcome(out, facts);
    }

    /** The widest a fixed-width value is written, for an argument whose type is unknown. */
    private static final long WIDEST = 128;

    /** What one call of a fixed-factor expander builds from an argument of size {@code in}. */
    static Size expanded(FunctionCosts.Rule rule, Size in, Optional<JsonNode> type) {
        String id = type.map(t -> t.path("id").asText("")).orElse("");
        boolean fixedWidth = type.isPresent() && BoundExpressions.fixedType(type.get());
        return switch (rule) {
            case HEX -> fixedWidth ? new Size(32, 0) : "BLOB".equals(id) ? in.times(2) : type.isPresent() ? in.times(8)
                    : in.times(8).max(new Size(32, 0));
            case BIN -> fixedWidth ? new Size(128, 0) : "BLOB".equals(id) ? in.times(8) : type.isPresent() ? in.times(32)
                    : in.times(32).max(new Size(128, 0));
            case URL_ENCODE -> in.times(12);
            case BASE64 -> in.times(2).plus(new Size(2, 0));
            case TO_JSON -> type.map(t -> render(t, Text.JSON).of(in)).orElse(in.times(WIDEST).plus(new Size(2, 0)));
            default -> throw new IllegalArgumentException("not a fixed-factor rule: " + rule);
        };
    }

    private static Size absolute(String name, Optional<Long> n, List<Amplification> facts) {
        if (n.isEmpty()) {
            return unbounded(name, facts);
        }
        long value = Math.max(0, n.get());
        facts.add(Amplification.absolute(name, value));
        return new Size(value, 0);
    }

    private static Size recorded(String name, Size out, List<Amplification> facts) {
        if (out.unbounded()) {
            return unbounded(name, facts);
        }
        if (out.rel() > 0) {
            facts.add(Amplification.relative(name, out.rel()));
        }
        facts.add(Amplification.absolute(name, out.abs()));
        return out;
    }

    private static Size unbounded(String name, List<Amplification> facts) {
        facts.add(Amplification.unbounded(name));
        return Size.UNBOUNDED;
    }

    /** The widths and precisions a format string asks for, or -1 when one comes from an argument. */
    static long widths(String format, boolean braces) {
        return braces ? braceWidths(format) : printfWidths(format);
    }

    /**
     * {@code format}'s fmt syntax: {@code {}}, {@code {0}}, {@code {:>10}}, {@code {:.3f}}, with
     * {@code {{}} and {@code }}} as literal braces. A replacement field holding another field
     * ({@code {:>{}}}) takes its width from an argument: unbounded.
     */
    private static long braceWidths(String format) {
        long total = 0;
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i);
            if (c == '{' && i + 1 < format.length() && format.charAt(i + 1) == '{') {
                i += 2;
                continue;
            }
            if (c != '{') {
                i++;
                continue;
            }
            int end = format.indexOf('}', i + 1);
            int nested = format.indexOf('{', i + 1);
            if (end < 0 || (nested >= 0 && nested < end)) {
                return -1;
            }
            Matcher digits = DIGITS.matcher(format.substring(i + 1, end));
            while (digits.find()) {
                total = addDigits(total, digits.group());
            }
            i = end + 1;
        }
        return total;
    }

    private static long printfWidths(String format) {
        long total = 0;
        Matcher m = PRINTF_SPEC.matcher(format);
        while (m.find()) {
            for (int g = 1; g <= 2; g++) {
                String part = m.group(g);
                if ("*".equals(part)) {
                    return -1;
                }
                if (part != null && !part.isEmpty()) {
                    total = addDigits(total, part);
                }
            }
        }
        return total;
    }

    private static long addDigits(long total, String digits) {
        if (digits.length() > 12) {
            return Size.CAP;
        }
        return Math.min(Size.CAP, total + Long.parseLong(digits));
    }

    /** The number of elements of {@code range(...)} or {@code generate_series(...)} with literal integer bounds. */
    private static Optional<Long> seriesLength(Arguments args) {
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < args.count(); i++) {
            Optional<Long> v = args.integer(i);
            if (v.isEmpty()) {
                return Optional.empty();
            }
            values.add(v.get());
        }
        long start = values.size() >= 2 ? values.get(0) : 0;
        long stop = values.size() >= 2 ? values.get(1) : values.isEmpty() ? 0 : values.get(0);
        long step = values.size() >= 3 ? values.get(2) : 1;
        if (step == 0) {
            return Optional.empty();
        }
        double count = Math.ceil(((double) stop - (double) start) / step) + 1;
        return Optional.of((long) Math.max(0, Math.min(count, Size.CAP)));
    }
}
