package dev.sqlguard.testing.prover;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.domain.CostClass;

/**
 * Proves an engine's function catalog against the engine: for every signature of every catalog
 * function, and each argument position, it evaluates the call on the real engine with the other
 * arguments held at values that succeed and that argument set to each adversarial value of its type.
 * A value that makes the call fail where the catalog says the argument is total is a finding. Then
 * it measures the output for a small and a large input at that position: output that grows faster
 * than linearly where the catalog does not say the argument amplifies is a finding.
 *
 * <p>Linear is read generously: from input size {@code s1} to {@code s2} the output may grow to
 * {@code 2 * (s2 / s1) * max(o1, s1) + 64}. Anything past that (for {@code round(1, 9999)} against
 * {@code round(1, 99)}: 10,001 characters against 101) is faster. Where the large input makes the call
 * fail, the next smaller size is measured instead.
 */
public final class CatalogProver {
    /** The small and the large size each growable argument is measured at. */
    public static final int SMALL = 2;
    public static final int LARGE = 4;

    /** Combinations of ordinary values tried, at most, before a signature is skipped as not callable. */
    private static final int MAX_BASE_TRIES = 400;

    private final ProverDialect dialect;
    private final Connection connection;
    private final Map<String, Boolean> valueWorks = new HashMap<>();
    private int calls;

    public CatalogProver(ProverDialect dialect, Connection connection) {
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.connection = requireNonNull(connection, "connection is null");
    }

    /** Proves every function {@code classes} lists. */
    public ProverReport prove(CatalogClasses classes) throws SQLException {
        return prove(classes, classes.functions());
    }

    /** Proves the functions of {@code only} (all of them listed by {@code classes}). */
    public ProverReport prove(CatalogClasses classes, Set<String> only) throws SQLException {
        List<Finding> findings = new ArrayList<>();
        Set<String> proven = new TreeSet<>();
        List<String> skipped = new ArrayList<>();
        for (Signature s : dialect.signatures(connection, only)) {
            if (!s.types().stream().allMatch(dialect::supports)) {
                skipped.add(s + ": a type the prover cannot write");
                continue;
            }
            Optional<List<String>> base = base(s);
            if (base.isEmpty()) {
                skipped.add(s + ": no call with ordinary values succeeds");
                continue;
            }
            proven.add(s.function());
            for (int i = 0; i < s.types().size(); i++) {
                CostClass claimed = classes.argument(s.function(), i);
                findings.addAll(values(s, base.get(), i, claimed));
                for (String type : dialect.growthTypes(s.types().get(i))) {
                    growth(s, base.get(), i, type, claimed).ifPresent(findings::add);
                }
            }
        }
        Set<String> unproven = new TreeSet<>(only);
        unproven.removeAll(proven);
        return new ProverReport(findings, proven, unproven, skipped, calls);
    }

    private List<Finding> values(Signature s, List<String> base, int position, CostClass claimed) throws SQLException {
        List<Finding> out = new ArrayList<>();
        if (claimed == CostClass.AMPLIFYING || (claimed == CostClass.PARTIAL && !dialect.interruptsLongCalls())) {
            return out; // nothing such an argument could show
        }
        for (String value : dialect.adversarial(s.types().get(position))) {
            if (!works(value)) {
                continue;
            }
            List<String> args = new ArrayList<>(base);
            args.set(position, value);
            try {
                run(dialect.measure(s, args));
            } catch (SQLException e) {
                if (dialect.isTimeout(e)) {
                    if (claimed != CostClass.AMPLIFYING) {
                        out.add(new Finding(s, position, Finding.Kind.RUNS_TOO_LONG, shorten(value), firstLine(e)));
                    }
                } else if (claimed == CostClass.TOTAL) {
                    out.add(new Finding(s, position, Finding.Kind.FAILS_ON_VALUE, shorten(value), firstLine(e)));
                }
            }
        }
        return out;
    }

    private Optional<Finding> growth(Signature s, List<String> base, int position, String type, CostClass claimed)
            throws SQLException {
        Optional<String> small = dialect.sized(type, SMALL);
        if (small.isEmpty() || claimed == CostClass.AMPLIFYING) {
            return Optional.empty();
        }
        OptionalLong o1 = sizeAt(s, base, position, small.get());
        if (o1.isEmpty()) {
            return Optional.empty();
        }
        // the largest size up to LARGE at which the call still succeeds: exp(9999) overflows where exp(999) builds 434 digits
        for (int size = LARGE; size > SMALL; size--) {
            Optional<String> large = dialect.sized(type, size);
            OptionalLong o2 = large.isEmpty() ? OptionalLong.empty() : sizeAt(s, base, position, large.get());
            if (o2.isPresent()) {
                double allowed = 2.0 * size / SMALL * Math.max(o1.getAsLong(), SMALL) + 64;
                if (o2.getAsLong() > allowed) {
                    return Optional.of(new Finding(s, position, Finding.Kind.GROWS_FASTER, shorten(large.get()),
                            "output " + o1.getAsLong() + " at input size " + SMALL + ", " + o2.getAsLong() + " at input size " + size));
                }
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private OptionalLong sizeAt(Signature s, List<String> base, int position, String value) throws SQLException {
        List<String> args = new ArrayList<>(base);
        args.set(position, value);
        try {
            return OptionalLong.of(run(dialect.measure(s, args)));
        } catch (SQLException e) {
            return OptionalLong.empty();
        }
    }

    /** The first combination of ordinary values with which the call succeeds. */
    private Optional<List<String>> base(Signature s) throws SQLException {
        List<List<String>> choices = new ArrayList<>();
        for (String t : s.types()) {
            List<String> ordinary = dialect.ordinary(t);
            if (ordinary.isEmpty()) {
                return Optional.empty();
            }
            choices.add(ordinary);
        }
        int[] index = new int[choices.size()];
        for (int tries = 0; tries < MAX_BASE_TRIES; tries++) {
            List<String> args = new ArrayList<>();
            for (int i = 0; i < index.length; i++) {
                args.add(choices.get(i).get(index[i]));
            }
            try {
                run(dialect.measure(s, args));
                return Optional.of(args);
            } catch (SQLException e) {
                // try the next combination
            }
            int i = 0;
            while (i < index.length && ++index[i] == choices.get(i).size()) {
                index[i] = 0;
                i++;
            }
            if (i == index.length) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Whether a value can be written at all on this engine: one that fails alone proves nothing about a function. */
    private boolean works(String value) throws SQLException {
        Boolean known = valueWorks.get(value);
        if (known == null) {
            try {
                run("SELECT CASE WHEN (" + value + ") IS NULL THEN 0 ELSE 1 END");
                known = true;
            } catch (SQLException e) {
                if (dialect.isTimeout(e)) {
                    throw e;
                }
                known = false;
            }
            valueWorks.put(value, known);
        }
        return known;
    }

    private long run(String sql) throws SQLException {
        calls++;
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                return 0;
            }
            BigDecimal v = rs.getBigDecimal(1);
            return v == null ? 0 : v.longValue();
        }
    }

    private static String firstLine(SQLException e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return shorten(nl < 0 ? m : m.substring(0, nl));
    }

    private static String shorten(String s) {
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }
}
