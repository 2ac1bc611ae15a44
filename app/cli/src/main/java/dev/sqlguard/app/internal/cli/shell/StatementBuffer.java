package dev.sqlguard.app.internal.cli.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the lines a person types into statements: a statement ends at a {@code ;} outside
 * quotes ({@code '...'}, {@code "..."}, {@code `...`}, PostgreSQL's {@code $tag$...$tag$}) and
 * comments ({@code -- ...}, {@code /* ... *}{@code /}), as psql and the DuckDB CLI end them. Several
 * statements on one line come out in order; what follows the last {@code ;} waits for more lines.
 * Only where statements end is decided here: each one is then checked by the engine's own parser
 * like any query, so a misjudged end can only make a query be refused, never run unchecked.
 */
public final class StatementBuffer {
    private final StringBuilder text = new StringBuilder();
    /** Where the scan stopped, and in which state. */
    private int scanned;
    private char quote;
    private boolean lineComment;
    private int blockDepth;
    private String dollarTag;

    /** Adds one line (without its line break) and returns the statements it completed, without their {@code ;}. */
    public List<String> add(String line) {
        if (text.length() > 0) {
            text.append('\n');
        }
        text.append(line);
        List<String> done = new ArrayList<>();
        int start = 0;
        int i = scanned;
        while (i < text.length()) {
            char c = text.charAt(i);
            char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
            if (lineComment) {
                if (c == '\n') {
                    lineComment = false;
                }
            } else if (blockDepth > 0) {
                if (c == '*' && next == '/') {
                    blockDepth--;
                    i++;
                } else if (c == '/' && next == '*') {
                    blockDepth++;
                    i++;
                }
            } else if (dollarTag != null) {
                if (text.indexOf(dollarTag, i) == i) {
                    i += dollarTag.length() - 1;
                    dollarTag = null;
                }
            } else if (quote != 0) {
                if (c == quote) {
                    if (next == quote) {
                        i++; // a doubled quote stays inside
                    } else {
                        quote = 0;
                    }
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '-' && next == '-') {
                lineComment = true;
                i++;
            } else if (c == '/' && next == '*') {
                blockDepth = 1;
                i++;
            } else if (c == '$' && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)))) {
                int end = i + 1;
                while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
                    end++;
                }
                if (end < text.length() && text.charAt(end) == '$' && (end == i + 1 || !Character.isDigit(text.charAt(i + 1)))) {
                    dollarTag = text.substring(i, end + 1);
                    i = end;
                }
            } else if (c == ';') {
                String statement = text.substring(start, i).strip();
                if (!statement.isEmpty()) {
                    done.add(statement);
                }
                start = i + 1;
            }
            i++;
        }
        if (start > 0) {
            String rest = text.substring(start);
            text.setLength(0);
            text.append(rest.isBlank() ? "" : rest.stripLeading());
            i = text.length();
        }
        scanned = i;
        return done;
    }

    /** Whether no part of a statement is waiting for its end (blanks and comments are no statement). */
    public boolean isEmpty() {
        return !insideQuote() && withoutComments(text.toString()).isBlank();
    }

    /** Whether the text so far ends inside a quote or a block comment. */
    public boolean insideQuote() {
        return quote != 0 || blockDepth > 0 || dollarTag != null;
    }

    /** Takes what is waiting (a statement never ended with {@code ;}, or an empty text) and empties the buffer. */
    public String drain() {
        String rest = isEmpty() ? "" : text.toString().strip();
        clear();
        return rest;
    }

    /** The text with {@code --} and block comments removed, outside quotes. */
    static String withoutComments(String text) {
        StringBuilder out = new StringBuilder(text.length());
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
            if (quote != 0) {
                out.append(c);
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
                out.append(c);
            } else if (c == '-' && next == '-') {
                int end = text.indexOf('\n', i);
                i = end < 0 ? text.length() : end - 1;
            } else if (c == '/' && next == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? text.length() : end + 1;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    public void clear() {
        text.setLength(0);
        scanned = 0;
        quote = 0;
        lineComment = false;
        blockDepth = 0;
        dollarTag = null;
    }
}
