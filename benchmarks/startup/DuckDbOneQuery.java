import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * The floor for any JVM tool on DuckDB: open DuckDB JDBC in memory, run one small GROUP BY, print
 * the rows, exit. Run with only the DuckDB JDBC jar on the class path.
 */
public final class DuckDbOneQuery {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT i % 5 AS region, avg(i) FROM range(3000) t(i) GROUP BY region ORDER BY region")) {
            while (rs.next()) {
                System.out.println(rs.getLong(1) + "," + rs.getDouble(2));
            }
        }
    }
}
