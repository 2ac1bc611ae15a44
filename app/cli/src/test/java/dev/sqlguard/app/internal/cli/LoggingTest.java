package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The CLI's logging: pool and driver events stay off default stderr, and every event is one line. */
class LoggingTest {
    private final PrintStream originalErr = System.err;

    @AfterEach
    void restore() {
        System.setErr(originalErr);
        Main.configureLogging("warn");
    }

    private String logged(String level, Runnable events) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        Main.configureLogging(level);
        events.run();
        System.err.flush();
        return err.toString(StandardCharsets.UTF_8);
    }

    private static void poolFailure() {
        Logger hikari = LoggerFactory.getLogger("com.zaxxer.hikari.pool.ProxyConnection");
        hikari.warn("HikariPool-1 - Connection marked as broken because of SQLSTATE(08S01)",
                new SQLException("Communications link failure\n\nThe last packet sent successfully to the server was 0 ms ago.", "08S01"));
    }

    @Test
    void poolAndDriverEventsAreOffAtTheDefaultLevel() {
        assertThat(logged("warn", LoggingTest::poolFailure)).isEmpty();
        assertThat(logged(null, LoggingTest::poolFailure)).isEmpty();
    }

    @Test
    void atDebugEachPoolEventIsOneLineWithoutDriverText() {
        String out = logged("debug", LoggingTest::poolFailure);
        assertThat(out.lines()).hasSize(1);
        assertThat(out).contains("WARN com.zaxxer.hikari.pool.ProxyConnection - HikariPool-1 - Connection marked as broken")
                .contains("(SQLException)").doesNotContain("Communications link failure").doesNotContain("\tat ");
    }

    @Test
    void ownWarningsStillShowAsOneLine() {
        String out = logged("warn", () -> java.util.logging.Logger.getLogger("dev.sqlguard.x")
                .log(java.util.logging.Level.WARNING, "tool failed:\nIllegalStateException", new IllegalStateException("inner")));
        assertThat(out.lines()).hasSize(1);
        assertThat(out).contains("WARN dev.sqlguard.x - tool failed: IllegalStateException (IllegalStateException)");
    }
}
