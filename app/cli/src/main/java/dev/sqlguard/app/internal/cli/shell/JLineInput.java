package dev.sqlguard.app.internal.cli.shell;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The line editor at a terminal (JLine): arrow keys, history (kept in a file between sessions when a
 * state folder exists), reverse search (Ctrl-R), completion of table and column names (Tab), and
 * Ctrl-C handed to the shell while a query runs. History expansion ({@code !}) is off: {@code !=}
 * is SQL. Loaded only by an interactive shell, never by the other commands.
 */
public final class JLineInput implements ShellInput {
    private final Terminal terminal;
    private final LineReader reader;
    private volatile Runnable interrupt = () -> { };

    public JLineInput(ShellCompleter completer, Optional<Path> historyFile) {
        try {
            terminal = TerminalBuilder.builder().system(true).name("sqlguard").build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LineReaderBuilder builder = LineReaderBuilder.builder().terminal(terminal).appName("sqlguard")
                .completer(completer).parser(new SqlWordParser())
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .option(LineReader.Option.CASE_INSENSITIVE, true)
                .option(LineReader.Option.AUTO_FRESH_LINE, true)
                .variable(LineReader.HISTORY_SIZE, 2000)
                .variable(LineReader.HISTORY_FILE_SIZE, 2000);
        historyFile.ifPresent(file -> {
            try {
                privateHistory(file);
                builder.variable(LineReader.HISTORY_FILE, file);
            } catch (IOException | RuntimeException e) {
                // no folder for it, or it cannot be made private: history stays in memory for this session
            }
        });
        reader = builder.build();
        terminal.handle(Terminal.Signal.INT, signal -> interrupt.run());
    }

    /**
     * Makes the history file readable by its owner only, as psql and the DuckDB CLI keep theirs: it
     * holds every statement typed, literals and {@code \bind} values included. Created empty with
     * {@code rw-------} when missing; an existing one is narrowed to it. Where the file system has no
     * POSIX permissions the file is left as the platform makes it.
     */
    static void privateHistory(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        boolean posix = file.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (!posix) {
            return;
        }
        java.util.Set<java.nio.file.attribute.PosixFilePermission> owner = java.nio.file.attribute.PosixFilePermissions.fromString("rw-------");
        if (Files.notExists(file)) {
            Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(owner));
        }
        Files.setPosixFilePermissions(file, owner);
    }

    @Override
    public String readLine(String prompt) {
        try {
            return reader.readLine(prompt);
        } catch (UserInterruptException e) {
            throw new Interrupted();
        } catch (EndOfFileException e) {
            return null;
        }
    }

    @Override
    public void onInterrupt(Runnable action) {
        interrupt = action == null ? () -> { } : action;
    }

    @Override
    public void close() {
        try {
            reader.getHistory().save();
        } catch (IOException | RuntimeException e) {
            // history is a convenience
        }
        try {
            terminal.close();
        } catch (IOException e) {
            // the process ends next
        }
    }
}
