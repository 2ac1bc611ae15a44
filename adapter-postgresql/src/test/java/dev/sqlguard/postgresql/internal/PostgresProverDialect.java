package dev.sqlguard.postgresql.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.testing.prover.ProverDialect;
import dev.sqlguard.testing.prover.Signature;
import dev.sqlguard.testing.prover.Signature.Form;

/**
 * The catalog prover's view of PostgreSQL: signatures from {@code pg_proc} and {@code pg_aggregate}
 * (the names PostgreSQL's grammar writes as keywords, which {@code pg_proc} does not list, from the
 * grammar), and values of each type as typed SQL expressions.
 */
final class PostgresProverDialect implements ProverDialect {
    /** Polymorphic argument types: each signature is proven once with text and once with integers in their place. */
    private static final Set<String> POLYMORPHIC = Set.of("any", "anyelement", "anycompatible", "anynonarray",
            "anycompatiblenonarray");

    /** Keyword forms of the grammar (not in pg_proc), with the argument types they are proven with. */
    private static final Map<String, List<List<String>>> KEYWORDS = Map.of(
            "coalesce", List.of(List.of("int4", "int4"), List.of("text", "text")),
            "nullif", List.of(List.of("int4", "int4"), List.of("text", "text")),
            "greatest", List.of(List.of("int4", "int4"), List.of("text", "text")),
            "least", List.of(List.of("int4", "int4"), List.of("text", "text")),
            "current_date", List.of(List.of()),
            "current_timestamp", List.of(List.of()),
            "localtimestamp", List.of(List.of()));

    /** Source types every cast the catalog classifies is proven from. */
    private static final List<String> CAST_SOURCES = List.of("int4", "int8", "numeric", "float8", "text", "date", "timestamptz",
            "interval", "bool");

    private static final List<String> TEXT = List.of("NULL", "''", "repeat('x', 100000)", "repeat('é漢😀', 20000)", "' '", "'-1'",
            "'0'", "'NaN'", "'Infinity'", "'invalid'", "'fortnight'", "'Mars/Phobos'", "'+99:99'", "'%'", "'\\'", "'('", "'['",
            "'*'", "''''", "'\"'", "'TZ'", "'OF'", "'EEEE'", "'9.9.9'", "'RN'", "'V9'", "'Y,YYY'", "'FMFMFM'", "'SSSS'", "'J'",
            "'99999999999999999999'", "'9999999999999999999999999999999999999999'", "'day'", "'UTC'");

    private static final Map<String, List<String>> ADVERSARIAL = Map.ofEntries(
            Map.entry("text", TEXT),
            Map.entry("varchar", TEXT),
            Map.entry("bpchar", TEXT),
            Map.entry("int2", List.of("NULL", "0", "-1", "1", "32767", "-32768")),
            Map.entry("int4", List.of("NULL", "0", "-1", "1", "2147483647", "-2147483648", "100000")),
            Map.entry("int8", List.of("NULL", "0", "-1", "1", "9223372036854775807", "-9223372036854775808", "100000")),
            Map.entry("numeric", List.of("NULL", "0", "-1", "0.5", "-0.5", "'NaN'", "'Infinity'", "'-Infinity'", "1e100", "-1e100",
                    "1e-100", "repeat('9', 1000)", "2147483648", "100000")),
            Map.entry("float8", List.of("NULL", "0", "-1", "0.5", "'NaN'", "'Infinity'", "'-Infinity'", "1e308", "-1e308", "1e-300",
                    "2147483648")),
            Map.entry("float4", List.of("NULL", "0", "-1", "0.5", "'NaN'", "'Infinity'", "'-Infinity'", "3.4e38", "-3.4e38")),
            Map.entry("date", List.of("NULL", "'infinity'", "'-infinity'", "'4713-01-01 BC'", "'5874897-12-31'", "'0001-01-01'",
                    "'2024-02-29'")),
            Map.entry("timestamp", List.of("NULL", "'infinity'", "'-infinity'", "'4713-01-01 00:00:00 BC'", "'294276-12-31 23:59:59'",
                    "'1970-01-01 00:00:00'", "'2024-02-29 23:59:59.999999'")),
            Map.entry("timestamptz", List.of("NULL", "'infinity'", "'-infinity'", "'4713-01-01 00:00:00+00 BC'",
                    "'294276-12-31 23:59:59+00'", "'1970-01-01 00:00:00+00'", "'2024-02-29 23:59:59.999999+14'")),
            Map.entry("interval", List.of("NULL", "'0'", "'-178000000 years'", "'178000000 years'", "'2147483647 days'",
                    "'-2147483648 months'", "'1 microsecond'", "'-1 microsecond'", "'2147483647 hours'")),
            Map.entry("time", List.of("NULL", "'00:00'", "'24:00:00'", "'23:59:59.999999'")),
            Map.entry("timetz", List.of("NULL", "'00:00+15:59'", "'24:00:00-15:59'")),
            Map.entry("bool", List.of("NULL", "true", "false")),
            Map.entry("bytea", List.of("NULL", "'\\x'", "decode(repeat('ff', 50000), 'hex')", "'\\x00'")));

