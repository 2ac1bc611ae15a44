package dev.sqlguard.app.internal.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.ports.ingest.DataLoader;
import dev.sqlguard.ports.ingest.LoadReport;
import dev.sqlguard.ports.ingest.LoadRequest;

class DemoDatabaseTest {
    /** Copies the CSV into the "database" so the test can check what the loader received. */
    static final class CopyingLoader implements DataLoader {
        final AtomicInteger loads = new AtomicInteger();
        volatile LoadRequest last;

        @Override
        public String name() {
            return "duckdb";
        }

        @Override
        public LoadReport load(LoadRequest request) {
            loads.incrementAndGet();
            last = request;
            try {
                Files.copy(request.inputs().get(0), request.database());
                Thread.sleep(20); // widen the race window between builders
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new LoadReport(request.table(), 3000, 3000, DemoDatabase.COLUMNS);
        }
    }

    @Test
    void theCommittedDatasetIsWhatTheGeneratorProduces() {
        String committed = new String(DemoDatabase.resource(), StandardCharsets.UTF_8);

        assertThat(committed).isEqualTo(DemoDataGenerator.generate());
        List<String> lines = committed.lines().toList();
        assertThat(lines).hasSize(DemoDataGenerator.ROWS + 1);
        assertThat(lines.get(0)).isEqualTo(String.join(",", DemoDatabase.COLUMNS));
        assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l).matches(
                "\\d+,(north|south|east|west|central),(auto|home|health|travel),\\d+\\.\\d\\d,"
                        + "(APPROVED|DENIED|PENDING|CLOSED),202[34]-\\d\\d-\\d\\d,9\\d\\d-\\d\\d-\\d{4}"));
    }

    @Test
    void buildsOnceIntoTheCacheFolderAndThenReusesTheFile(@TempDir Path cache) throws IOException {
        CopyingLoader loader = new CopyingLoader();
        List<String> progress = new ArrayList<>();

        Path first = DemoDatabase.ensure(cache, Optional.of(loader), progress::add);
        Path second = DemoDatabase.ensure(cache, Optional.of(loader), progress::add);

        assertThat(first).isEqualTo(second);
        assertThat(first.getParent()).isEqualTo(cache);
        assertThat(first.getFileName().toString()).matches("demo-claims-dev-[0-9a-f]{8}\\.duckdb");
        assertThat(loader.loads.get()).isEqualTo(1);
        assertThat(loader.last.table()).isEqualTo("claims");
        assertThat(loader.last.options()).containsEntry("types", DemoDatabase.TYPES);
        assertThat(Files.readAllBytes(first)).isEqualTo(DemoDatabase.resource());
        try (var files = Files.list(cache)) {
            assertThat(files.toList()).containsExactly(first); // no build leftovers
        }
        assertThat(progress).hasSize(1);
    }

    @Test
    void onceBuiltNeitherTheLoaderIsLookedUpNorTheDatasetRead(@TempDir Path cache) {
        CopyingLoader loader = new CopyingLoader();
        java.util.concurrent.atomic.AtomicInteger lookups = new java.util.concurrent.atomic.AtomicInteger();
        java.util.function.Supplier<Optional<dev.sqlguard.ports.ingest.DataLoader>> find = () -> {
            lookups.incrementAndGet();
            return Optional.of(loader);
        };

        Path first = DemoDatabase.ensure(cache, find, s -> { });
        Path again = DemoDatabase.ensure(cache, find, s -> { });

        assertThat(again).isEqualTo(first);
        assertThat(lookups.get()).as("the loader is looked up for the build only").isEqualTo(1);
        assertThat(loader.loads.get()).isEqualTo(1);
    }

    @Test
    void theFileIsNamedByTheDatasetsCrc32() {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(DemoDatabase.resource());

        assertThat(DemoDatabase.checksum()).isEqualTo(crc.getValue());
    }

    @Test
    @Timeout(30)
    void twoRacingBuildersBothEndWithTheCompleteFile(@TempDir Path cache) throws Exception {
        CopyingLoader loader = new CopyingLoader();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Path> a = pool.submit(() -> DemoDatabase.ensure(cache, Optional.of(loader), s -> { }));
            Future<Path> b = pool.submit(() -> DemoDatabase.ensure(cache, Optional.of(loader), s -> { }));
            assertThat(a.get()).isEqualTo(b.get());
            assertThat(Files.readAllBytes(a.get())).isEqualTo(DemoDatabase.resource());
        } finally {
            pool.shutdown();
        }
        try (var files = Files.list(cache)) {
            assertThat(files.toList()).hasSize(1);
        }
    }

    @Test
    void theCacheFolderFollowsXdgThenHome() {
        assertThat(DemoDatabase.cacheDirectory(Map.of("XDG_CACHE_HOME", "/x/cache", "HOME", "/h")))
                .isEqualTo(Path.of("/x/cache/sqlguard"));
        assertThat(DemoDatabase.cacheDirectory(Map.of("XDG_CACHE_HOME", "relative", "HOME", "/h")))
                .isEqualTo(Path.of("/h/.cache/sqlguard"));
        assertThat(DemoDatabase.cacheDirectory(Map.of("HOME", "/h"))).isEqualTo(Path.of("/h/.cache/sqlguard"));
    }

    @Test
    void theDemoConfigAllowsTheClaimsTableAndRedactsTheSsn() {
        SqlGuardConfig config = DemoDatabase.config(Path.of("/tmp/demo.duckdb"));

        SqlGuardConfig.SourceConfig demo = config.sources().get("demo");
        assertThat(demo.engine()).isEqualTo("duckdb");
        assertThat(demo.properties()).containsEntry("database", "/tmp/demo.duckdb");
        assertThat(demo.policy().tables().allowsColumn(TableRef.of("claims"), "amount")).isTrue();
        assertThat(demo.policy().isSensitive("claimant_ssn")).isTrue();
    }
}
