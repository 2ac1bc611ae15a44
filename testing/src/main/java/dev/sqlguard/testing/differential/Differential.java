package dev.sqlguard.testing.differential;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Runs generated cases on one engine and reports every disagreement, shrunk to a minimal case.
 *
 * <p><b>Differential cases:</b> the same text raw and guarded. Both ran: the rows must be equal (in
 * order when the case orders them, as multisets otherwise). Both failed: they agree. The guard ran a
 * statement the engine refuses: a disagreement. The engine ran it and the guard refused it: allowed only
 * with a code that policy explains ({@code policyCodes}), counted per code; any other refusal is a
 * disagreement.
 *
 * <p><b>Probe pairs:</b> the probe case written with a hidden column's name and with a name that exists
 * nowhere, both guarded: the same code, the same message (each name replaced by a placeholder) and the
 * same rows. The absent name is the hidden one with {@code _zz} appended, so that both look equally
 * sensitive to the name-based redaction of outputs, which does not depend on the schema.
 */
public final class Differential {
    /** Appended to a hidden name to make the name that exists nowhere. */
    public static final String ABSENT_SUFFIX = "_zz";
    /** The tally of cases the engine refused by a fault of its own that the guard answers ({@link Target#enginesOwnFault}). */
    public static final String ENGINE_FAULT = "ENGINE_FAULT";
    private static final int SHRINK_ATTEMPTS = 400;

    /** One disagreement: the case as generated and shrunk, and what differed on the shrunk one. */
    public record Finding(long seed, String generated, String minimal, String difference) {
        @Override
        public String toString() {
            return "seed " + seed + ": " + difference + "\n    minimal:   " + minimal + "\n    generated: " + generated;
        }
    }

    /**
     * What a run found.
     *
     * @param cases cases run
     * @param bothRan cases that ran raw and guarded
     * @param bothFailed cases that failed raw and guarded
     * @param refusals refusals that policy explains, per code, of cases that ran raw
     * @param findings disagreements, at most the run's cap
     * @param nanos wall time of the run, shrinking included
     * @param rawNanos time spent in raw runs of the cases as generated, summed over the workers
     * @param guardedNanos time spent in guarded runs of the cases as generated, summed over the workers
     * @param shrinkNanos time spent shrinking findings, summed over the workers
     * @param workers cases run at once
     */
    public record Report(String engine, String kind, long seed, int cases, int bothRan, int bothFailed, Map<String, Integer> refusals,
                         List<Finding> findings, long nanos, long rawNanos, long guardedNanos, long shrinkNanos, int workers) {
        public double perSecond() {
            return nanos == 0 ? 0 : cases * 1e9 / nanos;
        }

        public String summary() {
            return String.format(Locale.ROOT, "%s %s seed=%d: %d cases in %.1f s (%.0f/s, %d workers; raw %.1f s, guarded %.1f s,"
                    + " shrinking %.1f s, summed over workers), both ran %d, both failed %d, policy refusals %s, disagreements %d",
                    engine, kind, seed, cases, nanos / 1e9, perSecond(), workers, rawNanos / 1e9, guardedNanos / 1e9, shrinkNanos / 1e9,
                    bothRan, bothFailed, refusals, findings.size());
        }
    }

    private final String engine;
    private final QueryGenerator generator;
    private final Target target;
    private final Set<String> policyCodes;
    private final int workers;
    private final ThreadLocal<QueryGenerator> generators;
    private final LongAdder rawNanos = new LongAdder();
    private final LongAdder guardedNanos = new LongAdder();
    private final LongAdder shrinkNanos = new LongAdder();
    private final AtomicInteger shownRefusals = new AtomicInteger();

    /** @param policyCodes the guard's codes that may refuse a statement the engine runs (refusals by policy) */
    public Differential(String engine, QueryGenerator generator, Target target, Set<String> policyCodes) {
        this(engine, generator, target, policyCodes, 1);
    }

