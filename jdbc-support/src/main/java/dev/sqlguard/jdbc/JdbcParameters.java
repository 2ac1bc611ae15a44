package dev.sqlguard.jdbc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * Binds a plan's parameter values to a prepared statement, as the driver's own types: the values
 * never enter the SQL text. What differs between engines is the SQL type of a NULL and which
 * classes the driver takes with {@code setObject}:
 * <ul>
 *   <li>{@code byte[]} binds with {@code setBytes} (a BLOB, BYTEA or VARBINARY value);</li>
 *   <li>a {@link UUID} binds with {@code setObject} where the driver takes it (PostgreSQL's
 *       {@code uuid}), else as its text (MySQL and MariaDB keep UUIDs as text; Trino compares it
 *       with {@code CAST(? AS uuid)});</li>
 *   <li>an {@link OffsetDateTime} or {@link Instant} binds as whichever of the two the driver takes
 *       (an instant at UTC); a driver that takes neither refuses it.</li>
 * </ul>
 */
public final class JdbcParameters {
    /** The date and time classes every driver here takes with {@code setObject}. */
    public static final Set<Class<?>> LOCAL_TEMPORALS = Set.of(LocalDate.class, LocalTime.class, LocalDateTime.class);
    /** The local classes and {@link OffsetDateTime}: MySQL Connector/J, which converts it to the session time zone. */
    public static final Set<Class<?>> OFFSET_TEMPORALS = Set.of(LocalDate.class, LocalTime.class, LocalDateTime.class,
            OffsetDateTime.class);
    /** The local classes and {@link Instant}: the Trino driver, which sends it as a timestamp with time zone at UTC. */
    public static final Set<Class<?>> INSTANT_TEMPORALS = Set.of(LocalDate.class, LocalTime.class, LocalDateTime.class,
            Instant.class);

    private JdbcParameters() {
    }

    /**
     * @param nullType the {@link java.sql.Types} a NULL is bound as
     * @param objects the classes bound with {@code setObject} (date and time classes, and {@link UUID} where
     *     the driver binds it natively)
     * @throws GuardException UNSUPPORTED_PARAMETER for a value of any other type (naming its position only)
     */
    public static void bind(PreparedStatement statement, List<Object> parameters, int nullType, Set<Class<?>> objects)
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
            } else if (v instanceof Float f) {
                statement.setDouble(index, f);
            } else if (v instanceof byte[] bytes) {
                statement.setBytes(index, bytes);
            } else if (v instanceof UUID u) {
                if (objects.contains(UUID.class)) {
                    statement.setObject(index, u);
                } else {
                    statement.setString(index, u.toString());
                }
            } else if (v instanceof OffsetDateTime || v instanceof Instant) {
                bindInstant(statement, index, v, objects);
            } else if (objects.contains(v.getClass())) {
                statement.setObject(index, v);
            } else {
                throw new GuardException(ErrorCode.UNSUPPORTED_PARAMETER, "Parameter " + index + " has an unsupported type.");
            }
        }
    }

    private static void bindInstant(PreparedStatement statement, int index, Object v, Set<Class<?>> objects) throws SQLException {
        if (objects.contains(v.getClass())) {
            statement.setObject(index, v);
        } else if (v instanceof Instant instant && objects.contains(OffsetDateTime.class)) {
            statement.setObject(index, instant.atOffset(ZoneOffset.UTC));
        } else if (v instanceof OffsetDateTime time && objects.contains(Instant.class)) {
            statement.setObject(index, time.toInstant());
        } else {
            throw new GuardException(ErrorCode.UNSUPPORTED_PARAMETER,
                    "Parameter " + index + " is a timestamp with a time zone, which this engine cannot bind.");
        }
    }
}
