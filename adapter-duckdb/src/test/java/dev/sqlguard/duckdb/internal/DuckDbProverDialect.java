package dev.sqlguard.duckdb.internal;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
 * The catalog prover's view of DuckDB: signatures from {@code duckdb_functions()} (a macro's untyped
 * parameters get the first concrete types DuckDB binds), and values of each type as typed SQL.
 */
final class DuckDbProverDialect implements ProverDialect {
    /** Generic parameter types: each signature is proven once with VARCHAR and once with INTEGER in their place. */
    private static final Set<String> GENERIC = Set.of("ANY", "T", "K", "V");

    /** Types tried, in order, for a macro's untyped parameters. */
    private static final List<String> MACRO_TYPES = List.of("VARCHAR", "INTEGER", "INTEGER[]", "DOUBLE", "DATE", "TIMESTAMP",
            "INTERVAL");

    /** Element types of the list types the prover writes. */
    private static final Set<String> LIST_ELEMENTS = Set.of("INTEGER", "BIGINT", "DOUBLE", "VARCHAR", "BOOLEAN");

    /** Keyword forms of the grammar, not in duckdb_functions(), with the argument types they are proven with. */
    private static final Map<String, List<List<String>>> KEYWORDS = Map.of(
            "coalesce", List.of(List.of("INTEGER", "INTEGER"), List.of("VARCHAR", "VARCHAR")),
            "ifnull", List.of(List.of("INTEGER", "INTEGER"), List.of("VARCHAR", "VARCHAR")),
            "if", List.of(List.of("BOOLEAN", "INTEGER", "INTEGER"), List.of("BOOLEAN", "VARCHAR", "VARCHAR")),
            "row", List.of(List.of("INTEGER", "VARCHAR")),
            "current_date", List.of(List.of()),
            "current_time", List.of(List.of()),
            "current_timestamp", List.of(List.of()),
            "percentile_cont", List.of(List.of("DOUBLE", "DOUBLE")),
            "percentile_disc", List.of(List.of("DOUBLE", "INTEGER"), List.of("DOUBLE", "VARCHAR")));

    private static final List<String> TEXT = List.of("NULL", "''", "repeat('x', 20000)", "repeat('é漢😀', 4000)", "' '", "'-1'",
            "'0'", "'NaN'", "'inf'", "'invalid'", "'fortnight'", "'Mars/Phobos'", "'+99:99'", "'%'", "'%Q'", "'%-'", "'\\'", "'('",
            "'['", "'{'", "'*'", "''''", "'\"'", "chr(0)", "'99999999999999999999'", "'9999999999999999999999999999999999999999'",
            "'day'", "'UTC'");

    private static final Map<String, List<String>> ADVERSARIAL = Map.ofEntries(
            Map.entry("VARCHAR", TEXT),
            Map.entry("TINYINT", List.of("NULL", "0", "-1", "1", "127", "-128")),
            Map.entry("SMALLINT", List.of("NULL", "0", "-1", "1", "32767", "-32768")),
            Map.entry("INTEGER", List.of("NULL", "0", "-1", "1", "2147483647", "-2147483648", "100000")),
            Map.entry("BIGINT", List.of("NULL", "0", "-1", "1", "9223372036854775807", "-9223372036854775808", "100000")),
            Map.entry("HUGEINT", List.of("NULL", "0", "-1", "170141183460469231731687303715884105727",
                    "-170141183460469231731687303715884105727")),
            Map.entry("UBIGINT", List.of("NULL", "0", "18446744073709551615")),
            Map.entry("DOUBLE", List.of("NULL", "0", "-1", "0.5", "'nan'", "'inf'", "'-inf'", "1e308", "-1e308", "1e-300")),
            Map.entry("FLOAT", List.of("NULL", "0", "-1", "0.5", "'nan'", "'inf'", "'-inf'", "3.4e38", "-3.4e38")),
            Map.entry("DECIMAL", List.of("NULL", "0", "-1", "0.5", "999999999999999.999", "-999999999999999.999")),
            Map.entry("DATE", List.of("NULL", "'infinity'", "'-infinity'", "'5881580-07-10'", "'5877642-06-25 (BC)'", "'0001-01-01'",
                    "'2024-02-29'")),
            Map.entry("TIMESTAMP", List.of("NULL", "'infinity'", "'-infinity'", "'294247-01-10 04:00:54'",
                    "'290309-12-22 (BC) 00:00:00'", "'1970-01-01 00:00:00'", "'2024-02-29 23:59:59.999999'")),
            Map.entry("TIMESTAMP WITH TIME ZONE", List.of("NULL", "'infinity'", "'-infinity'", "'294247-01-10 04:00:54+00'",
                    "'290309-12-22 (BC) 00:00:00+00'", "'1970-01-01 00:00:00+00'", "'2024-02-29 23:59:59.999999+14'")),
            Map.entry("INTERVAL", List.of("NULL", "'0 seconds'", "'178000000 years'", "'-178000000 years'", "'2147483647 days'",
                    "'-2147483648 days'", "'2147483647 months'", "'1 microsecond'", "'-1 microsecond'")),
            Map.entry("TIME", List.of("NULL", "'00:00:00'", "'23:59:59.999999'", "'24:00:00'")),
            Map.entry("BOOLEAN", List.of("NULL", "true", "false")),
            Map.entry("BLOB", List.of("NULL", "''", "'\\xFF\\x00'", "repeat('a', 20000)")));

