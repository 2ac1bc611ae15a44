package dev.sqlguard.mysql.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.testing.prover.ProverDialect;
import dev.sqlguard.testing.prover.Signature;
import dev.sqlguard.testing.prover.Signature.Form;

/**
 * The catalog prover's view of MariaDB. MariaDB lists no signatures of its built-in functions, and
 * converts any argument to the type a function wants, so the signatures are read from its behaviour:
 * each arity from 0 to 4 at which a call with NULL arguments does not fail with "incorrect parameter
 * count" (1582) or a syntax error (1064) (none where the function does not exist, 1305), with untyped arguments that take text, numbers, dates and
 * JSON alike.
 */
final class MySqlProverDialect implements ProverDialect {
    /** The one argument type: MariaDB converts whatever it gets. */
    static final String ANY = "any";

    private static final List<String> ADVERSARIAL = List.of("NULL", "''", "REPEAT('x', 100000)", "REPEAT('é漢😀', 20000)", "' '",
            "'-1'", "'0'", "'NaN'", "'invalid'", "'fortnight'", "'Mars/Phobos'", "'%'", "'\\'", "'('", "'['", "'\"'", "''''",
            "'%Y%'", "'$'", "'$[-1]'", "'{'", "'99999999999999999999'", "0", "-1", "1", "2147483647", "-2147483648",
            "9223372036854775807", "-9223372036854775808", "18446744073709551615",
            "99999999999999999999999999999999999999999999999999999999999999999", "1e308", "-1e308", "0.5",
            "DATE '9999-12-31'", "DATE '1000-01-01'", "TIMESTAMP '2038-01-19 03:14:08'", "'{\"a\": 1}'", "'[1, 2]'");

    private static final List<String> ORDINARY = List.of("1", "'a'", "2", "'2024-03-15'", "'day'", "3", "'%Y'", "0",
            "'{\"a\": 1}'", "'$.a'");

    @Override
    public List<Signature> signatures(Connection connection, Set<String> functions) throws SQLException {
        List<Signature> out = new ArrayList<>();
        for (String name : new TreeSet<>(functions)) {
            if (name.startsWith("cast:")) {
                out.add(new Signature(name, List.of(ANY), Form.CAST));
                continue;
            }
            MySqlFunctions.Entry entry = MySqlFunctions.of(name).orElseThrow();
            Form form = entry.category() == MySqlFunctions.Category.WINDOW ? Form.WINDOW
                    : entry.category() == MySqlFunctions.Category.AGGREGATE ? Form.AGGREGATE : Form.SCALAR;
            for (int arity = 0; arity <= 4; arity++) {
                Signature s = new Signature(name, Collections.nCopies(arity, ANY), form);
                try (Statement st = connection.createStatement()) {
                    st.executeQuery(measure(s, Collections.nCopies(arity, "NULL"))).close();
                    out.add(s);
                } catch (SQLException e) {
                    if (e.getErrorCode() == 1305) {
                        break; // the server has no such function
                    }
                    if (e.getErrorCode() != 1582 && e.getErrorCode() != 1064) {
                        out.add(s); // the arity binds; NULL is not a value it takes
                    }
                }
            }
        }
        return out;
    }

    @Override
    public boolean supports(String type) {
        return type.equals(ANY);
    }

    @Override
    public List<String> adversarial(String type) {
        return ADVERSARIAL;
    }

    @Override
    public List<String> ordinary(String type) {
        return ORDINARY;
    }

    @Override
    public List<String> growthTypes(String type) {
        return List.of("text", "number");
    }

    @Override
    public Optional<String> sized(String type, int size) {
        return switch (type) {
            case "text" -> Optional.of("REPEAT('x', " + size * 500 + ")");
            case "number" -> Optional.of("9".repeat(size));
            default -> Optional.empty();
        };
    }

    @Override
    public String measure(Signature s, List<String> arguments) {
        String call = switch (s.form()) {
            case CAST -> "CAST(" + arguments.get(0) + " AS " + s.function().substring("cast:".length()) + ")";
            case WINDOW -> s.function() + "(" + String.join(", ", arguments) + ") OVER (ORDER BY 1)";
            default -> s.function() + "(" + String.join(", ", arguments) + ")";
        };
        return "SELECT octet_length(CAST(" + call + " AS CHAR))";
    }

    @Override
    public boolean isTimeout(SQLException e) {
        return e.getErrorCode() == 1969 || e.getErrorCode() == 3024;
    }
}
