package dev.sqlguard.mysql.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code SHOW GRANTS} for the connected account and names every privilege beyond reading.
 * Grant lines are never logged or returned: they hold account names and password hashes.
 */
public final class PrivilegeAudit {
    /** Privileges that only read (or do nothing). Everything else is reported. */
    static final Set<String> READ_ONLY_PRIVILEGES = Set.of("SELECT", "USAGE", "SHOW VIEW");

    private static final Pattern PRIVILEGE_GRANT = Pattern.compile("(?is)^GRANT\\s+(.+?)\\s+ON\\s+(.+?)\\s+TO\\s+(.*)$");
    private static final Pattern PARENS = Pattern.compile("\\([^)]*\\)");

    private PrivilegeAudit() {
    }

    /** The risky privileges of the current account, sorted; empty when it can only read. */
    public static Set<String> riskyPrivileges(Connection connection) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SHOW GRANTS")) {
            while (rs.next()) {
                lines.add(rs.getString(1));
            }
        }
        return riskyPrivileges(lines);
    }

    static Set<String> riskyPrivileges(List<String> grantLines) {
        Set<String> risky = new TreeSet<>();
        for (String line : grantLines) {
            if (line == null) {
                continue;
            }
            String text = line.strip();
            Matcher m = PRIVILEGE_GRANT.matcher(text);
            if (!m.matches()) {
                if (text.toUpperCase(Locale.ROOT).startsWith("GRANT ")) {
                    risky.add("ROLE (role grants are not audited)");
                }
                continue;
            }
            String privileges = PARENS.matcher(m.group(1)).replaceAll("");
            for (String p : privileges.split(",")) {
                String name = p.strip().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
                if (!name.isEmpty() && !READ_ONLY_PRIVILEGES.contains(name)) {
                    risky.add(name);
                }
            }
            if (m.group(3).toUpperCase(Locale.ROOT).contains("WITH GRANT OPTION")) {
                risky.add("GRANT OPTION");
            }
        }
        return risky;
    }
}
