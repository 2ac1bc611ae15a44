package dev.sqlguard.app.internal.cli.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Where the shell's lines come from: a line editor at a terminal, or plain lines from a pipe. */
public interface ShellInput extends AutoCloseable {
    /** Ctrl-C while a line was being typed: the statement being typed is dropped. */
    final class Interrupted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Interrupted() {
            super(null, null, false, false);
        }
    }

    /**
     * The next line, without its line break, or null at the end of the input (Ctrl-D).
     *
     * @throws Interrupted when the person pressed Ctrl-C
     */
    String readLine(String prompt) throws IOException;

    /** Runs {@code action} when the person presses Ctrl-C while no line is being read (a query runs), until replaced. */
    default void onInterrupt(Runnable action) {
    }

    @Override
    void close();

    /**
     * Plain lines (UTF-8, a leading byte-order mark dropped): what tests and scripts pipe in. The prompt
     * is printed on {@code prompts} when it is not null (a person typing without a line editor).
     */
    static ShellInput plain(InputStream in, PrintStream prompts) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)));
        return new ShellInput() {
            private boolean first = true;

            @Override
            public String readLine(String prompt) throws IOException {
                if (prompts != null) {
                    prompts.print(prompt);
                    prompts.flush();
                }
                String line = reader.readLine();
                if (first && line != null && line.startsWith("\uFEFF")) {
                    line = line.substring(1);
                }
                first = false;
                return line;
            }

            @Override
            public void close() {
                // the process's stdin stays open: the shell does not own it
            }
        };
    }
}
