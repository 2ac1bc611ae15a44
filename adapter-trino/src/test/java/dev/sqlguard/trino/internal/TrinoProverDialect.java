package dev.sqlguard.trino.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.testing.prover.ProverDialect;
import dev.sqlguard.testing.prover.Signature;
import dev.sqlguard.testing.prover.Signature.Form;

/**
 * The catalog prover's view of Trino: signatures from {@code SHOW FUNCTIONS} (parametric types such
 * as {@code varchar(x)} or {@code timestamp(p)} written at one width, type variables proven once as
 * {@code bigint} and once as {@code varchar}), the special forms from the grammar, and values of each
 * type as typed SQL.
 */
final class TrinoProverDialect implements ProverDialect {
    private static final Map<String, List<List<String>>> KEYWORDS = Map.of(
            "coalesce", List.of(List.of("bigint", "bigint"), List.of("varchar", "varchar")),
            "nullif", List.of(List.of("bigint", "bigint"), List.of("varchar", "varchar")),
            "if", List.of(List.of("boolean", "bigint", "bigint"), List.of("boolean", "varchar", "varchar")),
            "current_timestamp", List.of(List.of()),
            "current_date", List.of(List.of()),
            "localtimestamp", List.of(List.of()));

    private static final List<String> CAST_SOURCES = List.of("bigint", "double", "decimal(18,3)", "varchar", "date",
            "timestamp(3)", "boolean");

    private static final List<String> TEXT = List.of("NULL", "''", "'" + "x".repeat(20000) + "'", "'" + "é漢😀".repeat(2000) + "'",
            "' '", "'-1'", "'NaN'", "'invalid'", "'fortnight'", "'Mars/Phobos'", "'%'", "'('", "''''", "'%Y%'",
            "'99999999999999999999'", "'day'", "'UTC'");

    private static final Map<String, List<String>> ADVERSARIAL = Map.ofEntries(
            Map.entry("varchar", TEXT),
            Map.entry("char(3)", List.of("NULL", "''", "'abc'", "'é漢😀'")),
            Map.entry("tinyint", List.of("NULL", "0", "-1", "127", "-128")),
            Map.entry("smallint", List.of("NULL", "0", "-1", "32767", "-32768")),
            Map.entry("integer", List.of("NULL", "0", "-1", "2147483647", "-2147483648")),
            Map.entry("bigint", List.of("NULL", "0", "-1", "1", "9223372036854775807", "-9223372036854775808", "100000")),
            Map.entry("double", List.of("NULL", "0", "-1", "0.5", "'NaN'", "'Infinity'", "'-Infinity'", "1e308", "-1e308")),
            Map.entry("real", List.of("NULL", "0", "-1", "'NaN'", "'Infinity'", "3.4e38")),
            Map.entry("decimal(18,3)", List.of("NULL", "0", "-1", "0.5", "999999999999999.999", "-999999999999999.999")),
            Map.entry("date", List.of("NULL", "'9999-12-31'", "'0001-01-01'", "'1970-01-01'")),
            Map.entry("timestamp(3)", List.of("NULL", "'9999-12-31 23:59:59.999'", "'0001-01-01 00:00:00'", "'1970-01-01 00:00:00'")),
            Map.entry("timestamp(3) with time zone", List.of("NULL", "'9999-12-31 23:59:59.999 UTC'", "'0001-01-01 00:00:00 UTC'",
                    "'2024-02-29 23:59:59.999 Pacific/Kiritimati'")),
            Map.entry("boolean", List.of("NULL", "true", "false")),
            Map.entry("varbinary", List.of("NULL", "X''", "X'FF00'")));

    private static final Map<String, List<String>> ORDINARY = Map.ofEntries(
            Map.entry("varchar", List.of("'day'", "'%Y'", "'UTC'", "'hour'", "'a'", "'1'")),
            Map.entry("char(3)", List.of("'abc'")),
            Map.entry("tinyint", List.of("1", "2", "0")),
            Map.entry("smallint", List.of("1", "2", "0")),
            Map.entry("integer", List.of("1", "2", "3", "0")),
            Map.entry("bigint", List.of("1", "2", "3", "0", "10")),
            Map.entry("double", List.of("0.5", "1.5", "2", "0.1")),
            Map.entry("real", List.of("0.5", "1.5", "2")),
            Map.entry("decimal(18,3)", List.of("1.5", "2", "0")),
            Map.entry("date", List.of("'2024-03-15'")),
            Map.entry("timestamp(3)", List.of("'2024-03-15 10:20:30'")),
            Map.entry("timestamp(3) with time zone", List.of("'2024-03-15 10:20:30 UTC'")),
            Map.entry("boolean", List.of("true", "false")),
            Map.entry("varbinary", List.of("X'616263'")));

