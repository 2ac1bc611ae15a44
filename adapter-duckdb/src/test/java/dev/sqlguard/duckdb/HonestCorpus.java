package dev.sqlguard.duckdb;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads an SQL resource of entries separated by a line holding only {@code ;;}. Full-line comments
 * ({@code --}) are not part of an entry's SQL; three of them carry meaning:
 * {@code -- params: [JSON array]}, {@code -- KNOWN REFUSAL: why} and {@code -- KNOWN MISMATCH: why}.
 */
final class HonestCorpus {
    static final String PARAMS = "-- params:";
    static final String KNOWN_REFUSAL = "-- KNOWN REFUSAL:";
    static final String KNOWN_MISMATCH = "-- KNOWN MISMATCH:";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Whether a known-problem marker expects the guard to refuse the entry or to answer it with other rows. */
    enum Expectation { MATCH, KNOWN_REFUSAL, KNOWN_MISMATCH }

    /**
     * One entry of the file.
     *
     * @param number 1-based position among the entries that hold SQL
     * @param line the line where the entry's SQL starts
     * @param sql the SQL without its full-line comments
     * @param params values for its {@code ?} placeholders
     * @param expectation what the marker says, {@link Expectation#MATCH} without one
     * @param note the marker's text after the colon, empty without one
     */
    record Entry(int number, int line, String sql, List<Object> params, Expectation expectation, String note) {
        Entry {
            requireNonNull(sql, "sql is null");
            params = Collections.unmodifiableList(new ArrayList<>(requireNonNull(params, "params is null")));
            requireNonNull(expectation, "expectation is null");
            requireNonNull(note, "note is null");
        }

        String oneLine() {
            return sql.replaceAll("\\s+", " ").strip();
        }
    }

    private HonestCorpus() {
    }

    static String resource(String name) {
        try (InputStream in = HonestCorpus.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The entries of {@code text} that hold SQL, in file order. */
    static List<Entry> parse(String text) {
        List<Entry> out = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        List<String> chunk = new ArrayList<>();
        int start = 1;
        for (int i = 0; i <= lines.length; i++) {
            if (i == lines.length || lines[i].strip().equals(";;")) {
                entry(chunk, start, out.size() + 1).ifPresent(out::add);
                chunk.clear();
                start = i + 2;
            } else {
                chunk.add(lines[i]);
            }
        }
        return out;
    }

    private static Optional<Entry> entry(List<String> chunk, int chunkStart, int number) {
        StringBuilder sql = new StringBuilder();
        List<Object> params = List.of();
        Expectation expectation = Expectation.MATCH;
        String note = "";
        int line = -1;
        for (int i = 0; i < chunk.size(); i++) {
            String stripped = chunk.get(i).strip();
            if (stripped.startsWith(PARAMS)) {
                params = params(stripped.substring(PARAMS.length()));
            } else if (stripped.startsWith(KNOWN_REFUSAL)) {
                expectation = Expectation.KNOWN_REFUSAL;
                note = stripped.substring(KNOWN_REFUSAL.length()).strip();
            } else if (stripped.startsWith(KNOWN_MISMATCH)) {
                expectation = Expectation.KNOWN_MISMATCH;
                note = stripped.substring(KNOWN_MISMATCH.length()).strip();
            } else if (!stripped.startsWith("--") && !stripped.isEmpty()) {
                if (line < 0) {
                    line = chunkStart + i;
                }
                sql.append(chunk.get(i)).append('\n');
            }
        }
        if (sql.isEmpty()) {
            if (expectation != Expectation.MATCH || !params.isEmpty()) {
                throw new IllegalArgumentException("a marker without SQL before line " + (chunkStart + chunk.size()));
            }
            return Optional.empty();
        }
        return Optional.of(new Entry(number, line, sql.toString().strip(), params, expectation, note));
    }

    private static List<Object> params(String json) {
        try {
            return JSON.readValue(json.strip(), new TypeReference<List<Object>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("bad params " + json, e);
        }
    }

    /**
     * Whether the statement orders its result: an {@code ORDER BY} outside every parenthesis, string
     * and comment (window, aggregate and subquery {@code ORDER BY}s sit inside parentheses).
     */
    static boolean ordersItsResult(String sql) {
        int depth = 0;
        String upper = sql.toUpperCase(Locale.ROOT);
        for (int i = 0; i < upper.length(); i++) {
            char c = upper.charAt(i);
            if (c == '\'' || c == '"') {
                int end = upper.indexOf(c, i + 1);
                i = end < 0 ? upper.length() : end;
            } else if (c == '-' && upper.startsWith("--", i)) {
                int end = upper.indexOf('\n', i);
                i = end < 0 ? upper.length() : end;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && upper.startsWith("ORDER", i) && (i == 0 || !Character.isLetterOrDigit(upper.charAt(i - 1)))
                    && upper.substring(i + 5).stripLeading().startsWith("BY")) {
                return true;
            }
        }
        return false;
    }
}
