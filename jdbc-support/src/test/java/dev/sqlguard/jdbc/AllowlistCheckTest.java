package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.TableRef;

class AllowlistCheckTest {
    private final Logger logger = Logger.getLogger(AllowlistCheck.class.getName());
    private final List<String> warnings = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            warnings.add(record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        logger.addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        logger.removeHandler(handler);
    }

    @Test
    void aTableTheServerDoesNotShowIsNotFound() {
        assertThat(AllowlistCheck.found("sales", TableRef.of("public", "claims"), Set.of("id"), List.of())).isFalse();
        assertThat(warnings).containsExactly(
                "source 'sales': allowlisted table public.claims does not exist or is not visible; queries on it are refused");
    }

    @Test
    void eachMissingColumnIsNamedButTheTableIsFound() {
        assertThat(AllowlistCheck.found("sales", TableRef.of("claims"), Set.of("*", "id", "amount"), List.of("id", "status"))).isTrue();
        assertThat(warnings).containsExactly("source 'sales': allowlisted column claims.amount does not exist");
    }
}
