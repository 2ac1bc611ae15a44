package dev.sqlguard.h2.internal;

import java.sql.Connection;
import java.sql.SQLException;

import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;

/** Reads the allowlisted tables from H2's INFORMATION_SCHEMA once, at startup, under the names H2 folds them to. */
public final class H2Catalog {
    private static final String COLUMNS = "SELECT COLUMN_NAME, DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";

    private H2Catalog() {
    }

    public static SchemaSnapshot load(Connection connection, String source, TableAllowlist allowlist) throws SQLException {
        return SchemaSnapshot.of(H2Session.SCHEMA, SchemaSnapshot.readAllowlisted(source, allowlist, H2Session.SCHEMA, H2Dialect.NAMES::name,
                SchemaSnapshot.TableReader.byQuery(connection, COLUMNS)));
    }
}
