package dev.sqlguard.jdbc.ansi;

import static dev.sqlguard.jdbc.ansi.AnsiLiterals.integer;
import static dev.sqlguard.jdbc.ansi.AnsiLiterals.string;

import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.jdbc.ansi.Flows.Flow;
import dev.sqlguard.jdbc.ansi.Flows.Value;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;

/**
 * How much a call may build ({@link Amplification}): the amplifying functions, the size arguments, the fixed
 * factors of quoting functions and the copies a concatenation makes, recorded with the facts.
 */
@SuppressWarnings({"deprecation", "removal"})
final class Amplifications {
    private final RenderContext ctx;
    private final FunctionRules rules;
    private final RenderFacts facts;

    Amplifications(RenderContext ctx) {
        this.ctx = ctx;
        this.rules = ctx.rules;
        this.facts = ctx.facts;
    }

    private static final Pattern INTERVAL_STEP = Pattern.compile("'\\s*([0-9]{1,6})\\s*(day|days|week|weeks|month|months|mons?|year|years|hour|hours)\\s*'",
            Pattern.CASE_INSENSITIVE);

    /** How many values a date or timestamp series with a one-unit interval step yields, roughly (never fewer). */
    static Optional<Long> dateSeriesLength(List<Expression> args) {
        if (args.size() != 3 || !(args.get(0) instanceof DateTimeLiteralExpression a) || !(args.get(1) instanceof DateTimeLiteralExpression b)
                || !(args.get(2) instanceof IntervalExpression step) || step.getParameter() == null) {
            return Optional.empty();
        }
        Matcher m = INTERVAL_STEP.matcher(step.getParameter());
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            java.time.LocalDate from = java.time.LocalDate.parse(a.getValue().substring(1, 11));
            java.time.LocalDate to = java.time.LocalDate.parse(b.getValue().substring(1, 11));
            long n = Long.parseLong(m.group(1));
            if (n == 0) {
                return Optional.empty();
            }
            String unit = m.group(2).toLowerCase(Locale.ROOT);
            long days = Math.max(0, java.time.temporal.ChronoUnit.DAYS.between(from, to)) + 1;
            long perStep = unit.startsWith("hour") ? 0 : unit.startsWith("day") ? n : unit.startsWith("week") ? 7 * n
                    : unit.startsWith("mon") ? 28 * n : 365 * n;
            return Optional.of(perStep == 0 ? days * 24 / n + 1 : days / perStep + 1);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Total functions that multiply their input by a fixed factor: {@code quote_ident} and
     * {@code quote_literal} double every quote (and backslash) and add two. Nested, the factors
     * multiply (measured on PostgreSQL 15: {@code quote_ident} 30 deep ran 35 s under a 3 s
     * statement_timeout and asked for 1.6 GB), so each call is recorded with the product of the
     * factors its value has passed, in the call's own arguments and through CTEs and subqueries.
     */
    static final Map<String, Long> FIXED_FACTORS = Map.of("quote_ident", 2L, "quote_literal", 2L, "quote_nullable", 2L);

    static long compounded(long factor, List<Expression> params, List<Value> args) {
        long product = factor;
        for (Value v : args) {
            for (Flow flow : v.flows()) {
                long p = factor;
                for (FlowStep step : flow.chain()) {
                    p = times(p, FIXED_FACTORS.getOrDefault(step.operation(), 1L));
                }
                product = Math.max(product, p);
            }
        }
        for (Expression p : params) {
            product = Math.max(product, times(factor, nestedFactor(p)));
        }
        return product;
    }

    /** The product of the fixed factors of the calls nested in an expression, along its deepest path. */
    private static long nestedFactor(Expression e) {
        if (e instanceof Function f) {
            long inner = 1;
            if (f.getParameters() != null) {
                for (Expression p : f.getParameters()) {
                    inner = Math.max(inner, nestedFactor(p));
                }
            }
            List<String> parts = f.getMultipartName();
            String name = parts == null || parts.isEmpty() ? "" : parts.get(parts.size() - 1).toLowerCase(java.util.Locale.ROOT);
            return times(inner, FIXED_FACTORS.getOrDefault(name, 1L));
        }
        if (e instanceof BinaryExpression b) {
            return Math.max(nestedFactor(b.getLeftExpression()), nestedFactor(b.getRightExpression()));
        }
        if (e instanceof CastExpression c) {
            return nestedFactor(c.getLeftExpression());
        }
        if (e instanceof ParenthesedExpressionList<?> list) {
            long most = 1;
            for (Expression item : list) {
                most = Math.max(most, nestedFactor(item));
            }
            return most;
        }
        return 1;
    }

    private static long times(long a, long b) {
        return a > Long.MAX_VALUE / 4 / Math.max(1, b) ? Long.MAX_VALUE / 4 : a * b;
    }

    /**
     * A concatenation builds as many data values as flow into it: {@code x || x} through nested
     * CTEs doubles at every level. Recorded as a relative amplification by that count.
     */
    void copies(String name, Value value) {
        if (value.flows().size() > 1) {
            record(Amplification.relative(name, value.flows().size()));
        }
    }

    /**
     * A call's size arguments ({@link FunctionRules#sizeArguments}): an integer literal there multiplies
     * the output by at most its value, anything else leaves it unbounded (measured on PostgreSQL 15:
     * {@code round(1, 100000)} builds 100,002 characters).
     */
    void sizeArguments(String name, List<Expression> params) {
        for (int position : rules.sizeArguments().getOrDefault(name, Set.of())) {
            if (position < params.size()) {
                Optional<Long> n = integer(params.get(position));
                record(n.map(v -> Amplification.relative(name, Math.max(1, v == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(v))))
                        .orElseGet(() -> Amplification.unbounded(name)));
            }
        }
    }

    void amplification(String name, List<Expression> args, List<Value> values) {
        boolean nested = values.stream().flatMap(v -> v.flows().stream()).flatMap(f -> f.chain().stream())
                .anyMatch(step -> step.costClass() == CostClass.AMPLIFYING);
        long copies = Math.max(1, values.isEmpty() ? 1 : values.get(0).flows().size());
        Amplification call;
        switch (name) {
            case "repeat" -> {
                Optional<Long> n = args.size() == 2 ? integer(args.get(1)) : Optional.empty();
                Optional<String> s = args.isEmpty() ? Optional.empty() : string(args.get(0));
                call = n.isEmpty() || nested ? Amplification.unbounded(name) : s.isPresent()
                        ? Amplification.absolute(name, Math.max(0, n.get()) * s.get().length())
                        : Amplification.relative(name, Math.max(0, n.get()) * copies);
            }
            case "lpad", "rpad" -> {
                Optional<Long> n = args.size() >= 2 ? integer(args.get(1)) : Optional.empty();
                call = n.isEmpty() ? Amplification.unbounded(name) : Amplification.absolute(name, Math.max(0, n.get()));
            }
            case "replace" -> {
                Optional<String> from = args.size() == 3 ? string(args.get(1)) : Optional.empty();
                Optional<String> to = args.size() == 3 ? string(args.get(2)) : Optional.empty();
                call = from.isEmpty() || to.isEmpty() || from.get().isEmpty() || nested ? Amplification.unbounded(name)
                        : Amplification.relative(name, copies * Math.max(1, (to.get().length() + from.get().length() - 1) / from.get().length()));
            }
            case "generate_series" -> call = seriesLength(args).map(n -> Amplification.absolute(name, n))
                    .orElseGet(() -> Amplification.unbounded(name));
            default -> call = Amplification.unbounded(name);
        }
        record(call);
    }

    static Optional<Long> seriesLength(List<Expression> args) {
        if (args.size() < 2 || args.size() > 3) {
            return Optional.empty();
        }
        Optional<Long> start = integer(args.get(0));
        Optional<Long> stop = integer(args.get(1));
        Optional<Long> step = args.size() == 3 ? integer(args.get(2)) : Optional.of(1L);
        if (start.isEmpty() || stop.isEmpty() || step.isEmpty() || step.get() == 0) {
            return Optional.empty();
        }
        BigInteger span = BigInteger.valueOf(stop.get()).subtract(BigInteger.valueOf(start.get()));
        BigInteger count = span.divide(BigInteger.valueOf(step.get()));
        if (count.signum() < 0) {
            return Optional.of(0L);
        }
        BigInteger n = count.add(BigInteger.ONE);
        return Optional.of(n.bitLength() > 62 ? Long.MAX_VALUE : n.longValue());
    }

    // ------------------------------------------------------------------ the other parts

    private void record(Amplification call) {
        facts.record(call);
    }
}
