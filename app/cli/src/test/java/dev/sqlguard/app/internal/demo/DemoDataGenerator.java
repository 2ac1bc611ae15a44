package dev.sqlguard.app.internal.demo;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Generates the demo dataset {@code app/src/main/resources/demo/claims.csv}: synthetic insurance
 * claims, identical on every run and JDK ({@link Random}'s algorithm is specified). The SSNs use
 * area numbers 900-999, which are never issued, so every one is visibly fake.
 *
 * <p>Regenerate with {@code java app/src/test/java/dev/sqlguard/app/internal/demo/DemoDataGenerator.java
 * > app/src/main/resources/demo/claims.csv}; {@code DemoDataTest} checks the committed file matches.
 */
public final class DemoDataGenerator {
    static final int ROWS = 3_000;
    static final long SEED = 20_261_130L;

    private static final List<String> REGIONS = List.of("north", "south", "east", "west", "central");
    private static final double[] REGION_FACTOR = {1.10, 0.95, 1.00, 1.20, 0.85};
    private static final List<String> POLICY_TYPES = List.of("auto", "home", "health", "travel");
    private static final double[] POLICY_BASE = {2_500, 6_000, 1_800, 700};
    private static final LocalDate START = LocalDate.of(2023, 1, 1);

    private DemoDataGenerator() {
    }

    public static String generate() {
        Random random = new Random(SEED);
        StringBuilder out = new StringBuilder(ROWS * 64);
        out.append("id,region,policy_type,amount,status,created,claimant_ssn\n");
        for (int id = 1; id <= ROWS; id++) {
            int region = random.nextInt(REGIONS.size());
            int policy = random.nextInt(POLICY_TYPES.size());
            double spread = StrictMath.exp(random.nextGaussian() * 0.6);
            BigDecimal amount = BigDecimal.valueOf(POLICY_BASE[policy] * REGION_FACTOR[region] * spread)
                    .setScale(2, RoundingMode.HALF_EVEN);
            int roll = random.nextInt(100);
            String status = roll < 55 ? "APPROVED" : roll < 75 ? "DENIED" : roll < 90 ? "PENDING" : "CLOSED";
            LocalDate created = START.plusDays(random.nextInt(730));
            String ssn = String.format(Locale.ROOT, "%03d-%02d-%04d",
                    900 + random.nextInt(100), 1 + random.nextInt(99), 1 + random.nextInt(9_999));
            out.append(id).append(',').append(REGIONS.get(region)).append(',').append(POLICY_TYPES.get(policy))
                    .append(',').append(amount.toPlainString()).append(',').append(status).append(',')
                    .append(created).append(',').append(ssn).append('\n');
        }
        return out.toString();
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        out.print(generate());
        out.flush();
    }
}
