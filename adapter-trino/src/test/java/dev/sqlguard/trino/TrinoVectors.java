package dev.sqlguard.trino;

import java.util.List;

/** Trino's own risky surface, as SQL a model could send: each must be refused. */
final class TrinoVectors {
    private TrinoVectors() {
    }

    /** Statements and expressions that change state, reach the session, run SQL from strings or amplify cost. */
    static final List<String> FORBIDDEN = List.of(
            // session and statements other than SELECT
            "SET SESSION query_max_execution_time = '1h'", "RESET SESSION query_max_execution_time",
            "SET ROLE admin", "SET PATH memory.default", "SET TIME ZONE 'UTC'", "USE memory.default",
            "CALL system.runtime.kill_query(query_id => 'x', message => 'y')", "CALL system.sync_partition_metadata('a', 'b', 'FULL')",
            "EXECUTE IMMEDIATE 'DELETE FROM claims'", "EXECUTE IMMEDIATE 'SELECT password FROM users'",
            "PREPARE p FROM SELECT password FROM users", "EXECUTE p", "DEALLOCATE PREPARE p", "DESCRIBE INPUT p", "DESCRIBE OUTPUT p",
            "SHOW TABLES", "SHOW CATALOGS", "SHOW SCHEMAS", "SHOW COLUMNS FROM users", "SHOW CREATE TABLE users", "SHOW SESSION",
            "SHOW FUNCTIONS", "SHOW GRANTS", "SHOW STATS FOR users", "DESCRIBE users", "EXPLAIN SELECT password FROM users",
            "EXPLAIN ANALYZE SELECT password FROM users", "START TRANSACTION", "COMMIT", "ROLLBACK",
            "CREATE TABLE evil AS SELECT * FROM users", "INSERT INTO claims (id) VALUES (99)", "DELETE FROM claims",
            "UPDATE claims SET amount = 0", "MERGE INTO claims c USING regions r ON c.region = r.region WHEN MATCHED THEN DELETE",
            "TRUNCATE TABLE claims", "ALTER TABLE claims RENAME TO c2", "DROP TABLE claims", "GRANT SELECT ON users TO PUBLIC",
            "REVOKE SELECT ON claims FROM PUBLIC", "ANALYZE claims", "COMMENT ON TABLE claims IS 'x'", "CREATE VIEW v AS SELECT 1",
            "CREATE FUNCTION f() RETURNS int RETURN 1", "REFRESH MATERIALIZED VIEW v",
            // catalogs of the cluster itself
            "SELECT query FROM system.runtime.queries", "SELECT node_id FROM system.runtime.nodes", "SELECT * FROM system.runtime.tasks",
            "SELECT table_name FROM information_schema.tables", "SELECT column_name FROM information_schema.columns",
            "SELECT * FROM system.metadata.catalogs", "SELECT name FROM memory.information_schema.tables",
            // table functions
            "SELECT * FROM TABLE(system.query(query => 'SELECT password FROM users'))",
            "SELECT * FROM TABLE(exclude_columns(input => TABLE(users), columns => DESCRIPTOR(id)))",
            "SELECT * FROM TABLE(sequence(start => 1, stop => 1000000000))",
            "SELECT x FROM UNNEST(sequence(1, 100000000)) AS t(x)",
            "SELECT sequence(1, 100000000) AS s",
            // rows, lambdas, error masking, arrays, session identity
            "SELECT ROW(u.id, u.password) AS r FROM users u", "SELECT CAST(ROW(1, 2) AS ROW(a int, b int)) AS r",
            "SELECT transform(ARRAY[1, 2], x -> x + 1) AS t", "SELECT filter(ARRAY['a'], x -> x = 'a') AS f",
            "SELECT reduce(ARRAY[1], 0, (s, x) -> s + x, s -> s) AS r",
            "SELECT try(1 / 0) AS t", "SELECT TRY(CAST(password AS bigint)) AS t FROM users", "SELECT try_cast(password AS bigint) AS t FROM users",
            "SELECT current_user AS u", "SELECT current_catalog AS c", "SELECT current_schema AS s", "SELECT version() AS v",
            "SELECT ARRAY[1, 2] AS a", "SELECT MAP(ARRAY['a'], ARRAY[1]) AS m", "SELECT json_extract('{}', '$.a') AS j",
            "SELECT regexp_like(name, 'a') AS r FROM users", "SELECT random() AS r", "SELECT uuid() AS u",
            // cost amplifiers
            "SELECT repeat('x', 100000000) AS r", "SELECT lpad('x', 1000000000, 'y') AS p", "SELECT rpad(name, 1000000000, 'y') AS p FROM users",
            "SELECT array_join(repeat('x', 100000000), '') AS j",
            // lexical forms Trino reads differently or that hide text from the parser
            "SELECT id FROM claims WHERE region = U&'\\0041'", "SELECT X'41' AS b", "SELECT id FROM claims /* x */ ; DROP TABLE claims",
            "SELECT 1 AS x FROM claims FOR UPDATE", "SELECT id FROM claims OFFSET 1 ROWS FETCH FIRST 1 ROWS ONLY");

    /** Access to other catalogs, the cluster's metadata, files or the network. */
    static final List<String> EXTERNAL = List.of(
            "SELECT * FROM tpch.tiny.nation", "SELECT name FROM tpch.sf1.customer",
            "SELECT * FROM memory.default.claims", "SELECT * FROM system.runtime.nodes",
            "SELECT * FROM TABLE(system.query(query => 'SELECT 1'))",
            "SELECT url_extract_host('http://example.invalid/') AS h",
            "SELECT * FROM other_schema.claims");
}
