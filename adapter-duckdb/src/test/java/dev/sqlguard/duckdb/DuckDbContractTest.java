package dev.sqlguard.duckdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;
import dev.sqlguard.testing.EngineWrite;
import dev.sqlguard.testing.PrivateDatabaseFixture;

/** The engine contract on a real DuckDB file. */
class DuckDbContractTest extends EngineContractSuite {
    @Override
    protected EngineFixture createFixture() throws Exception {
        return new Fixture(Files.createTempDirectory("sqlguard-duckdb-contract-"));
    }

    /** A private folder holding the database and, apart from it, the engines' work directory. */
    static final class Fixture extends PrivateDatabaseFixture {
        private final Path root;
        private final Path folder;
        private final Path database;
        private final Path work;

        Fixture(Path root) throws Exception {
            this.root = root;
            this.folder = Files.createDirectory(root.resolve("db"));
            this.work = Files.createDirectory(root.resolve("work"));
            this.database = TestDatabases.contractDatabase(folder);
        }

        @Override
        public EngineFactory factory() {
            return new DuckDbEngineFactory();
        }

        @Override
        protected Map<String, String> properties() {
            return Map.of("database", database.toString());
        }

        @Override
        protected Path workFolder() {
            return work;
        }

        /** SHA-256 of the file's bytes and the names in its folder: read from disk, no engine involved. */
        @Override
        protected String readFingerprint() throws Exception {
            try (Stream<Path> files = Files.list(folder)) {
                return TestDatabases.digest(database) + " " + files.map(p -> p.getFileName().toString()).sorted().toList();
            }
        }

        @Override
        public String runawayQuery() {
            return "SELECT sum(a.id * b.id * c.id * d.id * e.id * f.id) AS s "
                    + "FROM claims a, claims b, claims c, claims d, claims e, claims f";
        }

        @Override
        public List<String> dialectForbiddenStatements() {
            return List.of(
                    "SET enable_external_access = true",
                    "RESET lock_configuration",
                    "SET VARIABLE x = 1",
                    "PREPARE p AS SELECT 1",
                    "CREATE TEMP MACRO m(x) AS x",
                    "CREATE SECRET s (TYPE s3, KEY_ID 'k', SECRET 'v')",
                    "EXPORT DATABASE 'out'",
                    "SELECT 1; CREATE TEMP TABLE t AS SELECT 1",
                    "/* c */ PRAGMA version",
                    "DETACH memory",
                    "SELECT * FROM query('SELECT 1')",
                    "SELECT * FROM query_table('users')",
                    "SELECT current_setting('threads')",
                    "SELECT * FROM duckdb_settings()");
        }

        /** The standard writes, a locked setting and the database's sequence. */
        @Override
        public List<EngineWrite> engineWrites() {
            List<EngineWrite> writes = new java.util.ArrayList<>(EngineWrite.standard());
            writes.add(EngineWrite.refused(EngineWrite.Kind.SEQUENCE_ADVANCE, "SELECT nextval('sqlguard_seq') AS n"));
            writes.add(EngineWrite.refused(EngineWrite.Kind.INSERT, "INSERT INTO regions VALUES ('probe', 'probe') RETURNING region"));
            writes.add(EngineWrite.traced(EngineWrite.Kind.SETTING, "SET threads = 1", "SELECT current_setting('threads') AS n"));
            writes.add(EngineWrite.traced(EngineWrite.Kind.SETTING, "SET VARIABLE probe = 1", "SELECT count(*) AS n FROM duckdb_variables()"));
            return writes;
        }

        @Override
        public List<String> dialectExternalAccess() {
            return List.of(
                    "SELECT * FROM read_blob('" + database + "')",
                    "SELECT content FROM read_text('" + database + "')",
                    "COPY (SELECT 'x') TO '" + database + "' (FORMAT csv, USE_TMP_FILE false)",
                    "ATTACH '" + database + "' AS c2 (READ_ONLY)",
                    "SELECT * FROM glob('/etc/*')",
                    "FROM '/etc/passwd'",
                    "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))");
        }

        @Override
        public void close() {
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
