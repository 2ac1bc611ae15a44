package dev.sqlguard.testing.differential;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.testing.ContractDataset;

/**
 * The tenant oracle's two sides over the contract dataset, with the tenant being a region: the row
 * policy the guarded engine gets, and the statements that turn a copy of the data into the data of one
 * tenant only, on which the raw side runs the text as written. The generator's queries read
 * {@code claims}, {@code regions} and {@code users}; the first two are filtered, {@code users} is not.
 */
public final class TenantCopy {
    /** The caller attribute the filters take. */
    public static final String ATTRIBUTE = "tenant";

    private TenantCopy() {
    }

    /** {@code claims} and {@code regions} filtered by {@code region = :tenant}. */
    public static RowPolicy rows() {
        return RowPolicy.of(Optional.empty(), Map.of("claims", "region = :tenant", "regions", "region = :tenant"), Map.of());
    }

    /**
     * Runs the tenant oracle for each tenant of the contract dataset in turn, an equal share of
     * {@code total} cases each from seed {@code seed} on, and asserts that none disagrees and that no call
     * lacked its attribute. {@code target} gives the raw and guarded sides of one tenant.
     */
    public static void assertEachTenant(String engine, Grammar grammar, Function<String, Target> target, Set<String> refusals,
                                        int total, long seed) {
        int each = Math.max(1, total / ContractDataset.REGIONS.size());
        long next = seed;
        for (String tenant : ContractDataset.REGIONS) {
            Differential.Report report = new Differential(engine, new QueryGenerator(grammar), target.apply(tenant), refusals)
                    .tenant(next, each, 10);
            System.out.println("tenant " + tenant + ": " + report.summary());
            assertThat(report.refusals()).doesNotContainKey("MISSING_ATTRIBUTE");
            Outcomes.assertNoFindings(report);
            next += each;
        }
    }

    /** The region of {@link #trapRows()}: no tenant's. */
    public static final String TRAP = "trap";

    /**
     * Rows of a region that is no tenant's, for the guarded side only (a copy made for the raw side drops them with
     * every other region): values on which the generator's expressions fail, an id whose sum or product with itself
     * overflows a BIGINT and an amount past INTEGER's range. An engine that evaluates any expression of the query on
     * another tenant's rows before the tenant's filter then fails where the tenant's copy answers: the error that
     * would tell a tenant that another tenant's row exists. Portable SQL, run as the database's owner.
     */
    public static List<String> trapRows() {
        return List.of("INSERT INTO claims (id, region, amount, status, created, ssn) VALUES (9000000000000000000, '" + TRAP
                + "', 9999999999.99, 'TRAP', DATE '9999-12-31', 'trap')", "INSERT INTO regions (region, manager) VALUES ('" + TRAP
                + "', 'Trap')");
    }

    /** The tenant of case {@code seed}: the regions in turn. */
    public static String tenantOf(long seed) {
        return ContractDataset.REGIONS.get((int) Math.floorMod(seed, (long) ContractDataset.REGIONS.size()));
    }

    /** The rows of {@code tenant} in a filtered table, as a predicate (for engines that copy with CREATE TABLE AS). */
    public static String predicate(String tenant) {
        requireTenant(tenant);
        return "region = '" + tenant + "'";
    }

    private static void requireTenant(String tenant) {
        if (!ContractDataset.REGIONS.contains(tenant)) {
            throw new IllegalArgumentException("not a tenant of the contract dataset: " + tenant);
        }
    }

    /**
     * Statements that leave only {@code tenant}'s rows in a copy (run on the copy, as its owner, never on
     * the guarded database). The tenant is one of {@link ContractDataset#REGIONS}: a literal of plain letters.
     */
    public static List<String> keepOnly(String tenant) {
        requireTenant(tenant);
        return List.of("DELETE FROM claims WHERE region IS NULL OR region <> '" + tenant + "'",
                "DELETE FROM regions WHERE region IS NULL OR region <> '" + tenant + "'");
    }
}
