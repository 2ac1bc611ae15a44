package dev.sqlguard.mysql;

import org.junit.jupiter.api.Tag;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mysql.MySQLContainer;

import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;

/**
 * The engine contract on a real MySQL 8.4 server in a container, with the least-privilege account.
 * It skips cleanly where no Docker engine runs; {@link MySqlContractTest} runs the same suite on the
 * server named by {@code SQLGUARD_MYSQL_URL} (MariaDB in CI).
 */
@Tag("mysql")
@Testcontainers(disabledWithoutDocker = true)
class MySql84ContainerContractTest extends EngineContractSuite {
    @Container
    static final MySQLContainer MYSQL = new MySQLContainer("mysql:8.4").withUsername("root").withPassword("root-pw");

    @Override
    protected EngineFixture createFixture() throws Exception {
        return new MySqlFixture(TestServer.of(MYSQL), false);
    }
}
