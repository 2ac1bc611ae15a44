package dev.sqlguard.postgresql.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeSet;

/**
 * Names everything the connected role may do beyond reading: superuser and the role attributes that
 * create or bypass, membership in the roles that read or write server files or run programs, and,
 * on any table, view or sequence outside the system schemas, ownership or a privilege other than
 * SELECT; CREATE on a schema or on the database. Nothing here is returned to a model: the result
 * names privileges, never objects.
 */
public final class PrivilegeAudit {
    /** Predefined roles that reach files, programs or every table. */
    static final Set<String> DANGEROUS_ROLES = Set.of(
            "pg_read_server_files", "pg_write_server_files", "pg_execute_server_program", "pg_write_all_data",
            "pg_signal_backend");

    private static final String ATTRIBUTES = "SELECT r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolreplication, r.rolbypassrls"
            + " FROM pg_catalog.pg_roles r WHERE r.rolname = current_user";

    private static final String OBJECTS = "SELECT"
            + " bool_or(pg_catalog.pg_get_userbyid(c.relowner) = current_user) AS owns,"
            + " bool_or(c.relkind IN ('r', 'p', 'v', 'm', 'f') AND pg_catalog.has_table_privilege(c.oid,"
            + " 'INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')) AS writes,"
            + " bool_or(c.relkind = 'S' AND pg_catalog.has_sequence_privilege(c.oid, 'USAGE, UPDATE')) AS sequences"
            + " FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'"
            + " AND n.nspname NOT LIKE 'pg\\_temp%' AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')";

    private static final String SCHEMAS = "SELECT bool_or(pg_catalog.has_schema_privilege(n.oid, 'CREATE'))"
            + " OR bool_or(pg_catalog.pg_get_userbyid(n.nspowner) = current_user)"
            + " FROM pg_catalog.pg_namespace n WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')"
            + " AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'";

    private static final String DATABASE = "SELECT pg_catalog.has_database_privilege(current_database(), 'CREATE')";

    private PrivilegeAudit() {
    }

    /** The privileges beyond reading the current role holds, sorted; empty when it can only read. */
    public static Set<String> riskyPrivileges(Connection connection) throws SQLException {
        Set<String> risky = new TreeSet<>();
        try (Statement s = connection.createStatement()) {
            try (ResultSet rs = s.executeQuery(ATTRIBUTES)) {
                if (rs.next()) {
                    String[] names = {"SUPERUSER", "CREATEROLE", "CREATEDB", "REPLICATION", "BYPASSRLS"};
                    for (int i = 0; i < names.length; i++) {
                        if (rs.getBoolean(i + 1)) {
                            risky.add(names[i]);
                        }
                    }
                }
            }
            for (String role : new TreeSet<>(DANGEROUS_ROLES)) {
                try (ResultSet rs = s.executeQuery("SELECT pg_catalog.pg_has_role(current_user, '" + role + "', 'USAGE')")) {
                    if (rs.next() && rs.getBoolean(1)) {
                        risky.add(role.toUpperCase(java.util.Locale.ROOT));
                    }
                }
            }
            try (ResultSet rs = s.executeQuery(OBJECTS)) {
                if (rs.next()) {
                    if (rs.getBoolean(1)) {
                        risky.add("OWNS TABLES");
                    }
                    if (rs.getBoolean(2)) {
                        risky.add("WRITE ON TABLES");
                    }
                    if (rs.getBoolean(3)) {
                        risky.add("USAGE ON SEQUENCES");
                    }
                }
            }
            try (ResultSet rs = s.executeQuery(SCHEMAS)) {
                if (rs.next() && rs.getBoolean(1)) {
                    risky.add("CREATE ON SCHEMAS");
                }
            }
            try (ResultSet rs = s.executeQuery(DATABASE)) {
                if (rs.next() && rs.getBoolean(1)) {
                    risky.add("CREATE ON DATABASE");
                }
            }
        }
        return risky;
    }
}
