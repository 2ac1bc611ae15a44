package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * The one deadline of a tool call, from the moment the call was accepted: starting the engine,
 * validation with its {@code EXPLAIN} and catalog round trips, the connection checkout, execution
 * and fetching all draw on it, so a call answers within its time limit whatever phase the engine
 * is slow in (issue 26: each phase once had a timeout of its own, and a call on a 2 s source took
 * 5.3 s).
 *
 * <p>The use case ({@link QueryService}) makes it when it accepts a call and makes it
 * {@linkplain #current() current} on the calling thread while the engine validates and executes,
 * which both happen on that thread; the JDBC kit reads it there, so every engine built on the kit
 * (and a third-party one) gets it without a change to the ports. Work that an engine hands to
 * another thread takes the value along: it is immutable.
 *
 * @param acceptedNanos when the call was accepted, a {@link System#nanoTime()} value
 * @param deadlineNanos when its time is up, a {@link System#nanoTime()} value
 */
public record CallDeadline(long acceptedNanos, long deadlineNanos) {
    private static final ThreadLocal<CallDeadline> CURRENT = new ThreadLocal<>();

    public CallDeadline {
        if (deadlineNanos - acceptedNanos < 0) {
            throw new IllegalArgumentException("the deadline is before the call was accepted");
        }
    }

    /** A deadline {@code timeout} after {@code acceptedNanos}. */
    public static CallDeadline of(long acceptedNanos, Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        return new CallDeadline(acceptedNanos, acceptedNanos + Math.max(0, timeout.toNanos()));
    }

    /** A deadline {@code timeout} from now. */
    public static CallDeadline startingNow(Duration timeout) {
        return of(System.nanoTime(), timeout);
    }

    /** The deadline of the call this thread runs now, if a call is running on it. */
    public static Optional<CallDeadline> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /**
     * The deadline for a statement with time limit {@code timeout} on this thread: the current
     * call's when there is one (it never extends it), else {@code timeout} from now.
     */
    public static long deadlineNanosFor(Duration timeout) {
        CallDeadline call = CURRENT.get();
        long own = System.nanoTime() + Math.max(0, timeout.toNanos());
        return call == null ? own : call.deadlineNanos;
    }

    /** This deadline, or {@code timeout} after acceptance when that is earlier. */
    public CallDeadline narrowedTo(Duration timeout) {
        CallDeadline other = of(acceptedNanos, timeout);
        return other.deadlineNanos - deadlineNanos < 0 ? other : this;
    }

    /** Milliseconds left, never negative. */
    public long remainingMillis() {
        return Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000);
    }

    /** Whether the time is up. */
    public boolean expired() {
        return System.nanoTime() - deadlineNanos >= 0;
    }

    /** Milliseconds since the call was accepted. */
    public long elapsedMillis() {
        return Math.max(0, (System.nanoTime() - acceptedNanos) / 1_000_000);
    }

    /** Makes this the thread's current deadline until the scope closes (the previous one is restored). */
    public Scope enter() {
        CallDeadline previous = CURRENT.get();
        CURRENT.set(this);
        return () -> {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        };
    }

    /** The span in which a deadline is current; closing it never throws. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
