package dev.sqlguard.trino;

import org.junit.jupiter.api.Tag;

import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;

/** The engine contract on the multi-node test cluster (Java 25), as the read-only user. */
@Tag("trino")
class TrinoContractTest extends EngineContractSuite {
    @Override
    protected EngineFixture createFixture() throws Exception {
        TestCluster.require();
        return new TrinoFixture(TestCluster.READ_ONLY);
    }

    /**
     * Not met on Trino yet (issue 26, open): Trino JDBC 483 reads with OkHttp's default 10 s read
     * timeout and offers no property for it, and neither {@code Statement.cancel()} nor the network
     * timeout (the client's request-retry budget) unblocks a read from a frozen coordinator: the
     * checkout phase answered after 30,020 ms on a 2 s limit. The hook to bound it is
     * {@code NonRegisteringTrinoDriver.wrapClient(OkHttpClient)} (a read timeout per connection).
     */
    @Override
    @org.junit.jupiter.api.Disabled("issue 26: a frozen Trino coordinator holds a read for OkHttp's 10 s default (30 s measured on a 2 s limit)")
    protected void everyCallAnswersWithinItsLimitWhicheverPhaseTheServerFreezesIn() throws Exception {
        super.everyCallAnswersWithinItsLimitWhicheverPhaseTheServerFreezesIn();
    }
}
