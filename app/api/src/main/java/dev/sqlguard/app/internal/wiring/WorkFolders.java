package dev.sqlguard.app.internal.wiring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engines' working folders ({@code sqlguard-work-<pid>-*} in the temporary folder, where DuckDB
 * spills). Each records the process that owns it (pid and start time, in {@value #OWNER}), so that
 * the folder of a process that died without cleaning up (SIGKILL, a crash) is removed when the next
 * one is created. A folder of a live process is never touched. A folder without a readable owner
 * record (one whose record a delete removed just before the process ended, or one an engine still
 * closing made again at its old path) is judged by the pid in its name, which only that process
 * gives: it goes once no process with that pid runs, and at the end of the process it names.
 */
public final class WorkFolders {
    private static final Logger LOG = LoggerFactory.getLogger(WorkFolders.class);

    public static final String PREFIX = "sqlguard-work-";
    /** The owner record: {@code <pid> <start instant or ->}. */
    public static final String OWNER = "owner.pid";
    /**
     * The folders this process created and has not removed: its own, whatever its owner record now
     * says or whether the system can still tell this process's start when it ends.
     */
    private static final Set<Path> CREATED = ConcurrentHashMap.newKeySet();

    private WorkFolders() {
    }

    /** A new working folder in {@code parent}, owned by this process, after removing stale ones there. */
    public static Path create(Path parent) throws IOException {
        removeStale(parent);
        ProcessHandle self = ProcessHandle.current();
        Path folder = Files.createTempDirectory(parent, PREFIX + self.pid() + "-");
        CREATED.add(folder.toAbsolutePath());
        Files.writeString(folder.resolve(OWNER), self.pid() + " " + start(self).map(Instant::toString).orElse("-"),
                StandardCharsets.US_ASCII);
        return folder;
    }

    /** {@link #create(Path)} in {@code java.io.tmpdir}. */
    public static Path create() throws IOException {
        return create(Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Removes the working folders in {@code parent} whose owner process is no longer running. Returns how many. */
    public static int removeStale(Path parent) {
        int removed = 0;
        try (DirectoryStream<Path> folders = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path folder : folders) {
                if (Files.isDirectory(folder) && !Files.isSymbolicLink(folder) && ownerIsGone(folder)) {
                    removeLeftovers(parent, folder);
                    delete(folder);
                    removed++;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("could not look for stale working folders", e);
        }
        return removed;
    }

    /**
     * Removes the files a dead owner recorded as going with its folder
     * ({@link dev.sqlguard.ports.EngineContext#LEFTOVERS}: DuckDB's extracted native library). Only
     * regular files directly in {@code parent}, never a link, a folder or another working folder:
     * whatever else a record names is left alone.
     */
    private static void removeLeftovers(Path parent, Path folder) {
        Path record = folder.resolve(dev.sqlguard.ports.EngineContext.LEFTOVERS);
        if (!Files.isRegularFile(record, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path where = parent.toAbsolutePath().normalize();
        try {
            for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
                Path file;
                try {
                    file = Path.of(line.strip()).normalize();
                } catch (java.nio.file.InvalidPathException e) {
                    continue;
                }
                if (file.isAbsolute() && where.equals(file.getParent()) && !file.getFileName().toString().startsWith(PREFIX)
                        && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("could not remove the files a stale working folder recorded", e);
        }
    }

    /**
     * Removes every working folder in {@code parent} that this process owns. For the last step of a
     * process that ends: whatever opened a folder is closing or closed. Returns how many went.
     */
    public static int removeOwn(Path parent) {
        int removed = 0;
        for (Path folder : own(parent)) {
            if (deleteTree(folder)) {
                removed++;
            }
        }
        return removed;
    }

    /**
     * {@link #removeOwn(Path)} in {@code java.io.tmpdir}, tried again for up to {@code patience} while
     * a folder this process owns is still there: an engine that is still closing (in another shutdown
     * hook, or a background close) can hold or write into its folder past one delete's few passes.
     * Returns how many went.
     */
    public static int removeOwn(java.time.Duration patience) {
        return removeOwn(Path.of(System.getProperty("java.io.tmpdir")), patience);
    }

    /** {@link #removeOwn(Path)}, tried again for up to {@code patience} while a folder this process owns is still there. */
    public static int removeOwn(Path parent, java.time.Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        int removed = removeOwn(parent);
        while (!own(parent).isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            removed += removeOwn(parent);
        }
        return removed;
    }

    /**
     * The working folders in {@code parent} that this process owns and that are still there: those it
     * created, and those whose owner record names it.
     */
    public static List<Path> own(Path parent) {
        Set<Path> own = new LinkedHashSet<>();
        Path absolute = parent.toAbsolutePath();
        for (Path created : CREATED) {
            if (!created.getParent().equals(absolute)) {
                continue;
            }
            if (Files.exists(created, LinkOption.NOFOLLOW_LINKS)) {
                own.add(created);
            } else {
                CREATED.remove(created);
            }
        }
        try (DirectoryStream<Path> folders = Files.newDirectoryStream(parent, PREFIX + ProcessHandle.current().pid() + "-*")) {
            for (Path folder : folders) {
                if (Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS) && ownedBySelf(folder)) {
                    own.add(folder.toAbsolutePath());
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("could not look for this process's working folders", e);
        }
        return List.copyOf(own);
    }

    /** {@link #own(Path)} in {@code java.io.tmpdir}. */
    public static List<Path> own() {
        return own(Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * Whether a folder named for this process's pid is its own: its owner record names this process,
     * or it has no readable record (a folder this process was deleting when it ended, or one a closing
     * engine made again at its old path; a process with this pid that made it earlier is gone).
     */
    private static boolean ownedBySelf(Path folder) {
        ProcessHandle self = ProcessHandle.current();
        Optional<Owner> record = owner(folder);
        return record.isEmpty() || record.filter(o -> o.pid() == self.pid())
                .filter(o -> o.start().isEmpty() || o.start().equals(start(self).map(Instant::toString)))
                .isPresent();
    }

    /** The pid a working folder's name carries ({@code sqlguard-work-<pid>-<random>}), if it carries one. */
    static Optional<Long> namedPid(Path folder) {
        String name = folder.getFileName().toString();
        if (!name.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int end = name.indexOf('-', PREFIX.length());
        if (end <= PREFIX.length()) {
            return Optional.empty();
        }
        try {
            long pid = Long.parseLong(name.substring(PREFIX.length(), end));
            return pid > 0 ? Optional.of(pid) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the folder's owner record names a process that is not running (a reused pid is told
     * apart by its start); without a readable record, whether no process runs with the pid its name
     * carries. A folder whose name carries no pid and that has no readable record is never judged gone.
     */
    static boolean ownerIsGone(Path folder) {
        Optional<Owner> record = owner(folder);
        if (record.isEmpty()) {
            // no readable owner on record: only the process the name carries makes such a name, and while it
            // runs (it may be writing the record right now) the folder stays
            return namedPid(folder).filter(pid -> ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()).isPresent();
        }
        Optional<ProcessHandle> process = ProcessHandle.of(record.get().pid()).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            return true;
        }
        Optional<Instant> started = start(process.get());
        return record.get().start().isPresent() && started.isPresent()
                && !started.get().toString().equals(record.get().start().get());
    }

    /** A folder's owner record: the process id, and its start instant when the system told it ("-" otherwise). */
    private record Owner(long pid, Optional<String> start) {
    }

    private static Optional<Owner> owner(Path folder) {
        try {
            String[] parts = Files.readString(folder.resolve(OWNER), StandardCharsets.US_ASCII).strip().split(" ");
            Optional<String> start = parts.length < 2 || parts[1].equals("-") ? Optional.empty() : Optional.of(parts[1]);
            return Optional.of(new Owner(Long.parseLong(parts[0]), start));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<Instant> start(ProcessHandle process) {
        return process.info().startInstant();
    }

    private static void delete(Path folder) throws IOException {
        if (!deleteTree(folder)) {
            throw new IOException("the folder could not be removed");
        }
    }

    /**
     * Removes {@code folder} and everything in it; returns whether it is gone. A pass goes on past an
     * entry it cannot remove (one that vanishes meanwhile, a folder an engine still writes into), and
     * a file that appears meanwhile (an engine still closing writes into its folder) is caught by
     * another pass: up to {@value #DELETE_PASSES} passes, 20 ms apart. The owner record goes last,
     * once nothing else is left, so that a folder that cannot be removed now still names its owner
     * and goes at the next start. Symbolic links are removed, never followed.
     */
    public static boolean deleteTree(Path folder) {
        Path owner = folder.resolve(OWNER);
        for (int pass = 0; pass < DELETE_PASSES; pass++) {
            try {
                Files.walkFileTree(folder, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        if (!file.equals(owner)) {
                            deleteEntry(file);
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        if (!(e instanceof NoSuchFileException)) {
                            LOG.debug("a working folder entry could not be read", e);
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                        if (!dir.equals(folder)) {
                            deleteEntry(dir);
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
                if (onlyOwnerLeft(folder)) {
                    Files.deleteIfExists(owner);
                    Files.deleteIfExists(folder);
                }
            } catch (NoSuchFileException e) {
                // gone already
            } catch (IOException | RuntimeException e) {
                LOG.debug("a pass over a working folder failed", e);
            }
            if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
                CREATED.remove(folder.toAbsolutePath());
                return true;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** Deletes one file, link or (empty) folder; one that is gone or that something refills is left to the next pass. */
    private static void deleteEntry(Path entry) {
        try {
            Files.deleteIfExists(entry);
        } catch (IOException e) {
            LOG.debug("a working folder entry could not be removed yet", e);
        }
    }

    /** Whether {@code folder} holds nothing but, at most, its owner record. */
    private static boolean onlyOwnerLeft(Path folder) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path entry : entries) {
                if (!entry.getFileName().toString().equals(OWNER)) {
                    return false;
                }
            }
            return true;
        }
    }

    private static final int DELETE_PASSES = 5;
}
