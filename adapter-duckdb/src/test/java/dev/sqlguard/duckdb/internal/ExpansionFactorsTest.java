package dev.sqlguard.duckdb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sqlguard.duckdb.internal.PlanValue.Size;

/**
 * The fixed factors of the expanders ({@link Amplifications#expanded}), the text widths of DuckDB's
 * types and the way lists, structs and maps are written as text ({@link Amplifications#render}),
 * measured against DuckDB itself: for every expander in the catalog, every value of an adversarial
 * set (control characters, quotes, backslashes, multi-byte and 4-byte characters, {@code %}, long
 * text, every type's extreme values from DuckDB's own {@code test_all_types()}, nested lists,
 * structs, maps and unions) builds at most what the model says. A factor set too low (say
 * {@code hex} costed as linear, as it was) fails here: {@code hex('😀')} is 8 characters for 1.
 */
class ExpansionFactorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Connection duck;

    /** Adversarial text: every character class an expander treats differently, short and long. */
    static final List<String> TEXTS = List.of("", "a", "abc", "\u0001".repeat(50), "\"".repeat(50), "\\".repeat(50),
            "é".repeat(50), "😀".repeat(50), "%".repeat(50), " ".repeat(50), "\n\t\r".repeat(20), "\u0000x".repeat(10),
            "a\"\\é😀%\n\u0001'[]{},:".repeat(20), "😀".repeat(5000), "ÿ".repeat(3000), "'".repeat(40));

    @BeforeAll
    static void open() throws SQLException {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = duck.createStatement()) {
            st.execute("CREATE TABLE t (s VARCHAR)");
        }
        try (PreparedStatement ps = duck.prepareStatement("INSERT INTO t VALUES (?)")) {
            for (String text : TEXTS) {
                ps.setString(1, text);
                ps.execute();
            }
        }
    }

    @AfterAll
    static void close() throws SQLException {
        duck.close();
    }

    /** Every fixed-factor expander of the catalogue, with its rule. */
    static Map<String, FunctionCosts.Rule> expanders() {
        Map<String, FunctionCosts.Rule> out = new java.util.TreeMap<>();
        for (String name : FunctionCosts.names()) {
            FunctionCosts.Rule rule = FunctionCosts.of(name).orElseThrow().rule();
            if (rule.fixedFactor()) {
                out.put(name, rule);
            }
        }
        return out;
    }

    @Test
    void theExpandersAreTheOnesTheRedTeamNestedAndTheirAliases() {
        assertThat(expanders().keySet()).containsExactlyInAnyOrder("hex", "to_hex", "bin", "to_binary", "url_encode",
                "to_base64", "base64", "to_json");
    }

    /**
     * Text in, over every adversarial string, read from a table (the model's data-sized path: at most
     * {@code rel} characters per character plus {@code abs}) and written as a literal (the literal path:
     * {@code abs} for the literal's length).
     */
    @Test
    void everyExpanderBuildsAtMostItsFactorOfTextOnDuckDb() throws SQLException {
        List<String> broken = new ArrayList<>();
        JsonNode varchar = JSON.createObjectNode().put("id", "VARCHAR");
        for (Map.Entry<String, FunctionCosts.Rule> e : expanders().entrySet()) {
            String f = e.getKey();
            if (!accepts(f, "VARCHAR")) {
                continue;
            }
            Size perData = Amplifications.expanded(e.getValue(), Size.DATA, Optional.of(varchar));
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT s, length(s), length(" + f + "(s)) FROM t")) {
                while (rs.next()) {
                    long in = rs.getLong(2);
                    long out = rs.getLong(3);
                    long literal = Amplifications.expanded(e.getValue(), new Size(in, 0), Optional.of(varchar)).abs();
                    if (out > perData.rel() * in + perData.abs() || out > literal) {
                        broken.add(f + " of " + describe(rs.getString(1)) + ": " + out + " characters, model " + (perData.rel() * in
                                + perData.abs()) + " / " + literal);
                    }
                }
            }
        }
        assertThat(broken).as("expansions larger than the model's factor").isEmpty();
    }

    /** Blob in: every adversarial string's UTF-8 bytes. */
    @Test
    void everyExpanderBuildsAtMostItsFactorOfABlobOnDuckDb() throws SQLException {
        List<String> broken = new ArrayList<>();
        JsonNode blob = JSON.createObjectNode().put("id", "BLOB");
        for (Map.Entry<String, FunctionCosts.Rule> e : expanders().entrySet()) {
            String f = e.getKey();
            if (!accepts(f, "BLOB")) {
                continue;
            }
            Size perData = Amplifications.expanded(e.getValue(), Size.DATA, Optional.of(blob));
            try (Statement st = duck.createStatement();
                 ResultSet rs = st.executeQuery("SELECT s, octet_length(encode(s)), length(" + f + "(encode(s))) FROM t")) {
                while (rs.next()) {
                    long in = rs.getLong(2);
                    long out = rs.getLong(3);
                    if (out > perData.rel() * in + perData.abs()) {
                        broken.add(f + " of the bytes of " + describe(rs.getString(1)) + ": " + out + " > " + (perData.rel() * in + perData.abs()));
                    }
                }
            }
        }
        // a blob written as text by a cast: up to 4 characters per byte
        Size cast = BoundExpressions.castSize(Size.DATA, blob, JSON.createObjectNode().put("id", "VARCHAR"));
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT s, octet_length(encode(s)), length(CAST(encode(s) AS VARCHAR)) FROM t")) {
            while (rs.next()) {
                if (rs.getLong(3) > cast.rel() * rs.getLong(2) + cast.abs()) {
                    broken.add("cast of the bytes of " + describe(rs.getString(1)) + ": " + rs.getLong(3));
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    /**
     * Every type's extreme values, from DuckDB's own {@code test_all_types()}, written as text by a cast
     * and by {@code to_json}, and by {@code hex} and {@code bin} where they take the type: at most the
     * model's width for a fixed-width type, and for a list, struct, map or union at most its factor
     * times the value's size (one unit per element, NULLs included, one per character of text) plus
     * its overhead.
     */
    @Test
    void everyTypeIsWrittenWithinItsWidthOrFactorOnDuckDb() throws Exception {
        List<String> broken = new ArrayList<>();
        List<String> columns = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT column_name FROM (DESCRIBE SELECT * FROM test_all_types())")) {
            while (rs.next()) {
                columns.add(rs.getString(1));
            }
        }
        int checked = 0;
        for (String column : columns) {
            JsonNode type = planType("SELECT \"" + column + "\" FROM test_all_types()");
            for (Amplifications.Text text : Amplifications.Text.values()) {
                String written = text == Amplifications.Text.JSON ? "to_json(\"" + column + "\")" : "CAST(\"" + column + "\" AS VARCHAR)";
                Amplifications.Render render = Amplifications.render(type, text);
                Size bound = text == Amplifications.Text.JSON ? Amplifications.expanded(FunctionCosts.Rule.TO_JSON, unit(type), Optional.of(type))
                        : BoundExpressions.castSize(unit(type), type, JSON.createObjectNode().put("id", "VARCHAR"));
                try (Statement st = duck.createStatement();
                     ResultSet rs = st.executeQuery("SELECT \"" + column + "\", length(" + written + ") FROM test_all_types()")) {
                    while (rs.next()) {
                        if (rs.getString(2) == null) {
                            continue;
                        }
                        long out = rs.getLong(2);
                        long units = BoundExpressions.fixedType(type) ? 1 : units(rs.getObject(1));
                        long model = BoundExpressions.fixedType(type) ? bound.abs() : render.data() * units + render.overhead();
                        checked++;
                        if (out > model) {
                            broken.add(written + " of a " + type + ": " + out + " characters, model " + model + " (" + units + " units)");
                        }
                    }
                } catch (SQLException e) {
                    // a type DuckDB cannot write this way (GEOMETRY as JSON) builds nothing
                }
            }
        }
        for (String f : List.of("hex", "bin")) {
            for (String column : List.of("tinyint", "smallint", "int", "bigint", "hugeint", "uhugeint", "utinyint", "usmallint",
                    "uint", "ubigint")) {
                JsonNode type = planType("SELECT \"" + column + "\" FROM test_all_types()");
                long model = Amplifications.expanded(expanders().get(f), Size.FIXED, Optional.of(type)).abs();
                try (Statement st = duck.createStatement();
                     ResultSet rs = st.executeQuery("SELECT max(length(" + f + "(\"" + column + "\"))) FROM test_all_types()")) {
                    rs.next();
                    checked++;
                    if (rs.getLong(1) > model) {
                        broken.add(f + " of " + column + ": " + rs.getLong(1) + " > " + model);
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(200);
        assertThat(broken).as("values written longer than the model says").isEmpty();
    }

    /**
     * The widths hold for each type's widest values (negative, BC, fractional, time zone offsets), and
     * are not just large: each is reached within 4 characters, and a test_all_types extreme or one of
     * these is the widest.
     */
    @Test
    void theWidthsHoldForEachTypesWidestValuesAndAreTight() throws Exception {
        Map<String, List<String>> widest = Map.ofEntries(
                Map.entry("BOOLEAN", List.of("false")), Map.entry("TINYINT", List.of("-128")),
                Map.entry("SMALLINT", List.of("-32768")), Map.entry("INTEGER", List.of("-2147483648")),
                Map.entry("BIGINT", List.of("-9223372036854775808")),
                Map.entry("HUGEINT", List.of("-170141183460469231731687303715884105728")),
                Map.entry("UHUGEINT", List.of("340282366920938463463374607431768211455")),
                Map.entry("UBIGINT", List.of("18446744073709551615")), Map.entry("UINTEGER", List.of("4294967295")),
                Map.entry("DOUBLE", List.of("-2.2250738585072014e-308", "-1.7976931348623157e308", "-1.2345678901234567e-300")),
                Map.entry("FLOAT", List.of("-1.1754944e-38", "-3.4028235e38")),
                Map.entry("DATE", List.of("5877642-06-25 (BC)", "5881580-07-10")),
                Map.entry("TIME", List.of("23:59:59.999999")), Map.entry("TIME_NS", List.of("23:59:59.123456789")),
                Map.entry("TIME WITH TIME ZONE", List.of("23:59:59.999999-15:59", "23:59:59.999999+15:59:59")),
                Map.entry("TIMESTAMP", List.of("290309-12-22 (BC) 00:00:00.123456", "294247-01-10 04:00:54.775806")),
                Map.entry("TIMESTAMP_NS", List.of("1677-09-22 00:00:00.123456789", "2262-04-11 23:47:16.854775")),
                Map.entry("TIMESTAMP WITH TIME ZONE", List.of("290300-12-22 (BC) 00:00:00.123456+00", "294246-01-10 04:00:54.775806+00",
                        "1800-01-01 00:00:00.123456+00")),
                Map.entry("INTERVAL", List.of("-178000000 years -11 months -2147483647 days -2562047788:00:54.775807")),
                Map.entry("UUID", List.of("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")));
        List<String> broken = new ArrayList<>();
        try (Statement st = duck.createStatement()) {
            st.execute("SET TimeZone = 'America/St_Johns'");
        }
        for (Map.Entry<String, List<String>> e : widest.entrySet()) {
            JsonNode type = JSON.createObjectNode().put("id", e.getKey());
            long width = Amplifications.render(type, Amplifications.Text.CAST).of(Size.FIXED).abs();
            long json = Amplifications.render(type, Amplifications.Text.JSON).of(Size.FIXED).abs();
            long most = 0;
            for (String literal : e.getValue()) {
                try (PreparedStatement ps = duck.prepareStatement("SELECT length(CAST(CAST(?::VARCHAR AS " + e.getKey()
                        + ") AS VARCHAR)), length(to_json(CAST(?::VARCHAR AS " + e.getKey() + ")))")) {
                    ps.setString(1, literal);
                    ps.setString(2, literal);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        most = Math.max(most, Math.max(rs.getLong(1), rs.getLong(2) - 2));
                        if (rs.getLong(1) > width || rs.getLong(2) > json) {
                            broken.add(e.getKey() + " " + literal + ": " + rs.getLong(1) + "/" + rs.getLong(2) + " > " + width + "/" + json);
                        }
                    }
                }
            }
            if (most + 4 < width) {
                broken.add(e.getKey() + ": widest " + most + ", model " + width + " (loose)");
            }
        }
        assertThat(broken).isEmpty();
    }

    /** Which argument types DuckDB's catalogue lists for a function. */
    private static boolean accepts(String function, String type) throws SQLException {
        try (PreparedStatement ps = duck.prepareStatement(
                "SELECT count(*) FROM duckdb_functions() WHERE function_name = ? AND parameter_types[1] = ?")) {
            ps.setString(1, function);
            ps.setString(2, type);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0 || ("to_json".equals(function) && "VARCHAR".equals(type));
            }
        }
    }

    /** DuckDB's plan type of a one-column query's output. */
    private static JsonNode planType(String sql) throws Exception {
        try (PreparedStatement ps = duck.prepareStatement("SELECT json_serialize_plan(?::VARCHAR, optimize := false, skip_null := true, skip_empty := true)")) {
            ps.setString(1, sql);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                JsonNode plan = JSON.readTree(rs.getString(1));
                return plan.path("plans").get(0).path("expressions").get(0).path("return_type");
            }
        }
    }

    /** A value of this type read from the data: one unit if fixed-width. */
    private static Size unit(JsonNode type) {
        return BoundExpressions.fixedType(type) ? Size.FIXED : Size.DATA;
    }

    /** The model's size of a value: one per scalar (NULL included) and element, one per character of text. */
    static long units(Object v) throws SQLException {
        if (v == null) {
            return 1;
        }
        if (v instanceof String s) {
            return Math.max(1, s.codePointCount(0, s.length()));
        }
        if (v instanceof byte[] b) {
            return Math.max(1, b.length);
        }
        if (v instanceof Array a) {
            long total = 1;
            for (Object o : (Object[]) a.getArray()) {
                total += units(o);
            }
            return total;
        }
        if (v instanceof Struct s) {
            long total = 1;
            for (Object o : s.getAttributes()) {
                total += units(o);
            }
            return total;
        }
        if (v instanceof Map<?, ?> m) {
            long total = 1;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                total += units(e.getKey()) + units(e.getValue());
            }
            return total;
        }
        if (v instanceof java.sql.Blob b) {
            return Math.max(1, b.length());
        }
        return 1;
    }

    private static String describe(String s) {
        String head = s.length() > 12 ? s.substring(0, 12) + "..." : s;
        return "'" + head.replaceAll("\\p{Cntrl}", "?") + "' (" + s.length() + " chars)";
    }
}
