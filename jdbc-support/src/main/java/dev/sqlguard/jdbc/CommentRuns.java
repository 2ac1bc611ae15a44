package dev.sqlguard.jdbc;

/**
 * The end of a comment in SQL text: {@code --} to the end of its line, or a block comment to its
 * first {@code *}{@code /}. Used by the scanners that step over comments without reading them (the
 * kit's and MySQL's quoting of keyword-named columns), as {@link dev.sqlguard.domain.QuotedRuns} ends
 * their quoted runs. It judges nothing: the text has passed the engine's {@link LexicalCheck}, which
 * refuses the comments a server reads otherwise (nested, executable, ended by a bare carriage return).
 */
public final class CommentRuns {
    private CommentRuns() {
    }

    /**
     * @param text the SQL text
     * @param start an index of the text
     * @return the index just past the comment that opens at {@code start} (past the line break that ends
     *         a line comment), the text's length when the text ends inside it, or {@code start} itself
     *         when no comment opens there
     */
    public static int end(String text, int start) {
        int n = text.length();
        if (start + 1 >= n) {
            return start;
        }
        char c = text.charAt(start);
        char next = text.charAt(start + 1);
        if (c == '-' && next == '-') {
            int end = text.indexOf('\n', start);
            return end < 0 ? n : end + 1;
        }
        if (c == '/' && next == '*') {
            int end = text.indexOf("*/", start + 2);
            return end < 0 ? n : end + 2;
        }
        return start;
    }
}
