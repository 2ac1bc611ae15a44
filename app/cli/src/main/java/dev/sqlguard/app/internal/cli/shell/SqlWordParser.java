package dev.sqlguard.app.internal.cli.shell;

import java.util.ArrayList;
import java.util.List;

import org.jline.reader.CompletingParsedLine;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;

/**
 * Splits a line into the words completion works on: a name, possibly qualified ({@code claims.reg}),
 * or a meta-command ({@code \d}, {@code .tables}); everything else separates words, so
 * {@code count(claims.am} completes {@code claims.am}. Every line is accepted as typed: the shell
 * itself decides where a statement ends ({@link StatementBuffer}).
 */
final class SqlWordParser implements Parser {
    static boolean wordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '$' || c == '\\';
    }

    @Override
    public ParsedLine parse(String line, int cursor, ParseContext context) {
        List<String> words = new ArrayList<>();
        int wordIndex = -1;
        int wordCursor = 0;
        int i = 0;
        while (i < line.length()) {
            if (!wordChar(line.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            while (i < line.length() && wordChar(line.charAt(i))) {
                i++;
            }
            if (cursor >= start && cursor <= i) {
                wordIndex = words.size();
                wordCursor = cursor - start;
            }
            words.add(line.substring(start, i));
        }
        if (wordIndex < 0) {
            // the cursor is between words: complete an empty word there
            int at = 0;
            for (int k = 0; k < cursor && k < line.length(); k++) {
                if (wordChar(line.charAt(k)) && (k == 0 || !wordChar(line.charAt(k - 1)))) {
                    at++;
                }
            }
            words.add(at, "");
            wordIndex = at;
            wordCursor = 0;
        }
        return new Parsed(line, cursor, List.copyOf(words), wordIndex, wordCursor);
    }

    /** Names are completed as written: nothing is escaped or quoted. */
    private record Parsed(String line, int cursor, List<String> words, int wordIndex, int wordCursor)
            implements CompletingParsedLine {
        @Override
        public String word() {
            return words.get(wordIndex);
        }

        @Override
        public CharSequence escape(CharSequence candidate, boolean complete) {
            return candidate;
        }

        @Override
        public int rawWordCursor() {
            return wordCursor;
        }

        @Override
        public int rawWordLength() {
            return word().length();
        }
    }
}
