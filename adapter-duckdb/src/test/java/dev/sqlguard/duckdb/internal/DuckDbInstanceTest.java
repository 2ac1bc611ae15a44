package dev.sqlguard.duckdb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.duckdb.TestDatabases;

/** The settings check refuses an instance whose settings do not hold, and accepts the locked one. */
class DuckDbInstanceTest {
    @TempDir
    Path folder;
    @TempDir
    Path temp;

    private Path database() throws Exception {
        return TestDatabases.create(folder.resolve("x.duckdb"), "CREATE TABLE t AS SELECT 1 AS a").toRealPath();
    }

    @Test
    void theLockedInstanceHoldsEverySettingAndRefusesChanges() throws Exception {
        DuckDbSettings settings = new DuckDbSettings(database(), Optional.of(temp.toRealPath()), Optional.of("1GB"), 123_000_000L, 1);
        DuckDbInstance instance = DuckDbInstance.acquire(settings);
        try (Connection c = instance.duplicate(); Statement st = c.createStatement()) {
            DuckDbInstance.verify(c, settings); // a duplicate inherits every setting
            for (String change : new String[] {"SET enable_external_access = true", "SET lock_configuration = false",
                    "RESET memory_limit", "SET threads = 8", "PRAGMA enable_external_access"}) {
                assertThatThrownBy(() -> st.execute(change)).isInstanceOf(java.sql.SQLException.class);
            }
        } finally {
            instance.release();
        }
    }

    @Test
    void anUnlockedOrWritableConnectionIsRefused() throws Exception {
        Path db = database();
        DuckDbSettings settings = new DuckDbSettings(db, Optional.empty(), Optional.empty(), 100_000_000L, 1);
        try (Connection plain = DriverManager.getConnection("jdbc:duckdb:" + db)) {
            assertThatThrownBy(() -> DuckDbInstance.verify(plain, settings))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.READ_ONLY_NOT_ENFORCED));
        }
        Properties almost = settings.connectionProperties();
        almost.remove("lock_configuration");
        try (Connection unlocked = DriverManager.getConnection("jdbc:duckdb:" + db, almost)) {
            assertThatThrownBy(() -> DuckDbInstance.verify(unlocked, settings))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.safeMessage()).contains("lock_configuration"));
        }
        Properties otherMemory = settings.connectionProperties();
        otherMemory.setProperty("memory_limit", "200000000B");
        try (Connection wrong = DriverManager.getConnection("jdbc:duckdb:" + db, otherMemory)) {
            assertThatThrownBy(() -> DuckDbInstance.verify(wrong, settings))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.safeMessage()).contains("memory_limit"));
        }
    }

    @Test
    void sizesParseLikeDuckDb() {
        assertThat(DuckDbSettings.bytes("1GB")).isEqualTo(1_000_000_000L);
        assertThat(DuckDbSettings.bytes("512MiB")).isEqualTo(512L << 20);
        assertThat(DuckDbSettings.bytes("1.5 KB")).isEqualTo(1500L);
        assertThat(DuckDbSettings.isSize("lots")).isFalse();
        assertThat(DuckDbSettings.isSize("1e9")).isFalse();
    }
}
