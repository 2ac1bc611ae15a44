package dev.sqlguard.llm.archfixture;

import java.io.IOException;

/** Deliberately bad: Runtime.exec. */
public final class LlmClassUsingRuntimeExec {
    public Process run(String command) throws IOException {
        return Runtime.getRuntime().exec(new String[] {command});
    }
}
