package dev.sqlguard.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.LifecycleRecord;
import dev.sqlguard.domain.port.StatementValidator;

class QueryServiceTest {
    private final List<AuditEvent> events = new ArrayList<>();
    private final List<LifecycleRecord> records = new ArrayList<>();
    /** Every write to the sink, in order: "lifecycle PHASE" or "audit VERDICT". */
    private final List<String> writes = new ArrayList<>();
    private final AuditSink sink = new AuditSink() {
        @Override
        public void audit(AuditEvent event) {
            events.add(event);
            writes.add("audit " + event.verdict());
        }

        @Override
        public void lifecycle(LifecycleRecord record) {
            records.add(record);
            writes.add("lifecycle " + record.phase() + " executions=" + executions);
        }
    };
    private final QueryService service = new QueryService(sink);
    private int executions;

    private final StatementValidator validator = request -> {
        if (request.sql().startsWith("DROP")) {
            throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED);
        }
        if (request.sql().startsWith("BUG")) {
            throw new IllegalStateException("validator bug at /home/x");
        }
        return new QueryPlan("s", request.sql(), "EXEC " + request.sql(), List.of(), Set.of(), Set.of(), Set.of(),
                List.of(OutputColumn.traced("id", Set.of(ColumnRef.of("t", "id")))), List.of(), Limits.defaults())
                .withParameters(request.params());
    };

    private final ExecutionPort execution = plan -> {
        executions++;
        if (plan.executableSql().contains("FAIL")) {
            throw new GuardException(ErrorCode.QUERY_FAILED, "java.sql.SQLException: secret driver text /var/lib/db");
        }
        if (plan.executableSql().contains("SLOW")) {
            throw new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT);
        }
        if (plan.executableSql().contains("EMPTY")) {
            return ListCursor.of(List.of("id"));
        }
        return ListCursor.of(List.of("id"), new Object[] {1L}, new Object[] {2L});
    };

    private final SourceBinding source = new SourceBinding("s", GuardrailPolicy.defaults(), validator, execution);

    @Test
    void answersWithTheExecutedSqlAndRecordsEverything() {
        ToolResult r = service.query(source, QueryRequest.of("s", "SELECT id"));
        assertThat(r.status()).isEqualTo(ToolStatus.OK);
        assertThat(r.sql()).contains("EXEC SELECT id");
        assertThat(r.rows()).containsExactly(List.of(1L), List.of(2L));
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.verdict()).isEqualTo(ToolStatus.OK);
            assertThat(e.rowCount()).isEqualTo(2);
            assertThat(e.sqlSha256()).hasSize(64).isEqualTo(QueryService.sha256("SELECT id"));
        });
        assertThat(records).extracting(LifecycleRecord::phase).containsExactly(LifecycleRecord.Phase.STARTED);
        assertThat(records.get(0).requestId()).isEqualTo(r.id());
    }

    /**
     * Issue 28: a call writes its audit event once, and a statement that runs also its start, before
     * it runs; nothing else (the terminal lifecycle record was a third write that repeated the event).
     */
    @Test
    void aCallWritesOnceAndAStatementThatRunsAlsoItsStartBeforeItRuns() {
        service.query(source, QueryRequest.of("s", "SELECT id"));
        assertThat(writes).containsExactly("lifecycle STARTED executions=0", "audit OK");
        writes.clear();
        service.query(source, QueryRequest.of("s", "SELECT FAIL"));
        assertThat(writes).containsExactly("lifecycle STARTED executions=1", "audit ERROR");
        writes.clear();
        service.query(source, QueryRequest.of("s", "DROP x"));
        assertThat(writes).containsExactly("audit REJECTED");
        writes.clear();
        service.check(source, QueryRequest.of("s", "SELECT id"));
        assertThat(writes).containsExactly("audit OK");
    }

    /**
     * The audit hash is computed once per text and kept: every event still carries the hash of its
     * own call's text, for a repeated text, past the cache's bound (it starts over), for a text too
     * long to keep, and for a refusal.
     */
    @Test
    void everyAuditEventCarriesTheHashOfItsOwnText() {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < QueryService.HASHED_TEXTS + 10; i++) {
            texts.add("SELECT id FROM t" + i);
        }
        texts.add("SELECT id FROM t0"); // a repeat, kept before the cache started over
        texts.add("SELECT id FROM t" + (QueryService.HASHED_TEXTS + 9)); // a repeat, kept after it
        texts.add("SELECT id FROM t" + "x".repeat(QueryService.HASHED_TEXT_CHARS)); // too long to keep
        texts.add("DROP TABLE t"); // refused: audited too
        texts.add("DROP TABLE t");
        for (String text : texts) {
            service.query(source, QueryRequest.of("s", text));
        }
        assertThat(events).hasSize(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            assertThat(events.get(i).sqlSha256()).as(texts.get(i)).isEqualTo(QueryService.sha256(texts.get(i)));
        }
        assertThat(QueryService.sha256("SELECT id")) // SHA-256 of the UTF-8 text, as sha256sum computes it
                .isEqualTo("c59c370157577798321af67cd279e5fed924a2677f2175e0ecf65ca5621f2333");
    }

    @Test
    void anEmptyResultIsNoEvidence() {
        ToolResult r = service.query(source, QueryRequest.of("s", "SELECT EMPTY"));
        assertThat(r.status()).isEqualTo(ToolStatus.NO_EVIDENCE);
        assertThat(r.returnedCount()).isZero();
    }

    @Test
    void aRefusalMakesNoDatabaseCallAndNoLifecycleRecord() {
        ToolResult r = service.query(source, QueryRequest.of("s", "DROP TABLE t"));
        assertThat(r.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.STATEMENT_NOT_ALLOWED);
        assertThat(r.sql()).isEmpty();
        assertThat(executions).isZero();
        assertThat(records).isEmpty();
        assertThat(events).singleElement().satisfies(e -> assertThat(e.code()).contains(ErrorCode.STATEMENT_NOT_ALLOWED));
    }

    /**
     * A validator that lets a sensitive output reach the engine unmasked (its value would cross the wire
     * and be redacted only here) is refused before any database call; the same plan with the output
     * masked in its executable SQL runs, and the answer reads [REDACTED] as before.
     */
    @Test
    void aSensitiveOutputTheEngineWouldSendIsRefusedBeforeAnyDatabaseCall() {
        List<OutputColumn> outputs = List.of(OutputColumn.traced("id", Set.of(ColumnRef.of("t", "id"))),
                OutputColumn.traced("x", Set.of(ColumnRef.of("t", "password"))));
        StatementValidator careless = request -> new QueryPlan("s", request.sql(), "EXEC " + request.sql(), List.of(), Set.of(),
                Set.of(), Set.of(), outputs, List.of(), Limits.defaults());
        ToolResult r = service.query(new SourceBinding("s", GuardrailPolicy.defaults(), careless, execution),
                QueryRequest.of("s", "SELECT id, password AS x"));
        assertThat(r.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.SENSITIVE_OUTPUT_NOT_MASKED);
        assertThat(executions).isZero();
        assertThat(records).isEmpty();

        StatementValidator masking = request -> new QueryPlan("s", request.sql(), "EXEC MASKED " + request.sql(), List.of(), Set.of(),
                Set.of(), Set.of(), outputs, List.of(), Limits.defaults(), Set.of(1));
        ExecutionPort engine = plan -> ListCursor.of(List.of("id", "x"), new Object[] {1L, null});
        ToolResult ok = service.query(new SourceBinding("s", GuardrailPolicy.defaults(), masking, engine),
                QueryRequest.of("s", "SELECT id, password AS x"));
        assertThat(ok.status()).isEqualTo(ToolStatus.OK);
        assertThat(ok.rows()).containsExactly(List.of(1L, ResultProjector.REDACTED));
    }

    @Test
    void aValidatorBugFailsClosedWithoutLeakingItsMessage() {
        ToolResult r = service.query(source, QueryRequest.of("s", "BUG"));
        assertThat(r.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.INTERNAL_ERROR);
        assertThat(r.error().orElseThrow().message()).doesNotContain("/home");
        assertThat(executions).isZero();
    }

    @Test
    void anExecutionFailureIsAnErrorRecordWithASafeMessage() {
        ToolResult r = service.query(source, QueryRequest.of("s", "SELECT FAIL"));
        assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
        assertThat(r.error().orElseThrow().message()).isEqualTo(ErrorCode.QUERY_FAILED.defaultMessage());
        assertThat(records).extracting(LifecycleRecord::phase).containsExactly(LifecycleRecord.Phase.STARTED);
        assertThat(events).singleElement().satisfies(e -> assertThat(e.code()).contains(ErrorCode.QUERY_FAILED));
    }

    @Test
    void aTimeoutIsReportedAsALimitHit() {
        ToolResult r = service.query(source, QueryRequest.of("s", "SELECT SLOW"));
        assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
        assertThat(r.limitsHit()).containsExactly(LimitKind.TIMEOUT);
        assertThat(r.error().orElseThrow().retryable()).isTrue();
    }

    @Test
    void tooLongSqlIsRefusedBeforeTheValidator() {
        SourceBinding small = new SourceBinding("s", GuardrailPolicy.defaults().withLimits(Limits.defaults().withMaxSqlLength(10)),
                request -> { throw new AssertionError("validator must not run"); }, execution);
        ToolResult r = service.query(small, QueryRequest.of("s", "SELECT 1234567890"));
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.QUERY_TOO_LONG);
    }

    @Test
    void checkValidatesWithoutExecuting() {
        ToolResult ok = service.check(source, QueryRequest.of("s", "SELECT id"));
        assertThat(ok.status()).isEqualTo(ToolStatus.OK);
        assertThat(ok.sql()).contains("EXEC SELECT id");
        assertThat(service.check(source, QueryRequest.of("s", "DROP x")).status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(executions).isZero();
        assertThat(events).hasSize(2).allSatisfy(e -> assertThat(e.operation()).isEqualTo(Operation.CHECK));
    }

    @Test
    void aRefusalBeforeAnySourceIsAuditedUnderItsOperation() {
        service.reject("r1", "s", "SELECT 1", new GuardException(ErrorCode.UNKNOWN_SOURCE));
        service.reject("r2", "s", "SELECT 1", new GuardException(ErrorCode.INVALID_ARGUMENT), Operation.CHECK);
        assertThat(events).extracting(AuditEvent::operation).containsExactly(Operation.QUERY, Operation.CHECK);
        assertThat(events).allSatisfy(e -> assertThat(e.verdict()).isEqualTo(ToolStatus.REJECTED));
        assertThat(executions).isZero();
        assertThat(records).isEmpty();
    }

    @Test
    void aSourceThatCannotStartIsAnAuditedErrorWithoutLifecycle() {
        ToolResult r = service.sourceFailed(QueryRequest.of("s", "SELECT id"), new GuardException(ErrorCode.ENGINE_UNAVAILABLE),
                Operation.QUERY, 1300);
        assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
        assertThat(r.elapsedMs()).isEqualTo(1300);
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.verdict()).isEqualTo(ToolStatus.ERROR);
            assertThat(e.sqlSha256()).isEqualTo(QueryService.sha256("SELECT id"));
        });
        assertThat(records).isEmpty();
    }

    @Test
    void aParameterCountMismatchIsRefused() {
        ToolResult r = service.query(source, QueryRequest.of("s", "SELECT id", "extra"));
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.PARAMETER_COUNT_MISMATCH);
        assertThat(executions).isZero();
    }

    @Test
    void aFailingAuditSinkNeverThrowsToTheCallerAndWithholdsTheResult() {
        QueryService fragile = new QueryService(event -> { throw new IllegalStateException("sink down"); });
        ToolResult r = fragile.query(source, QueryRequest.of("s", "SELECT id"));
        assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.AUDIT_UNAVAILABLE);
        assertThat(r.error().get().message()).doesNotContain("sink down");
    }

    /** A sink whose audit or lifecycle writes fail on demand, like a full disk or a deleted file. */
    private static final class FailingSink implements AuditSink {
        boolean failAudit;
        boolean failLifecycle;
        final List<AuditEvent> written = new java.util.ArrayList<>();

        @Override
        public void audit(AuditEvent event) {
            if (failAudit) {
                throw new java.io.UncheckedIOException(new java.io.IOException("No space left on device"));
            }
            written.add(event);
        }

        @Override
        public void lifecycle(LifecycleRecord record) {
            if (failLifecycle) {
                throw new java.io.UncheckedIOException(new java.io.IOException("No space left on device"));
            }
        }
    }

    @Test
    void aResultWhoseAuditCannotBeWrittenIsWithheldByDefault() {
        FailingSink failing = new FailingSink();
        failing.failAudit = true;
        QueryService closed = new QueryService(failing);
        ToolResult r = closed.query(source, QueryRequest.of("s", "SELECT id"));
        assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.AUDIT_UNAVAILABLE);
        assertThat(r.rows()).isEmpty();
        assertThat(r.error().get().message()).doesNotContain("space").doesNotContain("/");
    }

    @Test
    void aQueryWhoseStartCannotBeRecordedNeverRuns() {
        FailingSink failing = new FailingSink();
        failing.failLifecycle = true;
        int before = executions;
        ToolResult r = new QueryService(failing).query(source, QueryRequest.of("s", "SELECT id"));
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.AUDIT_UNAVAILABLE);
        assertThat(executions).isEqualTo(before);
        // the refusal itself is audited when the audit log still takes events
        assertThat(failing.written).singleElement().satisfies(e -> assertThat(e.code()).contains(ErrorCode.AUDIT_UNAVAILABLE));
    }

    @Test
    void continuingWithoutAnAuditRecordIsAnExplicitChoice() {
        FailingSink failing = new FailingSink();
        failing.failAudit = true;
        failing.failLifecycle = true;
        ToolResult r = new QueryService(failing, java.time.Clock.systemUTC(), QueryService.AuditFailure.CONTINUE)
                .query(source, QueryRequest.of("s", "SELECT id"));
        assertThat(r.status()).isIn(ToolStatus.OK, ToolStatus.NO_EVIDENCE);
    }

    @Test
    void aCallCancelledBeforeItStartsNeverRuns() {
        QueryRequest request = QueryRequest.of("s", "SELECT id");
        assertThat(service.cancel(request.requestId())).isFalse();
        int before = executions;
        ToolResult r = service.query(source, request);
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED);
        assertThat(executions).isEqualTo(before);
        // the cancel is used once: the same id runs again afterwards
        assertThat(service.query(source, new QueryRequest("s", "SELECT id", List.of(), request.requestId())).status())
                .isEqualTo(ToolStatus.OK);
    }

    @Test
    void aRunningCallIsCancelledOnItsEngineByRequestId() {
        String id = "req-cancel";
        ExecutionPort cancelling = plan -> {
            ListCursor cursor = ListCursor.of(List.of("id"), new Object[] {1L}, new Object[] {2L});
            // the request arrives while the query runs: it reaches the engine's cursor
            new Thread(() -> service.cancel(id)).run();
            return cursor;
        };
        SourceBinding binding = new SourceBinding("s", GuardrailPolicy.defaults(), validator, cancelling);
        ToolResult r = service.query(binding, new QueryRequest("s", "SELECT id", List.of(), id));
        assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED);
        assertThat(r.rows()).isEmpty();
    }
}