    private static final Map<String, List<String>> ORDINARY = Map.ofEntries(
            Map.entry("VARCHAR", List.of("'day'", "'%Y'", "'UTC'", "'hour'", "'a'", "'1'", "','", "'sum'")),
            Map.entry("TINYINT", List.of("1", "2", "0")),
            Map.entry("SMALLINT", List.of("1", "2", "0")),
            Map.entry("INTEGER", List.of("1", "2", "3", "0", "10")),
            Map.entry("BIGINT", List.of("1", "2", "3", "0", "10")),
            Map.entry("HUGEINT", List.of("1", "2", "0")),
            Map.entry("UBIGINT", List.of("1", "2", "0")),
            Map.entry("DOUBLE", List.of("0.5", "1.5", "2")),
            Map.entry("FLOAT", List.of("0.5", "1.5", "2")),
            Map.entry("DECIMAL", List.of("1.5", "2", "0")),
            Map.entry("DATE", List.of("'2024-03-15'")),
            Map.entry("TIMESTAMP", List.of("'2024-03-15 10:20:30'")),
            Map.entry("TIMESTAMP WITH TIME ZONE", List.of("'2024-03-15 10:20:30+00'")),
            Map.entry("INTERVAL", List.of("'1 day'", "'1 hour'")),
            Map.entry("TIME", List.of("'10:20:30'")),
            Map.entry("BOOLEAN", List.of("true", "false")),
            Map.entry("BLOB", List.of("'abc'")));

