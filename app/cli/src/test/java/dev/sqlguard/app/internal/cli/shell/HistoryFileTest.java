package dev.sqlguard.app.internal.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shell's history holds every statement typed: only its owner may read it, as with psql. */
class HistoryFileTest {
    @TempDir
    Path state;

    @Test
    void aNewHistoryIsCreatedOwnerOnlyAndAnOpenOneIsNarrowed() throws Exception {
        Path fresh = state.resolve("sqlguard").resolve("shell_history");
        JLineInput.privateHistory(fresh);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh))).isEqualTo("rw-------");

        Path open = state.resolve("open_history");
        Files.writeString(open, "SELECT 1;\n");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        JLineInput.privateHistory(open);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(open))).isEqualTo("rw-------");
        assertThat(Files.readString(open)).isEqualTo("SELECT 1;\n");
    }
}
