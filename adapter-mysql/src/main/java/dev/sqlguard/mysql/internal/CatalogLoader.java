package dev.sqlguard.mysql.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.regex.Pattern;
import java.sql.Statement;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FunctionFacts;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;
import dev.sqlguard.ports.CatalogView;

/** Reads the allowlisted tables from {@code information_schema} once, at startup. */
public final class CatalogLoader {
    private static final Logger LOG = LoggerFactory.getLogger(CatalogLoader.class);

    private static final String COLUMNS = "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS"
            + " WHERE LOWER(TABLE_SCHEMA) = ? AND LOWER(TABLE_NAME) = ? ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION";
    private static final String ROWS = "SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?";

    private CatalogLoader() {
    }

    /**
     * The allowlisted tables and columns with their server types, as {@code describe} shows them.
     * Row counts are exact {@code COUNT(*)}s taken at startup within a time budget; a table not
     * counted in time gets only {@code information_schema.TABLES.TABLE_ROWS} as its approximate count
     * (an estimate for InnoDB). A table with a row filter or column masks shows no count: it would count
     * every caller's rows.
     */
    public static CatalogView view(SchemaSnapshot schema, GuardrailPolicy policy) {
        return () -> schema.describe(policy);
    }

    /**
     * @param schema the default schema, as configured
     */
    public static SchemaSnapshot load(Connection connection, String sourceId, String schema, TableAllowlist allowlist) throws SQLException {
        return load(connection, sourceId, schema, allowlist, null, 0);
    }