    @Override
    public List<Signature> signatures(Connection connection, Set<String> functions) throws SQLException {
        List<Signature> out = new ArrayList<>();
        Set<String> names = new TreeSet<>(functions);
        for (String name : names) {
            if (name.startsWith("cast:")) {
                out.add(new Signature(name, List.of(name.substring("cast:".length(), name.indexOf("->"))), Form.CAST));
            } else if (KEYWORDS.containsKey(name)) {
                Form form = name.startsWith("percentile_") ? Form.ORDERED_SET : name.startsWith("current_") ? Form.KEYWORD : Form.SCALAR;
                KEYWORDS.get(name).forEach(types -> out.add(new Signature(name, types, form)));
            }
        }
        try (PreparedStatement ps = connection.prepareStatement("SELECT lower(function_name), function_type, parameter_types, varargs"
                + " FROM duckdb_functions() WHERE (function_type IN ('scalar', 'aggregate', 'window', 'macro')"
                + " OR (function_type = 'table' AND function_name = 'unnest'))"
                + " AND list_contains(?, lower(function_name)) ORDER BY 1, 2, CAST(parameter_types AS VARCHAR)")) {
            Array array = connection.createArrayOf("VARCHAR", names.toArray());
            ps.setArray(1, array);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    String kind = rs.getString(2);
                    Object[] raw = (Object[]) rs.getArray(3).getArray();
                    List<String> types = new ArrayList<>(Arrays.stream(raw).map(t -> t == null ? null : t.toString()).toList());
                    if (types.isEmpty() && rs.getString(4) != null) {
                        types.add(rs.getString(4)); // a varargs function: one argument
                    }
                    Form form = kind.equals("window") ? Form.WINDOW : kind.equals("aggregate") ? Form.AGGREGATE
                            : kind.equals("table") ? Form.SET_RETURNING : Form.SCALAR;
                    if (kind.equals("macro")) {
                        macro(connection, name, types.size()).ifPresent(t -> out.add(new Signature(name, t, form)));
                    } else if (types.stream().anyMatch(t -> t != null && t.matches(".*\\b(ANY|T|K|V)\\b.*"))) {
                        for (String concrete : name.equals("unnest") ? List.of("INTEGER[]", "VARCHAR[]") : List.of("INTEGER", "VARCHAR")) {
                            out.add(new Signature(name, types.stream().map(t -> t == null ? null
                                    : t.replaceAll("\\b(ANY|T|K|V)\\b", concrete)).toList(), form));
                        }
                    } else {
                        out.add(new Signature(name, types, form));
                    }
                }
            }
        }
        return out;
    }

    /** The first types of a macro's untyped parameters with which DuckDB binds a call of ordinary values. */
    private Optional<List<String>> macro(Connection connection, String name, int arity) {
        int combinations = Math.min(64, (int) Math.pow(MACRO_TYPES.size(), arity));
        for (int n = 0; n < combinations; n++) {
            List<String> types = new ArrayList<>();
            int k = n;
            for (int i = 0; i < arity; i++) {
                types.add(MACRO_TYPES.get(k % MACRO_TYPES.size()));
                k /= MACRO_TYPES.size();
            }
            List<String> args = types.stream().map(t -> ordinary(t).get(0)).toList();
            try (Statement s = connection.createStatement();
                 ResultSet rs = s.executeQuery(measure(new Signature(name, types, Form.SCALAR), args))) {
                rs.next();
                return Optional.of(types);
            } catch (SQLException e) {
                // not these types
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean supports(String type) {
        if (type == null) {
            return false;
        }
        return ADVERSARIAL.containsKey(type) || type.equals("LAMBDA") || type.equals("STRUCT") || type.matches("MAP\\((INTEGER|VARCHAR), \\1\\)")
                || (type.endsWith("[]") && LIST_ELEMENTS.contains(type.replace("[]", "")));
    }

    @Override
    public List<String> adversarial(String type) {
        if (type.equals("LAMBDA")) {
            return List.of();
        }
        if (type.equals("STRUCT")) {
            return List.of("CAST(NULL AS STRUCT(a INTEGER))");
        }
        if (type.startsWith("MAP(")) {
            return List.of(typed("NULL", type), typed("MAP {}", type));
        }
        if (type.endsWith("[][]")) {
            return List.of(typed("NULL", type), typed("[]", type), typed("[[]]", type), typed("[NULL]", type));
        }
        if (type.endsWith("[]")) {
            return List.of(typed("NULL", type), typed("[]", type), typed("[NULL]", type), typed("range(20000)", type));
        }
        return ADVERSARIAL.get(type).stream().map(v -> typed(v, type)).toList();
    }

    @Override
    public List<String> ordinary(String type) {
        if (type.equals("LAMBDA")) {
            return List.of("lambda x: x", "lambda x, y: x");
        }
        if (type.equals("STRUCT")) {
            return List.of("CAST({'a': 1} AS STRUCT(a INTEGER))");
        }
        if (type.startsWith("MAP(")) {
            return List.of(typed("MAP {1: 1}", type));
        }
        if (type.endsWith("[][]")) {
            return List.of(typed("[[1, 2], [3]]", type));
        }
        if (type.endsWith("[]")) {
            return List.of(typed("[1, 0, 3]", type));
        }
        return ORDINARY.get(type).stream().map(v -> typed(v, type)).toList();
    }

    @Override
    public Optional<String> sized(String type, int size) {
        if (type.endsWith("[]") && !type.endsWith("[][]")) {
            return Optional.of(typed("range(" + size * 500 + ")", type));
        }
        return switch (type) {
            case "VARCHAR" -> Optional.of(typed("repeat('x', " + size * 500 + ")", type));
            case "BLOB" -> Optional.of(typed("repeat('a', " + size * 500 + ")", type));
            case "TINYINT" -> Optional.empty();
            case "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UBIGINT", "DOUBLE", "FLOAT", "DECIMAL" -> Optional.of(typed("9".repeat(size), type));
            default -> Optional.empty();
        };
    }

    @Override
    public String measure(Signature s, List<String> arguments) {
        String call = switch (s.form()) {
            case KEYWORD -> s.function();
            case CAST -> "CAST(" + arguments.get(0) + " AS " + s.function().substring(s.function().indexOf("->") + 2) + ")";
            case WINDOW -> s.function() + "(" + String.join(", ", arguments) + ") OVER ()";
            case ORDERED_SET -> s.function() + "(" + String.join(", ", arguments.subList(0, arguments.size() - 1))
                    + ") WITHIN GROUP (ORDER BY " + arguments.get(arguments.size() - 1) + ")";
            default -> s.function() + "(" + String.join(", ", arguments) + ")";
        };
        return s.form() == Form.SET_RETURNING ? "SELECT count(*) FROM (SELECT " + call + " AS v) x"
                : "SELECT strlen(CAST(" + call + " AS VARCHAR))";
    }

    @Override
    public boolean isTimeout(SQLException e) {
        return false;
    }

    @Override
    public boolean interruptsLongCalls() {
        return false;
    }

    private static String typed(String value, String type) {
        return "CAST(" + value + " AS " + (type.equals("DECIMAL") ? "DECIMAL(18,3)" : type) + ")";
    }
}
