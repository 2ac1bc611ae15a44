package dev.sqlguard.mysql.internal;

import java.math.BigInteger;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.Parenthesis;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.statement.create.table.ColDataType;

/** Literals, cast types and time units, each rendered only in a form whose meaning on the server is known. */
@SuppressWarnings({"deprecation", "removal"})
final class Literals {
    static final int MAX_NESTING = 64;

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,30}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{0,30}(\\.[0-9]{0,30})?([eE][+-]?[0-9]{1,3})?");
    private static final Pattern DATE = Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2}'");
    private static final Pattern TIME = Pattern.compile("'[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,6})?'");
    private static final Pattern TIMESTAMP = Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,6})?'");
    private static final Pattern CAST_TYPE = Pattern.compile(
            "(SIGNED|SIGNED INTEGER|SIGNED INT|UNSIGNED|UNSIGNED INTEGER|UNSIGNED INT|INTEGER|INT|DATE|DOUBLE|DOUBLE PRECISION|FLOAT|REAL)"
            + "|(DATETIME|TIME)( \\(([0-6])\\))?"
            + "|(DECIMAL|NUMERIC|DEC)( \\(([0-9]{1,2})(, ([0-9]{1,2}))?\\))?"
            + "|(CHAR|NCHAR|BINARY)( \\(([0-9]{1,5})\\))?");

    /** The time units of INTERVAL, EXTRACT and TIMESTAMPDIFF on MySQL and MariaDB. */
    static final Set<String> UNITS = Set.of("MICROSECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER",
            "YEAR", "SECOND_MICROSECOND", "MINUTE_MICROSECOND", "MINUTE_SECOND", "HOUR_MICROSECOND", "HOUR_SECOND",
            "HOUR_MINUTE", "DAY_MICROSECOND", "DAY_SECOND", "DAY_MINUTE", "DAY_HOUR", "YEAR_MONTH");

    private Literals() {
    }

    static String integer(LongValue v) {
        String text = v.getStringValue();
        if (!DIGITS.matcher(text).matches()) {
            throw unsafe("number literal");
        }
        return text;
    }

    static String decimal(DoubleValue v) {
        String text = v.toString();
        if (!DECIMAL.matcher(text).matches() || text.chars().noneMatch(Character::isDigit)) {
            throw unsafe("number literal");
        }
        return text;
    }

    static String string(StringValue s) {
        if (s.getPrefix() != null || !"'".equals(s.getQuoteStr())) {
            throw unsafe("prefixed or double-quoted string literal");
        }
        return MySqlQuoting.string(s.getNotExcapedValue());
    }

    static String dateTime(DateTimeLiteralExpression e) {
        String value = e.getValue();
        return switch (e.getType()) {
            case DATE -> checked("DATE ", value, DATE);
            case TIME -> checked("TIME ", value, TIME);
            case TIMESTAMP -> checked("TIMESTAMP ", value, TIMESTAMP);
            default -> throw unsafe("date or time literal");
        };
    }

    private static String checked(String keyword, String value, Pattern pattern) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw unsafe("date or time literal");
        }
        return keyword + value;
    }

    /** A time unit, upper case, or a refusal. */
    static String unit(String raw) {
        String unit = raw == null ? "" : raw.strip().toUpperCase(Locale.ROOT);
        if (!UNITS.contains(unit)) {
            throw unsafe("time unit");
        }
        return unit;
    }

    static String castType(ColDataType type) {
        if (type == null || type.getCharacterSet() != null || (type.getArrayData() != null && !type.getArrayData().isEmpty())
                || (type.getArgumentsStringList() != null && !type.getArgumentsStringList().isEmpty())) {
            throw unsafe("cast type");
        }
        String name = type.getDataType().toUpperCase(Locale.ROOT).strip().replaceAll("\\s+", " ");
        Matcher m = CAST_TYPE.matcher(name);
        if (!m.matches()) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED,
                    "CAST supports SIGNED, UNSIGNED, INTEGER, DECIMAL(p,s), CHAR(n), BINARY(n), DATE, DATETIME, TIME, FLOAT and DOUBLE.");
        }
        if (m.group(1) != null) {
            return m.group(1);
        }
        if (m.group(2) != null) {
            return m.group(2) + (m.group(4) == null ? "" : "(" + m.group(4) + ")");
        }
        if (m.group(5) != null) {
            return "DECIMAL" + (m.group(7) == null ? "" : "(" + m.group(7) + (m.group(9) == null ? "" : ", " + m.group(9)) + ")");
        }
        return m.group(10) + (m.group(12) == null ? "" : "(" + m.group(12) + ")");
    }

    /** Whether a cast to the rendered type keeps the value as text (never fails, never branches). */
    static boolean textCast(String rendered) {
        return rendered.startsWith("CHAR") || rendered.startsWith("NCHAR");
    }

    /**
     * An integer literal, possibly wrapped in parentheses and signs. MariaDB 10.11 reads
     * {@code ORDER BY (1)}, {@code +1} and {@code (+(+1))} as positions (measured); the magnitude
     * of any such chain is treated as a position, failing closed.
     */
    static Optional<LongValue> positionLiteral(Expression e) {
        Expression inner = e;
        for (int i = 0; i <= MAX_NESTING; i++) {
            if (inner != null && inner.getClass() == LongValue.class) {
                return Optional.of((LongValue) inner);
            }
            if (inner != null && inner.getClass() == SignedExpression.class) {
                inner = ((SignedExpression) inner).getExpression();
            } else if (inner instanceof Parenthesis p) {
                inner = p.getExpression();
            } else if (inner != null && inner.getClass() == ParenthesedExpressionList.class && ((ParenthesedExpressionList<?>) inner).size() == 1) {
                inner = ((ParenthesedExpressionList<?>) inner).get(0);
            } else {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the signs around a {@link #positionLiteral} make it negative (an odd number of minus signs).
     * MariaDB 10.11 folds them into the literal and reads {@code GROUP BY -1}, {@code - 1}, {@code -(1)},
     * {@code (-1)}, {@code +-1} and {@code - - - 1} as position -1, which it refuses (1054 "Unknown column
     * '-1' in 'GROUP BY'"), and {@code - -1} as position 1 (measured).
     */
    static boolean negativePosition(Expression e) {
        boolean negative = false;
        Expression inner = e;
        for (int i = 0; i <= MAX_NESTING && inner != null; i++) {
            if (inner.getClass() == SignedExpression.class) {
                negative ^= ((SignedExpression) inner).getSign() == '-';
                inner = ((SignedExpression) inner).getExpression();
            } else if (inner instanceof Parenthesis p) {
                inner = p.getExpression();
            } else if (inner.getClass() == ParenthesedExpressionList.class && ((ParenthesedExpressionList<?>) inner).size() == 1) {
                inner = ((ParenthesedExpressionList<?>) inner).get(0);
            } else {
                break;
            }
        }
        return negative;
    }

    /** A LIMIT or OFFSET number. */
    static long limitNumber(Expression e) {
        if (!(e instanceof LongValue v) || !DIGITS.matcher(v.getStringValue()).matches()) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "LIMIT and OFFSET take plain numbers, not parameters or expressions.");
        }
        BigInteger value = new BigInteger(v.getStringValue());
        return value.bitLength() > 62 ? Long.MAX_VALUE / 2 : value.longValue();
    }

    static GuardException unsafe(String what) {
        String shown = what.length() <= 40 && what.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == ' ')
                ? what : "this construct";
        return new GuardException(ErrorCode.UNSAFE_SYNTAX, "The query uses syntax this source cannot check and render safely (" + shown + ").");
    }
}
