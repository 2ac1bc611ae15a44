package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.ports.CatalogView;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineParts;

class JdbcEngineStartTest {
    private static final StatementValidator VALIDATOR = request -> {
        throw new GuardException(ErrorCode.SYNTAX_ERROR);
    };
    private static final ExecutionPort EXECUTION = plan -> {
        throw new GuardException(ErrorCode.QUERY_FAILED);
    };
    private static final CatalogView CATALOG = List::of;

    /** The wording of an adapter: a refused login (SQLSTATE 28...) is the configuration's fault. */
    private static final JdbcEngineStart START = new JdbcEngineStart("sales", e -> JdbcStartup.failure("sales", e,
            s -> s.getSQLState() != null && s.getSQLState().startsWith("28") ? Optional.of("the database refused the login.")
                    : Optional.empty(), "the database could not be reached."));

    private static EngineParts parts() {
        return new EngineParts("sales", GuardrailPolicy.defaults(), VALIDATOR, EXECUTION, CATALOG, Set.of());
    }

    @Test
    void aFailingStepClosesEveryResourceAddedBeforeItNewestFirstAndThrowsTheAdaptersFailure() {
        List<String> closed = new ArrayList<>();
        SQLException refused = new SQLException("password authentication failed for user ro at db.internal", "28P01");
        assertThatThrownBy(() -> START.compose(resources -> {
            resources.add(() -> closed.add("watchdog"));
            resources.add(() -> closed.add("queries pool"));
            resources.add(() -> closed.add("control pool"));
            throw refused;
        })).isInstanceOfSatisfying(GuardException.class, g -> {
            assertThat(g.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
            assertThat(g.getMessage()).isEqualTo("Source 'sales': the database refused the login.");
            assertThat(g.getCause()).isSameAs(refused);
        });
        assertThat(closed).containsExactly("control pool", "queries pool", "watchdog");
    }

    @Test
    void aRuntimeFailureIsUnavailableAndACheckOfTheAdaptersOwnPassesUnchanged() {
        List<String> closed = new ArrayList<>();
        assertThatThrownBy(() -> START.compose(resources -> {
            resources.add(() -> closed.add("pool"));
            throw new IllegalStateException("pool init failed at db.internal:5432");
        })).isInstanceOfSatisfying(GuardException.class, g -> {
            assertThat(g.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThat(g.getMessage()).isEqualTo("Source 'sales': the database could not be reached.");
        });
        assertThat(closed).containsExactly("pool");

        GuardException own = new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source 'sales': the session is not pinned.");
        closed.clear();
        assertThatThrownBy(() -> START.compose(resources -> {
            resources.add(() -> closed.add("pool"));
            throw own;
        })).isSameAs(own);
        assertThat(closed).containsExactly("pool");
    }

    @Test
    void theEngineAnswersWithThePartsAndClosesTheResourcesOnlyWhenItCloses() {
        List<String> closed = new ArrayList<>();
        EngineParts parts = parts();
        Engine engine = START.compose(resources -> {
            resources.add(() -> closed.add("watchdog"));
            resources.add(() -> closed.add("pool"));
            return parts;
        });
        assertThat(engine.sourceId()).isEqualTo("sales");
        assertThat(engine.validator()).isSameAs(VALIDATOR);
        assertThat(engine.execution()).isSameAs(EXECUTION);
        assertThat(closed).isEmpty();
        engine.close();
        assertThat(closed).containsExactly("pool", "watchdog");
    }

    @Test
    void theBootstrapConnectionIsClosedAfterTheChecksAndAFailedCheckIsTheAdaptersFailure() throws SQLException {
        AtomicReference<Connection> opened = new AtomicReference<>();
        String answer = START.onBootstrap(() -> {
            opened.set(DriverManager.getConnection("jdbc:duckdb:"));
            return opened.get();
        }, bootstrap -> {
            assertThat(bootstrap.isClosed()).isFalse();
            return "checked";
        });
        assertThat(answer).isEqualTo("checked");
        assertThat(opened.get().isClosed()).isTrue();

        SQLException lost = new SQLException("connection to db.internal lost", "08006");
        assertThatThrownBy(() -> START.onBootstrap(() -> {
            opened.set(DriverManager.getConnection("jdbc:duckdb:"));
            return opened.get();
        }, bootstrap -> {
            throw lost;
        })).isInstanceOfSatisfying(GuardException.class, g -> {
            assertThat(g.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThat(g.getMessage()).isEqualTo("Source 'sales': the database could not be reached.").doesNotContain("db.internal");
            assertThat(g.getCause()).isSameAs(lost);
        });
        assertThat(opened.get().isClosed()).isTrue();

        // a connect the server refuses is the same failure, with nothing to close
        assertThatThrownBy(() -> START.onBootstrap(() -> {
            throw new SQLException("no pg_hba.conf entry", "28000");
        }, bootstrap -> "never")).isInstanceOfSatisfying(GuardException.class,
                g -> assertThat(g.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
    }

    @Test
    void anAccountThatMayWriteIsRefusedWhenReadOnlyIsRequiredAndElseWarnedOnce() {
        String loggerName = "dev.sqlguard.jdbc.JdbcEngineStartTest.adapter";
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger(loggerName);
        List<LogRecord> records = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(handler);
        try {
            org.slf4j.Logger log = LoggerFactory.getLogger(loggerName);
            String holds = "the database account holds privileges beyond reading: ";
            String advice = "Use an account with SELECT on the allowlisted tables only.";

            START.readOnlyAccount(log, true, Set.of(), holds, advice);
            START.readOnlyAccount(log, false, Set.of(), holds, advice);
            assertThat(records).isEmpty();

            assertThatThrownBy(() -> START.readOnlyAccount(log, true, Set.of("INSERT"), holds, advice))
                    .isInstanceOfSatisfying(GuardException.class, g -> {
                        assertThat(g.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                        assertThat(g.getMessage()).isEqualTo("Source 'sales': the database account holds privileges beyond reading:"
                                + " [INSERT]. Use an account with SELECT on the allowlisted tables only.");
                    });
            assertThat(records).isEmpty();

            START.readOnlyAccount(log, false, Set.of("INSERT"), holds, advice);
            assertThat(records).singleElement().satisfies(r -> {
                assertThat(r.getLevel()).isEqualTo(Level.WARNING);
                assertThat(r.getMessage()).isEqualTo("Source 'sales': the database account holds privileges beyond reading:"
                        + " [INSERT]. Use an account with SELECT on the allowlisted tables only. sqlguard's own controls still apply.");
            });
        } finally {
            jul.removeHandler(handler);
        }
    }
}