    private static final Map<String, List<String>> ORDINARY = Map.ofEntries(
            Map.entry("text", List.of("'day'", "'YYYY'", "'UTC'", "'hour'", "'a'", "'1'", "'9'")),
            Map.entry("varchar", List.of("'day'", "'a'", "'1'")),
            Map.entry("bpchar", List.of("'a'", "'1'")),
            Map.entry("int2", List.of("1", "2", "0")),
            Map.entry("int4", List.of("1", "2", "3", "0", "10")),
            Map.entry("int8", List.of("1", "2", "3", "0", "10")),
            Map.entry("numeric", List.of("1.5", "2", "0", "10")),
            Map.entry("float8", List.of("0.5", "1.5", "2")),
            Map.entry("float4", List.of("0.5", "1.5", "2")),
            Map.entry("date", List.of("'2024-03-15'")),
            Map.entry("timestamp", List.of("'2024-03-15 10:20:30'")),
            Map.entry("timestamptz", List.of("'2024-03-15 10:20:30+00'")),
            Map.entry("interval", List.of("'1 day'", "'1 hour'")),
            Map.entry("time", List.of("'10:20:30'")),
            Map.entry("timetz", List.of("'10:20:30+00'")),
            Map.entry("bool", List.of("true", "false")),
            Map.entry("bytea", List.of("'\\x616263'")));

    @Override
    public List<Signature> signatures(Connection connection, Set<String> functions) throws SQLException {
        List<Signature> out = new ArrayList<>();
        Set<String> names = new TreeSet<>(functions);
        for (String name : names) {
            if (name.startsWith("cast:")) {
                CAST_SOURCES.forEach(source -> out.add(new Signature(name, List.of(source), Form.CAST)));
            } else if (KEYWORDS.containsKey(name)) {
                KEYWORDS.get(name).forEach(types -> out.add(new Signature(name, types, types.isEmpty() ? Form.KEYWORD : Form.SCALAR)));
            }
        }
        try (PreparedStatement ps = connection.prepareStatement("SELECT p.proname, p.prokind, p.proretset,"
                + " ARRAY(SELECT t.typname::text FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a(oid, n)"
                + " JOIN pg_type t ON t.oid = a.oid ORDER BY a.n) AS types, a.aggkind"
                + " FROM pg_proc p LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid"
                + " WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname = ANY (?) ORDER BY 1, 4")) {
            ps.setArray(1, connection.createArrayOf("text", names.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<String> types = Arrays.asList((String[]) rs.getArray(4).getArray());
                    String kind = rs.getString(2);
                    if ("h".equals(rs.getString(5)) || (kind.equals("a") && types.isEmpty())) {
                        continue; // hypothetical-set forms of window functions, and count() (written count(*))
                    }
                    Form form = rs.getBoolean(3) ? Form.SET_RETURNING : kind.equals("w") ? Form.WINDOW
                            : kind.equals("a") ? ("o".equals(rs.getString(5)) ? Form.ORDERED_SET : Form.AGGREGATE) : Form.SCALAR;
                    if (types.stream().anyMatch(POLYMORPHIC::contains)) {
                        for (String concrete : List.of("int4", "text")) {
                            out.add(new Signature(rs.getString(1), types.stream().map(t -> POLYMORPHIC.contains(t) ? concrete : t).toList(), form));
                        }
                    } else {
                        out.add(new Signature(rs.getString(1), types, form));
                    }
                }
            }
        }
        return out;
    }

    @Override
    public boolean supports(String type) {
        return ADVERSARIAL.containsKey(type);
    }

    @Override
    public List<String> adversarial(String type) {
        return ADVERSARIAL.get(type).stream().map(v -> typed(v, type)).toList();
    }

    @Override
    public List<String> ordinary(String type) {
        return ORDINARY.get(type).stream().map(v -> typed(v, type)).toList();
    }

    @Override
    public Optional<String> sized(String type, int size) {
        return switch (type) {
            case "text", "varchar", "bpchar" -> Optional.of(typed("repeat('x', " + size * 500 + ")", type));
            case "bytea" -> Optional.of(typed("decode(repeat('ab', " + size * 500 + "), 'hex')", type));
            case "int2", "int4", "int8", "numeric", "float4", "float8" -> Optional.of(typed("9".repeat(size), type));
            default -> Optional.empty();
        };
    }

    @Override
    public String measure(Signature s, List<String> arguments) {
        String name = KEYWORDS.containsKey(s.function()) ? s.function() : "pg_catalog." + s.function();
        String call = switch (s.form()) {
            case KEYWORD -> s.function();
            case CAST -> "CAST(" + arguments.get(0) + " AS " + s.function().substring("cast:".length()) + ")";
            case WINDOW -> name + "(" + String.join(", ", arguments) + ") OVER ()";
            case ORDERED_SET -> name + "(" + String.join(", ", arguments.subList(0, arguments.size() - 1))
                    + ") WITHIN GROUP (ORDER BY " + arguments.get(arguments.size() - 1) + ")";
            default -> name + "(" + String.join(", ", arguments) + ")";
        };
        return s.form() == Form.SET_RETURNING ? "SELECT count(*) FROM (SELECT " + call + " AS v) x"
                : "SELECT octet_length(CAST(" + call + " AS text))";
    }

    @Override
    public boolean isTimeout(SQLException e) {
        return "57014".equals(e.getSQLState());
    }

    private static String typed(String value, String type) {
        return "CAST(" + value + " AS " + type + ")";
    }
}
