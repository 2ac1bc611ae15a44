package dev.sqlguard.jdbc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Set;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * Binds a plan's parameter values to a prepared statement, as the driver's own types: the values
 * never enter the SQL text. What differs between engines is the SQL type of a NULL and which
 * date and time classes the driver takes.
 */
public final class JdbcParameters {
    /** The date and time classes every driver here takes with {@code setObject}. */
    public static final Set<Class<?>> LOCAL_TEMPORALS = Set.of(LocalDate.class, LocalTime.class, LocalDateTime.class);

    private JdbcParameters() {
    }

    /**
     * @param nullType the {@link java.sql.Types} a NULL is bound as
     * @param temporals the date and time classes bound with {@code setObject}
     * @throws GuardException UNSUPPORTED_PARAMETER for a value of any other type (naming its position only)
     */
    public static void bind(PreparedStatement statement, List<Object> parameters, int nullType, Set<Class<?>> temporals)
            throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            Object v = parameters.get(i);
            int index = i + 1;
            if (v == null) {
                statement.setNull(index, nullType);
            } else if (v instanceof String s) {
                statement.setString(index, s);
            } else if (v instanceof Boolean b) {
                statement.setBoolean(index, b);
            } else if (v instanceof Integer n) {
                statement.setInt(index, n);
            } else if (v instanceof Long l) {
                statement.setLong(index, l);
            } else if (v instanceof BigInteger b) {
                statement.setBigDecimal(index, new BigDecimal(b));
            } else if (v instanceof BigDecimal b) {
                statement.setBigDecimal(index, b);
            } else if (v instanceof Double d) {
                statement.setDouble(index, d);
            } else if (temporals.contains(v.getClass())) {
                statement.setObject(index, v);
            } else {
                throw new GuardException(ErrorCode.UNSUPPORTED_PARAMETER, "Parameter " + index + " has an unsupported type.");
            }
        }
    }
}