    @Override
    public List<Signature> signatures(Connection connection, Set<String> functions) throws SQLException {
        List<Signature> out = new ArrayList<>();
        for (String name : new TreeSet<>(functions)) {
            if (name.startsWith("cast:")) {
                CAST_SOURCES.forEach(source -> out.add(new Signature(name, List.of(source), Form.CAST)));
            } else if (KEYWORDS.containsKey(name)) {
                KEYWORDS.get(name).forEach(types -> out.add(new Signature(name, types, types.isEmpty() ? Form.KEYWORD : Form.SCALAR)));
            }
        }
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SHOW FUNCTIONS")) {
            while (rs.next()) {
                String name = rs.getString(1).toLowerCase(Locale.ROOT);
                if (!functions.contains(name)) {
                    continue;
                }
                String kind = rs.getString(4);
                Form form = "window".equals(kind) ? Form.WINDOW : "aggregate".equals(kind) ? Form.AGGREGATE : Form.SCALAR;
                String raw = rs.getString(3).strip();
                List<String> types = raw.isEmpty() ? List.of() : Arrays.stream(raw.split(",(?![^(]*\\))")).map(TrinoProverDialect::normal).toList();
                if (types.stream().anyMatch(t -> t.matches("[A-Z]"))) {
                    for (String concrete : List.of("bigint", "varchar")) {
                        out.add(new Signature(name, types.stream().map(t -> t.matches("[A-Z]") ? concrete : t).toList(), form));
                    }
                } else {
                    out.add(new Signature(name, types, form));
                }
            }
        }
        return out;
    }

    /** A type as the prover writes it: parametric types at one width. */
    private static String normal(String type) {
        String t = type.strip();
        if (t.matches("[A-Z]")) {
            return t;
        }
        return t.replaceAll("^varchar\\([a-z]\\w*\\)$", "varchar").replaceAll("^char\\(\\w+\\)$", "char(3)")
                .replaceAll("^decimal\\(\\w+,\\s*\\w+\\)$", "decimal(18,3)").replaceAll("^timestamp\\(\\w+\\)", "timestamp(3)");
    }

    @Override
    public boolean supports(String type) {
        return ADVERSARIAL.containsKey(base(type));
    }

    @Override
    public List<String> adversarial(String type) {
        return ADVERSARIAL.get(base(type)).stream().map(v -> typed(v, type)).toList();
    }

    @Override
    public List<String> ordinary(String type) {
        return ORDINARY.get(base(type)).stream().map(v -> typed(v, type)).toList();
    }

    /** The value lists a type takes: a fixed-length {@code varchar(1)} takes the text values, cast to it. */
    private static String base(String type) {
        return type.matches("varchar\\(\\d+\\)") ? "varchar" : type;
    }

    @Override
    public Optional<String> sized(String type, int size) {
        return switch (type) {
            case "varchar" -> Optional.of(typed("'" + "x".repeat(size * 500) + "'", type));
            case "smallint", "integer", "bigint", "double", "real", "decimal(18,3)" -> Optional.of(typed("9".repeat(size), type));
            default -> Optional.empty();
        };
    }

    @Override
    public String measure(Signature s, List<String> arguments) {
        String call = switch (s.form()) {
            case KEYWORD -> s.function();
            case CAST -> "CAST(" + arguments.get(0) + " AS " + s.function().substring("cast:".length()) + ")";
            case WINDOW -> s.function() + "(" + String.join(", ", arguments) + ") OVER (ORDER BY 1)";
            default -> s.function() + "(" + String.join(", ", arguments) + ")";
        };
        return "SELECT length(CAST(" + call + " AS varchar))";
    }

    @Override
    public boolean isTimeout(SQLException e) {
        return String.valueOf(e.getMessage()).contains("maximum run time");
    }

    @Override
    public boolean interruptsLongCalls() {
        return false; // every call is a distributed query: only total arguments get the adversarial values, for time
    }

    private static String typed(String value, String type) {
        return "CAST(" + value + " AS " + type + ")";
    }
}
