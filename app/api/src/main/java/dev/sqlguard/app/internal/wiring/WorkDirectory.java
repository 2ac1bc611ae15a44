package dev.sqlguard.app.internal.wiring;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The engines' working folder of one facade: created on first use ({@link WorkFolders#create()},
 * with its owner on record), with a shutdown hook that runs {@code onJvmExit} (the facade's close,
 * which closes the engines first and then deletes the folder: a closing engine can still write
 * into it), since a SIGTERM ends the JVM through its shutdown hooks, not through close. Thread-safe.
 */
public final class WorkDirectory {
    private final Runnable onJvmExit;
    private final String hookName;
    private Path folder;
    private Thread hook;

    /**
     * @param onJvmExit what the shutdown hook runs
     * @param hookName the hook thread's name
     */
    public WorkDirectory(Runnable onJvmExit, String hookName) {
        this.onJvmExit = requireNonNull(onJvmExit, "onJvmExit is null");
        this.hookName = requireNonNull(hookName, "hookName is null");
    }

    /** The folder, created (with its shutdown hook) on the first call. */
    public synchronized Path get() throws IOException {
        if (folder == null) {
            folder = WorkFolders.create();
            Thread exit = new Thread(onJvmExit, hookName);
            try {
                Runtime.getRuntime().addShutdownHook(exit);
                hook = exit;
            } catch (IllegalStateException e) {
                // the JVM is shutting down already
            }
        }
        return folder;
    }

    /**
     * Deletes the folder, if one was created, and removes its shutdown hook (unless the hook is
     * what runs this). Returns false when the folder could not be removed.
     */
    public synchronized boolean delete() {
        if (folder == null) {
            return true;
        }
        boolean deleted = WorkFolders.deleteTree(folder);
        folder = null;
        if (hook != null && Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down: the hook runs or ran
            }
        }
        hook = null;
        return deleted;
    }
}
