package dev.sqlguard.app.internal.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkFoldersTest {
    @TempDir
    Path tmp;

    private Path folder(String name, String owner) throws Exception {
        Path folder = Files.createDirectories(tmp.resolve(WorkFolders.PREFIX + name));
        Files.writeString(folder.resolve("spill.tmp"), "x");
        if (owner != null) {
            Files.writeString(folder.resolve(WorkFolders.OWNER), owner);
        }
        return folder;
    }

    private static long deadPid() throws Exception {
        Process process = new ProcessBuilder("true").start();
        process.waitFor();
        return process.pid();
    }

    @Test
    void aNewFolderRecordsItsOwnerAndRemovesOnlyTheFoldersOfDeadProcesses() throws Exception {
        long self = ProcessHandle.current().pid();
        Path dead = folder("dead", deadPid() + " -");
        Path reused = folder("reused", self + " 1970-01-01T00:00:00Z"); // this pid, but another process's start
        Path live = folder("live", self + " -");
        Path unknown = folder("unknown", null);
        Path garbled = folder("garbled", "not a pid");
        long gone = deadPid();
        // no owner record: judged by the pid in the name (a record deleted just before the end, one killed before it was written)
        Path deadUnowned = folder(gone + "-unowned", null);
        Path deadEmptyRecord = folder(gone + "-empty", "");
        Path liveUnowned = folder(self + "-unowned", null); // this live process may be writing its record right now

        Path created = WorkFolders.create(tmp);

        assertThat(created.getFileName().toString()).startsWith(WorkFolders.PREFIX);
        assertThat(Files.readString(created.resolve(WorkFolders.OWNER))).startsWith(self + " ");
        assertThat(dead).doesNotExist();
        assertThat(reused).doesNotExist();
        assertThat(live).isDirectory();
        assertThat(unknown).isDirectory();
        assertThat(garbled).isDirectory();
        assertThat(deadUnowned).doesNotExist();
        assertThat(deadEmptyRecord).doesNotExist();
        assertThat(liveUnowned).isDirectory();
        assertThat(WorkFolders.removeStale(tmp)).as("the new folder is this live process's").isZero();
        assertThat(created).isDirectory();
    }

    @Test
    void deletingATreeRemovesLinksWithoutFollowingThemAndCatchesFilesWrittenMeanwhile() throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "data");
        Path folder = folder("tree", ProcessHandle.current().pid() + " -");
        Path deep = Files.createDirectories(folder.resolve("duckdb-temp").resolve("abc"));
        Files.writeString(deep.resolve("duckdb_temp_block-1.block"), "x");
        Files.createSymbolicLink(folder.resolve("link"), outside);
        // a writer that keeps adding files while the tree is deleted, as a closing engine can
        Thread writer = new Thread(() -> {
            for (int i = 0; i < 200 && Files.isDirectory(deep); i++) {
                try {
                    Files.writeString(deep.resolve("late-" + i), "x");
                } catch (Exception e) {
                    return; // the folder went
                }
            }
        });
        writer.start();

        assertThat(WorkFolders.deleteTree(folder)).isTrue();
        writer.join();

        assertThat(folder).doesNotExist();
        assertThat(outside.resolve("keep.txt")).hasContent("data");
        assertThat(WorkFolders.deleteTree(folder)).as("a folder that is gone already").isTrue();
    }

    @Test
    void aProcessRemovesOnlyItsOwnFoldersWhenItEnds() throws Exception {
        long self = ProcessHandle.current().pid();
        Path mine = WorkFolders.create(tmp);
        Path second = WorkFolders.create(tmp);
        Path sameNameOtherStart = folder(self + "-reused", self + " 1970-01-01T00:00:00Z");
        Path someoneElse = folder("1-other", "1 -");
        // named for this pid without a record: a folder this process was deleting, or one a closing engine made again
        Path unowned = folder(self + "-unowned", null);
        Path otherUnowned = folder("1-unowned", null);

        assertThat(WorkFolders.removeOwn(tmp)).isEqualTo(3);

        assertThat(mine).doesNotExist();
        assertThat(second).doesNotExist();
        assertThat(unowned).doesNotExist();
        assertThat(sameNameOtherStart).as("a pid reused from an earlier process").isDirectory();
        assertThat(someoneElse).isDirectory();
        assertThat(otherUnowned).isDirectory();
    }

    @Test
    void removingOwnFoldersWithPatienceAlsoTakesAFolderAnEngineStillWritesIntoForAMoment() throws Exception {
        Path mine = WorkFolders.create(tmp);
        long until = System.nanoTime() + 400_000_000L;
        // an engine still closing writes into its folder for a moment, faster than one delete's passes clear it
        Thread engine = new Thread(() -> {
            for (int i = 0; System.nanoTime() < until; i++) {
                try {
                    Files.createDirectory(mine.resolve("spill-" + i)); // fails once the folder is gone: never makes it again
                    Files.writeString(mine.resolve("spill-" + i).resolve("block.tmp"), "x");
                } catch (IOException e) {
                    return; // the folder went while the engine still wrote (the next write finds no folder)
                }
            }
        });
        engine.start();
        try {
            assertThat(WorkFolders.removeOwn(tmp, java.time.Duration.ofSeconds(5))).isGreaterThanOrEqualTo(1);
            assertThat(mine).doesNotExist(); // and no write can bring it back: a write into a missing folder fails
        } finally {
            engine.interrupt();
            engine.join();
        }
    }

    @Test
    void aFolderThisProcessMadeIsRemovedAtTheEndEvenWhenItsOwnerRecordNoLongerNamesIt() throws Exception {
        Path mine = WorkFolders.create(tmp);
        // the record rewritten (or this process's start no longer readable when it ends)
        Files.writeString(mine.resolve(WorkFolders.OWNER), ProcessHandle.current().pid() + " 1970-01-01T00:00:00Z");

        assertThat(WorkFolders.own(tmp)).containsExactly(mine.toAbsolutePath());
        assertThat(WorkFolders.removeOwn(tmp)).isEqualTo(1);

        assertThat(mine).doesNotExist();
        assertThat(WorkFolders.own(tmp)).isEmpty();
    }
}
