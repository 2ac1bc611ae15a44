package dev.sqlguard.jdbc.ansi;

import static dev.sqlguard.jdbc.ansi.AnsiErrors.unsafe;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import dev.sqlguard.domain.CostClass;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;

/**
 * The literals of the {@link AnsiRenderer}: numbers, date and time literals and time keywords, and the integer
 * and string values other checks read from literal arguments.
 */
@SuppressWarnings({"deprecation", "removal"})
final class AnsiLiterals {
    private final RenderContext ctx;
    private final AnsiDialect.Lexicon lexicon;
    private final FunctionRules rules;

    AnsiLiterals(RenderContext ctx) {
        this.ctx = ctx;
        this.lexicon = ctx.lexicon;
        this.rules = ctx.rules;
    }

    static final Pattern DIGITS = Pattern.compile("[0-9]{1,30}");

    static final Pattern DECIMAL = Pattern.compile("[0-9]{0,30}(\\.[0-9]{0,30})?([eE][+-]?[0-9]{1,3})?");

    static final Set<String> TIME_KEYS = Set.of("current_date", "current_timestamp", "localtimestamp");

    static Optional<Long> integer(Expression e) {
        Expression inner = e;
        boolean negative = false;
        if (inner instanceof SignedExpression s && s.getClass() == SignedExpression.class && (s.getSign() == '-' || s.getSign() == '+')) {
            negative = s.getSign() == '-';
            inner = s.getExpression();
        }
        if (inner != null && inner.getClass() == LongValue.class) {
            String text = ((LongValue) inner).getStringValue();
            if (DIGITS.matcher(text).matches()) {
                BigInteger v = new BigInteger(text);
                if (v.bitLength() < 62) {
                    return Optional.of(negative ? -v.longValue() : v.longValue());
                }
                return Optional.of(negative ? Long.MIN_VALUE / 2 : Long.MAX_VALUE / 2);
            }
        }
        if (inner != null && inner.getClass() == DoubleValue.class && !negative) {
            BigDecimal v = new BigDecimal(inner.toString());
            return Optional.of(v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 2)) > 0 ? Long.MAX_VALUE / 2 : v.longValue() + 1);
        }
        return Optional.empty();
    }

    static Optional<String> string(Expression e) {
        return e != null && e.getClass() == StringValue.class ? Optional.of(((StringValue) e).getNotExcapedValue()) : Optional.empty();
    }

    String timeKey(TimeKeyExpression e) {
        String key = e.getStringValue().strip().toLowerCase(Locale.ROOT);
        if (key.endsWith("()")) {
            throw unsafe("time keyword");
        }
        if (!TIME_KEYS.contains(key)) {
            if (lexicon.sqlValueKeywords().contains(key)) {
                throw rules.refusal(key);
            }
            throw unsafe("time keyword");
        }
        return timeKeyword(key);
    }

    /** A DATE, TIME, TIMESTAMP (or other) literal of a kind the engine takes, its text in the engine's form. */
    String dateTime(DateTimeLiteralExpression e) {
        Pattern form = lexicon.dateTimeLiterals().get(e.getType());
        if (form == null) {
            throw unsafe("date or time literal");
        }
        return AnsiErrors.checkedLiteral(e.getType().name() + " ", e.getValue(), form);
    }

    String timeKeyword(String key) {
        allow(key);
        return key.toUpperCase(Locale.ROOT);
    }

    static String number(LongValue v) {
        String text = v.getStringValue();
        if (!DIGITS.matcher(text).matches()) {
            throw unsafe("number literal");
        }
        return text;
    }

    // ------------------------------------------------------------------ the other parts

    private CostClass allow(String name) {
        return ctx.allow(name);
    }
}