    /**
     * A run of {@code workers} cases at once; {@code target} must then take calls from several threads (a raw
     * connection per thread: {@link RawConnections}). The cases, their seeds and the report are those of one
     * worker; only the wall time differs.
     */
    public Differential(String engine, QueryGenerator generator, Target target, Set<String> policyCodes, int workers) {
        this.engine = requireNonNull(engine, "engine is null");
        this.generator = requireNonNull(generator, "generator is null");
        this.target = requireNonNull(target, "target is null");
        this.policyCodes = Set.copyOf(policyCodes);
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1");
        }
        this.workers = workers;
        this.generators = ThreadLocal.withInitial(generator::fresh);
    }

    /** Cases run at once: system property {@code sqlguard.differential.workers}, else {@code fallback}. */
    public static int workers(int fallback) {
        return count("sqlguard.differential.workers", fallback);
    }

    /** The number of cases for a run: system property {@code property}, else {@code fallback}. */
    public static int count(String property, int fallback) {
        String value = System.getProperty(property);
        return value == null || value.isBlank() ? fallback : Integer.parseInt(value.strip());
    }

    /** The first seed for a run: system property {@code sqlguard.differential.seed}, else {@code fallback}. */
    public static long seed(long fallback) {
        String value = System.getProperty("sqlguard.differential.seed");
        return value == null || value.isBlank() ? fallback : Long.parseLong(value.strip());
    }

    /** Runs {@code count} differential cases, seeds {@code seed} to {@code seed + count - 1}; stops after {@code maxFindings}. */
    public Report differential(long seed, int count, int maxFindings) {
        return compareRuns("differential", seed, count, maxFindings);
    }

    /**
     * The tenant oracle (multi-tenancy): the same loop as {@link #differential}, on a target whose raw side
     * runs the text as written on a copy of the data holding only one tenant's rows ({@link TenantCopy}) and
     * whose guarded side runs it through an engine with {@link TenantCopy#rows()} and that tenant's attribute.
     */
    public Report tenant(long seed, int count, int maxFindings) {
        return compareRuns("tenant", seed, count, maxFindings);
    }

    private Report compareRuns(String kind, long seed, int count, int maxFindings) {
        return run(kind, seed, count, maxFindings, n -> {
            QueryGenerator.Case c = currentGenerator().next(seed + n);
            String sql = c.sql();
            Outcome raw = timed(rawNanos, () -> target.raw(sql));
            Outcome guarded = timed(guardedNanos, () -> target.guarded(sql));
            String difference = compare(raw, guarded, c.ordered(), c.sql());
            if (difference != null) {
                long shrinkStart = System.nanoTime();
                Sql minimal = Sql.shrink(c.tree(), t -> compare(c.with(t)) != null, SHRINK_ATTEMPTS);
                QueryGenerator.Case small = c.with(minimal);
                String why = compare(small);
                shrinkNanos.add(System.nanoTime() - shrinkStart);
                return CaseResult.finding(new Finding(c.seed(), sql, small.sql(), why == null ? difference : why));
            } else if (raw instanceof Outcome.Rows && guarded instanceof Outcome.Rows) {
                return CaseResult.BOTH_RAN;
            } else if (raw instanceof Outcome.Failed && guarded instanceof Outcome.Failed) {
                return CaseResult.BOTH_FAILED;
            } else if (guarded instanceof Outcome.Rows) {
                // the engine's own fault (Target.enginesOwnFault): tallied apart, so that a run shows how often
                return CaseResult.refused(ENGINE_FAULT);
            }
            Outcome.Failed refusal = (Outcome.Failed) guarded;
            showRefusal(c.seed(), sql, refusal);
            return CaseResult.refused(refusal.code());
        });
    }

    /**
     * Prints a refusal by policy of a statement the engine ran, while fewer than
     * {@code -Dsqlguard.differential.showRefusals} (default 0) were printed: what an honest-SQL review reads.
     */
    private void showRefusal(long caseSeed, String sql, Outcome.Failed refusal) {
        if (shownRefusals.getAndIncrement() < Integer.getInteger("sqlguard.differential.showRefusals", 0)) {
            System.out.printf("%s refusal seed=%d %s: %s%n  %s%n", engine, caseSeed, refusal.code(), refusal.message(), sql);
        }
    }

    /** Runs {@code count} probe pairs, seeds {@code seed} on; stops after {@code maxFindings}. */
    public Report probes(long seed, int count, int maxFindings) {
        return run("probe", seed, count, maxFindings, n -> {
            QueryGenerator.Case c = currentGenerator().probe(seed + n);
            Outcome hidden = timed(guardedNanos, () -> target.guarded(c.sql(c.hidden())));
            String difference = probe(c, hidden);
            if (difference != null) {
                long shrinkStart = System.nanoTime();
                Sql minimal = Sql.shrink(c.tree(), t -> probe(c.with(t), null) != null, SHRINK_ATTEMPTS);
                QueryGenerator.Case small = c.with(minimal);
                String why = probe(small, null);
                shrinkNanos.add(System.nanoTime() - shrinkStart);
                return CaseResult.finding(new Finding(c.seed(), c.sql(c.hidden()), small.sql(small.hidden()), why == null ? difference : why));
            }
            return hidden instanceof Outcome.Rows ? CaseResult.BOTH_RAN : CaseResult.BOTH_FAILED;
        });
    }

    /** What one case gave: a tally (both ran, both failed, a refusal by policy with its code) or a finding. */
    private record CaseResult(int kind, String code, Finding finding) {
        static final CaseResult BOTH_RAN = new CaseResult(0, null, null);
        static final CaseResult BOTH_FAILED = new CaseResult(1, null, null);

        static CaseResult refused(String code) {
            return new CaseResult(2, code, null);
        }

        static CaseResult finding(Finding finding) {
            return new CaseResult(3, null, finding);
        }
    }

    /**
     * Runs case {@code 0..count-1} with {@code one}, on {@link #workers} threads taking the cases in seed order.
     * The report is the one a single thread gives: once {@code maxFindings} findings are known, no further case
     * starts, and the report holds the cases up to the {@code maxFindings}-th finding in seed order.
     */
    private Report run(String kind, long seed, int count, int maxFindings, IntFunction<CaseResult> one) {
        long start = System.nanoTime();
        rawNanos.reset();
        guardedNanos.reset();
        shrinkNanos.reset();
        CaseResult[] results = new CaseResult[count];
        AtomicInteger next = new AtomicInteger();
        AtomicInteger found = new AtomicInteger();
        Runnable worker = () -> {
            // the cap is read before a case is taken, so every case taken is run: none below the cut is left out
            while (found.get() < maxFindings) {
                int n = next.getAndIncrement();
                if (n >= count) {
                    return;
                }
                CaseResult r = one.apply(n);
                results[n] = r;
                if (r.finding() != null) {
                    found.incrementAndGet();
                }
            }
        };
        if (workers == 1) {
            worker.run();
        } else {
            ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
                Thread t = new Thread(r, "differential-" + engine);
                t.setDaemon(true);
                return t;
            });
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int i = 0; i < workers; i++) {
                    futures.add(pool.submit(worker));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
            } finally {
                pool.shutdownNow();
            }
        }
        int bothRan = 0;
        int bothFailed = 0;
        Map<String, Integer> refusals = new TreeMap<>();
        List<Finding> findings = new ArrayList<>();
        int n = 0;
        // every case below the first not run was run (workers take cases in order); a stop leaves gaps only after it
        for (; n < count && results[n] != null && findings.size() < maxFindings; n++) {
            CaseResult r = results[n];
            switch (r.kind()) {
                case 0 -> bothRan++;
                case 1 -> bothFailed++;
                case 2 -> refusals.merge(r.code(), 1, Integer::sum);
                default -> findings.add(r.finding());
            }
        }
        return new Report(engine, kind, seed, n, bothRan, bothFailed, refusals, findings, System.nanoTime() - start,
                rawNanos.sum(), guardedNanos.sum(), shrinkNanos.sum(), workers);
    }

    /** The generator of the calling worker (a generator holds the state of the case it writes). */
    private QueryGenerator currentGenerator() {
        return workers == 1 ? generator : generators.get();
    }

    private static Outcome timed(LongAdder total, Supplier<Outcome> run) {
        long start = System.nanoTime();
        try {
            return run.get();
        } finally {
            total.add(System.nanoTime() - start);
        }
    }

    private String compare(QueryGenerator.Case c) {
        String sql = c.sql();
        return compare(target.raw(sql), target.guarded(sql), c.ordered(), sql);
    }

    /** What differs between a raw and a guarded outcome of {@code sql}, or null when they agree. */
    String compare(Outcome raw, Outcome guarded, boolean ordered, String sql) {
        if (raw instanceof Outcome.Rows r && guarded instanceof Outcome.Rows g) {
            boolean same = ordered ? sameInOrder(r, g, sql) : r.sorted().equals(g.sorted());
            return same ? null : "rows differ: raw " + abbreviate(r.rows()) + ", guarded " + abbreviate(g.rows());
        }
        if (raw instanceof Outcome.Failed f && guarded instanceof Outcome.Rows) {
            return target.enginesOwnFault(sql, f) ? null : "the guard answered a statement the engine refuses (" + abbreviate(f.message()) + ")";
        }
        if (raw instanceof Outcome.Rows && guarded instanceof Outcome.Failed f && !policyCodes.contains(f.code())) {
            return "the guard refused a statement the engine runs: " + f.code() + ": " + abbreviate(f.message());
        }
        return null;
    }

    /**
     * Whether two ordered results agree. Where the engine orders text without regard to case, rows that differ only in
     * case tie: the rows must agree in order once case is set aside, and as multisets exactly unless a LIMIT may
     * have kept either of the tied rows.
     */
    private boolean sameInOrder(Outcome.Rows r, Outcome.Rows g, String sql) {
        if (r.rows().equals(g.rows())) {
            return true;
        }
        if (!generator.grammar().caseInsensitiveOrder() || !folded(r.rows()).equals(folded(g.rows()))) {
            return false;
        }
        return sql.toUpperCase(java.util.Locale.ROOT).contains(" LIMIT ") || r.sorted().equals(g.sorted());
    }

    private static List<List<String>> folded(List<List<String>> rows) {
        List<List<String>> out = new java.util.ArrayList<>(rows.size());
        for (List<String> row : rows) {
            out.add(row.stream().map(v -> v == null ? null : v.toLowerCase(java.util.Locale.ROOT)).toList());
        }
        return out;
    }

    /** What differs in the probe pair of {@code c}; {@code hidden} is the hidden name's outcome when already run, else null. */
    private String probe(QueryGenerator.Case c, Outcome hidden) {
        String absent = c.hidden() + ABSENT_SUFFIX;
        Outcome h = hidden != null ? hidden : target.guarded(c.sql(c.hidden()));
        Outcome missing = hidden != null ? timed(guardedNanos, () -> target.guarded(c.sql(absent))) : target.guarded(c.sql(absent));
        return probeDifference(h, c.hidden(), missing, absent, c.ordered());
    }

    /** What differs between the outcomes of a probe pair, or null when they are the same. */
    static String probeDifference(Outcome hidden, String hiddenName, Outcome missing, String absentName, boolean ordered) {
        if (hidden instanceof Outcome.Rows h && missing instanceof Outcome.Rows m) {
            boolean same = ordered ? h.rows().equals(m.rows()) : h.sorted().equals(m.sorted());
            return same ? null : "rows differ: hidden " + abbreviate(h.rows()) + ", absent " + abbreviate(m.rows());
        }
        if (hidden instanceof Outcome.Failed h && missing instanceof Outcome.Failed m) {
            String hm = placeholder(h.message(), hiddenName);
            String mm = placeholder(m.message(), absentName);
            if (h.code().equals("SYNTAX_ERROR") && m.code().equals("SYNTAX_ERROR")) {
                // where a parser stops is read before any name is resolved, so it cannot tell a hidden column; its
                // position moves by the names' difference in length before it
                hm = hm.replaceAll("character [0-9]+", "character <n>");
                mm = mm.replaceAll("character [0-9]+", "character <n>");
            }
            return h.code().equals(m.code()) && hm.equals(mm) ? null
                    : "refusals differ: hidden " + h.code() + ": " + h.message() + " | absent " + m.code() + ": " + m.message();
        }
        return "one ran, one failed: hidden " + describe(hidden) + " | absent " + describe(missing);
    }

    private static String describe(Outcome o) {
        return o instanceof Outcome.Failed f ? f.code() + ": " + f.message() : "rows " + abbreviate(((Outcome.Rows) o).rows());
    }

    private static String placeholder(String message, String name) {
        return message.replaceAll("(?i)" + java.util.regex.Pattern.quote(name), "<name>");
    }

    private static String abbreviate(Object o) {
        String s = String.valueOf(o);
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    /** Runs {@code sql} with {@code run} and turns an exception into a raw failure. */
    public static Outcome rawOutcome(String sql, Function<String, List<List<String>>> run) {
        try {
            return new Outcome.Rows(run.apply(sql));
        } catch (RuntimeException e) {
            return new Outcome.Failed("RAW", String.valueOf(e.getMessage()));
        }
    }
}