    /**
     * @param flavor how to bound each count on the server, or null to count nothing
     * @param countBudgetMillis time for exact row counts, over all tables; a table not counted in time
     *     keeps only the server's estimate, marked approximate
     */
    public static SchemaSnapshot load(Connection connection, String sourceId, String schema, TableAllowlist allowlist,
                                      ServerFlavor flavor, long countBudgetMillis) throws SQLException {
        long budgetEnd = System.nanoTime() + countBudgetMillis * 1_000_000;
        List<TableInfo> found = new ArrayList<>();
        String actualDefault = schema;
        for (Map.Entry<TableRef, java.util.Set<String>> entry : allowlist.tables().entrySet()) {
            TableRef ref = entry.getKey();
            String wantedSchema = Names.fold(ref.schema().orElse(schema));
            Map<String, List<ColumnInfo>> byTable = new LinkedHashMap<>();
            String tableSchema = null;
            try (PreparedStatement ps = connection.prepareStatement(COLUMNS)) {
                ps.setString(1, wantedSchema);
                ps.setString(2, ref.table());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        tableSchema = rs.getString(1);
                        byTable.computeIfAbsent(rs.getString(1) + "\u0000" + rs.getString(2), k -> new ArrayList<>())
                                .add(new ColumnInfo(rs.getString(3), rs.getString(4)));
                    }
                }
            }
            if (byTable.isEmpty()) {
                LOG.warn("source '" + sourceId + "': allowlisted table " + ref + " does not exist or is not visible; queries on it are refused");
                continue;
            }
            if (byTable.size() > 1) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + sourceId + "': the allowlisted table "
                        + ref.qualifiedName() + " matches several tables that differ only in letter case.");
            }
            String key = byTable.keySet().iterator().next();
            String tableName = key.substring(key.indexOf('\u0000') + 1);
            List<ColumnInfo> columns = byTable.get(key);
            for (String column : entry.getValue()) {
                if (!TableAllowlist.ALL_COLUMNS.equals(column)
                        && columns.stream().noneMatch(c -> Names.fold(c.name()).equals(column))) {
                    LOG.warn("source '" + sourceId + "': allowlisted column " + ref + "." + column + " does not exist");
                }
            }
            if (ref.schema().isEmpty()) {
                actualDefault = tableSchema;
            }
            found.add(new TableInfo(tableSchema, tableName, columns, rows(connection, tableSchema, tableName)));
        }
        if (flavor != null) {
            // smallest estimates first, so the budget gives as many tables as possible an exact count
            List<TableInfo> bySize = new ArrayList<>(found);
            bySize.sort(java.util.Comparator.comparingLong(t -> t.approximateRows().orElse(Long.MAX_VALUE)));
            Map<TableInfo, OptionalLong> exact = new java.util.IdentityHashMap<>();
            for (TableInfo t : bySize) {
                exact.put(t, count(connection, flavor, t.schema(), t.name(), (budgetEnd - System.nanoTime()) / 1_000_000));
            }
            found.replaceAll(t -> new TableInfo(t.schema(), t.name(), t.columns(), exact.get(t), t.approximateRows()));
        }
        return SchemaSnapshot.caseInsensitive(actualDefault, found);
    }

    /** What the server said when asked to prepare {@code SELECT name()}. */
    enum FunctionProbe {
        /** Prepared, or refused for its argument count: a function the server knows. */
        FUNCTION,
        /** A syntax error: the name is part of the server's grammar ({@code count}, {@code extract}, {@code if}, ...). */
        GRAMMAR,
        /**
         * 1305 "FUNCTION ... does not exist" (or 1046/1630), or 1370 "execute command denied ... for
         * routine": not a built-in function, and no stored function this account may call.
         */
        UNKNOWN
    }

    private static final Pattern FUNCTION_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,63}");
    private static final int MAX_SUGGESTION_PROBES = 2000;

    /**
     * What the server and sqlguard's catalogue know about function names a configuration lists, as facts
     * for the host's decision ({@link dev.sqlguard.domain.FunctionConfiguration#require}): the server is
     * asked with {@code PREPARE} of {@code SELECT name()}. Measured on MariaDB 10.11: an unknown name fails
     * with 1305 (also without a default database), a native function with 1582 (wrong argument count) or
     * prepares ({@code now()}), and a name with its own grammar ({@code count}, {@code sum},
     * {@code extract}, {@code substring}, {@code if}) with the syntax error 1064. An account without
     * EXECUTE gets 1370 ("execute command denied ... for routine 'db.name'") instead of 1305 when a default
     * database is set: the name is no built-in and no routine it may call. Only 1305 and 1370 (MySQL: also
     * 1046, 1630) count as unknown, with the names one edit away that the server knows. A name the server
     * knows that {@link MySqlFunctions} does not catalogue has no cost class. MySQL has no table functions
     * a policy could list: those names are left to the call's decision.
     *
     * @param engine the server's name as a configuration error shows it ("MariaDB", "MySQL")
     */
    public static FunctionFacts functionFacts(Connection connection, String engine, java.util.Set<String> functions,
                                              java.util.Set<String> tableFunctions) throws SQLException {
        java.util.Map<String, FunctionFacts.Fact> facts = new java.util.LinkedHashMap<>();
        for (String name : new java.util.TreeSet<>(functions)) {
            String folded = Names.fold(name);
            if (!FUNCTION_NAME.matcher(folded).matches()) {
                facts.put(name, FunctionFacts.Fact.notAFunctionName());
            } else if (probe(connection, folded) == FunctionProbe.UNKNOWN) {
                facts.put(name, FunctionFacts.Fact.unknown(close(connection, folded)));
            } else {
                facts.put(name, MySqlFunctions.costClass(folded).isPresent() ? FunctionFacts.Fact.known() : FunctionFacts.Fact.noCostClass());
            }
        }
        java.util.Map<String, FunctionFacts.Fact> tables = new java.util.LinkedHashMap<>();
        for (String name : tableFunctions) {
            tables.put(name, FunctionFacts.Fact.known());
        }
        return new FunctionFacts(engine, facts, tables);
    }

    /** The names of {@code names} that the server knows (a function, or a name with a grammar of its own). */
    public static java.util.Set<String> knownFunctions(Connection connection, java.util.Set<String> names) throws SQLException {
        java.util.Set<String> known = new java.util.TreeSet<>();
        for (String name : names) {
            String folded = Names.fold(name);
            if (FUNCTION_NAME.matcher(folded).matches() && probe(connection, folded) != FunctionProbe.UNKNOWN) {
                known.add(folded);
            }
        }
        return known;
    }

    static FunctionProbe probe(Connection connection, String name) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("PREPARE sqlguard_probe FROM 'SELECT " + name + "()'");
            s.execute("DEALLOCATE PREPARE sqlguard_probe");
            return FunctionProbe.FUNCTION;
        } catch (SQLException e) {
            String state = e.getSQLState() == null ? "" : e.getSQLState();
            if (state.startsWith("08")) {
                throw e;
            }
            return switch (e.getErrorCode()) {
                case 1305, 1370, 1046, 1630 -> FunctionProbe.UNKNOWN;
                case 1582, 1583 -> FunctionProbe.FUNCTION;
                default -> FunctionProbe.GRAMMAR;
            };
        }
    }

    /** Names one edit away (transposition, deletion, substitution, insertion) that the server knows as functions. */
    private static java.util.Set<String> close(Connection connection, String name) throws SQLException {
        java.util.Set<String> candidates = new java.util.LinkedHashSet<>();
        String letters = "abcdefghijklmnopqrstuvwxyz_";
        for (int i = 0; i + 1 < name.length(); i++) {
            candidates.add(name.substring(0, i) + name.charAt(i + 1) + name.charAt(i) + name.substring(i + 2));
        }
        for (int i = 0; i < name.length(); i++) {
            candidates.add(name.substring(0, i) + name.substring(i + 1));
        }
        for (int i = 0; i <= name.length(); i++) {
            for (char c : letters.toCharArray()) {
                if (i < name.length()) {
                    candidates.add(name.substring(0, i) + c + name.substring(i + 1));
                }
                candidates.add(name.substring(0, i) + c + name.substring(i));
            }
        }
        java.util.Set<String> known = new java.util.TreeSet<>();
        int probes = 0;
        for (String candidate : candidates) {
            if (candidate.equals(name) || !FUNCTION_NAME.matcher(candidate).matches()) {
                continue;
            }
            if (++probes > MAX_SUGGESTION_PROBES || known.size() >= 3) {
                break;
            }
            if (probe(connection, candidate) == FunctionProbe.FUNCTION) {
                known.add(candidate);
            }
        }
        return known;
    }

    /**
     * {@code COUNT(*)} bounded on the server by the time left (at least 50 ms): InnoDB's
     * {@code TABLE_ROWS} is an estimate (2 for a 5-row table was seen), so it is never shown as the count.
     */
    static OptionalLong count(Connection connection, ServerFlavor flavor, String schema, String table, long leftMillis) {
        if (leftMillis < 50) {
            return OptionalLong.empty();
        }
        String from;
        try {
            from = MySqlQuoting.identifier(schema) + "." + MySqlQuoting.identifier(table);
        } catch (GuardException e) {
            return OptionalLong.empty();
        }
        String sql = flavor == ServerFlavor.MARIADB
                ? "SET STATEMENT max_statement_time = " + flavor.timeoutValue(leftMillis) + " FOR SELECT COUNT(*) FROM " + from
                : "SELECT /*+ MAX_EXECUTION_TIME(" + leftMillis + ") */ COUNT(*) FROM " + from;
        try (Statement s = connection.createStatement()) {
            // execute, not executeQuery: Connector/J refuses a text that does not start with SELECT there
            if (!s.execute(sql)) {
                return OptionalLong.empty();
            }
            try (ResultSet rs = s.getResultSet()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        } catch (SQLException e) {
            LOG.debug("row count of a table not taken (error " + e.getErrorCode() + "); its estimate is marked approximate");
            return OptionalLong.empty();
        }
    }

    private static OptionalLong rows(Connection connection, String schema, String table) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(ROWS)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    long n = rs.getLong(1);
                    return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(n);
                }
            }
        }
        return OptionalLong.empty();
    }
}
