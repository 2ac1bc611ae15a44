package dev.sqlguard.jdbc.archfixture;

import net.sf.jsqlparser.statement.select.Select;

/** Deliberately bad: the JDBC kit reading a JSqlParser tree outside the ANSI renderer. */
public final class JdbcKitClassUsingTheParser {
    public boolean isSelect(Object statement) {
        return statement instanceof Select;
    }
}
