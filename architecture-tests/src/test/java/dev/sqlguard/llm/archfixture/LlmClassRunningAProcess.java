package dev.sqlguard.llm.archfixture;

import java.io.IOException;

/** Deliberately bad: runs a process. */
public final class LlmClassRunningAProcess {
    public Process run(String command) throws IOException {
        return new ProcessBuilder(command).start();
    }
}
