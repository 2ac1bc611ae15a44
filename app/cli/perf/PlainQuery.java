import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.Properties;

/**
 * The baseline of the start-up measurement (startup-cpu.py): a plain Java program that opens a DuckDB
 * file read-only and runs one query, printing its rows. No sqlguard, no checks, default JVM flags.
 * Usage: java -cp duckdb_jdbc.jar:. PlainQuery DATABASE SQL
 */
public final class PlainQuery {
    public static void main(String[] args) throws Exception {
        Properties properties = new Properties();
        properties.setProperty("duckdb.read_only", "true");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + args[0], properties);
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(args[1])) {
            ResultSetMetaData meta = rs.getMetaData();
            StringBuilder out = new StringBuilder();
            while (rs.next()) {
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    out.append(i == 1 ? "" : ",").append(rs.getObject(i));
                }
                out.append('\n');
            }
            System.out.print(out);
        }
    }
}
