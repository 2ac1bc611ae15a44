package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;

class DriverSourceTest {
    /** A driver that records what it was asked and accepts nothing. */
    static final class Recording extends JdbcStartupTest.FakeDriver {
        final List<Properties> asked = new ArrayList<>();

        @Override
        public java.sql.Connection connect(String url, Properties info) {
            asked.add(info);
            return null;
        }
    }

    @Test
    void opensThroughItsDriverWithItsPropertiesAndNamesNoSecret() {
        Recording driver = new Recording();
        Properties props = new Properties();
        props.setProperty("user", "app");
        props.setProperty("password", "s3cret");
        DriverSource source = new DriverSource(driver, "jdbc:x://h/db", props);
        props.setProperty("password", "changed later");
        assertThatThrownBy(source::getConnection).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> source.getConnection("other", "pw")).isInstanceOf(SQLException.class);
        assertThat(driver.asked.get(0).getProperty("password")).isEqualTo("s3cret");
        assertThat(driver.asked.get(1).getProperty("user")).isEqualTo("other");
        assertThat(source.toString()).doesNotContain("s3cret").doesNotContain("jdbc:");
    }
}
