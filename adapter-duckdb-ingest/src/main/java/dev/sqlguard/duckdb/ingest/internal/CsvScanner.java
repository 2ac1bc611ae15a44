package dev.sqlguard.duckdb.ingest.internal;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * A small RFC 4180 reader (double quotes, a doubled quote inside quotes) that knows on which line
 * each record starts. DuckDB reads the rows; this reads a CSV's header as the file has it, and,
 * after DuckDB refused a file, finds the line to name: DuckDB's dialect sniffer reports neither an
 * unterminated quote nor a ragged row of a small file with its line. Blank lines are skipped, as
 * DuckDB skips them.
 */
final class CsvScanner implements Closeable {
    /** One record and the line (1-based) it starts on. */
    record Record(long line, List<String> fields) {
        Record {
            fields = List.copyOf(fields);
        }
    }

    /** A quoted field that runs to the end of the file; {@code line} is where its quote opened. */
    static final class UnterminatedQuote extends Exception {
        private static final long serialVersionUID = 1L;
        private final long line;

        UnterminatedQuote(long line) {
            super("unterminated quote from line " + line, null, false, false);
            this.line = line;
        }

        long line() {
            return line;
        }
    }

    private static final int BUFFER = 1 << 16;

    private final PushbackReader in;
    private final char[] delimiter;
    private long line = 1;

    private CsvScanner(PushbackReader in, String delimiter) {
        this.in = in;
        this.delimiter = requireNonNull(delimiter, "delimiter is null").toCharArray();
    }

    static CsvScanner open(Path path, boolean gzip, String delimiter) throws IOException {
        InputStream raw = Files.newInputStream(path);
        try {
            InputStream data = gzip ? new GZIPInputStream(raw, BUFFER) : raw;
            PushbackReader reader = new PushbackReader(
                    new BufferedReader(new InputStreamReader(data, StandardCharsets.UTF_8), BUFFER), 8);
            int first = reader.read();
            if (first != '\uFEFF' && first != -1) {
                reader.unread(first);
            }
            return new CsvScanner(reader, delimiter);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /** The next record, or null at the end of the file. */
    Record next() throws IOException, UnterminatedQuote {
        int c = in.read();
        while (c == '\n' || c == '\r') {
            newline(c);
            c = in.read();
        }
        if (c == -1) {
            return null;
        }
        long start = line;
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean fieldStarted = false;
        while (true) {
            if (c == -1 || c == '\n' || c == '\r') {
                fields.add(field.toString());
                if (c != -1) {
                    newline(c);
                }
                return new Record(start, fields);
            }
            if (c == '"' && !fieldStarted) {
                readQuoted(field);
                fieldStarted = true;
            } else if (isDelimiter(c)) {
                fields.add(field.toString());
                field.setLength(0);
                fieldStarted = false;
            } else {
                field.append((char) c);
                fieldStarted = true;
            }
            c = in.read();
        }
    }

    /** Reads a quoted field after its opening quote, up to and including the closing quote. */
    private void readQuoted(StringBuilder field) throws IOException, UnterminatedQuote {
        long opened = line;
        while (true) {
            int c = in.read();
            if (c == -1) {
                throw new UnterminatedQuote(opened);
            }
            if (c == '"') {
                int d = in.read();
                if (d != '"') {
                    if (d != -1) {
                        in.unread(d);
                    }
                    return;
                }
                field.append('"');
            } else if (c == '\n' || c == '\r') {
                newline(c);
                field.append('\n');
            } else {
                field.append((char) c);
            }
        }
    }

    private boolean isDelimiter(int c) throws IOException {
        if (c != delimiter[0]) {
            return false;
        }
        int matched = 1;
        char[] read = new char[delimiter.length];
        while (matched < delimiter.length) {
            int d = in.read();
            if (d != delimiter[matched]) {
                if (d != -1) {
                    in.unread(d);
                }
                in.unread(read, 1, matched - 1);
                return false;
            }
            read[matched++] = (char) d;
        }
        return true;
    }

    /** Counts a line break; a CR LF pair is one. */
    private void newline(int c) throws IOException {
        line++;
        if (c == '\r') {
            int d = in.read();
            if (d != '\n' && d != -1) {
                in.unread(d);
            }
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
