package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A row filter of one table: a SQL predicate over the table's own columns whose {@code :name}
 * placeholders take the caller's attributes (multi-tenancy). The attribute values are always bound as
 * parameters, never spliced into the text. Placeholders are found outside string literals, quoted
 * names and comments; {@code ::} (a PostgreSQL cast) is not one.
 *
 * <p>The text is split into its pieces once, here: {@link #placeholders()}, {@link #attributes()} and
 * {@link #render} read them without splitting again. Two filters are equal when their predicates are.
 */
public final class RowFilter {
    /** The longest predicate accepted. */
    public static final int MAX_LENGTH = 4096;
    private static final java.util.regex.Pattern READS =
            java.util.regex.Pattern.compile("(?i)(?<![A-Za-z0-9_$])(select|from|with|values|table)(?![A-Za-z0-9_$])");

    private final String predicate;
    /** The predicate's pieces: code, quoted runs and placeholders, in text order. */
    private final List<Piece> pieces;
    private final List<String> placeholders;
    private final Set<String> attributes;

    /**
     * @param predicate the predicate as configured, for example {@code tenant_id = :tenant}
     * @throws IllegalArgumentException when it is blank, too long, holds {@code ?}, {@code ;}, a comment or a subquery
     */
    public RowFilter(String predicate) {
        requireNonNull(predicate, "predicate is null");
        if (predicate.isBlank()) {
            throw new IllegalArgumentException("a row filter is blank");
        }
        if (predicate.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a row filter is longer than " + MAX_LENGTH + " characters");
        }
        List<Piece> split = pieces(predicate);
        if (codeHolds(split, '?')) {
            throw new IllegalArgumentException("a row filter takes attributes as :name, not ? placeholders");
        }
        if (codeHolds(split, ';')) {
            throw new IllegalArgumentException("a row filter is one predicate; it holds no ';'");
        }
        List<String> names = new ArrayList<>();
        for (Piece p : split) {
            if (p.kind() == Kind.CODE && READS.matcher(p.text()).find()) {
                // a filter over the table's own columns: a subquery would read other tables (and their filters)
                throw new IllegalArgumentException("a row filter reads only its table's own columns; it holds no subquery");
            }
            if (p.kind() == Kind.PLACEHOLDER) {
                names.add(p.attribute());
            }
        }
        this.predicate = predicate;
        this.pieces = List.copyOf(split);
        this.placeholders = List.copyOf(names);
        this.attributes = Collections.unmodifiableSet(new LinkedHashSet<>(names));
    }

    /** The predicate as configured. */
    public String predicate() {
        return predicate;
    }

    /** The attribute names in the order their placeholders appear (a name used twice appears twice). Immutable. */
    public List<String> placeholders() {
        return placeholders;
    }

    /** The distinct attributes the filter needs, in first-use order. Immutable. */
    public Set<String> attributes() {
        return attributes;
    }

    /**
     * The predicate with each placeholder replaced by {@code marker.apply(attribute)} (an engine's
     * parameter marker), and the rest of the text unchanged.
     */
    public String render(Function<String, String> marker) {
        StringBuilder out = new StringBuilder(predicate.length() + 16);
        for (Piece p : pieces) {
            out.append(p.kind() == Kind.PLACEHOLDER ? marker.apply(p.attribute()) : p.text());
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowFilter f && f.predicate.equals(predicate);
    }

    @Override
    public int hashCode() {
        return predicate.hashCode();
    }

    @Override
    public String toString() {
        return "RowFilter[predicate=" + predicate + "]";
    }

    private enum Kind { CODE, QUOTED, PLACEHOLDER }

    /** A run of code or of quoted text, or one placeholder ({@code attribute}: its name in lower case). */
    private record Piece(Kind kind, String text, String attribute) {
    }

    private static boolean codeHolds(List<Piece> pieces, char c) {
        return pieces.stream().anyMatch(p -> p.kind() == Kind.CODE && p.text().indexOf(c) >= 0);
    }

    /** Splits the text into code, quoted runs and placeholders; only code holds placeholders. */
    private static List<Piece> pieces(String sql) {
        List<Piece> out = new ArrayList<>();
        StringBuilder code = new StringBuilder();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = closing(sql, i, c);
                flush(out, code);
                out.add(new Piece(Kind.QUOTED, sql.substring(i, end), null));
                i = end;
            } else if ((c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') || (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*')
                    || c == '#') {
                throw new IllegalArgumentException("a row filter holds no comments");
            } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                code.append("::");
                i += 2;
            } else if (c == ':' && i + 1 < n && isStart(sql.charAt(i + 1)) && (i == 0 || !isPart(sql.charAt(i - 1)))) {
                int end = i + 1;
                while (end < n && isPart(sql.charAt(end))) {
                    end++;
                }
                flush(out, code);
                out.add(new Piece(Kind.PLACEHOLDER, sql.substring(i, end), Names.fold(sql.substring(i + 1, end))));
                i = end;
            } else {
                code.append(c);
                i++;
            }
        }
        flush(out, code);
        return out;
    }

    private static void flush(List<Piece> out, StringBuilder code) {
        if (code.length() > 0) {
            out.add(new Piece(Kind.CODE, code.toString(), null));
            code.setLength(0);
        }
    }

    /** The index just past the quote closing the run at {@code start} ({@link QuotedRuns}); the run holds no backslash. */
    private static int closing(String sql, int start, char quote) {
        int end = QuotedRuns.end(sql, start, quote);
        if (sql.substring(start, end < 0 ? sql.length() : end).indexOf('\\') >= 0) {
            throw new IllegalArgumentException("a row filter's quoted text holds no backslash");
        }
        if (end < 0) {
            throw new IllegalArgumentException("a row filter has an unclosed quote");
        }
        return end;
    }

    private static boolean isStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isPart(char c) {
        return isStart(c) || (c >= '0' && c <= '9');
    }
}
