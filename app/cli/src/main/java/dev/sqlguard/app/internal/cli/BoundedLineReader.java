package dev.sqlguard.app.internal.cli;

import java.io.IOException;
import java.io.Reader;

/**
 * Reads lines without trusting their length: a line longer than {@code maxChars} is skipped to
 * its end and reported as too long, so one hostile line cannot exhaust memory or stop a batch.
 */
final class BoundedLineReader {
    /** One line, or the fact that it was too long. */
    record Line(String text, boolean tooLong) {
    }

    private final Reader in;
    private final int maxChars;

    BoundedLineReader(Reader in, int maxChars) {
        this.in = in;
        this.maxChars = maxChars;
    }

    /** The next line without its terminator ({@code \n} or {@code \r\n}), or null at the end. */
    Line next() throws IOException {
        StringBuilder line = new StringBuilder();
        boolean tooLong = false;
        int c = in.read();
        if (c < 0) {
            return null;
        }
        while (c >= 0 && c != '\n') {
            if (!tooLong) {
                if (line.length() >= maxChars) {
                    tooLong = true;
                    line.setLength(0);
                } else {
                    line.append((char) c);
                }
            }
            c = in.read();
        }
        if (!tooLong && line.length() > 0 && line.charAt(line.length() - 1) == '\r') {
            line.setLength(line.length() - 1);
        }
        return new Line(tooLong ? "" : line.toString(), tooLong);
    }
}
