package dev.sqlguard.duckdb.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class LoaderTextTest {
    @Test
    void literalsAndIdentifiersRoundTripThroughDuckDb() throws Exception {
        String nasty = "it's \"quoted\"'); DROP TABLE x; -- \\ \n end";
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + LoaderText.literal(nasty) + " AS " + LoaderText.identifier(nasty))) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo(nasty);
            assertThat(rs.getMetaData().getColumnName(1)).isEqualTo(nasty);
        }
    }

    @Test
    void nulCharactersAreRefusedAndPrintableHidesControls() {
        assertThatThrownBy(() -> LoaderText.literal("a\0b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LoaderText.identifier("a\0b")).isInstanceOf(IllegalArgumentException.class);
        assertThat(LoaderText.printable("a\nb\tc", 10)).isEqualTo("a?b?c");
        assertThat(LoaderText.printable("abcdef", 3)).isEqualTo("abc...");
    }
}
