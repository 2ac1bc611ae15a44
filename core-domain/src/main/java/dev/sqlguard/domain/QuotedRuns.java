package dev.sqlguard.domain;

/**
 * The end of a quoted run in SQL text: a string literal ({@code '...'}) or a quoted name ({@code "..."},
 * {@code `...`}) in which a doubled quote ({@code ''}, {@code ""}) stands for one quote character and does not
 * close the run. Backslashes get no meaning here: a caller that must refuse them looks at the run itself.
 * Used by every scanner that has to step over quoted runs the same way ({@link RowFilter}, the JDBC
 * adapters' renaming of hidden names, MySQL's reading of CONVERT and CAST types).
 */
public final class QuotedRuns {
    private QuotedRuns() {
    }

    /**
     * @param text the SQL text
     * @param start the index of the opening quote
     * @param quote the quote character ({@code '}, {@code "} or {@code `})
     * @return the index just past the quote that closes the run opened at {@code start}, or {@code -1} when the
     *         text ends before the run is closed
     * @throws IllegalArgumentException when {@code start} does not hold {@code quote}
     */
    public static int end(String text, int start, char quote) {
        if (start < 0 || start >= text.length() || text.charAt(start) != quote) {
            throw new IllegalArgumentException("no " + quote + " at index " + start);
        }
        int i = start + 1;
        int n = text.length();
        while (i < n) {
            if (text.charAt(i) == quote) {
                if (i + 1 < n && text.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return -1;
    }
}
