package dev.sqlguard.duckdb.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.Amplification;
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
            case PAD, RESIZE, BITSTRING -> absolute(name, args.integer(1), facts);
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
                if (args.count() < 2 || indexes.rel() > 0) {
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
     * has elements, each as large as the lambda's result (whose parameter already stands for the whole
     * list). {@code reduce} folds results into each other, so only a fixed-width result is bounded.
     */
    static Outcome lambda(String name, Size list, Size body, boolean bodyFixed) {
        List<Amplification> facts = new ArrayList<>();
        if (name.endsWith("reduce")) {
            return new Outcome(bodyFixed ? Size.FIXED : unbounded(name, facts), facts);
        }
        Size out = list.plus(new Size(Size.saturatedMultiply(list.abs(), body.abs()),
                Size.saturatedMultiply(list.rel(), body.abs()) + body.rel()));
        if (out.abs() > 0) {
            facts.add(Amplification.absolute(name, out.abs()));
        }
        if (out.rel() > 1) {
            facts.add(Amplification.relative(name, out.rel()));
        }
        return new Outcome(out, facts);
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
        if (out.rel() > 0) {
            facts.add(Amplification.relative(name, out.rel()));
        }
        facts.add(Amplification.absolute(name, out.abs()));
        return out;
    }

    private static Size unbounded(String name, List<Amplification> facts) {
        facts.add(Amplification.unbounded(name));
        return new Size(Size.CAP, Size.CAP);
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
