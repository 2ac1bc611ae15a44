package dev.sqlguard.ports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

class EngineResourcesTest {
    @Test
    void closesTheLastAddedFirstEachOnce() {
        List<String> closed = new ArrayList<>();
        EngineResources resources = new EngineResources();
        resources.add(() -> closed.add("watchdog"));
        resources.add(() -> closed.add("pool"));
        resources.add(() -> closed.add("control"));

        resources.close();
        resources.close();

        assertThat(closed).containsExactly("control", "pool", "watchdog");
    }

    @Test
    void aResourceThatFailsToCloseDoesNotKeepTheOthersOpen() {
        List<String> closed = new ArrayList<>();
        EngineResources resources = new EngineResources();
        resources.add(() -> closed.add("first"));
        resources.add(() -> {
            throw new java.sql.SQLException("the pool would not close");
        });
        resources.add(() -> {
            throw new IllegalStateException("nor would this");
        });
        resources.add(() -> closed.add("last"));

        resources.close();

        assertThat(closed).containsExactly("last", "first");
    }

    @Test
    void releasesWhatHasNoCloseOfItsOwn() {
        EngineResources resources = new EngineResources();
        ExecutorService watchdog = resources.add(Executors.newSingleThreadExecutor(), ExecutorService::shutdownNow);
        assertThat(watchdog.isShutdown()).isFalse();

        resources.close();

        assertThat(watchdog.isShutdown()).isTrue();
    }

    @Test
    void anInterruptedCloseKeepsTheInterrupt() {
        EngineResources resources = new EngineResources();
        resources.add(() -> {
            throw new InterruptedException();
        });
        try {
            resources.close();
            assertThat(Thread.interrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aResourceAddedAfterCloseIsClosedAtOnceAndRefused() {
        List<String> closed = new ArrayList<>();
        EngineResources resources = new EngineResources();
        resources.close();

        assertThatThrownBy(() -> resources.add(() -> closed.add("late")))
                .isInstanceOf(IllegalStateException.class).hasMessage("the resources are closed");
        assertThat(closed).containsExactly("late");
    }
}
