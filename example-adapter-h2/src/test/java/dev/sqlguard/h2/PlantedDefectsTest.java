package dev.sqlguard.h2;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import dev.sqlguard.testing.EngineFixture;

/**
 * The contract suite fails for each defect planted into the example adapter ({@link PlantedDefects}):
 * it runs, through the JUnit Platform Launcher, the whole suite on a subclass of {@link H2ContractTest}
 * whose fixture builds the mutant, and asserts which proof fails. The unmutated suite passes
 * ({@link H2ContractTest}).
 */
class PlantedDefectsTest {
    @Test
    void aReadWriteOpenFailsTheEngineLevelWrites() {
        assertThat(failures(ReadWriteContract.class)).anyMatch(id -> id.contains("theEngineItselfRefusesToWrite"));
    }

    @Test
    void aStatementWithoutTheRowBoundFailsTheRowBoundProof() {
        assertThat(failures(NoRowBoundContract.class)).anyMatch(id -> id.contains("theRowBoundIsInTheStatementTheEngineRuns"));
    }

    @Test
    void noDeadlineFailsBothDeadlineTests() {
        List<String> failed = failures(NoDeadlineContract.class);
        assertThat(failed).anyMatch(id -> id.contains("theEngineStopsARunawayStatementAtItsOwnDeadline"));
        assertThat(failed).anyMatch(id -> id.contains("stopsARunawayQueryAtTheTimeout"));
    }

    @Test
    void driverManagerFailsThePlugInProof() {
        assertThat(failures(DriverManagerContract.class)).anyMatch(id -> id.contains("startsAndAnswersWhenLoadedAsAPlugin"));
    }

    /** The unique ids of the tests (and containers) of {@code suite} that failed. */
    private static List<String> failures(Class<?> suite) {
        Set<String> failed = ConcurrentHashMap.newKeySet();
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(DiscoverySelectors.selectClass(suite)).build();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                    failed.add(id.getUniqueId());
                }
            }
        });
        assertThat(failed).as("the suite must fail on %s", suite.getSimpleName()).isNotEmpty();
        return List.copyOf(failed);
    }

    static class ReadWriteContract extends H2ContractTest {
        @Override
        protected EngineFixture createFixture() throws Exception {
            return new H2Fixture(Files.createTempDirectory("sqlguard-h2-mutant-"), new PlantedDefects.ReadWrite());
        }
    }

    static class NoRowBoundContract extends H2ContractTest {
        @Override
        protected EngineFixture createFixture() throws Exception {
            return new H2Fixture(Files.createTempDirectory("sqlguard-h2-mutant-"), new PlantedDefects.NoRowBound());
        }
    }

    static class NoDeadlineContract extends H2ContractTest {
        @Override
        protected EngineFixture createFixture() throws Exception {
            return new H2Fixture(Files.createTempDirectory("sqlguard-h2-mutant-"), new PlantedDefects.NoDeadline());
        }
    }

    static class DriverManagerContract extends H2ContractTest {
        @Override
        protected EngineFixture createFixture() throws Exception {
            return new H2Fixture(Files.createTempDirectory("sqlguard-h2-mutant-"), new PlantedDefects.UsesDriverManager());
        }
    }
}
